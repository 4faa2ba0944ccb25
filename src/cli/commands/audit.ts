/** `mcp-shape audit`: connects to a live server, over stdio or HTTP, and audits what it sends. */

import { readFileSync, statSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { StartError } from '../../audit/channel.js';
import { killAll } from '../../audit/children.js';
import { type AuditTarget, DEFAULTS, runAudit } from '../../audit/run.js';
import { placeFindings, registrationIndex } from '../../audit/source-locations.js';
import { isObject, type JsonObject } from '../../core/json.js';
import { systemErrorWords } from '../../core/system-error.js';
import type { Report } from '../../report/index.js';
import { terminalSafe } from '../../report/terminal.js';
import { type ProtocolVersion, parseProtocolVersion } from '../../spec/versions.js';
import { EXIT, UsageError, UserError } from '../errors.js';
import { formatHelp, formatOption, PROTOCOL_HELP, protocolOption } from '../options.js';
import { addPolicyOptions, finishReport, type PolicyFlags } from '../policy.js';

/** Repeatable options have no default: commander would print "(default: [])" in --help. */
interface AuditFlags extends PolicyFlags {
  url?: string;
  header?: string[];
  protocol?: ProtocolVersion[];
  call?: string[];
  callAll?: boolean;
  args?: string;
  maxCallsPerTool: number;
  timeout: number;
  maxResponseSize: number;
  source?: string;
}

function collect<T>(parse: (value: string) => T) {
  return (value: string, previous: T[] | undefined): T[] => [...(previous ?? []), parse(value)];
}

function positiveInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive integer');
  return n;
}

function seconds(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a number of seconds > 0');
  return n;
}

const SIZE_UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1024,
  kb: 1024,
  kib: 1024,
  m: 1024 ** 2,
  mb: 1024 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1024 ** 3,
  gib: 1024 ** 3,
};

export function parseSize(value: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(value);
  const unit = SIZE_UNITS[(match?.[2] ?? '').toLowerCase()];
  if (!match || unit === undefined)
    throw new InvalidArgumentError('expected a size such as 16MiB, 512k or 1048576');
  return Math.floor(Number(match[1]) * unit);
}

/** --args FILE: `{ "tool": [ {args}, … ] }`; a single object stands for a one-call list. */
export function loadArgsFile(path: string): Map<string, JsonObject[]> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UserError(`${systemErrorWords(error)}: ${path} (--args)`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UserError(`--args ${path} is not JSON: ${(error as Error).message}`);
  }
  if (!isObject(value))
    throw new UserError(`--args ${path} must be an object of tool name → list of argument objects`);
  const args = new Map<string, JsonObject[]>();
  for (const [name, list] of Object.entries(value)) {
    const calls = Array.isArray(list) ? list : [list];
    if (calls.length === 0 || !calls.every(isObject)) {
      throw new UserError(`--args ${path}: "${name}" must be a list of argument objects`);
    }
    args.set(name, calls as JsonObject[]);
  }
  return args;
}

/** A live status line on stderr, only when it is a terminal. */
function progressLine(): { update(text: string): void; clear(): void } {
  const tty = process.stderr.isTTY === true;
  let shown = false;
  return {
    update(text) {
      if (!tty) return;
      // A terminal that reports no size (0 columns, as under `script` or some CI runners) gets 80.
      const width = Math.max(20, (process.stderr.columns || 80) - 1);
      process.stderr.write(`\r\x1b[K${`mcp-shape audit: ${text}`.slice(0, width)}`);
      shown = true;
    },
    clear() {
      if (shown) process.stderr.write('\r\x1b[K');
      shown = false;
    },
  };
}

export function auditCommand(): Command {
  const command = new Command('audit')
    .description(
      'Audit a live MCP server: every protocol version it accepts, its tools, and what its tools return.',
    )
    .usage('[options] -- <command> [args...]  |  --url URL [--header "Name: value"]...')
    .argument('[server...]', 'command that starts a stdio server (put it after --)')
    .option(
      '--url <url>',
      'audit a server over Streamable HTTP (falls back to the 2024-11-05 HTTP+SSE transport)',
    )
    .option(
      '--header <header>',
      'HTTP header "Name: value" to send with every request (repeatable)',
      collect(String),
    )
    .addOption(
      new Option('--protocol <version>', `audit only this version (repeatable); ${PROTOCOL_HELP}`).argParser(
        collect(protocolOption),
      ),
    )
    .option(
      '--call <name>',
      'also call this tool even if it is not annotated readOnlyHint: true (repeatable)',
      collect(String),
    )
    .option('--call-all', 'call every tool, including ones that may change data')
    .option(
      '--args <file>',
      'JSON file: tool name → list of argument objects; listed tools are called with them',
    )
    .addOption(
      new Option('--max-calls-per-tool <n>', 'calls per tool when exploring enum and boolean parameters')
        .argParser(positiveInteger)
        .default(DEFAULTS.maxCallsPerTool),
    )
    .addOption(
      new Option('--timeout <seconds>', 'timeout of each request')
        .argParser(seconds)
        .default(DEFAULTS.timeoutMs / 1000),
    )
    .addOption(
      new Option('--max-response-size <size>', 'largest response read (e.g. 16MiB); larger ones are findings')
        .argParser(parseSize)
        .default(DEFAULTS.maxResponseBytes, '16MiB'),
    )
    .addOption(new Option('--format <format>', formatHelp()).argParser(formatOption).default('text'))
    .option('--out <file>', 'write the report to a file instead of standard output')
    .option(
      '--source <dir>',
      "the server's source: place findings at each tool's registration line (for SARIF code scanning)",
    );
  return addPolicyOptions(command, 'audit', {
    protocol: { option: 'protocol', convert: (v: string[]) => v.map((p) => parseProtocolVersion(p)) },
    call: { option: 'call' },
    callAll: { option: 'callAll' },
    args: { option: 'args' },
    // Until audit has an --explore switch, exploring is what --max-calls-per-tool > 1 does.
    explore: {
      option: 'maxCallsPerTool',
      convert: (v: boolean) => (v ? DEFAULTS.maxCallsPerTool : 1),
    },
    source: { option: 'source' },
  })
    .addHelpText(
      'after',
      `
Only tools annotated readOnlyHint: true are called unless --call, --call-all or --args says otherwise.
Arguments not given in --args are synthesized from each tool's inputSchema and checked before sending.

SARIF: audit findings name a tool, not a source line, so without --source DIR the SARIF is for
archives, not GitHub code scanning. With it, findings about a tool are placed at the line that
registers the tool (found as mcp-shape scan finds handlers); findings about the whole server keep
their logical location only.

Exit codes: 0 nothing at or above --fail-on (default: error), 1 findings at or above it,
            2 usage error, 3 the server could not be started (stdio) or reached (HTTP).`,
    )
    .action(async (server: string[], flags: AuditFlags, self: Command) => {
      process.exitCode = await audit(server, flags, self);
    });
}

function checkSourceDir(dir: string | undefined): void {
  if (dir === undefined) return;
  let isDirectory = false;
  try {
    isDirectory = statSync(dir).isDirectory();
  } catch {
    throw new UserError(`--source ${dir}: no such directory`);
  }
  if (!isDirectory) throw new UserError(`--source ${dir}: not a directory`);
}

/** With --source, findings about a tool move to its registration line. */
async function placedAtSource(report: Report, dir: string | undefined): Promise<Report> {
  if (dir === undefined) return report;
  const { report: placed, unmatched } = placeFindings(report, await registrationIndex(dir));
  if (unmatched.length > 0) {
    process.stderr.write(
      `mcp-shape: --source ${dir}: no registration found for ${unmatched.length === 1 ? 'tool' : 'tools'} ${terminalSafe(unmatched.join(', '))}\n`,
    );
  }
  return placed;
}

function targetOf(server: readonly string[], flags: AuditFlags): AuditTarget {
  if (flags.url && server.length > 0)
    throw new UsageError('give either --url or a command after --, not both');
  if (flags.url) {
    try {
      new URL(flags.url);
    } catch {
      throw new UsageError(`--url ${flags.url} is not a URL`);
    }
    const headers = flags.header ?? [];
    for (const h of headers)
      if (h.indexOf(':') <= 0) throw new UsageError(`--header "${h}" is not "Name: value"`);
    return { kind: 'http', url: flags.url, headers };
  }
  if (flags.header) throw new UsageError('--header applies to --url; a stdio server gets no HTTP headers');
  const [command, ...args] = server;
  if (!command) throw new UsageError('nothing to audit: give a server command after -- or --url URL');
  return { kind: 'stdio', command, args };
}

async function audit(server: string[], flags: AuditFlags, self: Command): Promise<number> {
  const target = targetOf(server, flags);
  checkSourceDir(flags.source);
  const args = flags.args ? loadArgsFile(flags.args) : undefined;
  const progress = progressLine();
  // Servers run in their own process groups, so Ctrl-C does not reach them: stop them ourselves.
  const onSigint = () => {
    progress.clear();
    void killAll().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSigint);
  process.once('SIGTERM', onSigint);
  let report: Report;
  try {
    report = await runAudit({
      target,
      versions: flags.protocol ? [...new Set(flags.protocol)] : undefined,
      call: flags.call ?? [],
      callAll: flags.callAll ?? false,
      args,
      maxCallsPerTool: flags.maxCallsPerTool,
      timeoutMs: Math.round(flags.timeout * 1000),
      maxResponseBytes: flags.maxResponseSize,
      progress: (text) => progress.update(text),
    });
  } catch (error) {
    if (error instanceof StartError) {
      // The message says which: "could not start …" (stdio) or "could not reach …" (HTTP).
      throw new UserError(error.message, EXIT.unreachable);
    }
    throw error;
  } finally {
    progress.clear();
    process.removeListener('SIGINT', onSigint);
    process.removeListener('SIGTERM', onSigint);
  }
  report = await placedAtSource(report, flags.source);
  return finishReport(self, report, { ...(flags.source ? { anchor: flags.source } : {}) });
}
