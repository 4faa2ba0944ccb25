import { isObject, jsonTypeOf } from '../../core/json.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { defineRule } from '../types.js';
import { blockAt } from './support/block.js';
import { PYTHON_SDK_REJECTS, RMCP_CLIENTS, SDK_BASED_CLIENTS, tsSdkRejects } from './support/clients.js';

/** Members people use instead of `data`. */
const DATA_ALIASES = ['blob', 'base64', 'bytes', 'image', 'audio'];

export default defineRule({
  id: 'block-data-invalid',
  subject: 'block',
  severity: 'error',
  title: 'Image and audio blocks need base64 `data` as a string',
  rationale: [
    '`ImageContent.data` and `AudioContent.data` are required strings holding the base64-encoded bytes,',
    'in every version that has the block. Without them the official schema rejects the result, and strict',
    'clients reject the whole call.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [tsSdkRejects(), ...RMCP_CLIENTS, PYTHON_SDK_REJECTS, ...SDK_BASED_CLIENTS],
  messages: {
    default: '{{type}} block has no "data"',
    alias: '{{type}} block has no "data" but a "{{alias}}" member; the base64 bytes belong in "data"',
    notString: '{{type}} block "data" must be a base64 string, got {{actual}}',
  },
  fix: 'Put the base64-encoded bytes in a string member `data`.',
  examples: {
    wrong: { value: { type: 'image', mimeType: 'image/png' } },
    right: { value: { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' } },
  },
  check(block, ctx) {
    if (!isObject(block) || (block.type !== 'image' && block.type !== 'audio')) return;
    const type = block.type;
    if (!Object.hasOwn(block, 'data') || block.data === undefined) {
      const alias = DATA_ALIASES.find((k) => typeof block[k] === 'string');
      ctx.report(
        alias
          ? { messageId: 'alias', path: ['data'], data: { type, alias } }
          : { path: ['data'], data: { type } },
      );
      return;
    }
    if (typeof block.data !== 'string') {
      ctx.report({ messageId: 'notString', path: ['data'], data: { type, actual: jsonTypeOf(block.data) } });
    }
  },
  repair(ctx) {
    const block = blockAt(ctx);
    if (!block || block.data !== undefined) return undefined;
    const alias = DATA_ALIASES.find((k) => typeof block[k] === 'string');
    if (!alias) return undefined;
    block.data = block[alias];
    delete block[alias];
    return { description: `moved "${alias}" to "data"` };
  },
});
