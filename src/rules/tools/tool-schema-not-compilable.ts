import { isObject } from '../../core/json.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { describeType } from '../support/call-tool-result.js';
import { sdkV1RejectsToolsList } from '../support/clients.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'tool-schema-not-compilable',
  subject: 'tool',
  severity: 'error',
  title: 'inputSchema and outputSchema must be valid JSON Schema in a supported dialect',
  rationale: [
    'Every version describes `inputSchema` and `outputSchema` as JSON Schema, and 2025-11-25 makes it',
    'explicit: inputSchema "MUST be a valid JSON Schema object", schemas are validated "according to their',
    'declared or default dialect" (2020-12 when `$schema` is absent), and an unsupported dialect must',
    'produce an error. A schema that does not compile (`"type": "objekt"`, a dangling local `$ref`, an',
    'unknown `$schema`) cannot validate anything. The TypeScript SDK v1 client compiles every outputSchema',
    'inside `listTools()`, so one broken outputSchema makes the whole list reject.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [sdkV1RejectsToolsList('Ajv compile error for an outputSchema')],
  messages: {
    default: '{{field}} does not compile as {{dialect}} JSON Schema: {{message}}',
    dialect: '{{field}} declares an unsupported dialect: {{message}}',
    notObject: '{{field}} is {{actual}}; it must be a JSON Schema object',
  },
  fix: 'Fix the schema so that it validates against its meta-schema (check `type` values and `$ref` targets).',
  examples: {
    wrong: {
      value: { name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'text' } } } },
    },
    right: {
      value: { name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
    },
  },
  check(tool, ctx) {
    if (!isObject(tool)) return;
    for (const field of ['inputSchema', 'outputSchema'] as const) {
      const schema = tool[field];
      if (schema === undefined) continue;
      if (!isObject(schema)) {
        // Other rules report non-object schemas, except a 2026-07-28 outputSchema (any root is legal there).
        if (field === 'outputSchema' && ctx.features.outputSchema === 'any-root') {
          ctx.report({
            messageId: 'notObject',
            path: [field],
            data: { field, actual: describeType(schema) },
          });
        }
        continue;
      }
      const compiled = ctx.schemas.compile(schema, ctx.version);
      // A reference into another document is tool-schema-remote-ref's finding.
      if (compiled.ok || compiled.reason === 'remote-ref') continue;
      ctx.report({
        messageId: compiled.reason === 'unsupported-dialect' ? 'dialect' : 'default',
        path: compiled.reason === 'unsupported-dialect' ? [field, '$schema'] : [field],
        data: { field, dialect: compiled.dialect ?? 'unknown', message: compiled.message },
      });
    }
  },
});
