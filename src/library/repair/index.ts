/**
 * `repair()` and `repairMessage()`: make a tool result, or a whole JSON-RPC message, conformant for the
 * negotiated protocol version, saying what changed. The guarantee (tested for every version in
 * test/library): no error-severity finding on the output, the official schema and the official SDK v1
 * client parser accept it, repair is idempotent, and a result with nothing to repair comes back as the
 * very same object with no fixes.
 */

import type { Finding } from '../../core/finding.js';
import { isObject } from '../../core/json.js';
import { messageKind } from '../../rules/support/envelope.js';
import { assumedProtocolVersion, type ProtocolVersion } from '../../spec/versions.js';
import { type EngineFinding, responseKind, runMessage, runToolResult } from '../../validate/engine.js';
import { publicFinding, toolsByName } from '../../validate/index.js';
import type { CallToolResult, DefaultProtocolVersion } from '../types.js';
import { toWire } from './clone.js';
import {
  type Fix,
  RepairBudgetExceeded,
  type RepairLimits,
  type RepairTarget,
  runRepair,
  toolDefinition,
} from './engine.js';

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

export async function repair<V extends ProtocolVersion = DefaultProtocolVersion>(
  result: unknown,
  options: RepairOptions & { protocolVersion?: V } = {},
): Promise<RepairResult<V>> {
  try {
    const wire = toWire(result);
    const version = options.protocolVersion ?? assumedProtocolVersion(wire.value);
    const tool = toolDefinition(options.tool);
    const target: RepairTarget = {
      version,
      tool,
      resultPath: () => [],
      validate: (document, sniffed) => runToolResult(document, { version, tool, sniffed }),
    };
    const run = await runRepair(wire.value, target);
    return { result: run.document as CallToolResult<V>, fixes: [...wire.fixes, ...run.fixes] };
  } catch (error) {
    return { result: result as CallToolResult<V>, fixes: [], abandoned: reason(error) };
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
  let wire: { value: unknown; fixes: Fix[] };
  try {
    wire = toWire(message);
  } catch (error) {
    return { message, fixes: [], remaining: [], abandoned: reason(error) };
  }
  const run = await repairParsedMessage(wire.value, options);
  if (run.abandoned !== undefined) return { ...run, message };
  return wire.fixes.length > 0 ? { ...run, fixes: [...wire.fixes, ...run.fixes] } : run;
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
 * repairMessage() for a message that is plain JSON already (parsed from the wire, as the proxy has it),
 * with a work budget. The envelope is classified first: only a response carries a result, so a message
 * with `method` is never repaired as one, whatever its `result` member looks like.
 */
export async function repairParsedMessage(
  message: unknown,
  options: RepairMessageOptions,
  limits: RepairLimits = {},
): Promise<RepairMessageResult> {
  try {
    const version = options.protocolVersion ?? assumedProtocolVersion(message);
    const kind = messageKind(message);
    const request = kind === 'response' && isObject(options.request) ? options.request : undefined;
    const tools = toolsByName(options.tools);
    const target: RepairTarget = {
      version,
      resultPath: (document) =>
        kind === 'response' &&
        isObject(document) &&
        Object.hasOwn(document, 'result') &&
        (request?.method === 'tools/call' || responseKind(document.result, request) === 'tools/call')
          ? ['result']
          : undefined,
      validate: (document, sniffed) => {
        const findings = runMessage(document, { version, request, tools, sniffed });
        return kind === 'response' ? findings : findings.filter((f) => !insideStrayMember(f));
      },
    };
    const run = await runRepair(message, target, limits);
    return { message: run.document, fixes: run.fixes, remaining: run.remaining.map(publicFinding) };
  } catch (error) {
    return { message, fixes: [], remaining: [], abandoned: reason(error) };
  }
}
