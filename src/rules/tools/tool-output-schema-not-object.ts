import { isObject } from '../../core/json.js';
import { versionsFrom } from '../../spec/versions.js';
import { describeType, subjectObject } from '../support/call-tool-result.js';
import { sdkV1RejectsToolsList } from '../support/clients.js';
import { OBJECT_ROOT_MESSAGES, objectRootProblems, wrapOutputSchema } from '../support/tool-schema.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'tool-output-schema-not-object',
  subject: 'tool',
  severity: 'error',
  title: 'Before 2026-07-28, the outputSchema root must be `type: "object"`',
  rationale: [
    'In 2025-06-18 and 2025-11-25 `Tool.outputSchema` requires `"type": "object"` at the root ("Currently',
    'restricted to type: \\"object\\" at the root level"), matching `structuredContent`, which must be an',
    'object. The TypeScript SDK v1 client enforces it with the same `ToolSchema` whatever version it',
    'negotiated, and a single tool with, say, `"type": "array"` makes `listTools()` reject: every tool of',
    'the server is lost. The SDK v2 convention for non-object output is to wrap it as',
    '`{ "type": "object", "properties": { "result": <schema> }, "required": ["result"] }`.',
  ].join('\n'),
  versions: versionsFrom('2024-11-05', '2026-07-28'),
  clients: [sdkV1RejectsToolsList('ZodError at `tools.N.outputSchema.type`')],
  messages: {
    default: '"outputSchema" is {{actual}}; it must be a JSON Schema object',
    ...OBJECT_ROOT_MESSAGES,
  },
  fix: 'Wrap the schema: `{ "type": "object", "properties": { "result": <schema> }, "required": ["result"] }`, and return `{ "result": … }`.',
  examples: {
    wrong: {
      value: {
        name: 'list_users',
        inputSchema: { type: 'object' },
        outputSchema: { type: 'array', items: { type: 'string' } },
      },
      protocolVersion: '2025-06-18',
    },
    right: {
      value: {
        name: 'list_users',
        inputSchema: { type: 'object' },
        outputSchema: {
          type: 'object',
          properties: { result: { type: 'array', items: { type: 'string' } } },
          required: ['result'],
        },
      },
      protocolVersion: '2025-06-18',
    },
  },
  check(tool, ctx) {
    if (!isObject(tool) || tool.outputSchema === undefined) return;
    const schema = tool.outputSchema;
    if (!isObject(schema)) {
      ctx.report({ path: ['outputSchema'], data: { actual: describeType(schema) } });
      return;
    }
    for (const problem of objectRootProblems(schema, 'outputSchema', { strictProperties: true }))
      ctx.report(problem);
  },
  repair(ctx) {
    const tool = subjectObject(ctx);
    if (!tool) return undefined;
    const schema = tool.outputSchema;
    if (!isObject(schema)) {
      delete tool.outputSchema;
      return {
        description: 'removed the non-object outputSchema; results of this tool are no longer checked',
        lossy: true,
      };
    }
    if (
      ctx.messageId === 'typeMissing' &&
      (isObject(schema.properties) || Object.keys(schema).length === 0)
    ) {
      tool.outputSchema = { type: 'object', ...schema };
      return { description: 'added "type": "object" to the root of outputSchema' };
    }
    if (ctx.messageId === 'type' || ctx.messageId === 'typeMissing') {
      tool.outputSchema = wrapOutputSchema(schema);
      return {
        description:
          'wrapped outputSchema as { result: <schema> }; structuredContent must be wrapped the same way',
      };
    }
    return undefined;
  },
});
