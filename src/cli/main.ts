/** The `mcp-shape` command line. Each command lives in commands/<name>.ts and is registered here. */

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command, CommanderError } from 'commander';
import { detailLines, EXIT, errorLine, UsageError, UserError } from './errors.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/** Where a command-line mistake happened: the command whose `--help` the error line points to. */
export interface ErrorContext {
  command?: Command;
}

/** The name of the command whose action has started (not one that only printed its help), if any. */
let started: string | undefined;

/** The command that is running: `bin.ts` says why it stops when standard output closes under the proxy. */
export function startedCommand(): string | undefined {
  return started;
}

/**
 * The commands, in the order `--help` lists them, each imported only when it is built: `check` then
 * loads neither the TS/JS and Python parsers of `scan` nor the proxy's and the audit's transports,
 * which were a quarter of its start-up.
 */
const COMMANDS: Readonly<Record<string, () => Promise<Command>>> = {
  check: async () => (await import('./commands/check.js')).checkCommand(),
  audit: async () => (await import('./commands/audit.js')).auditCommand(),
  scan: async () => (await import('./commands/scan.js')).scanCommand(),
  repair: async () => (await import('./commands/repair.js')).repairCommand(),
  proxy: async () => (await import('./commands/proxy.js')).proxyCommand(),
};

/**
 * The program with every command, or with `only` the one named (what `mcp-shape <command> …` runs; the
 * top level's help, its errors and its suggestions for a mistyped command need them all).
 */
export async function buildProgram(context: ErrorContext = {}, only?: string): Promise<Command> {
  const program = new Command('mcp-shape')
    .description('Find and fix MCP tool results that clients reject.')
    .version(version);
  const names = only !== undefined && Object.hasOwn(COMMANDS, only) ? [only] : Object.keys(COMMANDS);
  for (const command of await Promise.all(
    names.map((name) => (COMMANDS[name] as () => Promise<Command>)()),
  )) {
    program.addCommand(command);
  }
  program.hook('preAction', (_program, action) => {
    context.command = action;
    noEmptyValues(action);
    outputsApart(action);
    started = action.name();
  });
  // addCommand() does not pass settings down, so every command gets the same error handling here:
  // commander throws instead of exiting, and prints nothing itself; main() writes the one line.
  for (const command of [program, ...program.commands]) {
    command.exitOverride().configureOutput({
      outputError: () => {
        context.command = command;
      },
      // Only the help commander prints for `mcp-shape` without a command goes here.
      writeErr: () => {},
    });
  }
  return program;
}

/**
 * An option given an empty string (`--write-baseline ""`, as an unset shell variable leaves it): most
 * were taken for unset (no baseline written, no --tools read, exit 0), the others named the working
 * directory or a file called nothing.
 */
function noEmptyValues(command: Command): void {
  for (const option of command.options) {
    const key = option.attributeName();
    if (command.getOptionValueSource(key) !== 'cli') continue;
    const value: unknown = command.getOptionValue(key);
    if (value === '' || (Array.isArray(value) && value.includes(''))) {
      throw new UsageError(`${option.long ?? option.flags} takes a value, not an empty string`);
    }
  }
}

/**
 * Two outputs of one run written to one place: the one written last replaced the other without a word
 * (`--out r.json --write-baseline r.json`), or both went to standard output, one after the other, as
 * one document no reader parses (`--report json:-` beside the text report, `repair --report -` beside
 * the repaired document). Refused before the run: an audit may take minutes to get there.
 */
function outputsApart(command: Command): void {
  const name = command.name();
  const opts = command.opts() as Record<string, unknown>;
  const outputs: { option: string; file: string }[] = [];
  // `-` is standard output for these; `--record -` and the proxy's `--report -` are refused by the
  // command itself, with the reason (standard output carries the report or the client's messages).
  const add = (option: string, file: unknown, dashIsStdout: boolean) => {
    if (typeof file === 'string' && (file !== '-' || dashIsStdout)) outputs.push({ option, file });
  };
  if (name !== 'proxy') {
    add(
      opts.out === undefined ? (name === 'repair' ? 'the repaired document' : 'the report') : '--out',
      opts.out ?? '-',
      true,
    );
  }
  if (Array.isArray(opts.report)) {
    for (const target of opts.report as { format: string; file: string }[]) {
      add(`--report ${target.format}:${target.file}`, target.file, true);
    }
  } else add('--report', opts.report, name !== 'proxy');
  add('--write-baseline', opts.writeBaseline, true);
  add('--record', opts.record, false);
  const seen = new Map<string, string>();
  for (const { option, file } of outputs) {
    const where = file === '-' ? 'standard output' : resolve(file);
    const first = seen.get(where);
    if (first !== undefined) {
      throw new UsageError(
        `${first} and ${option} both write ${file === '-' ? 'standard output' : file}: give each its own file`,
      );
    }
    seen.set(where, option);
  }
}

function commandPath(command: Command | undefined): string {
  const names: string[] = [];
  for (let c: Command | null | undefined = command; c; c = c.parent) names.unshift(c.name());
  return names.length > 0 ? names.join(' ') : 'mcp-shape';
}

/** Commander's message ("error: unknown option '--x'\n(Did you mean --y?)") as the text of one line. */
function commanderText(error: CommanderError): string {
  if (error.code === 'commander.help') return 'no command given: check, audit, scan, repair or proxy';
  return error.message.replace(/^error: /, '');
}

export async function main(argv: readonly string[]): Promise<number> {
  const context: ErrorContext = {};
  const program = await buildProgram(context, argv[0]);
  try {
    await program.parseAsync(argv as string[], { from: 'user' });
    return process.exitCode === undefined ? EXIT.clean : Number(process.exitCode);
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end with exit code 0; everything else commander throws is a usage error.
      if (error.exitCode === 0) return EXIT.clean;
      process.stderr.write(errorLine(commanderText(error), commandPath(context.command ?? program)));
      return EXIT.usage;
    }
    if (error instanceof UserError) {
      const helpFor = error instanceof UsageError ? commandPath(context.command ?? program) : undefined;
      process.stderr.write(errorLine(error.message, helpFor) + detailLines(error.detail));
      return error.exitCode;
    }
    throw error;
  }
}
