import type { ClientImpact } from '../../clients/catalog.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { defineRule } from '../types.js';

/**
 * Who drops a batch. The TypeScript SDK clients parse a stdio line and an SSE event with
 * `JSONRPCMessageSchema`, which has no array branch, so they drop a batch there (a Streamable HTTP
 * `application/json` body is parsed member by member: there they read it). The Python SDK's
 * `JSONRPCMessage` has no array branch either, and it parses every transport's message with it.
 */
const BATCH_DROPPED: readonly ClientImpact[] = [
  {
    client: 'ts-sdk-v1',
    effect: 'drops-message',
    detail:
      'on stdio and in SSE events `JSONRPCMessageSchema.parse` fails (no array branch) and the batch goes to `onerror`; every call in it times out with McpError -32001. An `application/json` Streamable HTTP body is read member by member',
    source:
      '@modelcontextprotocol/sdk 1.32.2 dist/esm/shared/stdio.js deserializeMessage, client/sse.js, client/streamableHttp.js (SSE events parsed one by one; only the application/json body has an Array.isArray branch); reproduced with StdioClientTransport over a child process and over Streamable HTTP: SSE times out, JSON is read',
  },
  {
    client: 'ts-sdk-v2',
    effect: 'drops-message',
    detail:
      'as v1: a batch on stdio or in an SSE event fails `JSONRPCMessageSchema` and every call in it times out (SdkError REQUEST_TIMEOUT); an `application/json` body is read member by member',
    source:
      '@modelcontextprotocol/client 2.4.0 deserializeMessage and StreamableHTTPClientTransport; reproduced with its StdioClientTransport over a child process and over Streamable HTTP: SSE times out, JSON is read',
  },
  {
    client: 'python-sdk',
    effect: 'drops-message',
    detail:
      '`JSONRPCMessage` (request | notification | response | error) rejects an array on every transport, JSON bodies too; the exception goes to the message handler and the call waits for an answer that never comes',
    source:
      'python-sdk v1.29.0 src/mcp/types.py JSONRPCMessage; src/mcp/client/stdio/__init__.py, src/mcp/client/sse.py and src/mcp/client/streamable_http.py (_handle_json_response, _handle_sse_event) parse each message with it',
  },
  {
    client: 'claude-code',
    effect: 'drops-message',
    detail: 'built on the TypeScript SDK: over stdio the tool call hangs',
    source: 'inferred from the SDK transport',
  },
  {
    client: 'gemini-cli',
    effect: 'drops-message',
    detail: 'built on the TypeScript SDK 1.23: over stdio the tool call hangs',
    source: 'inferred from the SDK transport',
  },
];

export default defineRule({
  id: 'envelope-batch',
  subject: 'message',
  severity: 'error',
  title: 'Send JSON-RPC messages one by one: the official SDK clients read no batch',
  rationale: [
    'A JSON array of messages (a JSON-RPC batch) is part of MCP only in 2025-03-26 (`JSONRPCBatchRequest`,',
    '`JSONRPCBatchResponse`). 2024-11-05 never had it and 2025-06-18 removed it (PR #416); later versions',
    'keep it out. `JSONRPCMessage` in those schemas is a single object.',
    '',
    'In 2025-03-26 the batch is valid, but the official SDK clients do not read one. The TypeScript SDK',
    '(v1 and v2) parses a stdio line and an SSE event with a message schema that has no array branch: the',
    'batch goes to `onerror` and every call in it hangs until it times out. Only an `application/json`',
    "Streamable HTTP body is read member by member. The Python SDK's `JSONRPCMessage` has no array branch",
    'on any transport. So the finding is an error in 2025-03-26 as well, for the clients, not the spec.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: BATCH_DROPPED,
  messages: {
    default: 'a JSON-RPC batch of {{messages}}; protocol {{version}} has no batching',
    clients:
      'a JSON-RPC batch of {{messages}}: protocol {{version}} allows it, but the official SDK clients drop it (the TypeScript SDK on stdio and SSE, the Python SDK on every transport), so every call in it hangs',
  },
  fix: 'Send each message on its own.',
  examples: {
    wrong: {
      value: [
        { jsonrpc: '2.0', id: 1, result: { content: [] } },
        { jsonrpc: '2.0', id: 2, result: { content: [] } },
      ],
      protocolVersion: '2025-03-26',
    },
    right: { value: { jsonrpc: '2.0', id: 1, result: { content: [] } }, protocolVersion: '2025-03-26' },
  },
  check(message, ctx) {
    if (!Array.isArray(message)) return;
    const messages = message.length === 1 ? '1 message' : `${message.length} messages`;
    const messageId = ctx.features.batching ? 'clients' : 'default';
    ctx.report({ messageId, data: { messages, version: ctx.version } });
  },
});
