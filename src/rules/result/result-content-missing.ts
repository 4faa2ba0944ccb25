import { isObject, type JsonObject } from '../../core/json.js';
import { ALL_VERSIONS, KNOWN_RESULT_TYPES } from '../../spec/versions.js';
import { MIRRORED_WEATHER, serialize, subjectObject } from '../support/call-tool-result.js';
import { CLINE_REQUIRES_CONTENT, pythonRejectsResult } from '../support/clients.js';
import { defineRule } from '../types.js';

/** CallToolResult members that are not payload. */
const RESERVED = new Set(['content', 'structuredContent', 'isError', 'resultType', '_meta', 'toolResult']);

/** Results of another kind that a tools/call may legitimately return instead of a CallToolResult. */
function isOtherResultKind(result: JsonObject, resultTypeRequired: boolean): boolean {
  // 2026-07-28: InputRequiredResult (and extension results such as `task`) carry no content. An unknown
  // resultType proves no other kind: it is judged as the CallToolResult the schema holds it to.
  const { resultType } = result;
  if (
    resultTypeRequired &&
    typeof resultType === 'string' &&
    resultType !== 'complete' &&
    KNOWN_RESULT_TYPES.includes(resultType)
  )
    return true;
  // 2025-11-25 task-augmented calls answer with CreateTaskResult `{ task }`.
  return isObject(result.task);
}

export default defineRule({
  id: 'result-content-missing',
  subject: 'result',
  severity: 'error',
  title: 'A CallToolResult must have `content`',
  rationale: [
    '`content` is required on `CallToolResult` in every protocol version, even when the tool returns',
    '`structuredContent` (then it SHOULD carry the serialized JSON). The TypeScript SDK v1 client',
    'defaults a missing `content` to `[]`, so the model sees nothing; older SDK releases and Cline reject',
    'the result outright ("expected array … path [\\"content\\"] Required", cloudflare/mcp-server-cloudflare',
    '#12), and the Python SDK requires the field. In 2026-07-28 an `InputRequiredResult`',
    '(`resultType: "input_required"`) has no content, and is not reported.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [
    CLINE_REQUIRES_CONTENT,
    pythonRejectsResult('`content` field required'),
    {
      client: 'ts-sdk-v1',
      effect: 'drops-content',
      detail: '`content` defaults to `[]`: the call succeeds and shows nothing',
      source: 'modelcontextprotocol/typescript-sdk v1.29.0 src/types.ts (CallToolResultSchema); reproduced',
    },
  ],
  messages: {
    default: 'the result has no "content" array',
  },
  fix: 'Add `content`: a text block with the output (for structured output, its JSON).',
  examples: {
    wrong: { value: { structuredContent: { temperature: 22 } }, protocolVersion: '2025-06-18' },
    right: {
      value: MIRRORED_WEATHER,
      protocolVersion: '2025-06-18',
    },
  },
  check(result, ctx) {
    if (!isObject(result) || Object.hasOwn(result, 'content')) return;
    // A legacy `toolResult` envelope is reported, and repaired, by result-legacy-tool-result.
    if (Object.hasOwn(result, 'toolResult')) return;
    if (isOtherResultKind(result, ctx.features.resultTypeRequired)) return;
    ctx.report({ path: ['content'] });
  },
  repair(ctx) {
    const result = subjectObject(ctx);
    if (!result || Object.hasOwn(result, 'content')) return undefined;
    if (result.structuredContent !== undefined) {
      result.content = [{ type: 'text', text: serialize(result.structuredContent) }];
      return { description: 'added content with a text block carrying the JSON of structuredContent' };
    }
    const payload = Object.fromEntries(Object.entries(result).filter(([key]) => !RESERVED.has(key)));
    if (Object.keys(payload).length > 0) {
      result.content = [{ type: 'text', text: serialize(payload) }];
      return {
        description: `added content with a text block carrying the JSON of ${Object.keys(payload).join(', ')}`,
      };
    }
    result.content = [];
    return { description: 'added an empty content array' };
  },
});
