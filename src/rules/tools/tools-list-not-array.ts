import { isObject } from '../../core/json.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { describeType, subjectObject } from '../support/call-tool-result.js';
import { sdkV1RejectsToolsList } from '../support/clients.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'tools-list-not-array',
  subject: 'tools-list',
  severity: 'error',
  title: 'A tools/list result needs a `tools` array',
  rationale: [
    '`ListToolsResult` is an object whose required `tools` member is an array of `Tool` in every protocol',
    "version. Without it no client can learn the server's tools: the TypeScript SDK rejects the result",
    'and clients built on it show the server with no tools.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [sdkV1RejectsToolsList('ZodError at `tools`')],
  messages: {
    default: 'the tools/list result has no "tools" array',
    notObject: 'the tools/list result is {{actual}}; it must be an object with a "tools" array',
    notArray: '"tools" is {{actual}}; it must be an array of tool definitions',
  },
  fix: 'Answer tools/list with `{ "tools": [ … ] }` (an empty array when there are none).',
  examples: {
    wrong: {
      value: { tool: { name: 'echo', inputSchema: { type: 'object' } } },
      protocolVersion: '2025-06-18',
    },
    right: {
      value: { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] },
      protocolVersion: '2025-06-18',
    },
  },
  // The repair adds a missing list and wraps a lone tool; any other shape is the author's to rewrite,
  // so its fix is not automatic.
  check(list, ctx) {
    if (!isObject(list)) {
      ctx.report({ messageId: 'notObject', data: { actual: describeType(list) }, manual: true });
    } else if (!Object.hasOwn(list, 'tools')) {
      ctx.report({ path: ['tools'] });
    } else if (!Array.isArray(list.tools)) {
      const tools = list.tools;
      const repairable = tools == null || (isObject(tools) && typeof tools.name === 'string');
      ctx.report({
        messageId: 'notArray',
        path: ['tools'],
        data: { actual: describeType(tools) },
        ...(repairable ? {} : { manual: true }),
      });
    }
  },
  repair(ctx) {
    const list = subjectObject(ctx);
    if (!list || Array.isArray(list.tools)) return undefined;
    if (list.tools === undefined || list.tools === null) {
      list.tools = [];
      return { description: 'added an empty "tools" array' };
    }
    if (isObject(list.tools) && typeof list.tools.name === 'string') {
      list.tools = [list.tools];
      return { description: 'put the single tool definition into a "tools" array' };
    }
    return undefined;
  },
});
