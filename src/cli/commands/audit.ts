/** `mcp-shape audit`: connects to a live server, over stdio or HTTP, and audits what it sends. */

import { closeSync, openSync, statSync, writeSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { StartError } from '../../audit/channel.js';
import { killAll } from '../../audit/children.js';
import {
  type AuditTarget,
  DEFAULTS,
  HARD_CAP_FACTOR,
  runAudit,
  type VersionDetail,
} from '../../audit/run.js';
import { placeFindings, registrationIndex } from '../../audit/source-locations.js';
import { isObject, type JsonObject } from '../../core/json.js';
import { type RecordedFrame, recordingLine } from '../../core/recording.js';
import { systemErrorWords } from '../../core/system-error.js';
import { readTextFile } from '../../io/read-text.js';
import type { Report } from '../../report/index.js';
import { oneLine, terminalSafe } from '../../report/terminal.js';
import { type ProtocolVersion, parseProtocolVersion } from '../../spec/versions.js';
import { EXIT, UsageError, UserError } from '../errors.js';
import { formatHelp, formatOption, MAX_TIMER_SECONDS, PROTOCOL_HELP, protocolOption } from '../options.js';
import { fileOnly } from '../output.js';
import { addPolicyOptions, finishReport, type PolicyFlags } from '../policy.js';

/** Repeatable options have no default: commander would print "(default: [])" in --help. */
interface AuditFlags extends PolicyFlags {
  url?: string;
  header?: string[];
  protocol?: ProtocolVersion[];
  call?: string[];
  callAll?: boolean;
  args?: string;
  explore?: boolean;
  record?: string;
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

/** The audit waits at most HARD_CAP_FACTOR times `--timeout` for a busy server: that wait must fit a timer too. */
const MAX_TIMEOUT_SECONDS = Math.floor(MAX_TIMER_SECONDS / HARD_CAP_FACTOR);

function seconds(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a number of seconds > 0');
  if (n > MAX_TIMEOUT_SECONDS)
    throw new InvalidArgumentError(
      `expected at most ${MAX_TIMEOUT_SECONDS} seconds (four times that is the longest wait a timer holds)`,
    );
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
    text = readTextFile(path);
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
    throw new UserError(
      `--args ${path} must be an object of tool name → list of argument objects (or one object)`,
    );
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

/**
 * A live status line on stderr, only when it is a terminal. The text names tools the server chose,
 * so it is escaped like any untrusted text; only our own `\r\x1b[K` moves the cursor.
 */
export function progressLine(
  stream: { isTTY?: boolean; columns?: number; write(text: string): unknown } = process.stderr,
): { update(text: string): void; clear(): void } {
  const tty = stream.isTTY === true;
  let shown = false;
  return {
    update(text) {
      if (!tty) return;
      // A terminal that reports no size (0 columns, as under `script` or some CI runners) gets 80.
      const width = Math.max(20, (stream.columns || 80) - 1);
      stream.write(`\r\x1b[K${oneLine(`mcp-shape audit: ${text}`, { width })}`);
      shown = true;
    },
    clear() {
      if (shown) stream.write('\r\x1b[K');
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
      'also call this tool, with consent and mutation values allowed in its arguments (repeatable)',
      collect(String),
    )
    .option(
      '--call-all',
      'call every tool, including ones that may change data (not one whose annotations contradict themselves)',
    )
    .option(
      '--args <file>',
      'JSON file: tool name → list of argument objects (or one object); listed tools are called with each',
    )
    .option('--explore', 'explore enum and boolean parameters: up to --max-calls-per-tool calls per tool')
    .addOption(
      new Option('--max-calls-per-tool <n>', 'with --explore, the most calls per tool')
        .argParser(positiveInteger)
        .default(DEFAULTS.maxCallsPerTool),
    )
    .addOption(
      new Option(
        '--timeout <seconds>',
        'how long a request may go without a byte from the server (the wait ends at 4× this in all)',
      )
        .argParser(seconds)
        .default(DEFAULTS.timeoutMs / 1000),
    )
    .addOption(
      new Option('--max-response-size <size>', 'largest response read (e.g. 16MiB); larger ones are findings')
        .argParser(parseSize)
        .default(DEFAULTS.maxResponseBytes, '16MiB'),
    )
    .addOption(new Option('--format <format>', formatHelp()).argParser(formatOption).default('text'))
    .option('--out <file>', 'write the report to a file instead of standard output (- is standard output)')
    .option('--record <file>', 'write every frame of the session, both ways, as JSONL that `check` reads')
    .option(
      '--source <dir>',
      "the server's source: place findings at each tool's registration line (for SARIF code scanning)",
    );
  return addPolicyOptions(command, 'audit', {
    protocol: { option: 'protocol', convert: (v: string[]) => v.map((p) => parseProtocolVersion(p)) },
    call: { option: 'call' },
    callAll: { option: 'callAll' },
    args: { option: 'args' },
    explore: { option: 'explore' },
    source: { option: 'source' },
  })
    .addHelpText(
      'after',
      `
Which tools are called:
  - by default, tools annotated readOnlyHint: true whose destructiveHint is not true;
  - --call NAME and --args add the tools they name; --call-all adds every tool except one annotated
    both readOnlyHint: true and destructiveHint: true (it contradicts itself: name it to call it).
  Every other tool is listed as not called, with the reason.
How they are called:
  - once per tool and version, with the arguments from --args (one call per object), or else with
    the required parameters only, from const, default, examples, enum or the smallest valid value;
  - with --explore, up to --max-calls-per-tool calls, trying other enum and boolean values;
  - unless --call names the tool, never true for a boolean named like consent or force (confirm,
    force, yes, overwrite, delete, purge, approve, …), always true for one named like a dry run
    (dry_run, preview, simulate, …), and never an enum or const value that names a mutation (set,
    delete, create, update, write, apply, …); a tool whose required parameter has no other value
    is not called.

SARIF: audit findings name a tool, not a source line, so without --source DIR the SARIF is for
archives, not GitHub code scanning. With it, findings about a tool are placed at the line that
registers the tool (found as mcp-shape scan finds handlers); findings about the whole server keep
their logical location only.

Exit codes: 0 nothing at or above --fail-on (default: error), 1 findings at or above it,
            2 usage error (also, after the report, a tool --call or --args names that the server
            lists in no version), 3 the server could not be started (stdio) or reached (HTTP), or
            refused every protocol version asked.`,
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
    let url: URL;
    try {
      url = new URL(flags.url);
    } catch {
      throw new UsageError(`--url ${flags.url} is not a URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new UsageError(`--url ${flags.url} is not an http: or https: URL`);
    const headers = flags.header ?? [];
    for (const h of headers) headerCheck(h);
    return { kind: 'http', url: flags.url, headers };
  }
  if (flags.header) throw new UsageError('--header applies to --url; a stdio server gets no HTTP headers');
  const [command, ...args] = server;
  if (!command) throw new UsageError('nothing to audit: give a server command after -- or --url URL');
  return { kind: 'stdio', command, args };
}

/**
 * A `--header` fetch() can send: `Name: value`, the name a token and the value free of line breaks
 * (Headers refuses them when the audit starts, which read as the server being unreachable).
 */
function headerCheck(header: string): void {
  const colon = header.indexOf(':');
  if (colon <= 0) throw new UsageError(`--header "${header}" is not "Name: value"`);
  try {
    new Headers().append(header.slice(0, colon).trim(), header.slice(colon + 1).trim());
  } catch {
    throw new UsageError(
      `--header "${header}" has a name or value HTTP cannot carry (a space, a line break)`,
    );
  }
}

/**
 * Opens --record FILE for writing before the audit starts, so a bad path is a usage error. A write
 * that fails later (a full disk) stops the recording, not the audit: `failure` says why, once the
 * report is out. It threw out of the session, an internal error with the servers' requests unsent.
 */
function recorder(path: string | undefined): {
  record?: (entry: RecordedFrame) => void;
  close(): void;
  failure(): UserError | undefined;
} {
  if (path === undefined) return { close() {}, failure: () => undefined };
  fileOnly('--record', path, 'the report');
  let fd: number;
  try {
    fd = openSync(path, 'w');
  } catch (error) {
    throw new UserError(`${systemErrorWords(error)}: ${path} (--record)`);
  }
  let failed: unknown;
  let frames = 0;
  return {
    // Synchronous writes keep the frames in the order they were seen, whatever else is going on.
    record: (entry) => {
      if (failed !== undefined) return;
      try {
        writeSync(fd, recordingLine(entry));
        frames++;
      } catch (error) {
        failed = error;
      }
    },
    close: () => closeSync(fd),
    failure: () =>
      failed === undefined
        ? undefined
        : new UserError(
            `${systemErrorWords(failed)}: ${path} (--record): the recording stops after ${frames} frame${frames === 1 ? '' : 's'}`,
          ),
  };
}

/**
 * The one-line reason, and under it the last 20 lines of what the server wrote to stderr: the cause of
 * a failed start (a missing module, a bad flag) is usually above the last line.
 */
function startFailure(error: StartError): UserError {
  const tail = error.stderr
    .trimEnd()
    .split('\n')
    .slice(-20)
    .filter((l) => l.trim() !== '');
  const detail =
    tail.length === 0
      ? []
      : [
          `server stderr (last ${tail.length === 1 ? 'line' : `${tail.length} lines`}):`,
          ...tail.map((l) => `| ${l}`),
        ];
  return new UserError(error.message, EXIT.unreachable, detail);
}

/**
 * An audit that audited no version (the server refused every one asked) checked nothing a client would
 * meet, as no client can connect: it ends as a server that could not be reached does, not as a clean
 * audit ("0 errors in 0 calls across 0 versions", exit 0).
 */
function nothingAudited(report: Report): UserError | undefined {
  if (report.summary.versionsAudited !== 0) return undefined;
  const versions = (report.details?.versions ?? []) as readonly VersionDetail[];
  const why = versions.every((v) => v.status === 'refused')
    ? 'it refused every protocol version asked, so no client can connect'
    : 'no protocol version asked could be audited';
  return new UserError(
    `could not audit ${oneLine(String(report.details?.target), { width: 120 })}: ${why}`,
    EXIT.unreachable,
    versions.map((v) => `${v.requested}: ${v.detail ?? v.status}`),
  );
}

/** The signals that end an audit, with the exit code each gives. */
const STOP_SIGNALS: readonly [NodeJS.Signals, number][] = [
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
];

async function audit(server: string[], flags: AuditFlags, self: Command): Promise<number> {
  const target = targetOf(server, flags);
  checkSourceDir(flags.source);
  const args = flags.args ? loadArgsFile(flags.args) : undefined;
  const recording = recorder(flags.record);
  const progress = progressLine();
  // Servers run in their own process groups, so Ctrl-C (or a closed terminal) does not reach them: stop
  // them ourselves, then exit as the signal would have (128 + its number).
  const stopping: Record<string, () => void> = {};
  for (const [signal, code] of STOP_SIGNALS) {
    stopping[signal] = () => {
      progress.clear();
      void killAll().finally(() => process.exit(code));
    };
    process.once(signal, stopping[signal]);
  }
  let report: Report;
  try {
    report = await runAudit({
      target,
      versions: flags.protocol ? [...new Set(flags.protocol)] : undefined,
      call: flags.call ?? [],
      callAll: flags.callAll ?? false,
      args,
      explore: flags.explore ?? false,
      maxCallsPerTool: flags.maxCallsPerTool,
      timeoutMs: Math.round(flags.timeout * 1000),
      maxResponseBytes: flags.maxResponseSize,
      progress: (text) => progress.update(text),
      ...(recording.record ? { record: recording.record } : {}),
    });
  } catch (error) {
    if (error instanceof StartError) {
      // The message says which: "could not start …" (stdio) or "could not reach …" (HTTP).
      throw startFailure(error);
    }
    throw error;
  } finally {
    recording.close();
    progress.clear();
    for (const [signal] of STOP_SIGNALS) process.removeListener(signal, stopping[signal] as () => void);
  }
  const nothing = nothingAudited(report);
  if (nothing) throw nothing;
  report = await placedAtSource(report, flags.source);
  const code = finishReport(self, report, { ...(flags.source ? { anchor: flags.source } : {}) });
  const failure = recording.failure();
  if (failure) throw failure;
  // A tool --call or --args names was never called: what the run was asked to check, it did not.
  const unknown = (report.details?.unknownTools ?? []) as readonly string[];
  if (unknown.length > 0) {
    const names =
      unknown.length === 1 ? unknown[0] : `${unknown.slice(0, -1).join(', ')} or ${unknown.at(-1)}`;
    throw new UserError(`the server lists no tool named ${names}, which --call or --args asked to call`);
  }
  return code;
}
