import { everyClient } from '../../clients/catalog.js';
import { isObject, type JsonObject } from '../../core/json.js';
import type { PathSegment } from '../../core/pointer.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { type SdkRejection, sdkRejection } from '../support/sdk-rejection.js';
import { defineRule } from '../types.js';

/**
 * Every client: the result never leaves the server. What each one then shows is the error (a failed
 * call) instead of the tool's output.
 */
const EVERY_CLIENT = everyClient(
  'never receives the result: the server sends an error in its place',
  'server side: @modelcontextprotocol/sdk 1.32.2 server/index.js and server/mcp.js, @modelcontextprotocol/server 2.4.0, python-sdk v1.29.0 src/mcp/server/lowlevel/server.py (reproduced by fixtures/servers/sdk-v1-broken.mjs and sdk-v2-broken.mjs)',
);

interface Found {
  readonly rejection: SdkRejection;
  readonly path: readonly PathSegment[];
  readonly via: 'error' | 'isError';
}

/** The SDK's rejection in a response: its JSON-RPC error, or the text of an `isError` result. */
function rejectionIn(message: JsonObject): Found | undefined {
  const error = message.error;
  if (isObject(error) && typeof error.message === 'string') {
    const rejection = sdkRejection(error.message);
    return rejection && { rejection, path: ['error', 'message'], via: 'error' };
  }
  const result = message.result;
  if (!isObject(result) || result.isError !== true || !Array.isArray(result.content)) return undefined;
  for (const [index, block] of result.content.entries()) {
    if (!isObject(block) || block.type !== 'text' || typeof block.text !== 'string') continue;
    const rejection = sdkRejection(block.text);
    if (rejection) return { rejection, path: ['result', 'content', index, 'text'], via: 'isError' };
  }
  return undefined;
}

export default defineRule({
  id: 'result-rejected-by-server',
  subject: 'message',
  severity: 'error',
  title: "The server's own SDK must not reject the tool's result",
  rationale: [
    "The official SDKs check what a tool handler returns before sending it. A result that fails the SDK's",
    'CallToolResult schema (a made-up block type, an image without `mimeType`, a bare string) or whose',
    "structuredContent fails the tool's outputSchema never leaves the server: the TypeScript SDKs answer",
    'with a JSON-RPC -32602 error `Invalid tools/call result: …` or an `isError` result `Output validation',
    'error: …`, the Python SDK with an `isError` result holding the pydantic or jsonschema error. Every',
    'client, however lenient, gets the error instead of the output: the tool fails for everyone, on every',
    'call that returns that shape.',
    '',
    'The message names what the SDK rejected, condensed from its zod or pydantic issues',
    '(`content.0.type: expected text|image|audio|resource_link|resource, got "object"`). An SDK\'s',
    'rejection of the *arguments* (`Input validation error`) is not this rule: the audit reports it as',
    'information, since its own synthesized arguments may be at fault.',
    '',
    '`scan` reports it where the source shows that FastMCP surely fails to turn a return into a result: an',
    '`Image`, `Audio` or `File` given a `str` as `data` (FastMCP base64-encodes bytes, and raises on a',
    'str), or given neither `path` nor `data` (its constructor raises). FastMCP then sends an `isError`',
    'result in its place, on every call.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: EVERY_CLIENT,
  messages: {
    default: "the server's {{sdk}} rejected the tool's result before sending it ({{via}}): {{problem}}",
    structured:
      "the server's {{sdk}} rejected the tool's structuredContent against its outputSchema ({{via}}): {{problem}}",
  },
  fix: 'Return a valid CallToolResult from the handler (`toolResult()` or `shaped()` build one from any value), with structuredContent that matches the outputSchema.',
  examples: {
    wrong: {
      value: {
        jsonrpc: '2.0',
        id: 3,
        error: {
          code: -32602,
          message:
            'MCP error -32602: Invalid tools/call result: [{"expected":"object","code":"invalid_type","path":[],"message":"Invalid input: expected object, received string"}]',
        },
      },
      protocolVersion: '2025-06-18',
    },
    right: {
      value: { jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: 'hello' }] } },
      protocolVersion: '2025-06-18',
    },
  },
  check(message, ctx) {
    if (!isObject(message)) return;
    const method = ctx.request?.method;
    if (method !== undefined && method !== 'tools/call') return;
    const found = rejectionIn(message);
    if (!found || found.rejection.kind === 'arguments') return;
    ctx.report({
      messageId: found.rejection.kind === 'structured' ? 'structured' : 'default',
      path: found.path,
      data: {
        sdk: found.rejection.sdk,
        problem: found.rejection.problem,
        via: found.via === 'error' ? 'JSON-RPC error' : 'isError result',
      },
    });
  },
});
