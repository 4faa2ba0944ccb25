/**
 * The value a tool handler receives for the arguments its tool's inputSchema validated. McpServer
 * (and FastMCP's `parameters`) parses the arguments with the schema before calling the handler and
 * answers an error instead when they do not match, so a handler whose schema says `text: z.string()`
 * is handed a string: `{ type: 'text', text: args.text }` is proven.
 *
 * Only what the schema guarantees is kept:
 * - a string, number or boolean is of that kind with unknown content (a `uri` or `data` built from it
 *   is still not shown to hold its format);
 * - an enum or literal is each of its values;
 * - a member the schema does not require may be absent, but the analysis is not sure it ever is
 *   (`maybeUndef`): a default fills it in, which the schema model does not tell apart;
 * - an object may hold members the schema does not list (a passthrough object keeps them);
 * - anything else (a union with a non-JSON part, a record, `z.any()`) is unknown.
 */

import { type Heap, newArray, newObject } from './heap.js';
import {
  bool,
  join,
  joinAll,
  maybeUndef,
  nul,
  num,
  ref,
  type Site,
  str,
  unknown,
  type Value,
} from './value.js';

type Schema = Record<string, unknown>;

/** Schemas nested deeper than this give unknown values: no hand-written inputSchema gets there. */
const MAX_DEPTH = 16;

/**
 * The value of an argument that passed `schema`, allocated in `heap`; `path` names it in reasons
 * (`args.text`).
 */
export function inputValue(heap: Heap, schema: unknown, site: Site, path: string, depth = 0): Value {
  const reason = `the argument ${path}, known only at run time`;
  if (typeof schema !== 'object' || schema === null || depth > MAX_DEPTH) return unknown(site, reason);
  const s = schema as Schema;
  if (Object.hasOwn(s, 'const')) return constant(s.const, site) ?? unknown(site, reason);
  if (Array.isArray(s.anyOf)) {
    return joinAll(s.anyOf.map((option) => inputValue(heap, option, site, path, depth + 1)));
  }
  if (Array.isArray(s.enum)) {
    const values = s.enum.map((item) => constant(item, site));
    return values.every((v) => v !== undefined) && values.length > 0
      ? joinAll(values as Value[])
      : unknown(site, reason);
  }
  switch (s.type) {
    case 'string':
      return unknown(site, reason, 'string');
    case 'number':
    case 'integer':
      // Arguments arrive as JSON, which has no NaN or Infinity, and zod's number rejects them too.
      return unknown(site, reason, 'number');
    case 'boolean':
      return unknown(site, reason, 'boolean');
    case 'null':
      return nul(site);
    case 'array': {
      const items = inputValue(heap, s.items, site, `${path}[…]`, depth + 1);
      return ref(site, heap.alloc({ ...newArray(site), rest: items }));
    }
    case 'object':
      return objectValue(heap, s, site, path, depth);
    default:
      return unknown(site, reason);
  }
}

function objectValue(heap: Heap, schema: Schema, site: Site, path: string, depth: number): Value {
  const properties =
    typeof schema.properties === 'object' && schema.properties !== null ? (schema.properties as Schema) : {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as unknown[]) : []);
  const props = new Map(
    Object.entries(properties).map(([key, member]) => {
      const value = inputValue(heap, member, site, `${path}.${key}`, depth + 1);
      return [key, { value: required.has(key) ? value : join(value, maybeUndef(site)), site }] as const;
    }),
  );
  return ref(
    site,
    heap.alloc({ ...newObject(site), props, open: `members of ${path} its inputSchema does not list` }),
  );
}

function constant(value: unknown, site: Site): Value | undefined {
  if (typeof value === 'string') return str(site, value);
  if (typeof value === 'number') return num(site, value);
  if (typeof value === 'boolean') return bool(site, value);
  if (value === null) return nul(site);
  return undefined;
}
