import { isObject } from '../../core/json.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { describeType, subjectObject } from '../support/call-tool-result.js';
import { pythonRejectsResult, sdkV1RejectsResult } from '../support/clients.js';
import { defineRule } from '../types.js';

/** Spellings of a boolean that servers send by mistake, and what they mean. */
const BOOLEAN_SPELLINGS: Readonly<Record<string, boolean>> = {
  true: true,
  false: false,
  '1': true,
  '0': false,
};

export default defineRule({
  id: 'result-is-error-not-boolean',
  subject: 'result',
  severity: 'error',
  title: '`isError` must be a boolean',
  rationale: [
    '`CallToolResult.isError` is an optional boolean in every protocol version. A string such as',
    '`"true"` fails the official schema, and the TypeScript SDK rejects the whole result ("expected',
    'boolean, received string"), so the error message the tool meant to show is lost as well. Gemini CLI',
    'accepts the string form in its own check, but its SDK rejects the result first.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [
    sdkV1RejectsResult('ZodError `expected boolean, received string`'),
    {
      client: 'gemini-cli',
      effect: 'rejects-call',
      detail: 'the SDK 1.23 ZodError becomes a tool error',
      source:
        'google-gemini/gemini-cli packages/core/src/tools/mcp-tool.ts (isMCPToolError), SDK 1.23.0 pinned; reproduced',
    },
    pythonRejectsResult('`isError: bool`'),
  ],
  messages: {
    default: '"isError" is {{actual}}; it must be true or false',
  },
  fix: 'Send `"isError": true` (or false, or leave it out).',
  examples: {
    wrong: {
      value: { content: [{ type: 'text', text: 'not found' }], isError: 'true' },
      protocolVersion: '2025-06-18',
    },
    right: {
      value: { content: [{ type: 'text', text: 'not found' }], isError: true },
      protocolVersion: '2025-06-18',
    },
  },
  check(result, ctx) {
    if (!isObject(result) || !Object.hasOwn(result, 'isError')) return;
    const value = result.isError;
    if (typeof value === 'boolean' || value === undefined) return;
    const actual = typeof value === 'string' ? `the string ${JSON.stringify(value)}` : describeType(value);
    ctx.report({ path: ['isError'], data: { actual } });
  },
  repair(ctx) {
    const result = subjectObject(ctx);
    if (!result) return undefined;
    const value = result.isError;
    if (value === null) {
      delete result.isError;
      return { description: 'removed "isError": null (absent means false)' };
    }
    const meaning =
      typeof value === 'string' || typeof value === 'number'
        ? BOOLEAN_SPELLINGS[String(value).trim().toLowerCase()]
        : undefined;
    if (meaning === undefined) return undefined;
    result.isError = meaning;
    return { description: `converted "isError" ${JSON.stringify(value)} to ${meaning}` };
  },
});
