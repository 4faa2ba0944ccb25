import { isObject, jsonTypeOf } from '../../core/json.js';
import { getIn, hasIn } from '../../core/pointer.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { serialize } from '../support/call-tool-result.js';
import { defineRule } from '../types.js';
import { replaceBlock, textBlock } from './support/block.js';
import { PYTHON_SDK_REJECTS, RMCP_CLIENTS, SDK_BASED_CLIENTS, tsSdkRejects } from './support/clients.js';

export default defineRule({
  id: 'block-not-object',
  subject: 'block',
  severity: 'error',
  title: 'Every content item must be a content block object',
  rationale: [
    'Every member of the `CallToolResult.content` union (`TextContent`, `ImageContent`, …) is a JSON',
    'object with a `type` discriminator, in every protocol version. A bare string, number, `null` or',
    'nested array is not a content block: the official schema rejects it and strict clients reject the',
    'whole result, so every other block of the call is lost too.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [
    tsSdkRejects('`callTool()` rejects with ZodError `invalid_union` on `content[i]`'),
    ...RMCP_CLIENTS,
    PYTHON_SDK_REJECTS,
    ...SDK_BASED_CLIENTS,
  ],
  messages: {
    default: 'content item is {{actual}}, not a content block object',
  },
  fix: 'Wrap text as `{ "type": "text", "text": "…" }`; serialize other values to JSON inside a text block.',
  examples: {
    wrong: { value: 'plain string' },
    right: { value: { type: 'text', text: 'plain string' } },
  },
  check(block, ctx) {
    if (isObject(block)) return;
    ctx.report({ data: { actual: jsonTypeOf(block) === 'null' ? 'null' : `a JSON ${jsonTypeOf(block)}` } });
  },
  repair(ctx) {
    const value = getIn(ctx.root, ctx.subjectPath);
    // A block that is gone (a finding outlived it) is not rebuilt as text "null".
    if (isObject(value) || !hasIn(ctx.root, ctx.subjectPath)) return undefined;
    if (typeof value === 'string') {
      replaceBlock(ctx, textBlock(value));
      return { description: 'wrapped the string in a text block' };
    }
    replaceBlock(ctx, textBlock(serialize(value)));
    return { description: `replaced the ${jsonTypeOf(value)} with a text block holding its JSON` };
  },
});
