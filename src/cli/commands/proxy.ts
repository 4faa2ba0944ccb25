/** `mcp-shape proxy -- <command> [args…]`: run a stdio server behind a repairing proxy. */

import { Command, Option } from 'commander';
import type { Finding } from '../../core/finding.js';
import { type ProxyEvent, ProxyStartError, runStdioProxy } from '../../proxy/stdio.js';
import { buildReport } from '../../report/build.js';
import { renderJson } from '../../report/json.js';
import { getRule } from '../../rules/catalog.js';
import { LATEST_PROTOCOL_VERSION, type ProtocolVersion } from '../../spec/versions.js';
import { EXIT, UserError } from '../errors.js';
import { PROTOCOL_HELP, protocolOption } from '../options.js';
import { writeOutput } from '../output.js';

interface ProxyFlags {
  protocol?: ProtocolVersion;
  quiet?: boolean;
  report?: string;
}

export function proxyCommand(): Command {
  return new Command('proxy')
    .description(
      'Run a stdio MCP server behind a proxy that repairs every message it sends, for servers you cannot change.',
    )
    .usage('[options] -- <command> [args...]')
    .argument('[server...]', 'command that starts the stdio server (put it after --)')
    .addOption(
      new Option(
        '--protocol <version>',
        `${PROTOCOL_HELP}; default: the version the client and server negotiate (until then ${LATEST_PROTOCOL_VERSION})`,
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
passes through.

Exit code: the server's.`,
    )
    .action(async (server: string[], flags: ProxyFlags) => {
      process.exitCode = await runProxy(server, flags);
    });
}

async function runProxy(server: string[], flags: ProxyFlags): Promise<number> {
  const [command, ...args] = server;
  if (!command)
    throw new UserError('give the server command after --, e.g. mcp-shape proxy -- node server.js');
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
  try {
    const code = await runStdioProxy({
      command,
      args,
      protocolVersion: flags.protocol ?? LATEST_PROTOCOL_VERSION,
      fixedVersion: flags.protocol !== undefined,
      onRepaired,
      onUnparsed: (line) => log(`server wrote a line that is not JSON, not forwarded: ${line.slice(0, 200)}`),
    });
    saveReport();
    return code;
  } catch (error) {
    if (error instanceof ProxyStartError) throw new UserError(error.message, EXIT.unreachable);
    throw error;
  }
}
