/** Type guards over untrusted JSON. */

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A short human name for a JSON value's type, for messages. */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (Number.isInteger(value)) return 'integer';
  return typeof value;
}

export function hasOwn(object: JsonObject, key: string): boolean {
  return Object.hasOwn(object, key);
}

/** Structural equality of JSON values; object key order does not matter. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bArr = b as unknown[];
    return a.length === bArr.length && a.every((v, i) => jsonEqual(v, bArr[i]));
  }
  const ao = a as JsonObject;
  const bo = b as JsonObject;
  const keys = Object.keys(ao);
  if (keys.length !== Object.keys(bo).length) return false;
  return keys.every((k) => hasOwn(bo, k) && jsonEqual(ao[k], bo[k]));
}

/**
 * How every JSON text starts: JSON's whitespace, then the first character of a value. A text that does
 * not is no JSON, without a parse.
 */
export const JSON_START = /^[\t\n\r ]*[[{"\-0-9tfn]/;

/**
 * `JSON.parse(text)` as `{ value }`, or `undefined` where it throws. The SyntaxError it throws captures a
 * stack trace, which nobody reads and which costs more than the parse: a session of 50,000 log lines
 * among its messages took 15 s to check, a third of it in those traces.
 */
export function tryParseJson(text: string): { readonly value: unknown } | undefined {
  // Even without its stack trace, a throw costs more than this test: log lines are mostly prose.
  if (!JSON_START.test(text)) return undefined;
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  } finally {
    Error.stackTraceLimit = limit;
  }
}
