import { isObject } from '../../core/json.js';
import { versionsFrom } from '../../spec/versions.js';
import { subjectObject } from '../support/call-tool-result.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'structured-content-in-block',
  subject: 'result',
  severity: 'warning',
  title: '`structuredContent` belongs on the result, not inside a content block',
  rationale: [
    '`structuredContent` is a member of `CallToolResult`. Inside a content block it is an unknown member:',
    'the TypeScript SDK strips unknown block members, so the structured data never reaches the client,',
    'and the C# SDK client failed to deserialize such blocks ("The converter … read too much or not',
    'enough", modelcontextprotocol/csharp-sdk #955). Move it up to the result.',
  ].join('\n'),
  versions: versionsFrom('2025-06-18'),
  clients: [
    {
      client: 'ts-sdk-v1',
      effect: 'drops-content',
      detail: 'unknown block members are stripped: the structured data is lost',
      source:
        '@modelcontextprotocol/sdk 1.32.2 dist/esm/types.js (content blocks are z.object, unknown keys stripped); reproduced',
    },
  ],
  messages: {
    default: 'content block {{index}} carries "structuredContent"; it belongs on the result',
  },
  fix: "Move the value to the result's `structuredContent` and keep the block a plain text block.",
  examples: {
    wrong: {
      value: { content: [{ type: 'text', text: '{"a":1}', structuredContent: { a: 1 } }] },
      protocolVersion: '2025-06-18',
    },
    right: {
      value: { content: [{ type: 'text', text: '{"a":1}' }], structuredContent: { a: 1 } },
      protocolVersion: '2025-06-18',
    },
  },
  check(result, ctx) {
    if (!isObject(result) || !Array.isArray(result.content)) return;
    result.content.forEach((block, index) => {
      if (isObject(block) && Object.hasOwn(block, 'structuredContent')) {
        ctx.report({ path: ['content', index, 'structuredContent'], data: { index } });
      }
    });
  },
  repair(ctx) {
    const result = subjectObject(ctx);
    const index = Number(ctx.data.index);
    const block = result && Array.isArray(result.content) ? result.content[index] : undefined;
    if (!result || !isObject(block) || !Object.hasOwn(block, 'structuredContent')) return undefined;
    const value = block.structuredContent;
    delete block.structuredContent;
    const fits = ctx.features.structuredContent === 'any' || isObject(value);
    if (result.structuredContent === undefined && fits) {
      result.structuredContent = value;
      return { description: `moved structuredContent from content block ${index} to the result` };
    }
    return {
      description: `removed structuredContent from content block ${index} (clients strip it)`,
      lossy: true,
    };
  },
});
