import { isObject } from '../../core/json.js';
import { versionsFrom } from '../../spec/versions.js';
import {
  describeType,
  isTextMirrorOf,
  serialize,
  subjectObject,
  textBlocks,
} from '../support/call-tool-result.js';
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
    '',
    '2024-11-05 and 2025-03-26 have no `structuredContent`, but the SDK v1 client parses the field with',
    'the same record schema whatever version it negotiated, so a non-object value there fails the call too.',
  ].join('\n'),
  versions: versionsFrom('2024-11-05', '2026-07-28'),
  clients: [
    {
      client: 'ts-sdk-v1',
      effect: 'rejects-call',
      detail: 'ZodError `expected record, received array` (or `received null`)',
      source: 'modelcontextprotocol/typescript-sdk v1.29.0 src/types.ts (CallToolResultSchema); reproduced',
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
    const value = isObject(result) ? result.structuredContent : undefined;
    if (value !== undefined && !isObject(value)) {
      ctx.report({ path: ['structuredContent'], data: { actual: describeType(value) } });
    }
  },
  repair(ctx) {
    const result = subjectObject(ctx);
    const value = result?.structuredContent;
    // As the check: undefined is no structuredContent (JSON leaves it out), so nothing to wrap.
    if (!result || value === undefined || isObject(value)) return undefined;
    const wrapped = { result: value };
    // Keep an existing text mirror in step, or the mirror rules would now see a disagreement.
    let mirrors = 0;
    for (const { index } of textBlocks(result).filter(({ text }) => isTextMirrorOf(text, value))) {
      const block = (result.content as unknown[])[index];
      if (isObject(block)) block.text = serialize(wrapped);
      mirrors++;
    }
    result.structuredContent = wrapped;
    return {
      description: `wrapped structuredContent as { "result": value }${mirrors > 0 ? ' and updated its text mirror' : ''}`,
    };
  },
});
