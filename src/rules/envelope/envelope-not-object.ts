import { jsonTypeOf } from '../../core/json.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { SDK_DROPS_ENVELOPE } from '../support/envelope.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'envelope-not-object',
  subject: 'message',
  severity: 'error',
  title: 'A JSON-RPC message must be a JSON object',
  rationale: [
    'Every `JSONRPCMessage` in every schema.json is an object with `jsonrpc` and either `method` or `id`',
    'plus `result`/`error`; only 2025-03-26 adds arrays of messages (batches, see `envelope-batch`). A',
    'bare string, number, boolean or `null` where a message belongs is no message at all: strict clients',
    'drop it, and whatever the server meant to answer is lost.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: SDK_DROPS_ENVELOPE,
  messages: {
    default: 'the message is {{type}}, not a JSON-RPC message object',
  },
  fix: 'Send a JSON-RPC object: {"jsonrpc":"2.0","id":…,"result":…}.',
  examples: {
    wrong: { value: 'done' },
    right: { value: { jsonrpc: '2.0', id: 1, result: { resultType: 'complete', content: [] } } },
  },
  check(message, ctx) {
    if (Array.isArray(message) || (typeof message === 'object' && message !== null)) return;
    ctx.report({ data: { type: message === null ? 'null' : `a bare ${jsonTypeOf(message)}` } });
  },
});
