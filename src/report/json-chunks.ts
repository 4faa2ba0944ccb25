/**
 * `JSON.stringify(value, null, 2)` in pieces. A report of a few million findings is written as more
 * than a gigabyte of JSON, past the longest string V8 can hold (about 512 MB), so building it as one
 * string threw a RangeError. The pieces join to exactly the text JSON.stringify writes: the containers
 * of the first few levels are written here member by member, and each member below them by
 * JSON.stringify itself, indented to its place (a JSON text holds no raw line break, so indenting
 * every line break indents the member). No streaming JSON library is used: none writes exactly what
 * JSON.stringify writes with an indent, which the reports' tests and users' diffs rely on.
 */

/** What JSON.stringify reads of a value: what its toJSON returns, when it has one. */
function jsonValue(value: unknown, key: string): unknown {
  if (value !== null && typeof value === 'object') {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') return toJSON.call(value, key);
  }
  return value;
}

/** Whether JSON.stringify leaves a member holding this value out (and writes null in an array). */
function isSkipped(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/** A value written whole, at `indent`: JSON.stringify's text with each line break indented. */
function whole(value: unknown, indent: string): string {
  const text = JSON.stringify(value, null, 2) ?? 'null';
  return indent === '' ? text : text.replaceAll('\n', `\n${indent}`);
}

function* pieces(value: unknown, indent: string, levels: number): Generator<string> {
  const isContainer = value !== null && typeof value === 'object';
  // Boxed primitives (new String…) are written as their primitive by JSON.stringify: left to it.
  if (!isContainer || levels === 0 || !(Array.isArray(value) || isPlainRecord(value))) {
    yield whole(value, indent);
    return;
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) {
      yield '[]';
      return;
    }
    yield '[';
    for (let i = 0; i < value.length; i++) {
      yield `${i === 0 ? '' : ','}\n${inner}`;
      const member = jsonValue(value[i], String(i));
      if (isSkipped(member)) yield 'null';
      else yield* pieces(member, inner, levels - 1);
    }
    yield `\n${indent}]`;
    return;
  }
  let first = true;
  for (const key of Object.keys(value)) {
    const member = jsonValue((value as Record<string, unknown>)[key], key);
    if (isSkipped(member)) continue;
    yield `${first ? '{' : ','}\n${inner}${JSON.stringify(key)}: `;
    first = false;
    yield* pieces(member, inner, levels - 1);
  }
  yield first ? '{}' : `\n${indent}}`;
}

/** An object JSON.stringify writes as its own enumerable members (not a boxed primitive). */
function isPlainRecord(value: object): boolean {
  return !(value instanceof String || value instanceof Number || value instanceof Boolean);
}

/**
 * The text of `JSON.stringify(value, null, 2)`, in pieces that join to it exactly: the containers of the
 * first `levels` levels are written member by member (two levels for a report's findings to be written
 * one by one: the report and its findings; four for a SARIF log's results). `value` must be JSON.stringify's to write (no cycle, no BigInt): a report is.
 */
export function* jsonPieces(value: unknown, levels: number): Generator<string> {
  yield* pieces(jsonValue(value, ''), '', levels);
}
