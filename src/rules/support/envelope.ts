/** What kind of JSON-RPC message an envelope is, judged by its members. */

import type { ClientImpact } from '../../clients/catalog.js';
import { isObject, type JsonObject } from '../../core/json.js';

export type MessageKind = 'request' | 'notification' | 'response' | 'not-an-object';

export function messageKind(message: unknown): MessageKind {
  if (!isObject(message)) return 'not-an-object';
  if (Object.hasOwn(message, 'method')) return Object.hasOwn(message, 'id') ? 'request' : 'notification';
  return 'response';
}

/** Whether a message is a response (an object without `method`), narrowed for the rules that judge one. */
export function isResponse(message: unknown): message is JsonObject {
  return messageKind(message) === 'response';
}

/** The members that make a JSON object a JSON-RPC message; an object with none of them is some other JSON. */
export const JSONRPC_MEMBERS: readonly string[] = ['jsonrpc', 'method', 'id', 'result', 'error'];

/**
 * Whether a parsed frame is at least shaped like JSON-RPC: an object with one of its members (the
 * envelope rules judge the rest), or an array (a batch, judged by envelope-batch). A string, a number,
 * or an object such as a JSON log line `{"level":30,"msg":"listening"}` is not.
 */
export function isJsonRpcShaped(value: unknown): boolean {
  if (Array.isArray(value)) return true;
  return isObject(value) && JSONRPC_MEMBERS.some((member) => Object.hasOwn(value, member));
}

export function isErrorResponse(message: JsonObject): boolean {
  return Object.hasOwn(message, 'error') && !Object.hasOwn(message, 'result');
}

/**
 * The official TypeScript SDK parses every incoming message with strict envelope schemas; one that
 * fails is handed to `transport.onerror` and never reaches the pending request, which then times out.
 */
export const SDK_DROPS_ENVELOPE: readonly ClientImpact[] = [
  {
    client: 'ts-sdk-v1',
    effect: 'drops-message',
    detail: '`JSONRPCMessageSchema.parse` fails in the transport; the call times out with McpError -32001',
    source:
      '@modelcontextprotocol/sdk 1.32.2 dist/esm/types.js (JSON-RPC envelopes are .strict(): the transport drops the message); reproduced, the call times out',
  },
  {
    client: 'ts-sdk-v2',
    effect: 'drops-message',
    detail: 'envelope schemas are still `.strict()`; the call times out',
    source:
      '@modelcontextprotocol/client 2.4.0 (envelope schemas are .strict()); reproduced, the call times out',
  },
  {
    client: 'claude-code',
    effect: 'drops-message',
    detail: 'built on the TypeScript SDK: the tool call hangs',
    source: 'inferred from the SDK transport',
  },
  {
    client: 'gemini-cli',
    effect: 'drops-message',
    detail: 'built on the TypeScript SDK 1.23: the tool call hangs',
    source: 'inferred from the SDK transport',
  },
];
