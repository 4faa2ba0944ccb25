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

/**
 * Structural equality of JSON values; object key order does not matter. At any depth: a value nested
 * too deeply for the recursive comparison (JSON.parse reads 200,000 levels) is compared again with a
 * stack of its own.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  try {
    return equalRecursively(a, b);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return equalIteratively(a, b);
  }
}

/**
 * What can be told of two values without comparing what they hold: equal, unequal, or, for two arrays
 * of one length or two objects of one member count, that their items (`{}`) or the members named by
 * `keys` still need comparing.
 */
function compareShallowly(a: unknown, b: unknown): boolean | { readonly keys?: string[] } {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && {};
  const keys = Object.keys(a);
  return keys.length === Object.keys(b as object).length && { keys };
}

function equalRecursively(a: unknown, b: unknown): boolean {
  const shallow = compareShallowly(a, b);
  if (typeof shallow === 'boolean') return shallow;
  if (!shallow.keys) return (a as unknown[]).every((v, i) => equalRecursively(v, (b as unknown[])[i]));
  const ao = a as JsonObject;
  const bo = b as JsonObject;
  return shallow.keys.every((k) => hasOwn(bo, k) && equalRecursively(ao[k], bo[k]));
}

function equalIteratively(a: unknown, b: unknown): boolean {
  const pending: [unknown, unknown][] = [[a, b]];
  while (pending.length > 0) {
    const [x, y] = pending.pop() as [unknown, unknown];
    const shallow = compareShallowly(x, y);
    if (shallow === false) return false;
    if (shallow === true) continue;
    if (!shallow.keys) {
      (x as unknown[]).forEach((v, i) => {
        pending.push([v, (y as unknown[])[i]]);
      });
      continue;
    }
    const xo = x as JsonObject;
    const yo = y as JsonObject;
    for (const k of shallow.keys) {
      if (!hasOwn(yo, k)) return false;
      pending.push([xo[k], yo[k]]);
    }
  }
  return true;
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
