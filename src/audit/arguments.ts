/**
 * Arguments for tools the user gave none for, synthesized from the tool's inputSchema: the schema's
 * own hints first (const, default, examples, enum), then the smallest value its constraints allow.
 * Enum and boolean parameters are the ones whose values most often change the shape of a result, so
 * they are explored: call i gives each of them its i-th value, up to the per-tool call budget.
 * The caller checks every argument object against the schema with Ajv before sending it.
 */

import { isObject, type JsonObject } from '../core/json.js';

const FORMAT_VALUES: Readonly<Record<string, string>> = {
  email: 'user@example.com',
  'idn-email': 'user@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  iri: 'https://example.com/',
  'uri-reference': 'https://example.com/',
  'iri-reference': 'https://example.com/',
  'uri-template': 'https://example.com/{id}',
  'date-time': '2025-01-01T00:00:00Z',
  date: '2025-01-01',
  time: '00:00:00Z',
  duration: 'PT1S',
  uuid: '00000000-0000-4000-8000-000000000000',
  ipv4: '127.0.0.1',
  ipv6: '::1',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  'json-pointer': '',
  regex: '.*',
  byte: 'AA==',
};

/** Recursion guard for self-referencing schemas. */
const MAX_DEPTH = 8;

class Synthesizer {
  constructor(private readonly root: unknown) {}

  /** Follows a local `$ref` (`#/…`); remote references are never fetched. */
  private resolve(schema: JsonObject): JsonObject {
    let current = schema;
    for (let hops = 0; hops < 16 && typeof current.$ref === 'string'; hops++) {
      const ref = current.$ref;
      if (!ref.startsWith('#')) return {};
      let target: unknown = this.root;
      for (const raw of ref.slice(1).split('/').filter(Boolean)) {
        const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
        target = isObject(target) ? target[key] : undefined;
      }
      if (!isObject(target)) return {};
      const { $ref: _ref, ...rest } = current;
      current = { ...target, ...rest };
    }
    return current;
  }

  /** The values worth trying for a parameter, best first; only enum and boolean give more than one. */
  choices(schemaIn: unknown): unknown[] {
    if (!isObject(schemaIn)) return [];
    const schema = this.resolve(schemaIn);
    const first = this.value(schema, 0);
    if (Object.hasOwn(schema, 'const')) return [schema.const];
    if (Array.isArray(schema.enum) && schema.enum.length > 0) {
      return [first, ...schema.enum.filter((v) => JSON.stringify(v) !== JSON.stringify(first))];
    }
    if (schema.type === 'boolean') return [first, !first];
    return [first];
  }

  value(schemaIn: unknown, depth: number): unknown {
    if (!isObject(schemaIn) || depth > MAX_DEPTH) return null;
    const schema = this.resolve(schemaIn);
    if (Object.hasOwn(schema, 'const')) return schema.const;
    if (Object.hasOwn(schema, 'default')) return schema.default;
    if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
    if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
    for (const key of ['anyOf', 'oneOf'] as const) {
      const branches = schema[key];
      if (Array.isArray(branches) && branches.length > 0) {
        // Prefer a branch that is not `null`, so optional-by-union parameters still get a real value.
        const branch = branches.find((b) => !(isObject(b) && b.type === 'null')) ?? branches[0];
        return this.value(branch, depth + 1);
      }
    }
    if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
      const merged = Object.assign({}, ...schema.allOf.filter(isObject), schema) as JsonObject;
      delete merged.allOf;
      return this.value(merged, depth + 1);
    }
    const type = Array.isArray(schema.type)
      ? (schema.type.find((t) => t !== 'null') ?? schema.type[0])
      : schema.type;
    switch (type) {
      case 'string':
        return this.string(schema);
      case 'integer':
      case 'number':
        return number(schema, type === 'integer');
      case 'boolean':
        return false;
      case 'null':
        return null;
      case 'array':
        return this.array(schema, depth);
      case 'object':
        return this.object(schema, depth);
      default:
        if (isObject(schema.properties)) return this.object(schema, depth);
        if (schema.items !== undefined) return this.array(schema, depth);
        return 'example';
    }
  }

  private string(schema: JsonObject): string {
    const format = typeof schema.format === 'string' ? FORMAT_VALUES[schema.format] : undefined;
    let text = format ?? 'example';
    const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
    const max = typeof schema.maxLength === 'number' ? schema.maxLength : Number.POSITIVE_INFINITY;
    if (typeof schema.pattern === 'string') {
      text = patternCandidate(schema.pattern, text, min, max) ?? text;
    }
    if (text.length < min) {
      // Pad where the format allows it: before an email's @, after a URL's path; elsewhere at the end.
      const pad = 'x'.repeat(min - text.length);
      text = text.includes('@') ? pad + text : text + pad;
    }
    if (text.length > max) text = text.slice(0, max);
    return text;
  }

  private array(schema: JsonObject, depth: number): unknown[] {
    const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
    const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
    const out: unknown[] = [];
    for (let i = 0; i < min; i++) {
      out.push(this.value(i < prefix.length ? prefix[i] : (schema.items ?? {}), depth + 1));
    }
    if (schema.uniqueItems === true && out.length > 1 && typeof out[0] !== 'object') {
      return out.map((v, i) => (typeof v === 'number' ? v + i : typeof v === 'string' ? `${v}${i}` : v));
    }
    return out;
  }

  private object(schema: JsonObject, depth: number): JsonObject {
    const out: JsonObject = {};
    const properties = isObject(schema.properties) ? schema.properties : {};
    const required = Array.isArray(schema.required)
      ? schema.required.filter((r) => typeof r === 'string')
      : [];
    for (const name of required) out[name] = this.value(properties[name] ?? {}, depth + 1);
    const minProperties = typeof schema.minProperties === 'number' ? schema.minProperties : 0;
    for (const name of Object.keys(properties)) {
      if (Object.keys(out).length >= minProperties) break;
      out[name] = this.value(properties[name], depth + 1);
    }
    return out;
  }
}

function number(schema: JsonObject, integer: boolean): number {
  const min =
    typeof schema.minimum === 'number'
      ? schema.minimum
      : typeof schema.exclusiveMinimum === 'number'
        ? schema.exclusiveMinimum + (integer ? 1 : 0.5)
        : undefined;
  const max =
    typeof schema.maximum === 'number'
      ? schema.maximum
      : typeof schema.exclusiveMaximum === 'number'
        ? schema.exclusiveMaximum - (integer ? 1 : 0.5)
        : undefined;
  let value = min ?? (max !== undefined && max < 0 ? max : 0);
  if (integer) value = Math.ceil(value);
  const step = typeof schema.multipleOf === 'number' && schema.multipleOf > 0 ? schema.multipleOf : undefined;
  if (step !== undefined) value = Math.ceil(value / step) * step;
  return value;
}

/** A few strings that often satisfy simple patterns; the first that matches wins. */
function patternCandidate(pattern: string, preferred: string, min: number, max: number): string | undefined {
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
  const candidates = [
    preferred,
    'example',
    'a',
    'A',
    '0',
    '1',
    'abc',
    'a1',
    'example.com',
    'user@example.com',
    'a-b',
    'a_b',
    '2025-01-01',
    'https://example.com/',
  ];
  return candidates.find((c) => c.length >= min && c.length <= max && regex.test(c));
}

/**
 * Up to `budget` argument objects for a tool. The first uses each parameter's preferred value; later
 * ones rotate the enum and boolean parameters through their other values.
 */
export function synthesizeArguments(inputSchema: unknown, budget: number): JsonObject[] {
  const synth = new Synthesizer(inputSchema);
  const base = synth.value(isObject(inputSchema) ? inputSchema : { type: 'object' }, 0);
  const first: JsonObject = isObject(base) ? base : {};
  const properties = isObject(inputSchema) && isObject(inputSchema.properties) ? inputSchema.properties : {};
  const explored = Object.entries(properties)
    .map(([name, schema]) => [name, synth.choices(schema)] as const)
    .filter(([, choices]) => choices.length > 1);
  const calls: JsonObject[] = [first];
  const seen = new Set([JSON.stringify(first)]);
  const rounds = Math.max(0, ...explored.map(([, c]) => c.length));
  for (let i = 1; i < rounds && calls.length < budget; i++) {
    const next: JsonObject = { ...first };
    for (const [name, choices] of explored) next[name] = choices[i % choices.length];
    const key = JSON.stringify(next);
    if (!seen.has(key)) {
      seen.add(key);
      calls.push(next);
    }
  }
  return calls.slice(0, Math.max(1, budget));
}
