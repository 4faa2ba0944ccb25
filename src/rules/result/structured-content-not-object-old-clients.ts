import { isObject } from '../../core/json.js';
import { versionsFrom } from '../../spec/versions.js';
import { describeType } from '../support/call-tool-result.js';
import { pythonRejectsResult, sdkV1RejectsResult } from '../support/clients.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'structured-content-not-object-old-clients',
  subject: 'result',
  severity: 'warning',
  title: 'Non-object structuredContent is legal in 2026-07-28 but older clients reject it',
  rationale: [
    '2026-07-28 (SEP-2106) lets `structuredContent` be any JSON value, so an array, string or `null` is',
    'conformant. Clients built on the v1 SDKs still parse it as a record and fail the whole call, and a',
    'server cannot always tell which parser sits behind a client: Claude Code, Claude Desktop and Gemini',
    'CLI have all reported "expected record, received array/null". Wrapping the value as',
    '`{ "result": value }` (with a matching outputSchema) works everywhere.',
  ].join('\n'),
  versions: versionsFrom('2026-07-28'),
  clients: [
    sdkV1RejectsResult('ZodError `expected record, received array`'),
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
      source: 'laravel/mcp #339',
    },
    {
      client: 'gemini-cli',
      effect: 'rejects-call',
      detail: 'tool error `Invalid input: expected record, received null`',
      source: 'google-gemini/gemini-cli #15375',
    },
    pythonRejectsResult('`structuredContent: dict`'),
  ],
  messages: {
    default: 'structuredContent is {{actual}}; clients built on the v1 SDKs reject anything but an object',
  },
  fix: 'Return `{ "result": <value> }` and declare the outputSchema as an object with a `result` property.',
  examples: {
    wrong: {
      value: {
        resultType: 'complete',
        content: [{ type: 'text', text: '[1,2]' }],
        structuredContent: [1, 2],
      },
    },
    right: {
      value: {
        resultType: 'complete',
        content: [{ type: 'text', text: '{"result":[1,2]}' }],
        structuredContent: { result: [1, 2] },
      },
    },
  },
  check(result, ctx) {
    const value = isObject(result) ? result.structuredContent : undefined;
    if (value !== undefined && !isObject(value)) {
      ctx.report({ path: ['structuredContent'], data: { actual: describeType(value) } });
    }
  },
});
