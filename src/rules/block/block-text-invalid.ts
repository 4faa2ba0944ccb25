import { isObject, jsonTypeOf } from '../../core/json.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { serialize } from '../support/call-tool-result.js';
import { defineRule } from '../types.js';
import { blockAt } from './support/block.js';
import { PYTHON_SDK_REJECTS, RMCP_CLIENTS, SDK_BASED_CLIENTS, tsSdkRejects } from './support/clients.js';

/** Members people use instead of `text`. */
const TEXT_ALIASES = ['data', 'content', 'value', 'body', 'message'];

export default defineRule({
  id: 'block-text-invalid',
  subject: 'block',
  severity: 'error',
  title: 'Text blocks need a string `text`',
  rationale: [
    '`TextContent.text` is a required string in every protocol version. A text block without it (for',
    'example one that uses `data` instead), or with a number, object or `null` there, fails the official',
    'schema; strict clients reject the whole result and lenient ones show nothing.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [
    tsSdkRejects('ZodError `invalid_union` (text block with `data` instead of `text`)'),
    {
      client: 'cursor',
      effect: 'drops-content',
      detail: 'text not shown when the block uses `data` instead of `text`',
      source: 'forum.cursor.com t/83382',
    },
    ...RMCP_CLIENTS,
    PYTHON_SDK_REJECTS,
    ...SDK_BASED_CLIENTS,
  ],
  messages: {
    default: 'text block has no "text"',
    alias: 'text block has no "text" but a "{{alias}}" member; the text belongs in "text"',
    notString: 'text block "text" must be a string, got {{actual}}',
  },
  fix: 'Put the text in a string member `text`; serialize numbers and objects first.',
  examples: {
    wrong: { value: { type: 'text', data: 'Hello' } },
    right: { value: { type: 'text', text: 'Hello' } },
  },
  check(block, ctx) {
    if (!isObject(block) || block.type !== 'text') return;
    if (!Object.hasOwn(block, 'text') || block.text === undefined) {
      const alias = TEXT_ALIASES.find((k) => typeof block[k] === 'string');
      ctx.report(alias ? { messageId: 'alias', path: ['text'], data: { alias } } : { path: ['text'] });
      return;
    }
    if (typeof block.text !== 'string') {
      ctx.report({ messageId: 'notString', path: ['text'], data: { actual: jsonTypeOf(block.text) } });
    }
  },
  repair(ctx) {
    const block = blockAt(ctx);
    if (block?.type !== 'text' || typeof block.text === 'string') return undefined;
    if (block.text === undefined || !Object.hasOwn(block, 'text')) {
      const alias = TEXT_ALIASES.find((k) => typeof block[k] === 'string');
      if (!alias) return undefined;
      block.text = block[alias];
      delete block[alias];
      return { description: `moved "${alias}" to "text"` };
    }
    const before = jsonTypeOf(block.text);
    // A JSON value other than a string, however deep (serialize does not run out of stack).
    block.text = serialize(block.text);
    return { description: `serialized the ${before} in "text" to a string` };
  },
});
