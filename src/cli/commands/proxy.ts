/**
 * `mcp-shape proxy -- <command> [args…]` or `mcp-shape proxy --url URL`: run a stdio server, or sit in
 * front of a Streamable HTTP server, behind a repairing proxy.
 */

import { Command, InvalidArgumentError, Option } from 'commander';
import { parseHeaders } from '../../audit/http-body.js';
import type { Finding } from '../../core/finding.js';
import { systemErrorWords } from '../../core/system-error.js';
import type { ProxyEvent } from '../../proxy/events.js';
import { MAX_HELD_FRAME_BYTES } from '../../proxy/frames.js';
import { type HttpProxyOptions, type RunningHttpProxy, startHttpProxy } from '../../proxy/http.js';
import { Recorder } from '../../proxy/record.js';
import { DEFAULT_GRACE_MS, ProxyStartError, runStdioProxy } from '../../proxy/stdio.js';
import { buildReport } from '../../report/build.js';
import { renderJson } from '../../report/json.js';
import { oneLine } from '../../report/terminal.js';
import { getRule } from '../../rules/catalog.js';
import { DEFAULT_PROTOCOL_VERSION, type ProtocolVersion } from '../../spec/versions.js';
import { EXIT, UsageError, UserError } from '../errors.js';
import { MAX_TIMER_SECONDS, PROTOCOL_HELP, protocolOption } from '../options.js';
import { fileOnly, writeOutput } from '../output.js';

interface ProxyFlags {
  url?: string;
  listen?: string;
  header?: string[];
  protocol?: ProtocolVersion;
  quiet?: boolean;
  report?: string;
  record?: string;
  grace?: number;
  timeout?: number;
  maxMessageMb?: number;
}

function seconds(name: string) {
  return (value: string): number => {
    const number = Number(value);
    if (value.trim() === '' || !Number.isFinite(number) || number < 0) {
      throw new InvalidArgumentError(`${name} takes a number of seconds, e.g. 2 or 0.5`);
    }
    if (number > MAX_TIMER_SECONDS)
      throw new InvalidArgumentError(
        `${name} takes at most ${MAX_TIMER_SECONDS} seconds, the longest a timer holds`,
      );
    return number;
  };
}

/** The most `--max-message-mb` takes: the longest text a string holds, in MB. */
const MOST_MEGABYTES = Math.floor(MAX_HELD_FRAME_BYTES / 2 ** 20);

function megabytes(value: string): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number <= 0 || number > MOST_MEGABYTES) {
    throw new InvalidArgumentError(
      `--max-message-mb takes a number of megabytes above 0 and at most ${MOST_MEGABYTES}, e.g. 64 or 0.5`,
    );
  }
  return number;
}

export function proxyCommand(): Command {
  return new Command('proxy')
    .description(
      'Run a stdio MCP server, or front a Streamable HTTP one, behind a proxy that repairs every message it sends, for servers you cannot change.',
    )
    .usage('[options] -- <command> [args...]  |  --url URL [--listen HOST:PORT] [--header "Name: value"]...')
    .argument('[server...]', 'command that starts the stdio server (put it after --)')
    .option('--url <url>', 'proxy the Streamable HTTP server at URL instead of a stdio server')
    .option(
      '--listen <host:port>',
      'with --url: where clients connect (path /mcp); default 127.0.0.1:0, an ephemeral port',
    )
    .option(
      '--header <header>',
      'with --url: HTTP header "Name: value" to send upstream with every request (repeatable)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      '--timeout <seconds>',
      'with --url: fail a request when the server sends nothing for this long (default: no limit)',
      seconds('--timeout'),
    )
    .option(
      '--grace <seconds>',
      `stdio: how long the server gets to exit after its input closes or a signal, before SIGTERM, then SIGKILL (default ${DEFAULT_GRACE_MS / 1000})`,
      seconds('--grace'),
    )
    .option(
      '--max-message-mb <megabytes>',
      `the longest message held and judged (default and most: ${MOST_MEGABYTES}, the longest text a string holds); a longer one is forwarded unchanged and unjudged as it arrives (over HTTP, a client's request that long is refused with 413). Lower it to bound the proxy's memory, which peaks at about 3× the largest message`,
      megabytes,
    )
    .addOption(
      new Option(
        '--protocol <version>',
        `${PROTOCOL_HELP}; default: the version the client and server negotiate (until then ${DEFAULT_PROTOCOL_VERSION})`,
      ).argParser(protocolOption),
    )
    .option('--quiet', 'do not log repairs and dropped messages on standard error')
    .option('--report <file>', 'keep a JSON report of every repair in FILE, updated as repairs happen')
    .option(
      '--record <file>',
      'write every message both ways to FILE as a JSONL session recording (mcp-shape check reads it)',
    )
    .addHelpText(
      'after',
      `
Point the client at mcp-shape instead of the server, e.g. in a client's configuration:
  "command": "npx", "args": ["mcp-shape", "proxy", "--", "node", "server.js"]

Client messages pass through unchanged. Each server message is judged by its envelope first
(request, notification, response) and repaired for the negotiated protocol version. A message that
needs nothing is forwarded byte for byte; so is one that repair cannot make acceptable (it is logged
with the reason). A repaired message keeps each number the repair did not make or change as the server
wrote it (1e400, 1.0, -0, 12345678901234567890), not as JSON.parse reads it, wherever the repair left it,
and a text block the repair adds as structuredContent's JSON writes those numbers so too. A stdio line or JSON body that is not UTF-8 is written as UTF-8, with U+FFFD
for each bad sequence (logged). Only a newline ends a stdio message. A byte order mark before a message is dropped.
Lines that are not JSON, and JSON that is not a JSON-RPC message (null, 42, [], {}), are not forwarded
(they would break the client) but logged on standard error. The server's standard error passes through.

Lifecycle (stdio): the server runs in its own process group. When it exits, every request it left
unanswered gets a JSON-RPC error (-32000, "server exited with code N"), and the proxy exits with the
server's code (3 when it cannot be started). When the client closes its input, the proxy closes the
server's, then sends SIGTERM and SIGKILL --grace seconds apart; a server that closed its output
but still runs --grace seconds later (no answer can come) gets the same SIGTERM and SIGKILL. SIGINT, SIGTERM and SIGHUP are
forwarded to the server's process group and escalated the same way. A watchdog kills the group if the
proxy itself is killed, even with SIGKILL (Linux and macOS; not on Windows). On Linux, processes the
server started that outlive it, even outside its group (setsid, detached), get SIGTERM, then SIGKILL
--grace seconds later, before the proxy exits: found in /proc by their parents, or by the token in
the MCP_SHAPE_PROXY variable the server's environment gets (not one that clears its environment and
loses its parent within a second); if the proxy is killed, the watchdog ends those with the token.

With --url, the proxy listens on --listen and prints "listening on http://HOST:PORT/mcp" on standard
error; point the client there. Requests (POST, GET, DELETE) go upstream with their body and the
Content-Type, Accept, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID and Authorization headers
(plus --header). Each Mcp-Session-Id is its own conversation (version, pending requests, tools);
DELETE ends it (past 10,000, the one used least recently is forgotten). A request without a session
id is handled on its own, for the version in its MCP-Protocol-Version header. JSON responses are
repaired whole, SSE streams event by event as they arrive, with keep-alive comments while idle;
other responses pass through unchanged, and so does a JSON body that is no JSON-RPC message under a
status that is not 2xx (logged). A 2xx JSON body that leaves a request unanswered is replaced by a
JSON-RPC error for that request, quoting what the server sent. An SSE stream that ends or breaks off
before the response after an event id is resumed by the proxy (GET with Last-Event-ID), after the
server's retry hint (at most 60 s, the hint passed on as that too). If the server
cannot be reached, times out (--timeout), or a stream cannot be resumed, each unanswered request gets a
JSON-RPC error (a 502 when no response was started). Runs until interrupted; exit code 0.`,
    )
    .action(async (server: string[], flags: ProxyFlags) => {
      process.exitCode = await runProxy(server, flags);
    });
}

async function runProxy(server: string[], flags: ProxyFlags): Promise<number> {
  const [command, ...args] = server;
  if (command && flags.url) throw new UsageError('give either --url or a server command after --, not both');
  if (!command && !flags.url)
    throw new UsageError(
      'give the server command after --, e.g. mcp-shape proxy -- node server.js, or --url URL',
    );
  if (!flags.url && (flags.listen || flags.header || flags.timeout !== undefined))
    throw new UsageError(
      '--listen, --header and --timeout apply to --url; a stdio server is proxied over stdio',
    );
  if (flags.url && flags.grace !== undefined)
    throw new UsageError('--grace applies to a stdio server; with --url there is no process to stop');
  const stdoutCarries = flags.url ? "the proxy's log" : 'the messages to the client';
  if (flags.report !== undefined) fileOnly('--report', flags.report, stdoutCarries);
  if (flags.record !== undefined) fileOnly('--record', flags.record, stdoutCarries);
  const repairs = repairLog(flags);
  // Written before the server starts, with no repair yet: a path that cannot be written is a usage
  // error now, not a crash at the first repair.
  repairs.startReport();
  const recorder = flags.record ? await openRecording(flags.record) : undefined;
  const events = {
    protocolVersion: flags.protocol ?? DEFAULT_PROTOCOL_VERSION,
    fixedVersion: flags.protocol !== undefined,
    onRepaired: repairs.onRepaired,
    onLog: repairs.log,
    ...(recorder ? { recorder } : {}),
  };
  try {
    if (flags.url) return await runHttp(flags.url, flags, events);
    const code = await runStdioProxy({
      command: command as string,
      args,
      ...events,
      ...(flags.grace !== undefined ? { graceMs: flags.grace * 1000 } : {}),
      ...maxMessage(flags),
    });
    // Something left holding the event loop (a reader that never drains) must not keep the proxy up.
    setTimeout(() => process.exit(code), 2_000).unref();
    return code;
  } catch (error) {
    if (error instanceof ProxyStartError) throw new UserError(error.message, EXIT.unreachable);
    throw error;
  } finally {
    repairs.saveReport();
    await recorder?.close();
  }
}

function maxMessage(flags: ProxyFlags): { maxMessageBytes?: number } {
  return flags.maxMessageMb === undefined
    ? {}
    : {
        maxMessageBytes: Math.min(
          MAX_HELD_FRAME_BYTES,
          Math.max(1, Math.floor(flags.maxMessageMb * 2 ** 20)),
        ),
      };
}

async function openRecording(path: string): Promise<Recorder> {
  // Said even with --quiet: the recording the operator asked for is incomplete from here on.
  const stopped = (error: Error) =>
    process.stderr.write(
      `mcp-shape proxy: cannot write --record, the recording stops here: ${oneLine(`${systemErrorWords(error)}: ${path}`, { width: 400 })}\n`,
    );
  try {
    return await Recorder.open(path, stopped);
  } catch (error) {
    throw new UserError(`cannot write --record: ${systemErrorWords(error)}: ${path}`);
  }
}

/** Serves until SIGINT, SIGTERM or SIGHUP; exit code 0 then. */
async function runHttp(
  url: string,
  flags: ProxyFlags,
  events: Pick<HttpProxyOptions, 'protocolVersion' | 'fixedVersion' | 'onRepaired' | 'onLog' | 'recorder'>,
): Promise<number> {
  let upstream: URL;
  try {
    upstream = new URL(url);
  } catch {
    throw new UsageError(`--url ${url} is not a URL`);
  }
  if (upstream.protocol !== 'http:' && upstream.protocol !== 'https:')
    throw new UsageError(`--url ${url} is not an http(s) URL`);
  let headers: Record<string, string>;
  try {
    headers = parseHeaders(flags.header ?? []);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { host, port } = parseListen(flags.listen ?? '127.0.0.1:0');
  let proxy: RunningHttpProxy;
  try {
    proxy = await startHttpProxy({
      upstream: upstream.toString(),
      host,
      port,
      headers,
      ...events,
      ...(flags.timeout !== undefined ? { timeoutMs: flags.timeout * 1000 } : {}),
      ...maxMessage(flags),
    });
  } catch (error) {
    throw new UserError(`${systemErrorWords(error)}: ${host}:${port}`);
  }
  // Printed even with --quiet: with port 0 it is the only way to learn where to connect.
  process.stderr.write(`mcp-shape proxy: listening on ${proxy.url}\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
    process.once('SIGHUP', resolve);
  });
  await proxy.close();
  return EXIT.clean;
}

function parseListen(value: string): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:]*)):(\d{1,5})$/.exec(value);
  const port = Number(match?.[3]);
  if (!match || port > 65535) throw new UsageError(`--listen ${value} is not HOST:PORT`);
  return { host: match[1] ?? (match[2] || '127.0.0.1'), port };
}

/** The repair log on standard error and the --report file, the same for both transports. */
function repairLog(flags: ProxyFlags) {
  const repaired: Finding[] = [];
  let messages = 0;
  // Server text (a dropped line, a tool name) may hold escape sequences: only our bytes reach the terminal.
  const log = (line: string) => {
    if (!flags.quiet) process.stderr.write(`mcp-shape proxy: ${oneLine(line, { width: 400 })}\n`);
  };
  // Rewritten as repairs happen, not only at exit: clients often kill their server without waiting.
  // At most twice a second, so that a flood of repairs does not rewrite a growing file each time.
  let scheduled: NodeJS.Timeout | undefined;
  const writeReport = (file: string) => {
    const report = buildReport('repair', repaired, messages, { summary: { repairedMessages: messages } });
    writeOutput(file, renderJson(report));
  };
  let failed = false;
  // Once the proxy runs, a report that cannot be written (the disk filled, the folder went) is said
  // once and the messages go on: it threw from a timer, which ended the proxy mid-session.
  const saveReport = () => {
    clearTimeout(scheduled);
    scheduled = undefined;
    if (!flags.report || failed) return;
    try {
      writeReport(flags.report);
    } catch (error) {
      failed = true;
      process.stderr.write(
        `mcp-shape proxy: cannot write --report, no longer kept: ${oneLine((error as Error).message, { width: 400 })}\n`,
      );
    }
  };
  const startReport = () => {
    if (!flags.report) return;
    try {
      writeReport(flags.report);
    } catch (error) {
      throw new UserError(`cannot write --report: ${(error as Error).message}`);
    }
  };
  const onRepaired = (event: ProxyEvent) => {
    messages++;
    const what = event.tool ? `${event.method} ${event.tool}` : (event.method ?? 'message');
    const connection = event.connection ? `[${event.connection}] ` : '';
    for (const fix of event.fixes) {
      log(
        `${connection}[${event.protocolVersion}] ${what}: ${fix.rule} at ${fix.pointer || '(root)'}: ${fix.description}`,
      );
      repaired.push({
        rule: fix.rule,
        severity: getRule(fix.rule)?.severity ?? 'error',
        message: fix.description,
        pointer: fix.pointer,
        location: { protocolVersion: event.protocolVersion, ...(event.tool ? { tool: event.tool } : {}) },
        fix: {
          description: fix.lossy ? `${fix.description} (data was lost)` : fix.description,
          automatic: true,
        },
      });
    }
    if (flags.report) scheduled ??= setTimeout(saveReport, messages === 1 ? 0 : 500);
  };
  return { log, saveReport, startReport, onRepaired };
}
