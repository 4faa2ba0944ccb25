import { isObject } from '../../core/json.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { describeType, subjectObject } from '../support/call-tool-result.js';
import { pythonRejectsResult, sdkV1RejectsToolsList } from '../support/clients.js';
import { defineRule } from '../types.js';

/** Optional Tool members and the JSON type each must have. */
const FIELDS: Readonly<Record<string, 'string' | 'object' | 'array'>> = {
  title: 'string',
  description: 'string',
  _meta: 'object',
  icons: 'array',
};

function hasType(value: unknown, type: 'string' | 'object' | 'array'): boolean {
  if (type === 'array') return Array.isArray(value);
  if (type === 'object') return isObject(value);
  return typeof value === 'string';
}

export default defineRule({
  id: 'tool-field-invalid',
  subject: 'tool',
  severity: 'error',
  title: 'Tool `title` and `description` must be strings, `_meta` an object, `icons` an array',
  rationale: [
    'The optional members of `Tool` are typed in every schema.json that defines them: `description` and',
    '`title` are strings, `_meta` an object and `icons` an array of `Icon`. The TypeScript SDK v1 parses',
    'them all, whatever version it negotiated, so a `null` description or a string `icons` makes',
    '`listTools()` reject and hides every tool of the server.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [sdkV1RejectsToolsList('ZodError at the field'), pythonRejectsResult('typed `Tool` fields')],
  messages: {
    default: '"{{field}}" is {{actual}}; it must be a JSON {{expected}}',
  },
  fix: 'Send the field with the right type, or leave it out.',
  examples: {
    wrong: { value: { name: 'echo', description: null, inputSchema: { type: 'object' } } },
    right: { value: { name: 'echo', description: 'Echo the input', inputSchema: { type: 'object' } } },
  },
  check(tool, ctx) {
    if (!isObject(tool)) return;
    for (const [field, expected] of Object.entries(FIELDS)) {
      const value = tool[field];
      if (value === undefined || hasType(value, expected)) continue;
      ctx.report({ path: [field], data: { field, expected, actual: describeType(value) } });
    }
  },
  repair(ctx) {
    const tool = subjectObject(ctx);
    const field = String(ctx.data.field);
    if (!tool || !Object.hasOwn(FIELDS, field) || !Object.hasOwn(tool, field)) return undefined;
    const value = tool[field];
    if (FIELDS[field] === 'string' && (typeof value === 'number' || typeof value === 'boolean')) {
      tool[field] = String(value);
      return { description: `converted "${field}" to a string` };
    }
    delete tool[field];
    return { description: `removed "${field}" (${describeType(value)})`, lossy: value !== null };
  },
});
