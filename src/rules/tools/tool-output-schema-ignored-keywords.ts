import { isObject } from '../../core/json.js';
import type { PathSegment } from '../../core/pointer.js';
import { schemaDialect } from '../../core/schema.js';
import { versionsFrom } from '../../spec/versions.js';
import { pathTo, walkSchemaObjects } from '../support/schema-walk.js';
import { defineRule } from '../types.js';

/** Keywords newer than draft-07; Ajv's draft-07 class ignores them without a word. */
const NEWER_KEYWORDS = new Set([
  'prefixItems',
  'unevaluatedProperties',
  'unevaluatedItems',
  'dependentRequired',
  'dependentSchemas',
  'minContains',
  'maxContains',
  '$dynamicRef',
]);
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples']);

function findNewerKeywords(schema: unknown, base: readonly PathSegment[]): [PathSegment[], string][] {
  const out: [PathSegment[], string][] = [];
  walkSchemaObjects(schema, (node, place, descend) => {
    for (const [key, value] of Object.entries(node)) {
      if (NEWER_KEYWORDS.has(key)) out.push([[...pathTo(base, place), key], key]);
      // `properties` maps names to schemas: a property called "prefixItems" is not the keyword.
      if (key === 'properties' && isObject(value)) {
        for (const [name, sub] of Object.entries(value)) descend(sub, key, name);
      } else if (!DATA_KEYWORDS.has(key)) descend(value, key);
    }
  });
  return out;
}

export default defineRule({
  id: 'tool-output-schema-ignored-keywords',
  subject: 'tool',
  severity: 'info',
  title: 'SDK v1 clients ignore 2019-09/2020-12 keywords in outputSchema',
  rationale: [
    'From 2025-11-25 schemas default to JSON Schema 2020-12, but the TypeScript SDK v1 client validates',
    "structuredContent with Ajv's draft-07 class, which silently ignores newer keywords such as",
    '`prefixItems`, `unevaluatedProperties` and `dependentRequired`. Those constraints are then not',
    'enforced by the most common client. Nothing breaks, so this is advice.',
  ].join('\n'),
  versions: versionsFrom('2025-06-18'),
  clients: [
    {
      client: 'ts-sdk-v1',
      effect: 'misreads',
      detail: 'default `AjvJsonSchemaValidator` is draft-07: the keyword is not enforced',
      source:
        '@modelcontextprotocol/sdk 1.32.2 validation/ajv (AjvJsonSchemaValidator uses the Ajv draft-07 class)',
    },
  ],
  messages: {
    default: 'outputSchema uses "{{keyword}}", which SDK v1 clients (Ajv draft-07) silently ignore',
  },
  fix: 'Express the constraint with draft-07 keywords (`items`, `additionalProperties`, `dependencies`) if SDK v1 clients must enforce it.',
  examples: {
    wrong: {
      value: {
        name: 'pair',
        inputSchema: { type: 'object' },
        outputSchema: {
          type: 'object',
          properties: { p: { type: 'array', prefixItems: [{ type: 'number' }] } },
        },
      },
    },
    right: {
      value: {
        name: 'pair',
        inputSchema: { type: 'object' },
        outputSchema: { type: 'object', properties: { p: { type: 'array', items: { type: 'number' } } } },
      },
    },
  },
  check(tool, ctx) {
    if (!isObject(tool) || !isObject(tool.outputSchema)) return;
    const dialect = schemaDialect(tool.outputSchema, ctx.version);
    if (dialect !== '2020-12' && dialect !== '2019-09') return;
    for (const [path, keyword] of findNewerKeywords(tool.outputSchema, ['outputSchema'])) {
      ctx.report({ path, data: { keyword } });
    }
  },
});
