/**
 * What the official TypeScript SDK v1's server refuses of a handler's live value. `Server` (under
 * `McpServer`, @modelcontextprotocol/sdk 1.32.2 dist/esm/server/index.js) parses a tools/call handler's
 * result with CallToolResultSchema (zod v4, dist/esm/types.js) before sending it, and answers a result
 * that fails with a JSON-RPC -32602 error `Invalid tools/call result: …` in its place. The parse reads
 * the live value, not its JSON: a `new String("hi")` as `text`, a Date as `annotations.lastModified`, a
 * `new Number(0.5)` as `priority`, a `new Boolean(false)` as `isError` fail `z.string()`, `z.number()`
 * and `z.boolean()`, though JSON.stringify writes them as the string, number or boolean the schema asks
 * for; a Map, a Date or a class instance as structuredContent or a block's `_meta` fails `z.record()`
 * (zod's isPlainObject), and so does a record with an enumerable member named by a symbol, which JSON
 * leaves out. Held to a real McpServer and Client (test/validate/sdk-sent.test.ts).
 *
 * Only what JSON would write as the schema asks is listed here: a value whose JSON is wrong as well
 * (a plain object as `text`) is reported by the rule of that member, judging what JSON writes.
 */

import type { PathSegment } from '../../core/pointer.js';

/** One place the SDK's parse refuses, or may refuse (`expected` undefined). */
export interface Refusal {
  readonly path: readonly PathSegment[];
  /** What the value is: `a String object`, `a Date`, `a Map`, `a member named by Symbol(id)`… */
  readonly what: string;
  /**
   * What the schema asks for there: `a string`, `a number`, `a boolean`, `an array`, `a plain object`.
   * Undefined for a live object within structuredContent that JSON writes as a primitive or an array:
   * McpServer checks structuredContent against the tool's outputSchema as the live value (an object
   * there), so it is refused where that schema refuses an object and accepts what JSON writes.
   */
  readonly expected?: string;
}

type Expected = 'string' | 'number' | 'boolean' | 'array';

/** Places reported at most. */
const MAX_REFUSALS = 20;

/** Blocks read at most: a million blocks is past every client's limit on a result's size already. */
const MAX_BLOCKS = 1 << 20;

/** Members of a content block that the schema parses as strings (besides `type`), by block type. */
const STRINGS: Readonly<Record<string, readonly string[]>> = {
  text: ['text'],
  image: ['data', 'mimeType'],
  audio: ['data', 'mimeType'],
  resource_link: ['uri', 'name', 'title', 'description', 'mimeType'],
  resource: [],
};

/**
 * The places where SDK v1's server refuses `result`, a handler's value (or a document read as its parse
 * reads it, validate/as-sent.ts asParsedResult): at most MAX_REFUSALS. Never throws: a value whose
 * reading throws is result-not-serializable's.
 */
export function sdkRefusals(result: unknown, structured = false): Refusal[] {
  const out: Refusal[] = [];
  try {
    walkResult(result, out);
    if (structured) walkStructured((result as { structuredContent?: unknown }).structuredContent, out);
  } catch {
    // Reading ran code that threw: the SDK's parse throws too, and JSON.stringify, which another rule reports.
  }
  return out.slice(0, MAX_REFUSALS);
}

function walkResult(result: unknown, out: Refusal[]): void {
  if (!isZodObject(result)) return;
  const r = result as Record<string, unknown>;
  scalar(r.isError, 'boolean', ['isError'], out);
  record(r.structuredContent, ['structuredContent'], out);
  const content = r.content;
  if (!scalar(content, 'array', ['content'], out) || !Array.isArray(content)) return;
  // A sparse content of 2^31 holes holds no more blocks than its first MAX_BLOCKS show.
  const blocks = Math.min(content.length, MAX_BLOCKS);
  for (let i = 0; i < blocks && out.length < MAX_REFUSALS; i++) walkBlock(content[i], ['content', i], out);
}

function walkBlock(block: unknown, path: PathSegment[], out: Refusal[]): void {
  if (!isZodObject(block)) return;
  const b = block as Record<string, unknown>;
  scalar(b.type, 'string', [...path, 'type'], out);
  const type = sentPrimitive(b.type);
  if (typeof type !== 'string' || !Object.hasOwn(STRINGS, type)) return;
  for (const key of STRINGS[type] as readonly string[]) scalar(b[key], 'string', [...path, key], out);
  annotations(b.annotations, [...path, 'annotations'], out);
  // A resource link's `_meta` is a loose object (any object passes); the other blocks' is a record.
  if (type !== 'resource_link') record(b._meta, [...path, '_meta'], out);
  if (type === 'resource_link') {
    scalar(b.size, 'number', [...path, 'size'], out);
    icons(b.icons, [...path, 'icons'], out);
  }
  if (type === 'resource' && isZodObject(b.resource)) {
    const contents = b.resource as Record<string, unknown>;
    for (const key of ['uri', 'mimeType', 'text', 'blob'])
      scalar(contents[key], 'string', [...path, 'resource', key], out);
    record(contents._meta, [...path, 'resource', '_meta'], out);
  }
}

function annotations(value: unknown, path: PathSegment[], out: Refusal[]): void {
  if (!isZodObject(value)) return;
  const a = value as Record<string, unknown>;
  scalar(a.priority, 'number', [...path, 'priority'], out);
  scalar(a.lastModified, 'string', [...path, 'lastModified'], out);
  if (scalar(a.audience, 'array', [...path, 'audience'], out) && Array.isArray(a.audience)) {
    for (let i = 0; i < a.audience.length; i++)
      scalar(a.audience[i], 'string', [...path, 'audience', i], out);
  }
}

function icons(value: unknown, path: PathSegment[], out: Refusal[]): void {
  if (!scalar(value, 'array', path, out) || !Array.isArray(value)) return;
  value.forEach((icon, i) => {
    if (!isZodObject(icon)) return;
    const at = [...path, i];
    const o = icon as Record<string, unknown>;
    for (const key of ['src', 'mimeType', 'theme']) scalar(o[key], 'string', [...at, key], out);
    if (scalar(o.sizes, 'array', [...at, 'sizes'], out) && Array.isArray(o.sizes)) {
      for (let j = 0; j < o.sizes.length; j++) scalar(o.sizes[j], 'string', [...at, 'sizes', j], out);
    }
  });
}

/**
 * Whether `value` is no live object standing for what the schema asks for: false (and a refusal noted)
 * when it is an object that JSON writes as a `expected` (a String object, a Date, an object whose toJSON
 * answers one), which the schema's parse refuses.
 */
function scalar(value: unknown, expected: Expected, path: PathSegment[], out: Refusal[]): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (expected === 'array' ? Array.isArray(value) : false) return true;
  const sent = sentForm(value, String(path[path.length - 1]));
  const matches = expected === 'array' ? Array.isArray(sent) : typeof sent === expected;
  if (!matches) return true;
  out.push({
    path,
    what: describeLive(value),
    expected: expected === 'array' ? 'an array' : `a ${expected}`,
  });
  return false;
}

/** Members walkStructured reads at most (a sparse array of 2^31 holes is as many). */
const MAX_STRUCTURED_READS = 1 << 22;

/**
 * The live objects within structuredContent that JSON writes as a primitive or an array (a Date, a
 * String object, an object whose toJSON answers one): for McpServer's check against the outputSchema,
 * which reads the live value. Iterative, at most MAX_STRUCTURED_VISITS containers and MAX_REFUSALS places.
 */
function walkStructured(root: unknown, out: Refusal[]): void {
  if (typeof root !== 'object' || root === null) return;
  const stack: [unknown, PathSegment[]][] = [];
  let reads = 0;
  const push = (container: object, path: PathSegment[]) => {
    if (Array.isArray(container)) {
      const length = Math.min(container.length, MAX_STRUCTURED_READS - reads);
      reads += length;
      for (let i = 0; i < length; i++) stack.push([container[i], [...path, i]]);
      return;
    }
    const keys = Object.keys(container).slice(0, MAX_STRUCTURED_READS - reads);
    reads += keys.length;
    for (const key of keys) stack.push([(container as Record<string, unknown>)[key], [...path, key]]);
  };
  push(root, ['structuredContent']);
  const seen = new Set<object>([root]);
  while (stack.length > 0 && out.length < MAX_REFUSALS) {
    const [value, path] = stack.pop() as [unknown, PathSegment[]];
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    if (!Array.isArray(value)) {
      const sent = sentForm(value, String(path[path.length - 1]));
      if (typeof sent !== 'object' || Array.isArray(sent)) {
        if (sent !== null && sent !== undefined) out.push({ path, what: describeLive(value) });
        continue;
      }
    }
    push(value, path);
  }
}

/** A record's place (`z.record(z.string(), z.unknown())`): a plain object whose enumerable keys are strings. */
function record(value: unknown, path: PathSegment[], out: Refusal[]): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
  if (!isZodPlainObject(value)) {
    // What JSON writes of it is an object (or the rule of that member reports what it writes).
    if (isJsonObject(sentForm(value, String(path[path.length - 1]))))
      out.push({ path, what: describeLive(value), expected: 'a plain object' });
    return;
  }
  for (const key of Object.getOwnPropertySymbols(value)) {
    if (Object.prototype.propertyIsEnumerable.call(value, key)) {
      out.push({
        path,
        what: `a member named by ${String(key)}`,
        expected: 'a plain object whose member names are strings',
      });
      return;
    }
  }
}

/** zod v4's `isObject`, which its object schemas ask of their input. */
function isZodObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** zod v4's util.isPlainObject (v4/core/util.js), which `z.record` asks of its input. */
function isZodPlainObject(value: object): boolean {
  const ctor = (value as { constructor?: unknown }).constructor;
  if (ctor === undefined || typeof ctor !== 'function') return true;
  const proto = (ctor as { prototype?: unknown }).prototype;
  if (typeof proto !== 'object' || proto === null || Array.isArray(proto)) return false;
  return Object.hasOwn(proto, 'isPrototypeOf');
}

function isJsonObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * What JSON.stringify writes of `value` in outline, without writing it: a primitive as it is, an object
 * whose `toJSON` answers one as that answer, a String, Number or Boolean object as its primitive, and
 * any other object or array as itself (its members are not read). `undefined` where reading throws.
 */
function sentForm(value: unknown, key = ''): unknown {
  try {
    let sent = value;
    if (typeof sent === 'object' && sent !== null) {
      const toJSON = (sent as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') sent = toJSON.call(sent, key);
    }
    if (sent instanceof String || sent instanceof Number || sent instanceof Boolean)
      return JSON.parse(JSON.stringify(sent));
    return sent;
  } catch {
    return undefined;
  }
}

/** A primitive as JSON writes it (a String object as its string); anything else as it is. */
function sentPrimitive(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const sent = sentForm(value);
  return typeof sent === 'object' ? value : sent;
}

/** How a message names a live object: `a String object`, `a Date`, `an instance of Row`, `an object with toJSON`. */
export function describeLive(value: object): string {
  if (value instanceof String) return 'a String object (new String)';
  if (value instanceof Number) return 'a Number object (new Number)';
  if (value instanceof Boolean) return 'a Boolean object (new Boolean)';
  if (value instanceof Date) return 'a Date';
  if (value instanceof Map) return 'a Map';
  if (value instanceof Set) return 'a Set';
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return 'an object with a toJSON method';
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name !== '' && name !== 'Object'
    ? `an instance of ${name}`
    : 'an object';
}

/**
 * Refusals found on a handler's live value, by the document the rules judge in its place (its sent
 * form, a copy in which the live objects are what JSON wrote of them): set by the validators for the
 * time of one judging (withRefusals).
 */
const REGISTERED = new WeakMap<object, readonly Refusal[]>();

/** Runs `judge` with `refusals` held for `document`, the sent form of the value they were found on. */
export function withRefusals<T>(document: unknown, refusals: readonly Refusal[], judge: () => T): T {
  if (refusals.length === 0 || typeof document !== 'object' || document === null) return judge();
  REGISTERED.set(document, refusals);
  try {
    return judge();
  } finally {
    REGISTERED.delete(document);
  }
}

/** The refusals of `result`: those held for it by withRefusals, else those found on it as it is. */
export function refusalsOf(result: unknown): readonly Refusal[] {
  const held = typeof result === 'object' && result !== null ? REGISTERED.get(result) : undefined;
  return held ?? sdkRefusals(result);
}
