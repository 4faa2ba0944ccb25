import { isObject } from '../../core/json.js';
import { ALL_VERSIONS, versionsFrom } from '../../spec/versions.js';
import { defineRule } from '../types.js';

/** From this version on, inputSchema "MUST be a valid JSON Schema object". */
const INPUT_MUST_FROM = '2025-11-25';
const INPUT_MUST = new Set<string>(versionsFrom(INPUT_MUST_FROM));

export default defineRule({
  id: 'tool-schema-meta-schema-mismatch',
  subject: 'tool',
  severity: 'warning',
  messageSeverity: { input: 'info', inputMust: 'error' },
  title: 'inputSchema and outputSchema must validate against their JSON Schema meta-schema',
  rationale: [
    'A schema can break its meta-schema and still compile: `"title": 5`, `"description": []`, a',
    '`"minLength": -1`, `"required": ["a", "a"]`, or, read as 2020-12, a draft-07 tuple `"items": [...]`.',
    "The TypeScript SDK clients compile outputSchema with Ajv's `validateSchema: false`, so they apply",
    'such a schema as if the fault were not there. The Python SDK client checks every outputSchema against',
    "its meta-schema first (jsonschema's `validate`, which reads a schema without `$schema` as 2020-12 in",
    'every version), and a schema that fails fails every call of the tool that is not an error, with',
    '"Invalid schema for tool …". From 2025-11-25 the specification also requires inputSchema to "be a',
    'valid JSON Schema object", which makes an invalid inputSchema an error there (before it, no client is',
    'known to check one, so it is advice). A schema that does not compile at all is',
    'tool-schema-not-compilable.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [
    {
      client: 'python-sdk',
      effect: 'rejects-call',
      detail:
        'an outputSchema that fails its meta-schema makes every call of the tool that is not an error raise RuntimeError("Invalid schema for tool …")',
      source:
        'python-sdk v1.29.0 src/mcp/client/session.py _validate_tool_result: jsonschema.validate() checks the schema against its meta-schema first; SchemaError becomes RuntimeError "Invalid schema for tool {name}"',
    },
  ],
  messages: {
    default:
      'outputSchema breaks the JSON Schema {{dialect}} meta-schema ({{message}}): the TypeScript SDK clients apply it anyway, but the Python SDK client rejects every call of the tool that is not an error',
    input: 'inputSchema breaks the JSON Schema {{dialect}} meta-schema ({{message}})',
    inputMust:
      'inputSchema breaks the JSON Schema {{dialect}} meta-schema ({{message}}); protocol {{version}} requires a valid JSON Schema object',
  },
  fix: 'Give each keyword a value of the type its meta-schema asks (`title` and `description` are strings, `minLength` a non-negative integer, `required` an array of distinct strings); declare `$schema` for a draft-07 schema.',
  examples: {
    wrong: {
      value: {
        name: 'get_weather',
        inputSchema: { type: 'object' },
        outputSchema: { type: 'object', title: 5, properties: { temperature: { type: 'number' } } },
      },
      protocolVersion: '2025-06-18',
    },
    right: {
      value: {
        name: 'get_weather',
        inputSchema: { type: 'object' },
        outputSchema: { type: 'object', title: 'Weather', properties: { temperature: { type: 'number' } } },
      },
      protocolVersion: '2025-06-18',
    },
  },
  check(tool, ctx) {
    if (!isObject(tool)) return;
    for (const field of ['inputSchema', 'outputSchema'] as const) {
      const schema = tool[field];
      if (!isObject(schema)) continue;
      // A schema that does not compile is reported once, by tool-schema-not-compilable, with this
      // same account of what is wrong.
      if (!ctx.schemas.compile(schema, ctx.version).ok) continue;
      // The Python SDK client reads an outputSchema without `$schema` as 2020-12 in every version; an
      // inputSchema is read as the version says.
      const undeclared = field === 'outputSchema' ? '2020-12' : ctx.features.defaultSchemaDialect;
      const problem = ctx.schemas.metaSchemaProblem(schema, undeclared);
      if (problem === undefined) continue;
      const messageId =
        field === 'outputSchema' ? 'default' : INPUT_MUST.has(ctx.version) ? 'inputMust' : 'input';
      const data = { dialect: problem.dialect, message: problem.message, version: ctx.version };
      // No client is known to check an inputSchema against its meta-schema (see report/clients.ts).
      ctx.report({
        messageId,
        path: [field],
        data: field === 'outputSchema' ? data : { ...data, affected: '' },
      });
    }
  },
});
