/**
 * Zod schemas as the analysis sees them: `z.object({ city: z.string(), temp: z.number().optional() })`
 * evaluates to an unknown value that carries the JSON Schema it accepts, so a tool's `outputSchema`
 * given to `registerTool` can be checked against the structuredContent its handler returns (the SDK's
 * McpServer validates it before sending, and a mismatch fails the call for every client).
 *
 * The schema is the one the SDK lists (its zod-to-JSON-Schema conversion, output mode), which is what
 * clients check structuredContent against: an object refuses members it does not list
 * (`additionalProperties: false`, where zod itself would only strip them) unless it is `.passthrough()`,
 * `.loose()` or `z.looseObject`, and a `.default(…)` member is required. Otherwise the model is never
 * stricter than zod: a refinement (`.min(3)`, `.email()`, `.refine(…)`) is left out, and a method or a
 * schema the model does not know makes the whole schema unknown, so nothing is checked against it. Hand-written
 * because no library turns zod *source* into a schema: the libraries that convert zod need the
 * running schema object.
 */

import type { Heap } from '../abstract/heap.js';
import { constantString, type Site, type Value, type Variant, type ZodFact } from '../abstract/value.js';
import { markLossy, ownLoss } from '../schema-loss.js';

type Schema = Record<string, unknown>;

/** The packages whose `z` the model knows (zod 3 and 4 share these names). */
export const ZOD_PACKAGES = new Set(['zod', 'zod/v3', 'zod/v4', 'zod/v4/classic']);

/** Methods that only narrow what a schema accepts, or not at all: the model keeps the schema as it is. */
const KEEPS = new Set([
  'describe',
  'meta',
  'min',
  'max',
  'length',
  'gt',
  'gte',
  'lt',
  'lte',
  'multipleOf',
  'step',
  'positive',
  'negative',
  'nonnegative',
  'nonpositive',
  'finite',
  'safe',
  'email',
  'url',
  'uuid',
  'cuid',
  'cuid2',
  'ulid',
  'regex',
  'includes',
  'startsWith',
  'endsWith',
  'datetime',
  'date',
  'time',
  'ip',
  'trim',
  'toLowerCase',
  'toUpperCase',
  'nonempty',
  'refine',
  'superRefine',
  'check',
  'brand',
  'readonly',
  'strict',
  'strip',
]);

/**
 * Methods whose parse output is not the value parsed (`.transform(f)`, `.pipe(other)`): the schema
 * still says what zod accepts, which is what an outputSchema check needs, but a handler given the
 * output of an inputSchema with one of them receives something else (inputSchemaOf).
 */
const RESHAPES = new Set(['transform', 'pipe', 'overwrite']);

/** Schemas whose parse output may differ from their input: made by RESHAPES, or derived from one. */
const reshaped = new WeakSet<Schema>();

/**
 * KEEPS methods that leave the schema as it is without narrowing what it accepts; every other one
 * (`.min(3)`, `.email()`, `.refine(f)`) rejects values the model accepts.
 */
const ANNOTATES = new Set([
  'describe',
  'meta',
  'readonly',
  'brand',
  'strip',
  'trim',
  'toLowerCase',
  'toUpperCase',
]);

/** A fresh copy of `schema`, so that marking it marks nothing else. */
function marked(schema: Schema, method: string, reshapes: boolean): Schema {
  const copy = { ...schema };
  markLossy(copy, `.${method}()`);
  if (reshapes) reshaped.add(copy);
  return copy;
}

/** `z.string()` and the like: the JSON type each accepts. */
const PRIMITIVES: Record<string, Schema> = {
  string: { type: 'string' },
  number: { type: 'number' },
  int: { type: 'integer' },
  boolean: { type: 'boolean' },
  null: { type: 'null' },
  any: {},
  unknown: {},
  email: { type: 'string' },
  url: { type: 'string' },
  uuid: { type: 'string' },
};

export const ZOD_NAMESPACE: ZodFact = { namespace: true };

/** The zod facts of a value, when every variant is a zod schema the model knows. */
export function zodSchemaOf(value: Value | undefined): { schema: Schema; optional: boolean } | undefined {
  if (!value || value.length === 0) return undefined;
  const schemas: Schema[] = [];
  let optional = false;
  for (const v of value) {
    const fact = v.k === 'unknown' ? v.zod : undefined;
    if (!fact || !('schema' in fact) || !fact.schema) return undefined;
    schemas.push(fact.schema);
    optional ||= fact.optional;
  }
  const [only] = schemas;
  return { schema: schemas.length === 1 && only ? only : { anyOf: schemas }, optional };
}

/**
 * The schema of an object shape (`{ city: z.string() }`, a heap object): undefined unless every
 * member is a known zod schema and nothing may be spread in.
 */
export function shapeSchema(heap: Heap, value: Value | undefined, loose = false): Schema | undefined {
  const [only] = value ?? [];
  if (value?.length !== 1 || only?.k !== 'ref') return undefined;
  const state = heap.get(only.id);
  if (state?.kind !== 'object' || state.open) return undefined;
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const [key, member] of state.props) {
    const fact = zodSchemaOf(member.value);
    if (!fact) return undefined;
    properties[key] = fact.schema;
    if (!fact.optional) required.push(key);
  }
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    ...(loose ? {} : { additionalProperties: false }),
  };
}

/** The JSON Schema of a tool's `outputSchema` option: a zod object, or a shape of zod schemas. */
export function outputSchemaOf(heap: Heap, value: Value | undefined): Schema | undefined {
  const fact = zodSchemaOf(value);
  if (fact) return fact.schema.type === 'object' ? fact.schema : undefined;
  return shapeSchema(heap, value);
}

/**
 * The JSON Schema of a tool's `inputSchema` (a zod object, or a shape of zod schemas), when what zod
 * hands the handler is what it accepts: undefined when any part of it reshapes its value.
 */
export function inputSchemaOf(heap: Heap, value: Value | undefined): Schema | undefined {
  const schema = outputSchemaOf(heap, value);
  return schema && !reshapes(schema) ? schema : undefined;
}

function reshapes(schema: unknown, depth = 0): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  // Deeper than any schema written by hand: not shown to keep its values.
  if (depth > 64) return true;
  if (reshaped.has(schema as Schema)) return true;
  return Object.values(schema).some((part) => reshapes(part, depth + 1));
}

function fact(schema: Schema | undefined, optional = false): ZodFact {
  return schema ? { schema, optional } : { schema: undefined, optional: false };
}

/** The constant items of an array literal (`z.enum(['a', 'b'])`). */
function constantItems(heap: Heap, value: Value | undefined): Value[] | undefined {
  const [only] = value ?? [];
  if (value?.length !== 1 || only?.k !== 'ref') return undefined;
  const state = heap.get(only.id);
  if (state?.kind !== 'array' || state.open || state.rest) return undefined;
  return state.items.map((item) => item.value);
}

function literal(v: Variant | undefined): string | number | boolean | null | undefined {
  if (!v) return undefined;
  if (v.k === 'null') return null;
  return v.k === 'str' || v.k === 'num' || v.k === 'bool' ? v.value : undefined;
}

/** `z.<name>(…args)`. */
function namespaceCall(heap: Heap, name: string, args: readonly Value[]): ZodFact {
  const [first, second] = args;
  const primitive = PRIMITIVES[name];
  // z.email(), z.url(), z.uuid(): strings of a format the model does not check.
  if (primitive)
    return fact(
      primitive.type === 'string' && name !== 'string' ? marked(primitive, name, false) : primitive,
    );
  switch (name) {
    case 'literal': {
      const [only] = first ?? [];
      const value = first?.length === 1 ? literal(only) : undefined;
      return fact(value === undefined ? undefined : { const: value });
    }
    case 'enum': {
      const items = constantItems(heap, first)?.map((item) =>
        item.length === 1 ? constantString(item) : undefined,
      );
      return fact(items?.every((i) => i !== undefined) ? { type: 'string', enum: items } : undefined);
    }
    case 'array':
      return fact(wrap(first, (items) => ({ type: 'array', items })));
    case 'object':
    case 'strictObject':
      return fact(shapeSchema(heap, first));
    case 'looseObject':
      return fact(shapeSchema(heap, first, true));
    case 'record': {
      const values = zodSchemaOf(second ?? first);
      return fact(values ? { type: 'object', additionalProperties: values.schema } : undefined);
    }
    case 'union': {
      const options = constantItems(heap, first)?.map((item) => zodSchemaOf(item));
      return fact(
        options?.every((o) => o !== undefined) ? { anyOf: options.map((o) => o?.schema) } : undefined,
      );
    }
    case 'optional': {
      const inner = zodSchemaOf(first);
      return fact(inner?.schema, true);
    }
    case 'nullable':
      return fact(wrap(first, (s) => ({ anyOf: [s, { type: 'null' }] })));
    default:
      return fact(undefined);
  }
}

function wrap(value: Value | undefined, build: (schema: Schema) => Schema): Schema | undefined {
  const inner = zodSchemaOf(value);
  return inner ? build(inner.schema) : undefined;
}

/** `<schema>.<name>(…args)`. */
function schemaMethod(
  heap: Heap,
  self: Extract<ZodFact, { schema: unknown }>,
  name: string,
  args: readonly Value[],
): ZodFact {
  const { schema } = self;
  if (!schema) return self;
  const made = methodFact(heap, { schema, optional: self.optional }, name, args);
  if ('schema' in made && made.schema && made.schema !== schema) {
    // What is derived from a reshaping or lossy schema is so too.
    if (reshaped.has(schema)) reshaped.add(made.schema);
    const loss = ownLoss(schema);
    if (loss) markLossy(made.schema, loss);
  }
  return made;
}

function methodFact(
  heap: Heap,
  self: { readonly schema: Schema; readonly optional: boolean },
  name: string,
  args: readonly Value[],
): ZodFact {
  const { schema, optional } = self;
  const [first] = args;
  if (RESHAPES.has(name)) return fact(marked(schema, name, true), optional);
  if (KEEPS.has(name)) return ANNOTATES.has(name) ? self : fact(marked(schema, name, false), optional);
  switch (name) {
    case 'optional':
      return fact(schema, true);
    // Filled in when absent, so always there in zod's output, and required in the listed schema.
    case 'default':
    case 'prefault':
      return fact(schema, false);
    case 'passthrough':
    case 'loose': {
      if (schema.type !== 'object') return self;
      const { additionalProperties: _closed, ...open } = schema;
      return fact(open, optional);
    }
    case 'catchall': {
      const rest = zodSchemaOf(first);
      if (schema.type !== 'object' || !rest) return fact(undefined);
      return fact({ ...schema, additionalProperties: rest.schema }, optional);
    }
    case 'nullable':
      return fact({ anyOf: [schema, { type: 'null' }] }, optional);
    case 'nullish':
      return fact({ anyOf: [schema, { type: 'null' }] }, true);
    case 'array':
      return fact({ type: 'array', items: schema });
    case 'or': {
      const other = zodSchemaOf(first);
      return fact(other ? { anyOf: [schema, other.schema] } : undefined);
    }
    case 'int':
      return fact(schema.type === 'number' ? { ...schema, type: 'integer' } : schema, optional);
    case 'partial': {
      if (schema.type !== 'object' || args.length > 0) return fact(undefined);
      const { required: _required, ...rest } = schema;
      return fact(rest, optional);
    }
    case 'extend':
    case 'merge': {
      const added = name === 'extend' ? shapeSchema(heap, first) : zodSchemaOf(first)?.schema;
      if (schema.type !== 'object' || added?.type !== 'object') return fact(undefined);
      const properties = { ...(schema.properties as Schema), ...(added.properties as Schema) };
      const addedKeys = Object.keys((added.properties as Schema) ?? {});
      const required = [
        ...((schema.required as string[] | undefined) ?? []).filter((k) => !addedKeys.includes(k)),
        ...((added.required as string[] | undefined) ?? []),
      ];
      const closed =
        'additionalProperties' in schema ? { additionalProperties: schema.additionalProperties } : {};
      return fact(
        { type: 'object', properties, ...(required.length > 0 ? { required } : {}), ...closed },
        optional,
      );
    }
    default:
      return fact(undefined);
  }
}

/**
 * The result of calling `name` on a zod value (the namespace `z` or a schema), as a zod fact for an
 * unknown variant at `at`; undefined when `v` is no zod value.
 */
export function zodCall(
  heap: Heap,
  v: Variant,
  name: string,
  args: readonly Value[],
  at: Site,
): Value | undefined {
  const zod = v.k === 'unknown' ? v.zod : undefined;
  if (!zod) return undefined;
  const result = 'schema' in zod ? schemaMethod(heap, zod, name, args) : namespaceCall(heap, name, args);
  return [{ k: 'unknown', site: at, reason: 'a zod schema', zod: result }];
}
