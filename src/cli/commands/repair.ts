/** `mcp-shape repair [FILE|-]`: writes a repaired copy of a saved result, response or session. */

import { Command, Option } from 'commander';
import { classifyDocument, type SessionLine } from '../../check/index.js';
import type { Finding } from '../../core/finding.js';
import { isObject } from '../../core/json.js';
import { isRecordedFrame } from '../../core/recording.js';
import { stringifyJson } from '../../library/repair/clone.js';
import { type Fix, repairParsedMessageSync, repairParsedSync } from '../../library/repair/index.js';
import { ProxySession } from '../../proxy/session.js';
import { buildReport } from '../../report/build.js';
import { renderJson } from '../../report/json.js';
import { oneLine } from '../../report/terminal.js';
import { getRule } from '../../rules/catalog.js';
import { isJsonRpcShaped } from '../../rules/support/envelope.js';
import {
  assumedProtocolVersion,
  DEFAULT_PROTOCOL_VERSION,
  type ProtocolVersion,
} from '../../spec/versions.js';
import { UsageError } from '../errors.js';
import { PROTOCOL_DEFAULT_HELP, PROTOCOL_HELP, protocolOption } from '../options.js';
import { writeOutput } from '../output.js';
import { ambiguousTool, loadTools, parseOrFail, readTextInput } from '../read-input.js';

interface RepairFlags {
  protocol?: ProtocolVersion;
  tools?: string;
  tool?: string;
  out?: string;
  report?: string;
  quiet?: boolean;
}

export function repairCommand(): Command {
  return new Command('repair')
    .description(
      'Write a repaired copy of a saved tools/call or tools/list result, JSON-RPC response or JSONL session.',
    )
    .argument('[file]', 'JSON or JSONL file; "-" or nothing reads standard input')
    .addOption(
      new Option('--protocol <version>', `${PROTOCOL_HELP}; ${PROTOCOL_DEFAULT_HELP}`).argParser(
        protocolOption,
      ),
    )
    .option('--tools <file>', 'a tools/list result or response, for outputSchema-aware repairs')
    .option(
      '--tool <name>',
      'the tool a single result belongs to (looked up in --tools; needed when it lists several and one has an outputSchema)',
    )
    .option(
      '--out <file>',
      'write the repaired document to a file instead of standard output (- is standard output)',
    )
    .option('--report <file>', 'write the repairs as a JSON report')
    .option('--quiet', 'do not list the repairs and the errors left on standard error')
    .addHelpText(
      'after',
      `
The repaired document has the same form as the input: a result, a response, or one message per line.
In a session, server responses are repaired for the version negotiated in it (--protocol until then)
and requests are copied unchanged.

Exit codes: 0 repaired (or nothing to repair), 1 an error was left that no repair can fix (each is
named on standard error), 2 usage or input error.`,
    )
    .action(async (file: string | undefined, flags: RepairFlags) => {
      process.exitCode = await runRepairCommand(file, flags);
    });
}

/**
 * The repaired document, indented; a document nested too deeply for the native writer's indentation
 * (it recurses) comes out compact from the iterative one instead of crashing.
 */
function documentText(value: unknown): string {
  try {
    return `${JSON.stringify(value, null, 2)}\n`;
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return `${stringifyJson(value)}\n`;
  }
}

interface Outcome {
  readonly text: string;
  readonly fixes: { fix: Fix; protocolVersion: ProtocolVersion; line?: number }[];
  readonly unrepaired: number;
  /** Lines left as they were, and why (listed on standard error with the repairs). */
  readonly notes?: readonly string[];
}

async function runRepairCommand(file: string | undefined, flags: RepairFlags): Promise<number> {
  const { text, label } = await readTextInput(file);
  const input = parseOrFail(text, label);
  const tools = flags.tools ? await loadTools(flags.tools) : undefined;
  const tool = flags.tool ? tools?.get(flags.tool) : tools?.size === 1 ? [...tools.values()][0] : undefined;
  if (flags.tool && !tool)
    throw new UsageError(`tool "${flags.tool}" is not in ${flags.tools ?? '(no --tools given)'}`);
  // A session names its tools in its requests; a single saved result does not.
  const ambiguous =
    !tool && tools && input.kind === 'json' && classifyDocument(input.value) !== 'tools-list'
      ? ambiguousTool(tools, flags.tools as string)
      : undefined;
  if (ambiguous) throw new UsageError(ambiguous);

  let outcome: Outcome;
  if (input.kind === 'jsonl') {
    outcome = await repairSession(input.lines, flags.protocol ?? DEFAULT_PROTOCOL_VERSION);
  } else if (classifyDocument(input.value) === 'message' || classifyDocument(input.value) === 'batch') {
    const request = tool ? { method: 'tools/call', params: { name: tool.name } } : undefined;
    const version = flags.protocol ?? assumedProtocolVersion(input.value);
    // Parsed JSON, written by documentText at any depth: the parsed variants, which leave the depth
    // as it came (repairMessageSync would cut it to what JSON.stringify writes).
    const run = repairParsedMessageSync(input.value, {
      protocolVersion: version,
      request,
      tools: tools ? [...tools.values()] : undefined,
    });
    outcome = {
      text: documentText(run.message),
      fixes: run.fixes.map((fix) => ({ fix, protocolVersion: version })),
      ...leftUnrepaired(run.remaining),
    };
  } else if (classifyDocument(input.value) === 'tools-list') {
    // A bare tools/list result is repaired as the result of a response to tools/list (repairSync would
    // take it for a CallToolResult and add `content`), and written back bare.
    const version = flags.protocol ?? assumedProtocolVersion(input.value);
    const run = repairParsedMessageSync(
      { jsonrpc: '2.0', id: 0, result: input.value },
      { protocolVersion: version, request: { method: 'tools/list' } },
    );
    const result = isObject(run.message) ? run.message.result : input.value;
    const barePointer = (pointer: string) => pointer.replace(/^\/result(?=\/|$)/, '');
    const bare = (fix: Fix): Fix => ({ ...fix, pointer: barePointer(fix.pointer) });
    outcome = {
      text: documentText(result),
      fixes: run.fixes.map((fix) => ({ fix: bare(fix), protocolVersion: version })),
      ...leftUnrepaired(run.remaining, barePointer),
    };
  } else {
    const version = flags.protocol ?? assumedProtocolVersion(input.value);
    const run = repairParsedSync(input.value, { protocolVersion: version, tool });
    outcome = {
      text: documentText(run.result),
      fixes: run.fixes.map((fix) => ({ fix, protocolVersion: version })),
      unrepaired: 0,
    };
  }

  if (!flags.quiet) {
    for (const note of outcome.notes ?? []) process.stderr.write(`${oneLine(note, { width: 400 })}\n`);
    for (const { fix, line } of outcome.fixes) {
      // Pointers and descriptions quote the input (a block type, a member name): escaped for the terminal.
      process.stderr.write(
        `${oneLine(`${line ? `line ${line}: ` : ''}${fix.rule} at ${fix.pointer || '(root)'}: ${fix.description}${fix.lossy ? ' (data lost)' : ''}`, { width: 400 })}\n`,
      );
    }
    process.stderr.write(`${outcome.fixes.length} repair${outcome.fixes.length === 1 ? '' : 's'}\n`);
  }
  writeOutput(flags.out, outcome.text);
  if (flags.report)
    writeOutput(flags.report, renderJson(buildReport('repair', outcome.fixes.map(toFinding(label)), 1)));
  return outcome.unrepaired > 0 ? 1 : 0;
}

/** The most unrepaired errors listed: a document may hold thousands of one mistake. */
const UNREPAIRED_SHOWN = 20;

/**
 * The errors no repair could fix, each said on standard error (exit 1 without them said nothing of why).
 */
function leftUnrepaired(
  remaining: readonly Finding[],
  shown: (pointer: string) => string = (pointer) => pointer,
): { unrepaired: number; notes: string[] } {
  const errors = remaining.filter((f) => f.severity === 'error');
  const notes = errors
    .slice(0, UNREPAIRED_SHOWN)
    .map((f) => `left unrepaired: ${f.rule} at ${shown(f.pointer) || '(root)'}: ${f.message}`);
  if (errors.length > UNREPAIRED_SHOWN)
    notes.push(
      `left unrepaired: ${errors.length - UNREPAIRED_SHOWN} more errors (mcp-shape check lists them all)`,
    );
  return { unrepaired: errors.length, notes };
}

/**
 * A session's requests teach it its version and tools (per connection, in a recording); its responses
 * are repaired. A recorded line keeps its wrapper with the repaired `message`. Lines that are not
 * JSON-RPC messages are copied unchanged and count as unrepaired.
 */
async function repairSession(lines: readonly SessionLine[], version: ProtocolVersion): Promise<Outcome> {
  const sessions = new Map<string, ProxySession>();
  const out: string[] = [];
  const fixes: Outcome['fixes'] = [];
  const notes: string[] = [];
  let unrepaired = 0;
  for (const { line, text, json, value } of lines) {
    const recorded = json && isRecordedFrame(value) ? value : undefined;
    // A banner, a cut-off line or a JSON log line is no message to repair (repairing a log line's
    // members away would lose it); it is copied as it is.
    if (!json || !isJsonRpcShaped(recorded ? recorded.message : value)) {
      out.push(text);
      unrepaired++;
      notes.push(`line ${line}: not a JSON-RPC message, copied unchanged`);
      continue;
    }
    const message = recorded ? recorded.message : value;
    const key = recorded?.connection ?? '';
    const session = sessions.get(key) ?? new ProxySession({ protocolVersion: version });
    sessions.set(key, session);
    const raw = stringifyJson(message);
    if (recorded?.from === 'client' || (!recorded && isObject(message) && 'method' in message)) {
      session.fromClient(raw);
      out.push(text);
      continue;
    }
    // A batch goes out as its messages, a line each, as the stdio proxy sends it.
    const outcome = await session.fromServer(raw, { canSplit: true });
    if (outcome.kind === 'drop' || outcome.fixes.length === 0) {
      // Left as it is: nothing to repair, or (with a reason) nothing repair can make acceptable.
      out.push(text);
      if (outcome.kind === 'forward' && outcome.reason) {
        unrepaired++;
        notes.push(`line ${line}: ${outcome.reason}`);
      }
      continue;
    }
    for (const fix of outcome.fixes) fixes.push({ fix, protocolVersion: outcome.protocolVersion, line });
    const messages = outcome.split ?? [JSON.parse(outcome.text)];
    if (recorded) for (const m of messages) out.push(stringifyJson({ ...recorded, message: m }));
    else out.push(outcome.text);
  }
  return { text: `${out.join('\n')}\n`, fixes, unrepaired, notes };
}

function toFinding(file: string) {
  return ({ fix, protocolVersion, line }: Outcome['fixes'][number]): Finding => ({
    rule: fix.rule,
    severity: getRule(fix.rule)?.severity ?? 'error',
    message: fix.description,
    pointer: fix.pointer,
    location: { file, ...(line ? { line } : {}), protocolVersion },
    fix: { description: fix.lossy ? `${fix.description} (data was lost)` : fix.description, automatic: true },
  });
}
