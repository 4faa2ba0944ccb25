import { isObject } from '../../core/json.js';
import type { PathSegment } from '../../core/pointer.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { sdkV1RejectsToolsList } from '../support/clients.js';
import { pathTo, walkSchemaObjects } from '../support/schema-walk.js';
import { defineRule } from '../types.js';

/** Keywords whose values are data, not subschemas: a `$ref` inside them is not a reference. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples', 'example']);

/** `$ref`/`$dynamicRef` values pointing into another document (anything but `#…`), with their paths. */
function externalRefs(
  schema: unknown,
  base: readonly PathSegment[],
  ids: Set<string>,
): [PathSegment[], string][] {
  const out: [PathSegment[], string][] = [];
  walkSchemaObjects(schema, (node, place, descend) => {
    for (const [key, value] of Object.entries(node)) {
      if ((key === '$ref' || key === '$dynamicRef') && typeof value === 'string' && !value.startsWith('#')) {
        // A reference to a resource embedded in the same schema (by its `$id`) resolves locally.
        if (!ids.has(value.replace(/#.*$/, ''))) out.push([[...pathTo(base, place), key], value]);
      } else if (!DATA_KEYWORDS.has(key)) {
        descend(value, key);
      }
    }
  });
  return out;
}

function embeddedIds(schema: unknown): Set<string> {
  const ids = new Set<string>();
  walkSchemaObjects(schema, (node, _place, descend) => {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$id' && typeof value === 'string') ids.add(value.replace(/#.*$/, ''));
      else if (!DATA_KEYWORDS.has(key)) descend(value, key);
    }
  });
  return ids;
}

export default defineRule({
  id: 'tool-schema-remote-ref',
  subject: 'tool',
  severity: 'error',
  title: 'Tool schemas must not `$ref` other documents',
  rationale: [
    '2026-07-28: implementations "MUST NOT automatically dereference `$ref` values that resolve to a',
    'network URI", and a schema that fails on an unresolved external `$ref` "SHOULD be rejected rather',
    'than silently treated as permissive". mcp-shape never fetches one either. Before 2026-07-28 the',
    'TypeScript SDK v1 client compiles every outputSchema in `listTools()` without a loader, so an external',
    '`$ref` there throws and the whole list is rejected; inputSchema is checked from 2026-07-28 on.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [sdkV1RejectsToolsList('Ajv "can\'t resolve reference" for an outputSchema')],
  messages: {
    default: '{{field}} references another document ({{ref}}); clients must not fetch it',
  },
  security: {
    severity: 5.3,
    why: 'A client that dereferenced it would fetch a URL the server chose: a request to internal hosts or a tracker, and a schema an attacker can swap.',
  },
  fix: 'Inline the referenced schema under `$defs` and refer to it as `#/$defs/<name>`.',
  examples: {
    wrong: {
      value: {
        name: 'get_user',
        inputSchema: { type: 'object' },
        outputSchema: { $ref: 'https://example.com/schemas/user.json' },
      },
    },
    right: {
      value: {
        name: 'get_user',
        inputSchema: { type: 'object' },
        outputSchema: {
          type: 'object',
          properties: { user: { $ref: '#/$defs/user' } },
          $defs: { user: { type: 'object', properties: { id: { type: 'string' } } } },
        },
      },
    },
  },
  check(tool, ctx) {
    if (!isObject(tool)) return;
    const fields =
      ctx.features.outputSchema === 'any-root' ? ['inputSchema', 'outputSchema'] : ['outputSchema'];
    for (const field of fields) {
      const schema = tool[field];
      for (const [path, ref] of externalRefs(schema, [field], embeddedIds(schema))) {
        ctx.report({ path, data: { field, ref } });
      }
    }
  },
});
