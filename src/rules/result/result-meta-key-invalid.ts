import { isObject } from '../../core/json.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { subjectObject } from '../support/call-tool-result.js';
import { sdkV1RejectsResult } from '../support/clients.js';
import { expectedOf, metaKeyDefects } from '../support/meta-keys.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'result-meta-key-invalid',
  subject: 'result',
  severity: 'error',
  title: "A result's `_meta.progressToken` and related-task entry must have their types",
  rationale: [
    'Two keys of `_meta` are typed by the TypeScript SDK v1: `progressToken` (a string or an integer)',
    'and `io.modelcontextprotocol/related-task` (`{ "taskId": string }`). It parses every result\'s',
    '`_meta` with those types, whatever the protocol version; a result with another value there fails',
    'its parse, and the client drops the response, so the call waits until it times out. The',
    "schema.json (and the SDK v2) leave a result's `_meta` open, so only the v1 client is named here.",
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [
    sdkV1RejectsResult('a ZodError at `_meta` (its ResultSchema types `progressToken` and the related task)'),
  ],
  messages: {
    default: '"_meta.{{key}}" is {{actual}}; {{expected}}',
  },
  fix: 'Leave these keys out of a result, or give them their types: `progressToken` a string or integer, the related task `{ "taskId": "…" }`.',
  examples: {
    wrong: { value: { content: [], _meta: { progressToken: { id: 1 } } }, protocolVersion: '2025-06-18' },
    right: { value: { content: [], _meta: { progressToken: 'call-1' } }, protocolVersion: '2025-06-18' },
  },
  check(result, ctx) {
    if (!isObject(result) || !Object.hasOwn(result, '_meta') || !isObject(result._meta)) return;
    for (const [key, actual] of metaKeyDefects(result._meta)) {
      ctx.report({ path: ['_meta', key], data: { key, actual, expected: expectedOf(key) } });
    }
  },
  repair(ctx) {
    const meta = subjectObject(ctx)?._meta;
    const key = ctx.data.key;
    // A finding that no longer holds (the key is gone or fixed) has nothing to remove.
    if (!isObject(meta) || typeof key !== 'string' || !metaKeyDefects(meta).some(([k]) => k === key))
      return undefined;
    const value = meta[key];
    delete meta[key];
    return { description: `removed "_meta.${key}" (${JSON.stringify(value) ?? 'undefined'})`, lossy: true };
  },
});
