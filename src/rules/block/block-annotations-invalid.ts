import { isObject, type JsonObject, jsonTypeOf } from '../../core/json.js';
import { ALL_VERSIONS, BLOCK_TYPES } from '../../spec/versions.js';
import { defineRule, type RepairOutcome } from '../types.js';
import { blockAt, preview } from './support/block.js';
import { tsSdkRejects } from './support/clients.js';
import { isIsoDateTimeWithOffset } from './support/datetime.js';

const ROLES = ['user', 'assistant'];

export default defineRule({
  id: 'block-annotations-invalid',
  subject: 'block',
  severity: 'error',
  title: 'Block annotations must follow the Annotations shape',
  rationale: [
    '`annotations` is an object with an optional `audience` (an array of `"user"` / `"assistant"`), a',
    '`priority` number from 0 to 1, and (2025-06-18 on) `lastModified`, an ISO 8601 timestamp such as',
    '`2025-01-12T15:00:58Z`. The schema enforces audience and priority in every version. The official',
    'TypeScript SDK (1.2x on) validates all three, `lastModified` as an RFC 3339 date-time with seconds and',
    'an offset, whatever version was negotiated, and rejects the whole result when one is off.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [
    tsSdkRejects(
      'ZodError (`Too big: expected number to be <=1`, audience enum, `lastModified` "2025-01-12")',
    ),
    {
      client: 'python-sdk',
      effect: 'rejects-call',
      detail: 'pydantic ValidationError: `priority` ge 0 le 1, `audience: list[Literal["user","assistant"]]`',
      source: 'python-sdk src/mcp/types.py v1.29',
    },
    {
      client: 'codex',
      effect: 'rejects-call',
      detail:
        'rmcp parses `audience: Vec<Role>`: a bad role fails the result. One build (0.148) also failed on a valid fractional priority such as 0.6 (a client bug)',
      source: 'rmcp model/content.rs (inferred); openai/codex #38979',
    },
  ],
  messages: {
    default: 'annotations must be an object, got {{actual}}',
    audienceNotArray: 'annotations.audience must be an array of "user" / "assistant", got {{actual}}',
    audience: 'annotations.audience contains {{value}}; only "user" and "assistant" are roles',
    priority: 'annotations.priority must be a number from 0 to 1, got {{value}}',
    lastModified:
      'annotations.lastModified {{value}} is not an ISO 8601 date-time with a time zone (e.g. 2025-01-12T15:00:58Z)',
  },
  fix: 'Use `audience: ["user" | "assistant"]`, `priority` between 0 and 1, and `lastModified` like `2025-01-12T15:00:58Z`.',
  examples: {
    wrong: { value: { type: 'text', text: 'Hello', annotations: { audience: ['model'], priority: 2 } } },
    right: { value: { type: 'text', text: 'Hello', annotations: { audience: ['assistant'], priority: 1 } } },
  },
  check(block, ctx) {
    if (!isObject(block) || !(BLOCK_TYPES as readonly unknown[]).includes(block.type)) return;
    if (!Object.hasOwn(block, 'annotations') || block.annotations === undefined) return;
    const a = block.annotations;
    if (!isObject(a)) {
      ctx.report({ path: ['annotations'], data: { actual: jsonTypeOf(a) } });
      return;
    }
    if (a.audience !== undefined) {
      if (!Array.isArray(a.audience)) {
        ctx.report({
          messageId: 'audienceNotArray',
          path: ['annotations', 'audience'],
          data: { actual: jsonTypeOf(a.audience) },
        });
      } else {
        a.audience.forEach((role, i) => {
          if (!ROLES.includes(role as string)) {
            ctx.report({
              messageId: 'audience',
              path: ['annotations', 'audience', i],
              data: { value: preview(role) },
            });
          }
        });
      }
    }
    if (a.priority !== undefined && !(typeof a.priority === 'number' && a.priority >= 0 && a.priority <= 1)) {
      ctx.report({
        messageId: 'priority',
        path: ['annotations', 'priority'],
        data: { value: preview(a.priority) },
      });
    }
    if (
      a.lastModified !== undefined &&
      !(typeof a.lastModified === 'string' && isIsoDateTimeWithOffset(a.lastModified))
    ) {
      ctx.report({
        messageId: 'lastModified',
        path: ['annotations', 'lastModified'],
        data: { value: preview(a.lastModified) },
      });
    }
  },
  repair(ctx) {
    const block = blockAt(ctx);
    if (!block) return undefined;
    if (!isObject(block.annotations)) {
      delete block.annotations;
      return { description: 'removed annotations that were not an object', lossy: true };
    }
    const a = block.annotations;
    switch (ctx.messageId) {
      case 'audienceNotArray':
      case 'audience':
        return repairAudience(a);
      case 'priority':
        return repairPriority(a);
      case 'lastModified':
        return repairLastModified(a);
      default:
        return undefined;
    }
  },
});

function repairAudience(a: JsonObject): RepairOutcome | undefined {
  const before = a.audience;
  const raw = Array.isArray(before) ? before : [before];
  const roles = [
    ...new Set(
      raw.map((r) => (typeof r === 'string' ? r.trim().toLowerCase() : '')).filter((r) => ROLES.includes(r)),
    ),
  ];
  // Already a list of distinct roles as written (an empty one too): the invalid role is gone already.
  if (Array.isArray(before) && roles.length === raw.length && roles.every((role, i) => role === raw[i])) {
    return undefined;
  }
  if (roles.length === 0) {
    delete a.audience;
    return {
      description: `removed annotations.audience ${preview(before)} (no valid role)`,
      lossy: true,
    };
  }
  const lossy = roles.length !== raw.length;
  a.audience = roles;
  return { description: `set annotations.audience to ${JSON.stringify(roles)}`, lossy };
}

function repairPriority(a: JsonObject): RepairOutcome {
  const before = a.priority;
  const n = typeof before === 'string' && before.trim() !== '' ? Number(before) : before;
  if (typeof n === 'number' && Number.isFinite(n)) {
    a.priority = Math.min(1, Math.max(0, n));
    return {
      description: `${n === a.priority ? 'converted' : 'clamped'} annotations.priority ${preview(before)} to ${a.priority}`,
      lossy: n !== a.priority,
    };
  }
  delete a.priority;
  return { description: `removed annotations.priority ${preview(before)}`, lossy: true };
}

function repairLastModified(a: JsonObject): RepairOutcome {
  const before = a.lastModified;
  const time =
    typeof before === 'string' || typeof before === 'number' ? Date.parse(String(before)) : Number.NaN;
  const parsed = typeof before === 'number' ? before : time;
  if (Number.isFinite(parsed) && Math.abs(parsed) < 8.64e15) {
    const iso = new Date(parsed).toISOString();
    if (isIsoDateTimeWithOffset(iso)) {
      a.lastModified = iso;
      return { description: `rewrote annotations.lastModified ${preview(before)} as ${iso}` };
    }
  }
  delete a.lastModified;
  return { description: `removed annotations.lastModified ${preview(before)}`, lossy: true };
}
