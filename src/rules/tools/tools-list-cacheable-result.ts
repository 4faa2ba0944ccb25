import { isObject } from '../../core/json.js';
import { KNOWN_RESULT_TYPES, versionsFrom } from '../../spec/versions.js';
import { describeType, subjectObject } from '../support/call-tool-result.js';
import { defineRule } from '../types.js';

const CACHE_SCOPES = ['public', 'private'];

const FIELDS = ['resultType', 'ttlMs', 'cacheScope'] as const;
type Field = (typeof FIELDS)[number];

/** What each field may hold; anything else is reported under the field's own message. */
const VALID: Record<Field, (value: unknown) => boolean> = {
  ttlMs: (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0,
  cacheScope: (v) => CACHE_SCOPES.includes(v as string),
  resultType: (v) => typeof v === 'string' && KNOWN_RESULT_TYPES.includes(v),
};

export default defineRule({
  id: 'tools-list-cacheable-result',
  subject: 'tools-list',
  severity: 'error',
  title: '2026-07-28 tools/list results need `resultType`, `ttlMs` and `cacheScope`',
  rationale: [
    'In 2026-07-28 `ListToolsResult` is a `CacheableResult` (SEP-2549): `ttlMs` (an integer ≥ 0, how long',
    'the client MAY cache the list) and `cacheScope` (`"public"` or `"private"`) are required, and like',
    'every result it MUST carry `resultType` (SEP-2322). Without them a 2026 client cannot tell how long',
    'the tool list stays valid or whether a shared cache may serve it to another user.',
  ].join('\n'),
  versions: versionsFrom('2026-07-28'),
  clients: [],
  messages: {
    default: 'the tools/list result has no "{{field}}"; protocol 2026-07-28 requires it',
    ttlMs: '"ttlMs" is {{actual}}; it must be an integer ≥ 0',
    cacheScope: '"cacheScope" is {{actual}}; it must be "public" or "private"',
    resultType: '"resultType" is {{actual}}; a tools/list result is "complete"',
  },
  fix: 'Add `"resultType": "complete", "ttlMs": 0, "cacheScope": "private"` (or longer, public caching when safe).',
  examples: {
    wrong: { value: { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] } },
    right: {
      value: {
        resultType: 'complete',
        ttlMs: 60000,
        cacheScope: 'public',
        tools: [{ name: 'echo', inputSchema: { type: 'object' } }],
      },
    },
  },
  check(list, ctx) {
    if (!isObject(list)) return;
    for (const field of FIELDS) {
      if (!Object.hasOwn(list, field)) ctx.report({ path: [field], data: { field } });
    }
    const actual = (v: unknown) =>
      typeof v === 'string' || typeof v === 'number' ? JSON.stringify(v) : describeType(v);
    for (const field of ['ttlMs', 'cacheScope', 'resultType'] as const) {
      const value = list[field];
      if (value !== undefined && !VALID[field](value)) {
        ctx.report({ messageId: field, path: [field], data: { actual: actual(value) } });
      }
    }
  },
  repair(ctx) {
    const list = subjectObject(ctx);
    const field = ctx.findingPath[ctx.findingPath.length - 1];
    if (!list) return undefined;
    // The conservative values: immediately stale, and never shared across authorization contexts.
    const safe: Record<string, unknown> = { resultType: 'complete', ttlMs: 0, cacheScope: 'private' };
    if (typeof field !== 'string' || !Object.hasOwn(safe, field)) return undefined;
    const before = list[field];
    // A finding that no longer holds: a valid value (a longer ttlMs, say) is not overwritten.
    if (Object.hasOwn(list, field) && VALID[field as Field](before)) return undefined;
    list[field] = safe[field];
    return {
      description: `${before === undefined ? 'added' : `replaced ${JSON.stringify(before)} with`} "${field}": ${JSON.stringify(safe[field])}`,
    };
  },
});
