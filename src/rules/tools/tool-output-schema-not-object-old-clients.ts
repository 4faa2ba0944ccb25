import { isObject } from '../../core/json.js';
import { versionsFrom } from '../../spec/versions.js';
import { sdkV1RejectsToolsList } from '../support/clients.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'tool-output-schema-not-object-old-clients',
  subject: 'tool',
  severity: 'warning',
  title: 'A non-object outputSchema is legal in 2026-07-28 but SDK v1 clients reject the whole list',
  rationale: [
    '2026-07-28 (SEP-2106) lets `outputSchema` be any 2020-12 schema, so `"type": "array"` is conformant.',
    'The TypeScript SDK v1 `ToolSchema` still requires `"type": "object"` at the outputSchema root, and',
    'one such tool makes `listTools()` reject for all tools of the server. Clients built on SDK v1',
    '(Claude Code, Gemini CLI, Continue, LibreChat) are common, so wrapping the schema as',
    '`{ "result": <schema> }` keeps the server usable everywhere.',
  ].join('\n'),
  versions: versionsFrom('2026-07-28'),
  clients: [sdkV1RejectsToolsList('ZodError at `tools.N.outputSchema.type`')],
  messages: {
    default:
      'outputSchema has "type" {{actual}}; SDK v1 clients reject every tool of the server unless it is "object"',
  },
  fix: 'Wrap the schema: `{ "type": "object", "properties": { "result": <schema> }, "required": ["result"] }`.',
  examples: {
    wrong: {
      value: { name: 'list_users', inputSchema: { type: 'object' }, outputSchema: { type: 'array' } },
    },
    right: {
      value: {
        name: 'list_users',
        inputSchema: { type: 'object' },
        outputSchema: { type: 'object', properties: { result: { type: 'array' } }, required: ['result'] },
      },
    },
  },
  check(tool, ctx) {
    if (!isObject(tool) || !isObject(tool.outputSchema) || tool.outputSchema.type === 'object') return;
    const type = tool.outputSchema.type;
    ctx.report({
      path: ['outputSchema', 'type'],
      data: { actual: type === undefined ? '(none)' : JSON.stringify(type) },
    });
  },
});
