import { isObject, jsonTypeOf } from '../../core/json.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { describeType, serialize, subjectObject } from '../support/call-tool-result.js';
import { pythonRejectsResult, sdkV1RejectsResult } from '../support/clients.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'result-content-not-array',
  subject: 'result',
  severity: 'error',
  title: '`content` must be an array of content blocks',
  rationale: [
    '`CallToolResult.content` is an array of content blocks in every protocol version. A plain string',
    '(`"content": "hello"`) is the most common mistake: the TypeScript SDK rejects the whole result with',
    '"expected array, received string", and Claude.ai reports "Error occurred during tool execution"',
    '(GopherSecurity/gopher-mcp #202).',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [
    sdkV1RejectsResult('ZodError `expected array, received string`'),
    {
      client: 'claude-desktop',
      effect: 'rejects-call',
      detail: '`Error occurred during tool execution`',
      source: 'GopherSecurity/gopher-mcp #202',
    },
    pythonRejectsResult('`content` must be a list'),
  ],
  messages: {
    default: '"content" is {{actual}}; it must be an array of content blocks',
    string: '"content" is a string; it must be an array such as [{ "type": "text", "text": … }]',
  },
  fix: 'Put the text in a block: `"content": [{ "type": "text", "text": "…" }]`.',
  examples: {
    wrong: { value: { content: 'Sunny, 22 °C' }, protocolVersion: '2025-06-18' },
    right: { value: { content: [{ type: 'text', text: 'Sunny, 22 °C' }] }, protocolVersion: '2025-06-18' },
  },
  check(result, ctx) {
    if (!isObject(result) || !Object.hasOwn(result, 'content') || Array.isArray(result.content)) return;
    const content = result.content;
    if (typeof content === 'string') ctx.report({ messageId: 'string', path: ['content'] });
    else
      ctx.report({
        path: ['content'],
        data: { actual: describeType(content) },
      });
  },
  repair(ctx) {
    const result = subjectObject(ctx);
    // Missing content is another rule's; here, a finding whose content is gone leaves nothing to repair.
    if (!result || !Object.hasOwn(result, 'content') || Array.isArray(result.content)) return undefined;
    const content = result.content;
    if (typeof content === 'string') {
      result.content = [{ type: 'text', text: content }];
      return { description: 'turned the content string into a text block' };
    }
    if (content === null || content === undefined) {
      result.content = [];
      return { description: 'replaced null content with an empty array' };
    }
    if (isObject(content) && typeof content.type === 'string') {
      result.content = [content];
      return { description: 'put the single content block into an array' };
    }
    result.content = [{ type: 'text', text: serialize(content) }];
    return { description: `turned the ${jsonTypeOf(content)} content into a text block with its JSON` };
  },
});
