import { isObject } from '../../core/json.js';
import { sdkV2Reading } from '../../core/schema.js';
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
    'inside `listTools()`, so one broken outputSchema makes the whole list reject. The TypeScript SDK v2',
    'client reads an outputSchema without `$schema` as 2020-12 in every version, so before 2025-11-25',
    'such a schema must compile as 2020-12 too: a draft-07 tuple (`items: [...]`) fails every call there.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [
    sdkV1RejectsToolsList('Ajv compile error for an outputSchema'),
    {
      client: 'ts-sdk-v2',
      effect: 'rejects-call',
      detail:
        'it reads an outputSchema without `$schema` as 2020-12 in every version; one that does not compile so (a draft-07 tuple `items: [...]`) fails every call of the tool',
      source:
        '@modelcontextprotocol/client 2.4.0 validators/dialects.ts (declaredDialect: no `$schema` means 2020-12); reproduced with its AjvJsonSchemaValidator',
    },
  ],
  messages: {
    default: '{{field}} does not compile as {{dialect}} JSON Schema: {{message}}',
    dialect: '{{field}} declares an unsupported dialect: {{message}}',
    notObject: '{{field}} is {{actual}}; it must be a JSON Schema object',
    sdkV2:
      'outputSchema has no $schema, and the TypeScript SDK v2 client reads it as JSON Schema 2020-12 in every version, where it does not compile ({{message}}): every call of the tool fails there; declare "$schema": "http://json-schema.org/draft-07/schema#" for the draft-07 reading',
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
      if (compiled.ok) {
        // Clients compile only the outputSchema, the v2 one in its own reading (sdkV2Reading).
        const v2Dialect = field === 'outputSchema' ? sdkV2Reading(schema, ctx.version) : undefined;
        const v2 = v2Dialect === undefined ? undefined : ctx.schemas.compile(schema, ctx.version, v2Dialect);
        if (v2 !== undefined && !v2.ok && v2.reason !== 'remote-ref') {
          ctx.report({ messageId: 'sdkV2', path: [field], data: { message: v2.message } });
        }
        continue;
      }
      // A reference into another document is tool-schema-remote-ref's finding.
      if (compiled.reason === 'remote-ref') continue;
      const data = { field, dialect: compiled.dialect ?? 'unknown', message: compiled.message };
      ctx.report({
        messageId: compiled.reason === 'unsupported-dialect' ? 'dialect' : 'default',
        path: compiled.reason === 'unsupported-dialect' ? [field, '$schema'] : [field],
        // The SDK clients compile only outputSchema: a broken inputSchema breaks the MUST, not them.
        data: field === 'outputSchema' ? data : { ...data, affected: '' },
      });
    }
  },
});
