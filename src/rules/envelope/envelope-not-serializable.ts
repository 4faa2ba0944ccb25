import { mayBeUnwritable } from '../../core/run-memo.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { unserializableMember } from '../support/serialization.js';
import { defineRule } from '../types.js';

/** An error response whose `data` holds a BigInt: what a server's JS code may build, JSON cannot write. */
const WITH_BIGINT = {
  jsonrpc: '2.0',
  id: 7,
  error: { code: -32000, message: 'over quota', data: { used: 12n } },
};

export default defineRule({
  id: 'envelope-not-serializable',
  subject: 'message',
  severity: 'error',
  title: 'A JSON-RPC message must be a value JSON can write',
  rationale: [
    'Every transport sends a message as JSON text. `JSON.stringify` throws on a BigInt, on a circular',
    'reference, and where reading the value runs code that throws (a getter, a revoked proxy, a `toJSON`),',
    'so a message holding one anywhere never leaves the server: an error response whose `data` holds a',
    'BigInt answers nothing, and the client waits until its request times out. Only a JS value can be',
    'such a message (parsed JSON never is), so this rule speaks to the library validators. It judges what',
    'the message holds besides its `result`; result-not-serializable judges the result.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  // No client in particular: none receives the message.
  clients: [],
  messages: {
    default:
      'the message cannot be serialized: {{reason}}, so JSON.stringify throws and no client receives it',
  },
  fix: 'Put only what JSON can write in a message: a BigInt as a number or a string, no circular reference, nothing that throws when read.',
  examples: {
    wrong: {
      value: WITH_BIGINT,
      source:
        "{ jsonrpc: '2.0', id: 7, error: { code: -32000, message: 'over quota', data: { used: 12n } } }",
      protocolVersion: '2025-06-18',
    },
    right: {
      value: { jsonrpc: '2.0', id: 7, error: { code: -32000, message: 'over quota', data: { used: 12 } } },
      protocolVersion: '2025-06-18',
    },
  },
  needsCompleteDocument: true,
  check(message, ctx) {
    // Parsed JSON, and every value the validators could copy as sent, is writable: nothing to ask.
    if (!mayBeUnwritable()) return;
    // The result is result-not-serializable's.
    const unserializable = unserializableMember(message, { skip: 'result' });
    if (unserializable !== undefined) {
      ctx.report({ path: unserializable.path, data: { reason: unserializable.reason } });
    }
  },
});
