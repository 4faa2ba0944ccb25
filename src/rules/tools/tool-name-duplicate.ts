import { isObject } from '../../core/json.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'tool-name-duplicate',
  subject: 'tools-list',
  severity: 'warning',
  title: 'Tool names should be unique within a server',
  rationale: [
    'Clients call a tool by name, so two tools with the same name make one of them unreachable and leave',
    'it to the client which definition (and which inputSchema) the model sees. tools.mdx (2025-11-25 on,',
    'SEP-986): tool names "SHOULD be unique within a server". Earlier versions say nothing explicit, but',
    'the ambiguity is the same, so the rule applies to every version.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [],
  messages: {
    default: 'tool name "{{name}}" is already used by tool {{first}}',
  },
  fix: 'Rename one of the tools, e.g. with a prefix that names its area.',
  examples: {
    wrong: {
      value: {
        tools: [
          { name: 'search', inputSchema: { type: 'object' } },
          { name: 'search', inputSchema: { type: 'object' } },
        ],
      },
      protocolVersion: '2025-06-18',
    },
    right: {
      value: {
        tools: [
          { name: 'search_docs', inputSchema: { type: 'object' } },
          { name: 'search_code', inputSchema: { type: 'object' } },
        ],
      },
      protocolVersion: '2025-06-18',
    },
  },
  check(list, ctx) {
    if (!isObject(list) || !Array.isArray(list.tools)) return;
    const seen = new Map<string, number>();
    list.tools.forEach((tool, index) => {
      if (!isObject(tool) || typeof tool.name !== 'string') return;
      const first = seen.get(tool.name);
      if (first === undefined) seen.set(tool.name, index);
      else ctx.report({ path: ['tools', index, 'name'], data: { name: tool.name, first } });
    });
  },
});
