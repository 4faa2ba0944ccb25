import { isObject } from '../../core/json.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { serialization, unreadableItself } from '../support/serialization.js';
import { defineRule } from '../types.js';

/** A result holding a BigInt: what a handler may return, which JSON cannot write. */
const WITH_BIGINT = { content: [{ type: 'text', text: 'rows counted' }], structuredContent: { rows: 12n } };

export default defineRule({
  id: 'result-not-serializable',
  subject: 'result',
  severity: 'error',
  title: 'A result must be a value JSON can write',
  rationale: [
    'Every transport sends a result as JSON text. `JSON.stringify` throws on a BigInt (unless the program',
    'defines `BigInt.prototype.toJSON`), on a circular reference, and where reading the value runs code',
    'that throws (a `toJSON` method, a getter, a revoked proxy), and on a text longer than a string can',
    'be (a value built from shared parts, `a = [b, b]`, `b = [c, c]`…, stands for exponentially many),',
    'so a result holding one never leaves the server, whichever client asked. The official TypeScript SDK',
    'catches the failed send ("Failed to send response") and answers nothing, so the client waits until',
    'its request times out (tested over a real pipe). Only a JS value can be such a result',
    '(parsed JSON never is), so this rule speaks to the library: the validators judge what JSON would',
    'send of a value, and of these it sends nothing; `toolResult()`, `shaped()` and `repair()` convert',
    'what JSON cannot write before they judge it.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  // No client in particular: none receives the result.
  clients: [],
  messages: {
    default:
      'the result cannot be serialized: {{reason}}, so JSON.stringify throws and no client receives it',
  },
  fix: 'Return only what JSON can write: a BigInt as a number or a string, no circular reference, nothing that throws when read (or shape the value with toolResult()).',
  examples: {
    wrong: {
      value: WITH_BIGINT,
      source: "{ content: [{ type: 'text', text: 'rows counted' }], structuredContent: { rows: 12n } }",
      protocolVersion: '2025-06-18',
    },
    right: {
      value: { content: [{ type: 'text', text: '{"rows":12}' }], structuredContent: { rows: 12 } },
      protocolVersion: '2025-06-18',
    },
  },
  needsCompleteDocument: true,
  check(result, ctx) {
    const itself = unreadableItself(result);
    if (itself !== undefined) return ctx.report({ data: { reason: itself } });
    if (!isObject(result)) return;
    const serialized = serialization(result);
    if ('unserializable' in serialized) ctx.report({ data: { reason: serialized.unserializable } });
  },
});
