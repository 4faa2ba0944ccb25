import { isObject } from '../../core/json.js';
import { KNOWN_RESULT_TYPES, versionsFrom } from '../../spec/versions.js';
import { describeType, subjectObject } from '../support/call-tool-result.js';
import { defineRule } from '../types.js';

const CACHE_SCOPES = ['public', 'private'];

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
    for (const field of ['resultType', 'ttlMs', 'cacheScope'] as const) {
      if (!Object.hasOwn(list, field)) ctx.report({ path: [field], data: { field } });
    }
    const { ttlMs, cacheScope, resultType } = list;
    const actual = (v: unknown) =>
      typeof v === 'string' || typeof v === 'number' ? JSON.stringify(v) : describeType(v);
    if (ttlMs !== undefined && !(typeof ttlMs === 'number' && Number.isInteger(ttlMs) && ttlMs >= 0)) {
      ctx.report({ messageId: 'ttlMs', path: ['ttlMs'], data: { actual: actual(ttlMs) } });
    }
    if (cacheScope !== undefined && !CACHE_SCOPES.includes(cacheScope as string)) {
      ctx.report({ messageId: 'cacheScope', path: ['cacheScope'], data: { actual: actual(cacheScope) } });
    }
    if (
      resultType !== undefined &&
      !(typeof resultType === 'string' && KNOWN_RESULT_TYPES.includes(resultType))
    ) {
      ctx.report({ messageId: 'resultType', path: ['resultType'], data: { actual: actual(resultType) } });
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
    list[field] = safe[field];
    return {
      description: `${before === undefined ? 'added' : `replaced ${JSON.stringify(before)} with`} "${field}": ${JSON.stringify(safe[field])}`,
    };
  },
});
