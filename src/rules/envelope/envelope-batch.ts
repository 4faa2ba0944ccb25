import { versionsFrom } from '../../spec/versions.js';
import { SDK_DROPS_ENVELOPE } from '../support/envelope.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'envelope-batch',
  subject: 'message',
  severity: 'error',
  title: 'JSON-RPC batches exist only in protocol 2025-03-26',
  rationale: [
    'A JSON array of messages (a JSON-RPC batch) is part of MCP only in 2025-03-26 (`JSONRPCBatchRequest`,',
    '`JSONRPCBatchResponse`). 2024-11-05 never had it and 2025-06-18 removed it (PR #416); later versions',
    "keep it out. `JSONRPCMessage` in those schemas is a single object. The official TypeScript SDK's",
    'message schema has no array branch, so a batch is dropped and every call in it hangs.',
  ].join('\n'),
  versions: [...versionsFrom('2024-11-05', '2025-03-26'), ...versionsFrom('2025-06-18')],
  clients: SDK_DROPS_ENVELOPE,
  messages: {
    default: 'a JSON-RPC batch of {{messages}}; protocol {{version}} has no batching',
  },
  fix: 'Send each response as its own message.',
  examples: {
    wrong: {
      value: [
        { jsonrpc: '2.0', id: 1, result: { content: [] } },
        { jsonrpc: '2.0', id: 2, result: { content: [] } },
      ],
      protocolVersion: '2025-06-18',
    },
    right: { value: { jsonrpc: '2.0', id: 1, result: { content: [] } }, protocolVersion: '2025-06-18' },
  },
  check(message, ctx) {
    if (!Array.isArray(message)) return;
    const messages = message.length === 1 ? '1 message' : `${message.length} messages`;
    ctx.report({ data: { messages, version: ctx.version } });
  },
});
