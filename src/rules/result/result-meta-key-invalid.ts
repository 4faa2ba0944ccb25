import { isObject, type JsonObject } from '../../core/json.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { describeType, subjectObject } from '../support/call-tool-result.js';
import { sdkV1RejectsResult } from '../support/clients.js';
import { defineRule } from '../types.js';

const PROGRESS_TOKEN = 'progressToken';
const RELATED_TASK = 'io.modelcontextprotocol/related-task';

/** Why the value of one of the two `_meta` keys the SDK types fails its type; `undefined` when it is fine. */
function defect(key: string, value: unknown): string | undefined {
  if (key === PROGRESS_TOKEN) {
    if (typeof value === 'string' || Number.isSafeInteger(value)) return undefined;
    return typeof value === 'number' ? 'a number that is no integer' : describeType(value);
  }
  if (isObject(value) && typeof value.taskId === 'string') return undefined;
  return isObject(value) ? 'an object without a string "taskId"' : describeType(value);
}

/** The keys of `_meta` whose values fail their type, with why. */
function defects(meta: JsonObject): [string, string][] {
  const out: [string, string][] = [];
  for (const key of [PROGRESS_TOKEN, RELATED_TASK]) {
    if (!Object.hasOwn(meta, key) || meta[key] === undefined) continue;
    const why = defect(key, meta[key]);
    if (why) out.push([key, why]);
  }
  return out;
}

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
    for (const [key, actual] of defects(result._meta)) {
      const expected =
        key === PROGRESS_TOKEN
          ? 'it must be a string or an integer'
          : 'it must be an object with a string "taskId"';
      ctx.report({ path: ['_meta', key], data: { key, actual, expected } });
    }
  },
  repair(ctx) {
    const meta = subjectObject(ctx)?._meta;
    const key = ctx.data.key;
    // A finding that no longer holds (the key is gone or fixed) has nothing to remove.
    if (!isObject(meta) || typeof key !== 'string' || !defects(meta).some(([k]) => k === key))
      return undefined;
    const value = meta[key];
    delete meta[key];
    return { description: `removed "_meta.${key}" (${JSON.stringify(value) ?? 'undefined'})`, lossy: true };
  },
});
