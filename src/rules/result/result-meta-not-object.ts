import { isObject } from '../../core/json.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { describeType, subjectObject } from '../support/call-tool-result.js';
import { pythonRejectsResult, sdkV1RejectsResult } from '../support/clients.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'result-meta-not-object',
  subject: 'result',
  severity: 'error',
  title: "A result's `_meta` must be an object",
  rationale: [
    '`Result._meta` is reserved for protocol and vendor metadata and is `type: "object"` in every',
    'schema.json (2026-07-28: `ResultMetaObject`). A string or array there fails the official schema and',
    'the SDK result parsers.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [sdkV1RejectsResult('a ZodError at `_meta`'), pythonRejectsResult('`_meta` must be a dict')],
  messages: {
    default: '"_meta" is {{actual}}; it must be an object',
  },
  fix: 'Send metadata as an object, e.g. `"_meta": { "com.example/trace": "…" }`.',
  examples: {
    wrong: { value: { content: [], _meta: 'trace-1' }, protocolVersion: '2025-06-18' },
    right: {
      value: { content: [], _meta: { 'com.example/trace': 'trace-1' } },
      protocolVersion: '2025-06-18',
    },
  },
  check(result, ctx) {
    if (!isObject(result) || !Object.hasOwn(result, '_meta')) return;
    const meta = result._meta;
    if (meta === undefined || isObject(meta)) return;
    ctx.report({ path: ['_meta'], data: { actual: describeType(meta) } });
  },
  repair(ctx) {
    const result = subjectObject(ctx);
    // A finding that no longer holds (the member is gone or an object now) has nothing to remove.
    if (!result || result._meta === undefined || isObject(result._meta)) return undefined;
    const meta = result._meta;
    delete result._meta;
    return {
      description: `removed the non-object "_meta" (${JSON.stringify(meta) ?? 'undefined'})`,
      lossy: meta !== null,
    };
  },
});
