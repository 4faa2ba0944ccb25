import { isObject, jsonTypeOf } from '../../core/json.js';
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
    'drop it, and whatever the server meant to answer is lost. The same holds for each member of a batch:',
    '`JSONRPCBatchResponse` holds response objects only, so a member that is a number, a string, `null` or',
    'an array (a batch in a batch) answers nothing. An empty batch answers nothing either, and JSON-RPC 2.0',
    'says a server MUST NOT send one ("should return nothing at all").',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: SDK_DROPS_ENVELOPE,
  messages: {
    default: 'the message is {{type}}, not a JSON-RPC message object',
    member: 'member {{index}} of the batch is {{type}}, not a JSON-RPC message object',
    empty: 'the batch is empty: it holds no JSON-RPC message, and JSON-RPC forbids sending one',
  },
  fix: 'Send a JSON-RPC object: {"jsonrpc":"2.0","id":…,"result":…}.',
  examples: {
    wrong: { value: 'done' },
    right: { value: { jsonrpc: '2.0', id: 1, result: { resultType: 'complete', content: [] } } },
  },
  check(message, ctx) {
    if (Array.isArray(message)) {
      // The members that are objects are judged as messages on their own (check, audit); these are
      // judged nowhere else.
      if (message.length === 0) ctx.report({ messageId: 'empty' });
      message.forEach((member, index) => {
        if (!isObject(member))
          ctx.report({ messageId: 'member', path: [index], data: { index, type: typeOf(member) } });
      });
      return;
    }
    if (typeof message === 'object' && message !== null) return;
    ctx.report({ data: { type: typeOf(message) } });
  },
});

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : `a bare ${jsonTypeOf(value)}`;
}
