/**
 * The abstract values of `scan`'s value analysis. An expression evaluates to a *set* of variants
 * (`Value`): every value it may produce at run time is described by at least one of them. A variant
 * is a string, number or boolean (its exact value when the source fixes it), null, undefined (a
 * member that is absent), a reference to an abstract object or array in the heap (heap.ts), a
 * function, or unknown with the reason why. Every variant remembers the source range that produced
 * it, so a finding can point at the literal to fix, and the branch conditions under which it arose.
 */

import { appendAll } from '../../core/append.js';
import { isAbsoluteUri } from '../../core/uri.js';
import type { LineMap } from '../source.js';

/** A source file of the scanned project. */
export interface SourceFile {
  /** Index in the project, for cheap keys. */
  readonly id: number;
  /** The path shown in reports (relative to the working directory). */
  readonly path: string;
  /** Absolute path on disk, for resolving imports; undefined for sources given as text. */
  readonly absolute: string | undefined;
  readonly text: string;
  readonly lines: LineMap;
}

/** A source range: UTF-16 offsets into `file.text`. */
export interface Site {
  readonly file: SourceFile;
  readonly start: number;
  readonly end: number;
}

/** A branch condition a variant depends on: `isinstance(result, str)` is false. */
export interface Guard {
  readonly text: string;
  readonly holds: boolean;
  readonly site: Site;
}

export type JsonKind = 'string' | 'number' | 'boolean' | 'array' | 'object';

/**
 * What a string the source does not fix is still known to be, from how it was made: `base64` from an
 * encoder (`buf.toString('base64')`, `base64.b64encode(b).decode()`), `uri` from a URL builder
 * (`pathToFileURL(p).href`, `Path(p).as_uri()`) or a template whose parts keep it one. The rules on a
 * block's `data` and `uri` check their text, so only a string of the right format proves them.
 */
export type StringFormat = 'base64' | 'uri';

/**
 * A type the source declares for a value the analysis cannot see: `Promise<CallToolResult>`,
 * `-> list[TextContent]`. `proves` says what the declaration guarantees when the value is unknown.
 */
export interface Declared {
  readonly type: string;
  readonly proves: 'result' | 'block' | 'blocks';
}

/** A function value: the function node of the front end, and the run its free variables live in. */
export interface FunctionValue {
  readonly node: object;
  /** The front end's environment for free variables (a finished or running interpretation). */
  readonly closure: unknown;
  /** `this`/`self` for bound methods. */
  readonly self?: Value;
  /** A name for messages: `lookup`, `Tools.render`. */
  readonly name: string;
  /** The `__name__` `functools.wraps(fn)` gave a wrapper: `fn`'s (a tool registered by it is named so). */
  readonly wraps?: string;
  /** `functools.partial(fn, …)`: the arguments bound ahead of those of each call. */
  readonly partial?: { readonly positional: readonly Value[]; readonly keywords: ReadonlyMap<string, Value> };
}

interface Base {
  readonly site: Site;
  readonly guards?: readonly Guard[];
}

export type Variant =
  | (Base & {
      readonly k: 'str';
      readonly value?: string;
      readonly nonEmpty?: boolean;
      readonly format?: StringFormat;
    })
  /**
   * `integral`: an unknown number that is surely an integer (`len(x)`, an `int` parameter, `a + b` of
   * two such): pydantic's `int` accepts it, where it refuses a float with a fraction (`a / b`).
   */
  | (Base & { readonly k: 'num'; readonly value?: number; readonly integral?: boolean })
  | (Base & { readonly k: 'bool'; readonly value?: boolean })
  | (Base & { readonly k: 'null' })
  /**
   * `undefined`, or a member that is absent. `soft`: it comes from a path the analysis cannot tell
   * apart from others (a member that only some of the objects a variable may be have), so it may
   * not happen at all: judged as unknown, never as a certain absence.
   */
  | (Base & { readonly k: 'undef'; readonly soft?: boolean })
  | (Base & { readonly k: 'ref'; readonly id: number })
  | (Base & { readonly k: 'fn'; readonly fn: FunctionValue })
  /** `JSON.stringify(x)`, `json.dumps(x)`: a string that is the JSON of `of`. */
  | (Base & { readonly k: 'json'; readonly of: Value })
  | (Base & {
      readonly k: 'unknown';
      readonly reason: string;
      readonly kind?: JsonKind;
      /** Of kind number, and surely an integer (an `int` parameter; see the `num` variant). */
      readonly integral?: boolean;
      readonly declared?: Declared;
      /**
       * The branch test on this input that the code relies on (`Array.isArray(node)`,
       * `isinstance(node, list)`): what is built from the value by its type (`node.map(…)`) has that
       * type only when the input does, so it is never a proven defect (see `derivedFrom`).
       */
      readonly tested?: string;
      /**
       * What `a && b` yields of `a` when `a` is falsy (false, 0, "", null, undefined): spreading
       * it (`...(flag && { description })`) adds no member.
       */
      readonly falsy?: true;
      /**
       * A library object whose string form has a known format: the bytes of a base64 encoder
       * (`base64.b64encode(b)`, whose `.decode()` is base64) or a URL (`new URL(…)`,
       * `pathToFileURL(p)`, whose `.href` is an absolute URI).
       */
      readonly yields?: StringFormat;
      /** A zod schema (or zod's namespace `z`), with the JSON Schema it accepts (js/zod.ts). */
      readonly zod?: ZodFact;
      /**
       * TypeScript types it `any` (`await res.json()`, `JSON.parse(s)`, `x as any`, and their
       * members), so the compiler lets it through any declared type: no declaration proves it.
       */
      readonly untyped?: true;
    });

/**
 * What the analysis knows of a zod value: the namespace `z`, or a schema with the JSON Schema it
 * accepts (undefined when the model does not know it) and whether an object may leave it out.
 */
export type ZodFact =
  | { readonly namespace: true }
  | { readonly schema: Record<string, unknown> | undefined; readonly optional: boolean };

/** Every value an expression may produce; never empty (an impossible value is `NOTHING` only transiently). */
export type Value = readonly Variant[];

export const NOTHING: Value = [];

/** More variants than this and a value collapses to unknown: the analysis must stay bounded. */
export const MAX_VARIANTS = 24;

/** Constant strings longer than this are treated as unknown strings (concatenation in a loop). */
const MAX_CONSTANT_STRING = 64 * 1024;

export function str(site: Site, value?: string): Value {
  if (value !== undefined && value.length > MAX_CONSTANT_STRING) return [{ k: 'str', site, nonEmpty: true }];
  // Literals of their exact members, no spreads: a spread copies through a temporary object and
  // stores the copied members outside the object, where reading them costs an indirection.
  return [value === undefined ? { k: 'str', site } : { k: 'str', site, value }];
}

/**
 * A string whose text the source does not fix: `nonEmpty` when it certainly is not empty
 * (`f"no {x}"`), `format` when how it was made says what it holds.
 */
export function someString(site: Site, nonEmpty: boolean, format?: StringFormat): Value {
  if (format) return [nonEmpty ? { k: 'str', site, nonEmpty, format } : { k: 'str', site, format }];
  return [nonEmpty ? { k: 'str', site, nonEmpty } : { k: 'str', site }];
}

export function num(site: Site, value?: number, integral = false): Value {
  if (value !== undefined) return [{ k: 'num', site, value }];
  return [integral ? { k: 'num', site, integral } : { k: 'num', site }];
}

/** `value`, its unknown numbers marked surely integers (an `int` parameter). */
export function integralNumber(value: Value): Value {
  return value.map((v) =>
    (v.k === 'unknown' && v.kind === 'number') || (v.k === 'num' && v.value === undefined)
      ? { ...v, integral: true }
      : v,
  );
}

/** Whether every variant of `value` is surely an integer (a known one, or an integral unknown). */
export function isIntegral(value: Value): boolean {
  return (
    value.length > 0 &&
    value.every(
      (v) =>
        (v.k === 'num' && (v.value !== undefined ? Number.isInteger(v.value) : v.integral === true)) ||
        (v.k === 'unknown' && v.kind === 'number' && v.integral === true),
    )
  );
}

export function bool(site: Site, value?: boolean): Value {
  return [value === undefined ? { k: 'bool', site } : { k: 'bool', site, value }];
}

export function nul(site: Site): Value {
  return [{ k: 'null', site }];
}

export function undef(site: Site): Value {
  return [{ k: 'undef', site }];
}

/** An absence the analysis is not sure of (see `soft` on the `undef` variant). */
export function maybeUndef(site: Site): Value {
  return [{ k: 'undef', site, soft: true }];
}

export function ref(site: Site, id: number): Value {
  return [{ k: 'ref', site, id }];
}

export function fn(site: Site, value: FunctionValue): Value {
  return [{ k: 'fn', site, fn: value }];
}

export function json(site: Site, of: Value): Value {
  return [{ k: 'json', site, of }];
}

/** A library object whose string form is of `format` (see `yields` on the unknown variant). */
export function yielding(site: Site, reason: string, format: StringFormat): Value {
  return [{ k: 'unknown', site, reason, yields: format }];
}

/** The format an unknown library object's string form has, when every variant is one that has it. */
export function yieldsOf(value: Value): StringFormat | undefined {
  const [first] = value;
  if (first?.k !== 'unknown' || first.yields === undefined) return undefined;
  return value.every((v) => v.k === 'unknown' && v.yields === first.yields) ? first.yields : undefined;
}

/** Whether every variant is a number (its text, when unknown, is digits, a sign, a point, `e`, NaN or Infinity). */
export function isNumeric(value: Value): boolean {
  return value.length > 0 && value.every((v) => v.k === 'num' || (v.k === 'unknown' && v.kind === 'number'));
}

/**
 * How a number may print in a template or an f-string: each stands for the characters it may bring
 * (JS `String(n)` and Python `str(n)` alike).
 */
const NUMBER_SAMPLES = ['0', '-1.5e+21', 'NaN', 'Infinity', 'inf'];

/**
 * The format of a string assembled from constant text and numbers known only at run time (`null` in
 * `parts`): `uri` when it is an absolute URI however each number prints (`https://x/items/${id}`).
 */
export function assembledFormat(parts: readonly (string | null)[]): StringFormat | undefined {
  for (const sample of NUMBER_SAMPLES) {
    if (!isAbsoluteUri(parts.map((p) => p ?? sample).join(''))) return undefined;
  }
  return 'uri';
}

export function unknown(site: Site, reason: string, kind?: JsonKind, declared?: Declared): Value {
  if (declared)
    return [kind ? { k: 'unknown', site, reason, kind, declared } : { k: 'unknown', site, reason, declared }];
  return [kind ? { k: 'unknown', site, reason, kind } : { k: 'unknown', site, reason }];
}

/** The variants of `value`, its unknowns marked as typed `any` by TypeScript (see `untyped`). */
export function untyped(value: Value): Value {
  return value.map((v) => (v.k === 'unknown' && !v.untyped && !v.declared ? { ...v, untyped: true } : v));
}

/** The variants of `value`, unknowns among them marked as having passed the branch test `test`. */
export function tested(value: Value, test: string): Value {
  return value.map((v) => (v.k === 'unknown' && v.tested === undefined ? { ...v, tested: test } : v));
}

/**
 * The variants of `value` on a path where a type test said it is a string or a boolean
 * (`typeof x === 'string'`, `isinstance(x, str)`): its unknowns have that type there. (Not a number:
 * `typeof NaN` is "number" too, and JSON writes NaN as null.)
 */
export function ofKind(value: Value, kind: 'string' | 'boolean'): Value {
  return value.map((v) => (v.k === 'unknown' && v.kind === undefined ? { ...v, kind } : v));
}

/**
 * The test an input passed, when `value` is such an input: a container or value built from it by its
 * type (iterating it, calling its methods) mirrors the input, whose type is known only at run time.
 */
export function derivedFrom(value: Value): string | undefined {
  for (const v of value) if (v.k === 'unknown' && v.tested !== undefined) return v.tested;
  return undefined;
}

/** The JSON type of a variant, when certain (`undefined` for unknown without a kind and functions). */
export function kindOfVariant(v: Variant): JsonKind | 'null' | 'undefined' | undefined {
  switch (v.k) {
    case 'str':
    case 'json':
      return 'string';
    case 'num':
      return 'number';
    case 'bool':
      return 'boolean';
    case 'null':
      return 'null';
    case 'undef':
      return 'undefined';
    case 'unknown':
      return v.kind;
    default:
      return undefined;
  }
}

/** The one kind every variant shares, if any. */
export function commonKind(value: Value): ReturnType<typeof kindOfVariant> {
  let kind: ReturnType<typeof kindOfVariant>;
  for (const [i, v] of value.entries()) {
    const k = kindOfVariant(v);
    if (i === 0) kind = k;
    else if (k !== kind) return undefined;
  }
  return kind;
}

/** The string constants of a value, when every variant is one. */
export function constantStrings(value: Value): string[] | undefined {
  const out: string[] = [];
  for (const v of value) {
    if (v.k !== 'str' || v.value === undefined) return undefined;
    out.push(v.value);
  }
  return out;
}

/**
 * The member names a value can be, when every possibility is a known string or number (`kinds[k]` with
 * `k` one of a few constants): each is read on its own, so a lookup by any of them is as precise as
 * `kinds.a`. `undefined` for any other value, and past `MAX_KEYS` names, where one read of every
 * member is cheaper and says as much.
 */
export function constantKeys(value: Value): string[] | undefined {
  if (value.length === 0 || value.length > MAX_KEYS) return undefined;
  const out: string[] = [];
  for (const v of value) {
    if (v.k === 'str' && v.value !== undefined) out.push(v.value);
    else if (v.k === 'num' && v.value !== undefined) out.push(String(v.value));
    else return undefined;
  }
  return [...new Set(out)];
}

const MAX_KEYS = 16;

/** The single string constant of a value, if it has exactly that. */
export function constantString(value: Value): string | undefined {
  const [only] = value;
  return value.length === 1 && only?.k === 'str' ? only.value : undefined;
}

export function isStringLike(value: Value): boolean {
  return value.length > 0 && value.every((v) => kindOfVariant(v) === 'string');
}

/** The identity of every absence the analysis is not sure of (`maybeUndef`). */
export const MAYBE_MISSING_KEY = 'u~';

/**
 * Identity of a variant for de-duplication: the same kind and value from the same place. Guards are
 * left out on purpose: the same literal reached on two paths is one variant.
 */
export function variantKey(v: Variant): string {
  const at = `${v.site.file.id}:${v.site.start}`;
  switch (v.k) {
    case 'str':
      return v.value === undefined
        ? `s?${v.format ?? ''}${at}`
        : `s=${v.value.length > 64 ? `${v.value.slice(0, 64)}#${v.value.length}` : v.value}@${at}`;
    case 'num':
      // An integral unknown and another at one site stay two variants when joined (a loop may make the
      // operands of `x * 2` floats on a later pass): keeping only the first would prove an int.
      return `n${v.value ?? (v.integral ? 'i' : '?')}@${at}`;
    case 'bool':
      return `b${v.value ?? '?'}@${at}`;
    case 'null':
      return `z@${at}`;
    case 'undef':
      return v.soft ? MAYBE_MISSING_KEY : 'u';
    case 'ref':
      return `r${v.id}`;
    case 'fn':
      return `f${v.fn.name}@${at}`;
    case 'json':
      return `j@${at}`;
    case 'unknown':
      return `?${v.kind ?? ''}${v.integral ? 'i' : ''}${v.declared?.type ?? ''}${v.falsy ? '!' : ''}${v.yields ?? ''}@${at}`;
  }
}

/**
 * Whether a variantKey names one object the analysis allocated (a `ref`), which is one value wherever
 * it is used; other keys name source positions, which different values may share.
 */
export function namesAllocation(key: string): boolean {
  return key.startsWith('r');
}

function withGuard(v: Variant, guard: Guard): Variant {
  const guards = v.guards ?? [];
  if (guards.some((g) => g.site === guard.site && g.holds === guard.holds)) return v;
  // The innermost conditions explain a value best; older ones are dropped past two.
  return { ...v, guards: [...guards, guard].slice(-2) };
}

/** The variants of `value`, each marked as produced only when `guard` holds. */
export function guarded(value: Value, guard: Guard | undefined): Value {
  return guard ? value.map((v) => withGuard(v, guard)) : value;
}

/**
 * The union of two values. Variants of `a` missing from `b` get `guardA` (and the other way round),
 * so a value assigned in one branch of an `if` says which branch.
 */
export function join(a: Value, b: Value, guardA?: Guard, guardB?: Guard): Value {
  if (a === b) return a;
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  if (a.length === 1 && b.length === 1) {
    // The commonest join, of one variant each: no sets of keys to build.
    const [x, y] = [a[0] as Variant, b[0] as Variant];
    if (x === y || variantKey(x) === variantKey(y)) return a;
    return [guardA ? withGuard(x, guardA) : x, guardB ? withGuard(y, guardB) : y];
  }
  const keysB = new Set(b.map(variantKey));
  const keysA = new Set<string>();
  const out: Variant[] = [];
  for (const v of a) {
    const key = variantKey(v);
    keysA.add(key);
    out.push(guardA && !keysB.has(key) ? withGuard(v, guardA) : v);
  }
  for (const v of b) {
    const key = variantKey(v);
    if (keysA.has(key)) continue;
    keysA.add(key);
    out.push(guardB ? withGuard(v, guardB) : v);
  }
  return capped(out);
}

export function joinAll(values: readonly Value[]): Value {
  let out: Value = NOTHING;
  for (const v of values) out = join(out, v);
  return out;
}

/** Objects and functions are kept further than scalars: each may hold a defect of its own. */
const MAX_STRUCTURED_VARIANTS = 64;

/**
 * Too many possibilities collapse: scalars into one unknown per JSON type first (their exact values
 * rarely matter), then, past `MAX_STRUCTURED_VARIANTS`, everything into one unknown.
 */
export function capped(value: Variant[]): Value {
  if (value.length <= MAX_VARIANTS) return value;
  const [first] = value;
  if (!first) return value;
  const reason = `more than ${MAX_VARIANTS} possible values`;
  const kept: Variant[] = [];
  const scalars = new Map<string, Variant>();
  for (const v of value) {
    if (v.k === 'str' || v.k === 'num' || v.k === 'bool' || v.k === 'json') {
      const kind = kindOfVariant(v) as JsonKind;
      if (!scalars.has(kind)) scalars.set(kind, { k: 'unknown', site: v.site, reason, kind });
    } else kept.push(v);
  }
  appendAll(kept, scalars.values());
  if (kept.length <= MAX_STRUCTURED_VARIANTS) return kept;
  const kind = commonKind(value);
  return unknown(first.site, reason, kind === 'null' || kind === 'undefined' ? undefined : kind);
}

/**
 * Whether a variant may pass `s.startsWith(affix)` / `s.endsWith(affix)` (Python: `startswith`,
 * `endswith`) with the outcome `holds`: a known string is decided, anything else may.
 */
export function mayHaveAffix(v: Variant, end: 'start' | 'end', affix: string, holds: boolean): boolean {
  if (v.k !== 'str' || v.value === undefined) return true;
  return (end === 'start' ? v.value.startsWith(affix) : v.value.endsWith(affix)) === holds;
}

/** The variants that may be truthy / falsy at run time (JS and Python agree on these for JSON). */
export function mayBeFalsy(v: Variant): boolean {
  switch (v.k) {
    case 'str':
      return v.value === undefined ? !v.nonEmpty : v.value === '';
    case 'num':
      return v.value === undefined || v.value === 0;
    case 'bool':
      return v.value !== true;
    case 'null':
    case 'undef':
    case 'unknown':
      return true;
    default:
      return false;
  }
}

export function mayBeTruthy(v: Variant): boolean {
  switch (v.k) {
    case 'str':
      return v.value === undefined || v.value !== '';
    case 'num':
      return v.value === undefined || v.value !== 0;
    case 'bool':
      return v.value !== false;
    case 'null':
    case 'undef':
      return false;
    default:
      return true;
  }
}

export function isNullish(v: Variant): boolean {
  return v.k === 'null' || v.k === 'undef';
}
