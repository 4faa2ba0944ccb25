/**
 * `repair()` and `repairMessage()`: make a tool result, or a whole JSON-RPC message, conformant for the
 * negotiated protocol version, saying what changed. The guarantee (tested for every version in
 * test/library): no error-severity finding on the output, the official schema and the official SDK v1
 * client parser accept it, repair is idempotent, and a result with nothing to repair comes back as the
 * very same object with no fixes. Repair never throws: when it gives up, it says why (`abandoned`).
 *
 * `repairSync()` and `repairMessageSync()` give the same guarantee without waiting: they sniff payloads
 * with the synchronous sniffer only, as `validateToolResultSync` does (the proxy uses them on every
 * message). The asynchronous ones also ask file-type about formats that sniffer cannot place.
 */

import type { Finding } from '../../core/finding.js';
import { isObject, type JsonObject } from '../../core/json.js';
import { FactScope } from '../../core/run-memo.js';
import { messageKind } from '../../rules/support/envelope.js';
import {
  assumedProtocolVersion,
  checkProtocolVersionOption,
  type ProtocolVersion,
} from '../../spec/versions.js';
import {
  type EngineFinding,
  type EngineOptions,
  isQuietMessage,
  isQuietPlainText,
  responseKind,
  runMessage,
  runToolResult,
} from '../../validate/engine.js';
import { publicFinding, toolsByName } from '../../validate/index.js';
import { checkedOptions } from '../options.js';
import type { CallToolResult, DefaultProtocolVersion } from '../types.js';
import { toWire } from './clone.js';
import {
  type Fix,
  type KnownPayload,
  RepairBudgetExceeded,
  type RepairLimits,
  type RepairRun,
  type RepairTarget,
  runRepair,
  runRepairSync,
  toolDefinition,
} from './engine.js';
import { withProtocolMembers } from './members.js';

export type { Fix } from './engine.js';

export interface RepairOptions {
  /**
   * The negotiated protocol version; default: 2026-07-28 for a result that carries `resultType`, else
   * DEFAULT_PROTOCOL_VERSION (2025-11-25).
   */
  readonly protocolVersion?: ProtocolVersion;
  /** The tool definition (from tools/list) the result answers, for outputSchema checks. */
  readonly tool?: unknown;
}

export interface RepairResult<V extends ProtocolVersion = ProtocolVersion> {
  readonly result: CallToolResult<V>;
  readonly fixes: readonly Fix[];
  /**
   * Why repair gave up, when it did (an internal error): `result` is then the input, unchanged.
   * Repair never throws.
   */
  readonly abandoned?: string;
}

function reason(error: unknown): string {
  if (error instanceof RepairBudgetExceeded) return error.message;
  try {
    return `internal error: ${error instanceof Error ? error.message : String(error)}`;
  } catch {
    return 'internal error';
  }
}

/**
 * Whether the result has nothing to repair, known without setting up a repair: a plain-text result no
 * rule can report on (see isQuietPlainText). A repair's first validation would find nothing and hand
 * the result back as it is, which is what the callers then do.
 */
function isQuietResult(document: unknown, options: RepairOptions): boolean {
  const version = options.protocolVersion ?? assumedProtocolVersion(document);
  return isQuietPlainText(document, version, toolDefinition(options.tool));
}

function resultTarget(document: unknown, options: RepairOptions): RepairTarget {
  const version = options.protocolVersion ?? assumedProtocolVersion(document);
  const tool = toolDefinition(options.tool);
  return {
    version,
    tool,
    resultPath: () => [],
    // Written out member by member: spreading the run's options (which hold a bound sniffer) took
    // V8's slow path, an eighth of repairing a small result.
    validate: (document, run) =>
      runToolResult(document, {
        version,
        tool,
        scope: run.scope,
        sniff: run.sniff,
        blockFindings: run.blockFindings,
      }),
  };
}

/**
 * Repairs `result` as the wire would carry it (toWire: a copy, with a fix per thing JSON could not
 * carry, unless it is plain JSON already), never throwing.
 */
function repairResult<V extends ProtocolVersion>(
  result: unknown,
  options: RepairOptions,
  run: (wire: unknown, target: RepairTarget, copied: boolean) => RepairRun,
  convert = true,
): RepairResult<V> {
  try {
    const wire = convert ? toWire(withProtocolMembers(result)) : { value: result, fixes: [] };
    if (isQuietResult(wire.value, options))
      return { result: wire.value as CallToolResult<V>, fixes: wire.fixes };
    const repaired = run(wire.value, resultTarget(wire.value, options), wire.value !== result);
    const fixes = wire.fixes.length > 0 ? [...wire.fixes, ...repaired.fixes] : repaired.fixes;
    return { result: repaired.document as CallToolResult<V>, fixes };
  } catch (error) {
    return { result: result as CallToolResult<V>, fixes: [], abandoned: reason(error) };
  }
}

export async function repair<V extends ProtocolVersion = DefaultProtocolVersion>(
  result: unknown,
  options: RepairOptions & { protocolVersion?: V } = {},
): Promise<RepairResult<V>> {
  options = checkedOptions(options, 'repair()');
  // Neither throws. A class instance's protocol members on its prototype are read as the SDK reads them.
  const wire = toWire(withProtocolMembers(result));
  const value = wire.value;
  let run: RepairRun;
  try {
    // Inside the try too: a value that was plain when toWire looked may throw when read again (a proxy).
    if (isQuietResult(value, options)) return { result: value as CallToolResult<V>, fixes: wire.fixes };
    run = await runRepair(value, resultTarget(value, options));
  } catch (error) {
    return { result: result as CallToolResult<V>, fixes: [], abandoned: reason(error) };
  }
  const fixes = wire.fixes.length > 0 ? [...wire.fixes, ...run.fixes] : run.fixes;
  return { result: run.document as CallToolResult<V>, fixes };
}

/** `repair()` without waiting: payloads are sniffed by the synchronous sniffer only. */
export function repairSync<V extends ProtocolVersion = DefaultProtocolVersion>(
  result: unknown,
  options: RepairOptions & { protocolVersion?: V } = {},
): RepairResult<V> {
  options = checkedOptions(options, 'repairSync()');
  // A copy toWire made is repair's own: it is repaired in place rather than copied again.
  return repairResult<V>(result, options, (wire, target, copied) =>
    runRepairSync(wire, target, { owned: copied }),
  );
}

/**
 * repairSync() of a result that is plain JSON already (parsed, as the command line has it), which its
 * caller writes with stringifyJson at any depth: not cut to the depth JSON.stringify writes (toWire).
 * @internal
 */
export function repairParsedSync<V extends ProtocolVersion = DefaultProtocolVersion>(
  result: unknown,
  options: RepairOptions & { protocolVersion?: V } = {},
): RepairResult<V> {
  checkProtocolVersionOption(options);
  return repairResult<V>(result, options, (wire, target) => runRepairSync(wire, target), false);
}

/**
 * `repair()` of a result the caller built (toolResult()), validated with the JSON texts the caller
 * already made (its text mirror). With `owned`, everything in it is the caller's to give away and is
 * repaired in place; without, it holds values the caller was handed, and a repair copies it first, as
 * `repair()` does.
 * @internal
 */
export async function repairBuilt(
  result: unknown,
  options: RepairOptions,
  known: {
    owned: boolean;
    knownJson?: ReadonlyMap<object, string> | undefined;
    knownPayloads?: readonly KnownPayload[] | undefined;
  },
): Promise<RepairResult> {
  try {
    if (isQuietResult(result, options)) return { result: result as CallToolResult, fixes: [] };
    const run = await runRepair(result, resultTarget(result, options), known);
    return { result: run.document as CallToolResult, fixes: run.fixes };
  } catch (error) {
    return { result: result as CallToolResult, fixes: [], abandoned: reason(error) };
  }
}

export interface RepairMessageOptions {
  readonly protocolVersion?: ProtocolVersion;
  /** The request the message answers: tells a tools/call result from others, and names the tool. */
  readonly request?: unknown;
  /** Tool definitions (an array or a tools/list result), for outputSchema checks. */
  readonly tools?: unknown;
}

export interface RepairMessageResult {
  readonly message: unknown;
  readonly fixes: readonly Fix[];
  /** Errors repair could not fix without guessing (a missing `id`, for instance). */
  readonly remaining: readonly Finding[];
  /**
   * Why repair gave up, when it did (its work budget ran out, or an internal error): `message` is then
   * the input, unchanged. Repair never throws.
   */
  readonly abandoned?: string;
}

export async function repairMessage(
  message: unknown,
  options: RepairMessageOptions = {},
): Promise<RepairMessageResult> {
  options = checkedOptions(options, 'repairMessage()');
  // toWire never throws.
  const wire = toWire(message);
  return withWireFixes(message, wire.fixes, await repairParsedMessage(wire.value, options));
}

/** `repairMessage()` without waiting: payloads are sniffed by the synchronous sniffer only. */
export function repairMessageSync(message: unknown, options: RepairMessageOptions = {}): RepairMessageResult {
  options = checkedOptions(options, 'repairMessageSync()');
  // toWire never throws.
  const wire = toWire(message);
  const owned = wire.value !== message;
  return withWireFixes(message, wire.fixes, repairParsedMessageSync(wire.value, options, { owned }));
}

function withWireFixes(message: unknown, wireFixes: Fix[], run: RepairMessageResult): RepairMessageResult {
  if (run.abandoned !== undefined) return { ...run, message };
  return wireFixes.length > 0 ? { ...run, fixes: [...wireFixes, ...run.fixes] } : run;
}

/**
 * Whether a finding is about the inside of a `result` or `error` member. A request or notification
 * carries neither: the envelope rule reports the stray member, and what it holds is nobody's business.
 */
function insideStrayMember(finding: EngineFinding): boolean {
  const [member] = finding.subjectPath;
  return member === 'result' || member === 'error';
}

/**
 * The repair target of a message. The envelope is classified first: only a response carries a result,
 * so a message with `method` is never repaired as one, whatever its `result` member looks like.
 */
function messageTarget(
  message: unknown,
  options: RepairMessageOptions,
  tools = toolsByName(options.tools),
): RepairTarget {
  const version = options.protocolVersion ?? assumedProtocolVersion(message);
  const kind = messageKind(message);
  const request = kind === 'response' && isObject(options.request) ? options.request : undefined;
  return {
    version,
    resultPath: (document) =>
      kind === 'response' &&
      isObject(document) &&
      Object.hasOwn(document, 'result') &&
      (request?.method === 'tools/call' || responseKind(document.result, request) === 'tools/call')
        ? ['result']
        : undefined,
    validate: (document, run) => {
      const findings = runMessage(document, {
        version,
        request,
        tools,
        scope: run.scope,
        sniff: run.sniff,
        blockFindings: run.blockFindings,
      });
      return kind === 'response' ? findings : findings.filter((f) => !insideStrayMember(f));
    },
  };
}

/**
 * The engine options messageTarget validates a message with, for the check that a clean message needs
 * no repair at all (a repair's first validation finding nothing returns the message as it is).
 */
function quietOptions(
  message: unknown,
  options: RepairMessageOptions,
  tools: ReadonlyMap<string, JsonObject>,
): EngineOptions {
  const request =
    messageKind(message) === 'response' && isObject(options.request) ? options.request : undefined;
  return { version: options.protocolVersion ?? assumedProtocolVersion(message), request, tools };
}

function messageResultOf(run: RepairRun): RepairMessageResult {
  return { message: run.document, fixes: run.fixes, remaining: run.remaining.map(publicFinding) };
}

/**
 * repairMessage() for a message that is plain JSON already (parsed from the wire, as the proxy has it),
 * with a work budget.
 */
export async function repairParsedMessage(
  message: unknown,
  options: RepairMessageOptions,
  limits: RepairLimits = {},
): Promise<RepairMessageResult> {
  try {
    return messageResultOf(await runRepair(message, messageTarget(message, options), limits));
  } catch (error) {
    return { message, fixes: [], remaining: [], abandoned: reason(error) };
  }
}

/**
 * repairParsedMessage() without waiting, as the proxy runs it on every message. With `owned`, the
 * message is the caller's to give away (the proxy parsed it) and is repaired in place, not copied; the
 * caller must then not use it after an abandoned repair.
 */
export function repairParsedMessageSync(
  message: unknown,
  options: RepairMessageOptions,
  limits: RepairLimits & { readonly owned?: boolean } = {},
): RepairMessageResult {
  try {
    const tools = toolsByName(options.tools);
    // One scope for the quick answer and the repair: the payloads decoded for the one serve the other.
    const scope = new FactScope();
    if (isQuietMessage(message, quietOptions(message, options, tools), scope)) {
      return { message, fixes: [], remaining: [] };
    }
    return messageResultOf(
      runRepairSync(message, messageTarget(message, options, tools), { ...limits, scope }),
    );
  } catch (error) {
    return { message, fixes: [], remaining: [], abandoned: reason(error) };
  }
}
