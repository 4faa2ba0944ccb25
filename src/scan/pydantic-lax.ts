/**
 * What the python-sdk FastMCP does with a tool's return annotation: it builds an output model from it
 * (`-> int` becomes `{"result": int}`, `-> dict[str, int]` stays a dict) and validates the returned
 * value against that model in pydantic's lax mode before sending anything (v1.29.0
 * src/mcp/server/fastmcp/utilities/func_metadata.py, `_try_create_model_and_schema` and
 * `FuncMetadata.convert_result`). A value the model rejects raises, and the client gets an error result
 * in place of the output.
 *
 * This module reads the annotations built from `str`, `int`, `float`, `bool`, `list[…]`, `dict[str, …]`
 * and `Optional[…]` / `… | None`, and judges a concrete partial value against one three ways:
 * accepted, rejected (with the paths pydantic rejects), or not known until run time. Lax mode converts
 * (a numeric string is an int, `"yes"` a bool), so only what it surely converts counts as accepted, and
 * only what it never converts as rejected; everything between is left to run time. Hand-written: the
 * conversion rules live in pydantic-core (Rust), which nothing here can run.
 */

import { isOpen } from '../core/opaque.js';
import type { PathSegment } from '../core/pointer.js';
import { kindOf, modelName, UnknownValue } from './values.js';

export type LaxType =
  | { readonly kind: 'str' | 'int' | 'float' | 'bool' }
  | { readonly kind: 'list'; readonly item: LaxType }
  | { readonly kind: 'dict'; readonly value: LaxType }
  | { readonly kind: 'optional'; readonly of: LaxType }
  | ModelType;

/**
 * A class of the scanned module that pydantic validates field by field: a `BaseModel`, a `TypedDict`
 * or a dataclass. An instance of the class itself passes; a dict must hold every required field, each
 * of its type; members it does not declare are ignored (pydantic's default).
 */
export interface ModelType {
  readonly kind: 'model';
  readonly name: string;
  /**
   * Undefined: a class of the module that validates in ways this module does not read (a validator,
   * a config, another base): only an instance of it is known to pass.
   */
  readonly fields: readonly ModelField[] | undefined;
  /**
   * A `BaseModel`: pydantic validates the fields when an instance is built (`Weather(temp=…)`), and
   * the constructor raises on a value it refuses. (A TypedDict call builds a plain dict, and a
   * dataclass validates nothing when built.)
   */
  readonly validatedWhenBuilt?: boolean;
}

export interface ModelField {
  readonly name: string;
  /** Undefined: pydantic checks the field against a type this module does not read (`datetime`). */
  readonly type: LaxType | undefined;
  readonly required: boolean;
}

/** The classes an annotation may name, by name (undefined: not one this module can read). */
export type ClassResolver = (name: string) => ModelType | undefined;

/** A return annotation FastMCP builds an output model from, as written and as read. */
export interface ReturnAnnotation {
  readonly text: string;
  readonly type: LaxType;
}

const PRIMITIVES = new Set(['str', 'int', 'float', 'bool']);
const LISTS = new Set(['list', 'List', 'typing.List']);
const DICTS = new Set(['dict', 'Dict', 'typing.Dict']);
const OPTIONALS = new Set(['Optional', 'typing.Optional']);

/**
 * Annotations nested deeper, or longer, are not read (not checked at all): no hand-written one gets
 * there, and a file made to reach them must not cost more than its parse.
 */
const MAX_ANNOTATION_DEPTH = 32;
const MAX_ANNOTATION_LENGTH = 2000;

/**
 * The annotation's type, or undefined when it is anything else (`Any`, a union of two types, a class
 * `classes` does not know).
 */
export function parseAnnotation(
  source: string,
  classes: ClassResolver = () => undefined,
  depth = 0,
): LaxType | undefined {
  if (depth > MAX_ANNOTATION_DEPTH || source.length > MAX_ANNOTATION_LENGTH) return undefined;
  const compact = source.replace(/\s+/g, '');
  // `X | None` and `None | X` at the top level of this (sub)annotation.
  const parts = splitTop(compact, '|');
  if (parts.length === 2 && parts.includes('None')) {
    const of = parseAnnotation(
      parts[0] === 'None' ? (parts[1] as string) : (parts[0] as string),
      classes,
      depth + 1,
    );
    return of && { kind: 'optional', of };
  }
  if (parts.length !== 1) return undefined;
  if (PRIMITIVES.has(compact)) return { kind: compact as 'str' | 'int' | 'float' | 'bool' };
  // A class by its name or through a module (`schemas.Item`), or a forward reference (`"Item"`).
  if (/^\w+(?:\.\w+)*$/.test(compact)) return classes(compact);
  const quoted = /^(["'])(.*)\1$/.exec(compact);
  if (quoted) return parseAnnotation(quoted[2] as string, classes, depth + 1);
  const generic = /^([\w.]+)\[(.*)\]$/.exec(compact);
  if (!generic) return undefined;
  const [, name = '', inner = ''] = generic;
  const args = splitTop(inner, ',');
  if (LISTS.has(name) && args.length === 1) {
    const item = parseAnnotation(inner, classes, depth + 1);
    return item && { kind: 'list', item };
  }
  if (DICTS.has(name) && args.length === 2 && args[0] === 'str') {
    const value = parseAnnotation(args[1] as string, classes, depth + 1);
    return value && { kind: 'dict', value };
  }
  if (OPTIONALS.has(name) && args.length === 1) {
    const of = parseAnnotation(inner, classes, depth + 1);
    return of && { kind: 'optional', of };
  }
  return undefined;
}

/** `text` split at `separator` where no bracket is open. */
function splitTop(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '[') depth++;
    else if (c === ']') depth--;
    else if (c === separator && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** Whether FastMCP wraps the value as `{"result": value}` (everything but a dict or a model). */
export function isWrapped(type: LaxType): boolean {
  return type.kind !== 'dict' && type.kind !== 'model';
}

/**
 * The JSON Schema of the strict form of `type`: not what pydantic accepts, but what the messages of
 * rejected values are written against (a rejected value fails it as well; see `judgeLax`).
 */
export function strictSchema(type: LaxType): Record<string, unknown> {
  switch (type.kind) {
    case 'str':
      return { type: ['string'] };
    case 'int':
      return { type: ['integer'] };
    case 'float':
      return { type: ['number'] };
    case 'bool':
      return { type: ['boolean'] };
    case 'list':
      return { type: ['array'], items: strictSchema(type.item) };
    case 'dict':
      return { type: ['object'], additionalProperties: strictSchema(type.value) };
    case 'optional': {
      const of = strictSchema(type.of);
      const types = of.type as string[];
      return types.includes('null') ? of : { ...of, type: [...types, 'null'] };
    }
    case 'model': {
      // The model's own place rejects only its kind and missing fields; each field has its own path.
      const required = (type.fields ?? []).filter((f) => f.required).map((f) => f.name);
      return { type: ['object'], ...(required.length > 0 ? { required } : {}) };
    }
  }
}

export interface LaxVerdict {
  /** Where pydantic rejects the value, as paths into it. */
  readonly rejected: readonly (readonly PathSegment[])[];
  /** Why acceptance is known only at run time, when it is. */
  readonly unknown?: string;
}

/** Strings pydantic's lax `bool` takes (compared lowercased). */
const BOOL_STRINGS = new Set(['0', 'off', 'f', 'false', 'n', 'no', '1', 'on', 't', 'true', 'y', 'yes']);
/** Strings lax `int` surely takes, and strings it may take (whitespace, underscores, `.0`). */
const INT_SURE = /^[+-]?\d+$/;
const INT_MAYBE = /^\s*[+-]?[\d_]+(?:\.0*)?\s*$/;
/** Strings lax `float` surely takes, and strings it may take (whitespace, underscores, inf, nan). */
const FLOAT_SURE = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const FLOAT_MAYBE = /^\s*[+-]?(?:[\d_]*\.?[\d_]*(?:[eE][+-]?[\d_]+)?|inf(?:inity)?|nan)\s*$/i;

type Judged = 'accepted' | 'rejected' | 'unknown';

/**
 * Judges `value` (a concrete partial document: JSON, unknown leaves, open containers) against `type`.
 * `strict`: as a client checks the value's JSON against the JSON Schema pydantic writes for `type`
 * (the outputSchema the standalone `fastmcp` derives from the annotation), which converts nothing:
 * `"7"` is no integer there, `1` no boolean.
 */
export function judgeLax(type: LaxType, value: unknown, strict = false): LaxVerdict {
  const rejected: PathSegment[][] = [];
  let unknown = false;
  const visit = (t: LaxType, v: unknown, path: PathSegment[]): void => {
    const judged = strict ? judgeStrict(t, v, path, visit) : judge(t, v, path, visit);
    if (judged === 'rejected') rejected.push(path);
    else if (judged === 'unknown') unknown = true;
  };
  visit(type, value, []);
  if (!unknown) return { rejected };
  return {
    rejected,
    unknown: strict
      ? "whether it matches the annotation's schema is known only at run time"
      : 'whether pydantic accepts it is known only at run time',
  };
}

type Visit = (t: LaxType, v: unknown, path: PathSegment[]) => void;

/**
 * One value judged as JSON Schema judges its JSON: the scalars by their JSON type alone (an unknown
 * number is an integer only when the analysis knows it is integral); containers, models and unknowns
 * as in lax mode, whose rules for them convert nothing.
 */
function judgeStrict(type: LaxType, value: unknown, path: PathSegment[], visit: Visit): Judged {
  const kind = kindOf(value);
  const scalar = type.kind === 'str' || type.kind === 'int' || type.kind === 'float' || type.kind === 'bool';
  if (!scalar || kind === 'opaque' || kind === 'undefined' || modelName(value) !== undefined)
    return judge(type, value, path, visit, true);
  switch (type.kind) {
    case 'str':
      return kind === 'string' ? 'accepted' : 'rejected';
    case 'bool':
      return kind === 'boolean' ? 'accepted' : 'rejected';
    case 'float':
      return kind === 'number' ? 'accepted' : 'rejected';
    default:
      if (kind !== 'number') return 'rejected';
      if (typeof value === 'number') return Number.isInteger(value) ? 'accepted' : 'rejected';
      return value instanceof UnknownValue && value.integral === true ? 'accepted' : 'unknown';
  }
}

/** One value; containers hand their members to `visit` and answer for themselves only. */
function judge(type: LaxType, value: unknown, path: PathSegment[], visit: Visit, strict = false): Judged {
  const kind = kindOf(value);
  if (type.kind === 'optional') {
    if (kind === 'null') return 'accepted';
    if (kind === 'opaque' || kind === 'undefined') return 'unknown';
    return strict ? judgeStrict(type.of, value, path, visit) : judge(type.of, value, path, visit);
  }
  // A pydantic model instance, an unknown of no known type, or a value the analysis may not have. A
  // tuple is a sequence like a list.
  const model = modelName(value);
  if (type.kind === 'model' && model === type.name) return 'accepted';
  if (kind === 'opaque' || kind === 'undefined' || (model !== undefined && model !== 'tuple'))
    return 'unknown';
  const known = typeof value !== 'object' || value === null;
  switch (type.kind) {
    case 'list':
    case 'dict': {
      const want = type.kind === 'list' ? 'array' : 'object';
      if (kind !== want) return 'rejected';
      // An unknown array or object: its items are not known either.
      if (!isPlain(value as object)) return 'unknown';
      const member = type.kind === 'list' ? type.item : type.value;
      for (const [key, item] of Object.entries(value as object)) {
        visit(member, item, [...path, Array.isArray(value) ? Number(key) : key]);
      }
      // Members the analysis could not list (a spread, items of unknown number) may be anything.
      return isOpen(value) ? 'unknown' : 'accepted';
    }
    case 'model': {
      if (!type.fields) return 'unknown';
      if (kind !== 'object') return 'rejected';
      if (!isPlain(value as object)) return 'unknown';
      const record = value as Record<string, unknown>;
      let judged: Judged = 'accepted';
      for (const field of type.fields) {
        if (!Object.hasOwn(record, field.name)) {
          // A member a spread may hold is not surely missing.
          if (field.required && !isOpen(value)) return 'rejected';
          if (field.required) judged = 'unknown';
        } else if (field.type) visit(field.type, record[field.name], [...path, field.name]);
        else judged = 'unknown';
      }
      return judged;
    }
    case 'str':
      return kind === 'string' ? 'accepted' : 'rejected';
    case 'int':
      // An unknown number is an int when the analysis knows it is integral (`a + b` of two `int`
      // parameters, `len(x)`); otherwise (`a / b`, a `float` parameter) only run time tells: lax mode
      // takes 2.0 as an int and refuses 2.5. Known numbers are exact.
      if (kind === 'number') {
        if (known) return Number.isInteger(value) ? 'accepted' : 'rejected';
        return value instanceof UnknownValue && value.integral === true ? 'accepted' : 'unknown';
      }
      if (kind === 'string') return known ? byPattern(value as string, INT_SURE, INT_MAYBE) : 'unknown';
      return kind === 'boolean' ? 'unknown' : 'rejected';
    case 'float':
      if (kind === 'number') return 'accepted';
      if (kind === 'string') return known ? byPattern(value as string, FLOAT_SURE, FLOAT_MAYBE) : 'unknown';
      return kind === 'boolean' ? 'unknown' : 'rejected';
    case 'bool':
      if (kind === 'boolean') return 'accepted';
      if (kind === 'number')
        return known ? (value === 0 || value === 1 ? 'accepted' : 'rejected') : 'unknown';
      if (kind === 'string') {
        if (!known) return 'unknown';
        const text = value as string;
        if (BOOL_STRINGS.has(text.toLowerCase())) return 'accepted';
        return BOOL_STRINGS.has(text.trim().toLowerCase()) ? 'unknown' : 'rejected';
      }
      return 'rejected';
  }
}

function byPattern(text: string, sure: RegExp, maybe: RegExp): Judged {
  if (sure.test(text)) return 'accepted';
  return maybe.test(text) ? 'unknown' : 'rejected';
}

/** A container whose members are all listed (not an unknown standing for one). */
function isPlain(value: object): boolean {
  return Array.isArray(value) || Object.getPrototypeOf(value) === Object.prototype;
}

/** The type `path` leads to inside `type` (an Optional stands for what it wraps). */
function typeAt(type: LaxType, path: readonly PathSegment[]): LaxType {
  let current = type;
  for (const segment of path) {
    while (current.kind === 'optional') current = current.of;
    if (current.kind === 'list') current = current.item;
    else if (current.kind === 'dict') current = current.value;
    else if (current.kind === 'model') {
      // judgeLax descends only into fields it has a type for.
      current = current.fields?.find((f) => f.name === segment)?.type ?? current;
    }
  }
  return current;
}

/**
 * A JSON Schema (2020-12, named so that every protocol version reads it alike) that constrains only
 * the value at `path` to the strict form of its type: run against a value `judgeLax` rejected at
 * `path`, it fails there and nowhere else, which gives the finding its words and its place.
 */
export function schemaAtPath(type: LaxType, path: readonly PathSegment[]): Record<string, unknown> {
  let schema: Record<string, unknown> = strictSchema(typeAt(type, path));
  for (let i = path.length - 1; i >= 0; i--) {
    const segment = path[i] as PathSegment;
    schema =
      typeof segment === 'number'
        ? { prefixItems: [...Array.from({ length: segment }, () => true), schema] }
        : { properties: { [segment]: schema } };
  }
  const root = isWrapped(type) ? { properties: { result: schema }, required: ['result'] } : schema;
  return { $schema: 'https://json-schema.org/draft/2020-12/schema', ...root };
}
