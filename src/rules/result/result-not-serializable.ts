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
    'that throws (a `toJSON` method, a getter, a revoked proxy), on a text longer than a string can',
    'be (a value built from shared parts, `a = [b, b]`, `b = [c, c]`…, stands for exponentially many),',
    'and on a value nested deeper than its call stack reaches (about 4,000 levels in Node; `JSON.parse`',
    'reads deeper), so a result holding one never leaves the server, whichever client asked. The official',
    'TypeScript SDK catches the failed send ("Failed to send response") and answers nothing, so the client',
    'waits until its request times out (tested over a real pipe). This rule speaks to the library, which',
    'judges values before they are written (the command line and the proxy write what they read with a',
    'writer of their own, at any depth): the validators judge what JSON would send of a value, and of',
    'these it sends nothing; `toolResult()`, `shaped()` and `repair()` convert what JSON cannot write',
    'before they judge it, leaving out what is nested past 1,000 levels when the depth alone is the cause.',
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
