/**
 * `repair()` and `repairMessage()`: make a tool result, or a whole JSON-RPC message, conformant for the
 * negotiated protocol version, saying what changed. The guarantee (tested for every version in
 * test/library): no error-severity finding on the output, the official schema and the official SDK v1
 * client parser accept it, repair is idempotent, and a result with nothing to repair comes back as the
 * very same object with no fixes.
 */

import type { Finding } from '../../core/finding.js';
import { isObject } from '../../core/json.js';
import { assumedProtocolVersion, type ProtocolVersion } from '../../spec/versions.js';
import { responseKind, runMessage, runToolResult } from '../../validate/engine.js';
import { publicFinding, toolsByName } from '../../validate/index.js';
import type { CallToolResult, DefaultProtocolVersion } from '../types.js';
import { type Fix, type RepairTarget, runRepair, toolDefinition } from './engine.js';

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
}

export async function repair<V extends ProtocolVersion = DefaultProtocolVersion>(
  result: unknown,
  options: RepairOptions & { protocolVersion?: V } = {},
): Promise<RepairResult<V>> {
  const version = options.protocolVersion ?? assumedProtocolVersion(result);
  const tool = toolDefinition(options.tool);
  const target: RepairTarget = {
    version,
    tool,
    resultPath: () => [],
    validate: (document, sniffed) => runToolResult(document, { version, tool, sniffed }),
  };
  const run = await runRepair(result, target);
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

export async function repairMessage(
  message: unknown,
  options: RepairMessageOptions = {},
): Promise<RepairMessageResult> {
  const version = options.protocolVersion ?? assumedProtocolVersion(message);
  const request = isObject(options.request) ? options.request : undefined;
  const tools = toolsByName(options.tools);
  const target: RepairTarget = {
    version,
    resultPath: (document) =>
      isObject(document) &&
      Object.hasOwn(document, 'result') &&
      (request?.method === 'tools/call' || responseKind(document.result, request) === 'tools/call')
        ? ['result']
        : undefined,
    validate: (document, sniffed) => runMessage(document, { version, request, tools, sniffed }),
  };
  const run = await runRepair(message, target);
  return { message: run.document, fixes: run.fixes, remaining: run.remaining.map(publicFinding) };
}
