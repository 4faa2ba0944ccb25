/** The `mcp-shape` command line. Each command lives in commands/<name>.ts and is registered here. */

import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { auditCommand } from './commands/audit.js';
import { checkCommand } from './commands/check.js';
import { proxyCommand } from './commands/proxy.js';
import { repairCommand } from './commands/repair.js';
import { scanCommand } from './commands/scan.js';
import { detailLines, EXIT, errorLine, UsageError, UserError } from './errors.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/** Where a command-line mistake happened: the command whose `--help` the error line points to. */
export interface ErrorContext {
  command?: Command;
}

export function buildProgram(context: ErrorContext = {}): Command {
  const program = new Command('mcp-shape')
    .description('Find and fix MCP tool results that clients reject.')
    .version(version);
  program.addCommand(checkCommand());
  program.addCommand(auditCommand());
  program.addCommand(scanCommand());
  program.addCommand(repairCommand());
  program.addCommand(proxyCommand());
  program.hook('preAction', (_program, action) => {
    context.command = action;
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
  const program = buildProgram(context);
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
