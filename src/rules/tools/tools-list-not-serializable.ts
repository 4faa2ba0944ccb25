import { mayBeUnwritable } from '../../core/run-memo.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { unserializableMember } from '../support/serialization.js';
import { defineRule } from '../types.js';

/** A tools/list result whose tool carries a BigInt in its `_meta`. */
const WITH_BIGINT = {
  tools: [{ name: 'count_rows', inputSchema: { type: 'object' }, _meta: { maxRows: 10_000n } }],
};

export default defineRule({
  id: 'tools-list-not-serializable',
  subject: 'tools-list',
  severity: 'error',
  title: 'A tools/list result must be a value JSON can write',
  rationale: [
    'Every transport sends a result as JSON text. `JSON.stringify` throws on a BigInt, on a circular',
    'reference, and where reading the value runs code that throws (a getter, a revoked proxy, a `toJSON`),',
    'so a tools/list result holding one never leaves the server: the client never learns a single tool,',
    'and waits until its request times out. Only a JS value can be such a result (parsed JSON never',
    'is), so this rule speaks to the library validators, where a server checks the tool definitions it',
    'is about to serve. The cause is placed at the tool that holds it.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  // No client in particular: none receives the list.
  clients: [],
  messages: {
    default:
      'the tools/list result cannot be serialized: {{reason}}, so JSON.stringify throws and no client receives it',
  },
  fix: 'Put only what JSON can write in a tool definition: a BigInt as a number or a string, no circular reference (a schema that refers to itself does so with `$ref`), nothing that throws when read.',
  examples: {
    wrong: {
      value: WITH_BIGINT,
      source:
        "{ tools: [{ name: 'count_rows', inputSchema: { type: 'object' }, _meta: { maxRows: 10_000n } }] }",
      protocolVersion: '2025-06-18',
    },
    right: {
      value: { tools: [{ name: 'count_rows', inputSchema: { type: 'object' }, _meta: { maxRows: 10_000 } }] },
      protocolVersion: '2025-06-18',
    },
  },
  needsCompleteDocument: true,
  check(list, ctx) {
    // Parsed JSON, and every value the validators could copy as sent, is writable: nothing to ask.
    if (!mayBeUnwritable()) return;
    const unserializable = unserializableMember(list, { items: 'tools' });
    if (unserializable !== undefined) {
      ctx.report({ path: unserializable.path, data: { reason: unserializable.reason } });
    }
  },
});
