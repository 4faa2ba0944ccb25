import { isObject, jsonTypeOf } from '../../core/json.js';
import { getIn } from '../../core/pointer.js';
import { versionsFrom } from '../../spec/versions.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'structured-content-not-object',
  subject: 'result',
  severity: 'error',
  title: 'structuredContent must be a JSON object before 2026-07-28',
  rationale: [
    'In 2025-06-18 and 2025-11-25 `CallToolResult.structuredContent` is `{ type: "object" }`: arrays,',
    'primitives and `null` fail the official schema. SDK v1 clients parse it as a record and reject the',
    'whole result. 2026-07-28 allows any JSON value; the SDK v2 convention for older peers is to wrap',
    'the value as `{ "result": value }` and declare the outputSchema accordingly.',
  ].join('\n'),
  versions: versionsFrom('2025-06-18', '2026-07-28'),
  clients: [
    {
      client: 'ts-sdk-v1',
      effect: 'rejects-call',
      detail: 'ZodError `expected record, received array` (or `received null`)',
      source: 'shared/reference/client-compat.md §3 (probe)',
    },
    {
      client: 'claude-code',
      effect: 'rejects-call',
      detail: '`Invalid input: expected record, received array`',
      source: 'naw103/foremerge PR #28',
    },
    {
      client: 'claude-desktop',
      effect: 'rejects-call',
      detail: '"Tool execution failed"',
      source: 'laravel/mcp #339; longbridge/longbridge-mcp PR #150',
    },
    {
      client: 'gemini-cli',
      effect: 'rejects-call',
      detail: 'tool error `Invalid input: expected record, received null`',
      source: 'google-gemini/gemini-cli #15375',
    },
    {
      client: 'python-sdk',
      effect: 'rejects-call',
      detail: '`structuredContent: dict` ValidationError',
      source: 'python-sdk src/mcp/types.py',
    },
  ],
  messages: {
    default: 'structuredContent is {{actual}}; this protocol version requires a JSON object',
  },
  fix: 'Wrap the value as `{ "result": <value> }` (and the outputSchema as `{ type: "object", properties: { result: … } }`).',
  examples: {
    wrong: {
      value: { content: [{ type: 'text', text: '[1,2]' }], structuredContent: [1, 2] },
      protocolVersion: '2025-06-18',
    },
    right: {
      value: { content: [{ type: 'text', text: '{"result":[1,2]}' }], structuredContent: { result: [1, 2] } },
      protocolVersion: '2025-06-18',
    },
  },
  check(result, ctx) {
    if (!isObject(result) || !Object.hasOwn(result, 'structuredContent')) return;
    const value = result.structuredContent;
    if (value === undefined || isObject(value)) return;
    ctx.report({
      path: ['structuredContent'],
      data: { actual: jsonTypeOf(value) === 'null' ? 'null' : `a JSON ${jsonTypeOf(value)}` },
    });
  },
  repair(ctx) {
    const result = getIn(ctx.root, ctx.subjectPath);
    if (!isObject(result)) return undefined;
    result.structuredContent = { result: result.structuredContent };
    return { description: 'wrapped structuredContent as { "result": value }' };
  },
});
