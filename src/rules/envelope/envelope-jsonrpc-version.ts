import { isObject, jsonTypeOf } from '../../core/json.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { subjectObject } from '../support/call-tool-result.js';
import { SDK_DROPS_ENVELOPE } from '../support/envelope.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'envelope-jsonrpc-version',
  subject: 'message',
  severity: 'error',
  title: 'Every JSON-RPC message needs `"jsonrpc": "2.0"`',
  rationale: [
    'MCP messages are JSON-RPC 2.0: every request, notification and response in every schema.json',
    'requires `jsonrpc` with the constant string `"2.0"` (not the number `2.0`, not `"2"`). The official',
    'TypeScript SDK checks it with `z.literal("2.0")`, so a response without it never reaches the',
    'pending request and the call hangs until its timeout.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: SDK_DROPS_ENVELOPE,
  messages: {
    default: 'the message has no "jsonrpc" member',
    wrong: '"jsonrpc" is {{actual}}; it must be the string "2.0"',
  },
  fix: 'Send `"jsonrpc": "2.0"` on every message.',
  examples: {
    wrong: { value: { id: 1, result: { content: [] } }, protocolVersion: '2025-06-18' },
    right: { value: { jsonrpc: '2.0', id: 1, result: { content: [] } }, protocolVersion: '2025-06-18' },
  },
  check(message, ctx) {
    if (!isObject(message)) return;
    if (!Object.hasOwn(message, 'jsonrpc')) {
      ctx.report({ path: ['jsonrpc'] });
    } else if (message.jsonrpc !== '2.0') {
      const actual = message.jsonrpc;
      ctx.report({
        messageId: 'wrong',
        path: ['jsonrpc'],
        data: {
          actual: typeof actual === 'string' ? JSON.stringify(actual) : `a JSON ${jsonTypeOf(actual)}`,
        },
      });
    }
  },
  repair(ctx) {
    const message = subjectObject(ctx);
    if (!message || message.jsonrpc === '2.0') return undefined;
    message.jsonrpc = '2.0';
    return { description: 'set "jsonrpc" to "2.0"' };
  },
});
