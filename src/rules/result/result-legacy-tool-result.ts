import { isObject } from '../../core/json.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { MIRRORED_WEATHER, serialize, subjectObject } from '../support/call-tool-result.js';
import { CLINE_REQUIRES_CONTENT, pythonRejectsResult } from '../support/clients.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'result-legacy-tool-result',
  subject: 'result',
  severity: 'error',
  title: 'The 2024-10-07 `toolResult` envelope is not a CallToolResult',
  rationale: [
    'Protocol 2024-10-07 answered tools/call with `{ "toolResult": … }`. No published version since',
    'knows that shape: `CallToolResult` requires `content`. The TypeScript SDK v1 still accepts it through',
    '`CompatibilityCallToolResultSchema`, but `callTool()` then returns `content: []` and the value is',
    'lost; Cline and older SDKs reject it ("expected array … path [\\"content\\"] Required",',
    'cloudflare/mcp-server-cloudflare #12).',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [
    CLINE_REQUIRES_CONTENT,
    {
      client: 'ts-sdk-v1',
      effect: 'drops-content',
      detail: 'accepted with `content: []`: the tool output is lost',
      source: 'modelcontextprotocol/typescript-sdk v1.29.0 src/types.ts (CallToolResultSchema); reproduced',
    },
    pythonRejectsResult('`content` field required'),
  ],
  messages: {
    default: 'the result uses the legacy "toolResult" envelope and has no "content"',
  },
  fix: 'Return `{ "content": [{ "type": "text", "text": … }] }` (plus `structuredContent` for JSON data).',
  examples: {
    wrong: { value: { toolResult: { temperature: 22 } }, protocolVersion: '2025-06-18' },
    right: {
      value: MIRRORED_WEATHER,
      protocolVersion: '2025-06-18',
    },
  },
  check(result, ctx) {
    if (!isObject(result) || !Object.hasOwn(result, 'toolResult') || Object.hasOwn(result, 'content')) return;
    ctx.report({ path: ['toolResult'] });
  },
  repair(ctx) {
    const result = subjectObject(ctx);
    if (!result || !Object.hasOwn(result, 'toolResult') || Object.hasOwn(result, 'content')) return undefined;
    const value = result.toolResult;
    delete result.toolResult;
    if (typeof value === 'string') {
      result.content = [{ type: 'text', text: value }];
      return { description: 'replaced the legacy toolResult string with a text block' };
    }
    result.content = [{ type: 'text', text: serialize(value) }];
    const structured =
      ctx.features.structuredContent === 'any' ||
      (ctx.features.structuredContent === 'object' && isObject(value));
    if (structured && !Object.hasOwn(result, 'structuredContent')) {
      result.structuredContent = value;
      return {
        description: 'replaced the legacy toolResult with structuredContent and a text block of its JSON',
      };
    }
    return { description: 'replaced the legacy toolResult with a text block of its JSON' };
  },
});
