/**
 * `mcp-shape proxy -- <command> [args…]` or `mcp-shape proxy --url URL`: run a stdio server, or sit in
 * front of a Streamable HTTP server, behind a repairing proxy.
 */

import { Command, Option } from 'commander';
import { parseHeaders } from '../../audit/http-body.js';
import type { Finding } from '../../core/finding.js';
import { systemErrorWords } from '../../core/system-error.js';
import { type HttpProxyOptions, type RunningHttpProxy, startHttpProxy } from '../../proxy/http.js';
import { type ProxyEvent, ProxyStartError, runStdioProxy } from '../../proxy/stdio.js';
import { buildReport } from '../../report/build.js';
import { renderJson } from '../../report/json.js';
import { getRule } from '../../rules/catalog.js';
import { DEFAULT_PROTOCOL_VERSION, type ProtocolVersion } from '../../spec/versions.js';
import { EXIT, UsageError, UserError } from '../errors.js';
import { PROTOCOL_HELP, protocolOption } from '../options.js';
import { writeOutput } from '../output.js';

interface ProxyFlags {
  url?: string;
  listen?: string;
  header?: string[];
  protocol?: ProtocolVersion;
  quiet?: boolean;
  report?: string;
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
    .addOption(
      new Option(
        '--protocol <version>',
        `${PROTOCOL_HELP}; default: the version the client and server negotiate (until then ${DEFAULT_PROTOCOL_VERSION})`,
      ).argParser(protocolOption),
    )
    .option('--quiet', 'do not log repairs on standard error')
    .option('--report <file>', 'keep a JSON report of every repair in FILE, updated as repairs happen')
    .addHelpText(
      'after',
      `
Point the client at mcp-shape instead of the server, e.g. in a client's configuration:
  "command": "npx", "args": ["mcp-shape", "proxy", "--", "node", "server.js"]

Client messages pass through unchanged. Server messages are repaired for the negotiated protocol
version; a message that needs nothing is forwarded byte for byte. Lines that are not JSON are not
forwarded (they would break the client) but logged on standard error. The server's standard error
passes through. Exit code: the server's, or 3 when it cannot be started.

With --url, the proxy listens on --listen and prints "listening on http://HOST:PORT/mcp" on standard
error; point the client there. Requests (POST, GET, DELETE) go upstream with their body and the
Content-Type, Accept, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID and Authorization headers
(plus --header). JSON responses are repaired whole, SSE streams event by event as they arrive; other
responses, and messages that are not JSON, pass through unchanged (the latter are logged). An
unreachable server gets the client a 502 with a JSON-RPC error. Runs until interrupted; exit code 0.`,
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
  if (!flags.url && (flags.listen || flags.header))
    throw new UsageError('--listen and --header apply to --url; a stdio server is proxied over stdio');
  const repairs = repairLog(flags);
  const session = {
    protocolVersion: flags.protocol ?? DEFAULT_PROTOCOL_VERSION,
    fixedVersion: flags.protocol !== undefined,
    onRepaired: repairs.onRepaired,
  };
  if (flags.url) return runHttp(flags.url, flags, session, repairs.log);
  try {
    const code = await runStdioProxy({
      command: command as string,
      args,
      ...session,
      onUnparsed: (line) =>
        repairs.log(`server wrote a line that is not JSON, not forwarded: ${line.slice(0, 200)}`),
    });
    repairs.saveReport();
    return code;
  } catch (error) {
    if (error instanceof ProxyStartError) throw new UserError(error.message, EXIT.unreachable);
    throw error;
  }
}

/** Serves until SIGINT or SIGTERM; exit code 0 then. */
async function runHttp(
  url: string,
  flags: ProxyFlags,
  session: Pick<HttpProxyOptions, 'protocolVersion' | 'fixedVersion' | 'onRepaired'>,
  log: (line: string) => void,
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
      ...session,
      onUnparsed: (text) =>
        log(`server sent a message that is not JSON, forwarded as is: ${text.slice(0, 200)}`),
      onUnreachable: (reason) => log(reason),
    });
  } catch (error) {
    throw new UserError(`${systemErrorWords(error)}: ${host}:${port}`);
  }
  // Printed even with --quiet: with port 0 it is the only way to learn where to connect.
  process.stderr.write(`mcp-shape proxy: listening on ${proxy.url}\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
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
  const log = (line: string) => {
    if (!flags.quiet) process.stderr.write(`mcp-shape proxy: ${line}\n`);
  };
  // Rewritten after every repair, not only at exit: clients often kill their server without waiting.
  const saveReport = () => {
    if (!flags.report) return;
    const report = buildReport('repair', repaired, messages, { summary: { repairedMessages: messages } });
    writeOutput(flags.report, renderJson(report));
  };
  const onRepaired = (event: ProxyEvent) => {
    messages++;
    const what = event.tool ? `${event.method} ${event.tool}` : (event.method ?? 'message');
    for (const fix of event.fixes) {
      log(
        `[${event.protocolVersion}] ${what}: ${fix.rule} at ${fix.pointer || '(root)'}: ${fix.description}`,
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
    saveReport();
  };
  return { log, saveReport, onRepaired };
}
