/**
 * `repair()` and `repairMessage()`: make a tool result, or a whole JSON-RPC message, conformant for the
 * negotiated protocol version, saying what changed. The guarantee (tested for every version in
 * test/library): no error-severity finding on the output, the official schema and the official SDK v1
 * client parser accept it, repair is idempotent, and a result with nothing to repair comes back as the
 * very same object with no fixes.
 *
 * `repairSync()` and `repairMessageSync()` give the same guarantee without waiting: they sniff payloads
 * with the synchronous sniffer only, as `validateToolResultSync` does (the proxy uses them on every
 * message). The asynchronous ones also ask file-type about formats that sniffer cannot place.
 */

import type { Finding } from '../../core/finding.js';
import { isObject } from '../../core/json.js';
import { LATEST_PROTOCOL_VERSION, type ProtocolVersion } from '../../spec/versions.js';
import { type EngineFinding, responseKind, runMessage, runToolResult } from '../../validate/engine.js';
import { publicFinding, toolsByName } from '../../validate/index.js';
import type { CallToolResult, LatestProtocolVersion } from '../types.js';
import {
  type Fix,
  type RepairRun,
  type RepairTarget,
  runRepair,
  runRepairSync,
  toolDefinition,
} from './engine.js';

export type { Fix } from './engine.js';

export interface RepairOptions {
  /** The negotiated protocol version; default: the latest. */
  readonly protocolVersion?: ProtocolVersion;
  /** The tool definition (from tools/list) the result answers, for outputSchema checks. */
  readonly tool?: unknown;
}

export interface RepairResult<V extends ProtocolVersion = ProtocolVersion> {
  readonly result: CallToolResult<V>;
  readonly fixes: readonly Fix[];
}

function resultTarget(options: RepairOptions): RepairTarget {
  const version = options.protocolVersion ?? LATEST_PROTOCOL_VERSION;
  const tool = toolDefinition(options.tool);
  return {
    version,
    tool,
    resultPath: () => [],
    validate: (document, run) => runToolResult(document, { version, tool, ...run }),
  };
}

export async function repair<V extends ProtocolVersion = LatestProtocolVersion>(
  result: unknown,
  options: RepairOptions & { protocolVersion?: V } = {},
): Promise<RepairResult<V>> {
  return resultOf<V>(await runRepair(result, resultTarget(options)));
}

/** `repair()` without waiting: payloads are sniffed by the synchronous sniffer only. */
export function repairSync<V extends ProtocolVersion = LatestProtocolVersion>(
  result: unknown,
  options: RepairOptions & { protocolVersion?: V } = {},
): RepairResult<V> {
  return resultOf<V>(runRepairSync(result, resultTarget(options)));
}

/**
 * `repair()` of a result the caller built and hands over (toolResult()): repaired in place, not copied,
 * and validated with the JSON texts the caller already made (its text mirror).
 * @internal
 */
export async function repairOwned(
  result: unknown,
  options: RepairOptions,
  knownJson?: ReadonlyMap<object, string>,
): Promise<RepairResult> {
  return resultOf(await runRepair(result, resultTarget(options), { owned: true, knownJson }));
}

function resultOf<V extends ProtocolVersion>(run: RepairRun): RepairResult<V> {
  return { result: run.document as CallToolResult<V>, fixes: run.fixes };
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
}

function messageTarget(options: RepairMessageOptions): RepairTarget {
  const version = options.protocolVersion ?? LATEST_PROTOCOL_VERSION;
  const request = isObject(options.request) ? options.request : undefined;
  const tools = toolsByName(options.tools);
  return {
    version,
    resultPath: (document) =>
      isObject(document) &&
      Object.hasOwn(document, 'result') &&
      (request?.method === 'tools/call' || responseKind(document.result, request) === 'tools/call')
        ? ['result']
        : undefined,
    validate: (document, run) => runMessage(document, { version, request, tools, ...run }),
  };
}

export async function repairMessage(
  message: unknown,
  options: RepairMessageOptions = {},
): Promise<RepairMessageResult> {
  return messageResultOf(await runRepair(message, messageTarget(options)));
}

/** `repairMessage()` without waiting: payloads are sniffed by the synchronous sniffer only. */
export function repairMessageSync(message: unknown, options: RepairMessageOptions = {}): RepairMessageResult {
  return messageResultOf(runRepairSync(message, messageTarget(options)));
}

function messageResultOf(run: RepairRun): RepairMessageResult {
  return {
    message: run.document,
    fixes: run.fixes,
    remaining: run.remaining.map((f: EngineFinding) => publicFinding(f)),
  };
}
