import { isObject } from '../../core/json.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { describeType, subjectObject } from '../support/call-tool-result.js';
import { pythonRejectsResult, sdkV1RejectsToolsList } from '../support/clients.js';
import { OBJECT_ROOT_MESSAGES, objectRootProblems } from '../support/tool-schema.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'tool-input-schema-invalid',
  subject: 'tool',
  severity: 'error',
  title: '`inputSchema` is required and its root must be `type: "object"`',
  rationale: [
    'Tool arguments are always a JSON object, so `inputSchema` is required in every protocol version and',
    'its root must be `"type": "object"` (2026-07-28 still requires it while allowing any 2020-12 keyword',
    'beside it). For a tool without parameters the spec recommends `{ "type": "object",',
    '"additionalProperties": false }`. The TypeScript SDK v1 `ToolSchema` also requires `properties` to',
    'be a record of schema objects and `required` an array of strings; any violation makes `listTools()`',
    'reject, so no tool of the server is usable.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [
    sdkV1RejectsToolsList('ZodError at `tools.N.inputSchema`'),
    pythonRejectsResult('`Tool.inputSchema: dict` required'),
  ],
  messages: {
    default: 'the tool has no "inputSchema"',
    notObject: '"inputSchema" is {{actual}}; it must be a JSON Schema object',
    ...OBJECT_ROOT_MESSAGES,
  },
  fix: 'Declare the arguments: `"inputSchema": { "type": "object", "properties": { … } }`.',
  examples: {
    wrong: { value: { name: 'list_users', inputSchema: { type: 'array' } }, protocolVersion: '2025-06-18' },
    right: {
      value: { name: 'list_users', inputSchema: { type: 'object', additionalProperties: false } },
      protocolVersion: '2025-06-18',
    },
  },
  check(tool, ctx) {
    if (!isObject(tool)) return;
    if (!Object.hasOwn(tool, 'inputSchema')) {
      ctx.report({ path: ['inputSchema'] });
      return;
    }
    const schema = tool.inputSchema;
    // The repair writes only what changes no argument's validity: a missing schema, a missing root
    // type. A schema of the wrong kind is the author's to rewrite, so its fix is not automatic.
    if (!isObject(schema)) {
      ctx.report({
        messageId: 'notObject',
        path: ['inputSchema'],
        data: { actual: describeType(schema) },
        manual: true,
      });
      return;
    }
    // Boolean subschemas are valid 2020-12; only SDK v1, which predates 2026-07-28, refuses them.
    const strictProperties = !ctx.features.resultTypeRequired;
    for (const problem of objectRootProblems(schema, 'inputSchema', { strictProperties }))
      ctx.report(problem.messageId === 'typeMissing' ? problem : { ...problem, manual: true });
  },
  repair(ctx) {
    const tool = subjectObject(ctx);
    if (!tool) return undefined;
    if (ctx.messageId === 'default' && !Object.hasOwn(tool, 'inputSchema')) {
      tool.inputSchema = { type: 'object' };
      return { description: 'added "inputSchema": { "type": "object" }' };
    }
    // `properties` and `required` only apply to objects, and arguments are always objects, so adding
    // the missing root type changes nothing about which arguments are valid.
    if (ctx.messageId === 'typeMissing' && isObject(tool.inputSchema)) {
      tool.inputSchema = { type: 'object', ...tool.inputSchema };
      return { description: 'added "type": "object" to the root of inputSchema' };
    }
    return undefined;
  },
});
