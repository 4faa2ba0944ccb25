/**
 * Whether a text is exactly what `JSON.stringify` writes of a value, decided without making the whole
 * JSON text when it is long.
 *
 * Why not just `text === JSON.stringify(value)`: V8 returns a long JSON.stringify output as a rope of
 * parts, and the first comparison flattens the rope into one string. From 131,072 bytes (V8's largest
 * object outside large-object space: 131,072 one-byte characters, 65,536 two-byte ones) that string is
 * allocated in large-object space, which on the 2-core VM this was measured on cost about 5.5 ns a
 * character, as much again as the stringify itself. So a text-mirror check of a 400 KB structured result
 * took twice as long per KB as one of 100 KB: issue 11's size cliff. Here the value is written in pieces
 * of a few thousand characters, each compared with the part of the text where it must stand, and
 * no large string is made at all. Measured: 3.8 µs/KB for stringify-and-compare at 1 MB against 1.8 at
 * 100 KB; pieces keep the large sizes near the small ones (see the validate bench).
 *
 * Exact, by how JSON.stringify writes (ECMA-262 SerializeJSONProperty and friends):
 * - a container is walked here only when JSON writes it member by member: a plain array or a plain
 *   object (Array.prototype, Object.prototype or no prototype), with no `toJSON`, not a raw JSON object;
 * - everything else is written by JSON.stringify itself, as part of a piece: a run of array items (a
 *   slice, so holes and `undefined` come out as `null`), or a run of object members (a prototype-less
 *   object holding the same keys in the same order, so omitted members are omitted and a `toJSON`
 *   receives its own key, as it does in the whole);
 * - an array item whose `toJSON` might read its key (any but Date's, which ignores it) is written on its
 *   own under its own index, since in a slice its index would differ;
 * - a value JSON.stringify throws on (a cycle, a BigInt, a getter or toJSON that throws) has no text, so
 *   no text is its text: a piece throws too, or the text runs out first.
 */

import { CLOSE_ARRAY, CLOSE_OBJECT, COLON, COMMA, OPEN_ARRAY, OPEN_OBJECT } from './json-units.js';

/** Texts shorter than this are compared whole: below large-object size, flattening is a cheap copy. */
export const PIECEWISE_FROM = 60_000;

/** The length a piece is aimed at: far below large-object size, and few enough calls to JSON.stringify. */
const TARGET_PIECE = 8_192;

/** Containers nested deeper than this are written whole, as part of a piece (a cycle ends there). */
const MAX_DEPTH = 64;

/** An array with more items than this is walked rather than written whole: the usual large part. */
const WALKED_ARRAY = 32;

/** An object member of an object with at most this many members is walked when it is large. */
const FEW_MEMBERS = 16;

export interface JsonTextOptions {
  /** For tests: the text length from which pieces are used, and the piece length aimed at. */
  readonly piecewiseFrom?: number;
  readonly targetPiece?: number;
}

/** Whether `text === JSON.stringify(value)` (false when JSON.stringify throws or writes nothing). */
export function isJsonTextOf(text: string, value: unknown, options: JsonTextOptions = {}): boolean {
  if (text.length < (options.piecewiseFrom ?? PIECEWISE_FROM) || !isWalkable(value)) {
    return text === stringified(value);
  }
  const reader = new PieceReader(text, options.targetPiece ?? TARGET_PIECE);
  try {
    return reader.container(value, 0) && reader.at === text.length;
  } catch {
    // JSON.stringify throws on the value: it has no text. (Only code the value runs can throw here.)
    return false;
  }
}

/** `JSON.stringify(value)`, or undefined for what JSON cannot hold (a cycle, a BigInt). */
export function stringified(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

const DATE_TO_JSON = Date.prototype.toJSON;
const isRawJson = (JSON as { isRawJSON?: (value: unknown) => boolean }).isRawJSON;

/** A plain array or object, which JSON writes member by member. */
function isWalkable(value: unknown): value is object {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (Array.isArray(value)) return proto === Array.prototype && typeof toJSON !== 'function';
  if (proto !== Object.prototype && proto !== null) return false;
  if (proto === null && isRawJson?.(value) === true) return false;
  return typeof toJSON !== 'function';
}

function isWalkedArray(value: unknown): value is unknown[] {
  return Array.isArray(value) && value.length > WALKED_ARRAY && isWalkable(value);
}

/** An array item whose toJSON may read the key it is given: it must be given its own index. */
function needsOwnIndex(item: unknown): boolean {
  const kind = typeof item;
  if ((kind !== 'object' || item === null) && kind !== 'function' && kind !== 'bigint') return false;
  const toJSON = (item as { toJSON?: unknown }).toJSON;
  return typeof toJSON === 'function' && toJSON !== DATE_TO_JSON;
}

/**
 * Whether a plain object's JSON is at least about `budget` characters, by a walk that stops there: an
 * estimate (it counts strings and keys, and a few characters for anything else), used only to choose
 * between walking a member and writing it within a piece, both exact.
 */
function isLarge(value: object, budget: number): boolean {
  const pending: unknown[] = [value];
  let visits = 0;
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') budget -= item.length + 2;
    else if (typeof item === 'object' && item !== null) {
      if (Array.isArray(item)) {
        budget -= item.length + 1;
        if (item.length > WALKED_ARRAY) return true;
        for (let i = 0; i < item.length; i++) pending.push(item[i]);
      } else {
        for (const key in item) {
          budget -= key.length + 4;
          pending.push((item as Record<string, unknown>)[key]);
        }
      }
    } else budget -= 5;
    // A cycle or a wide value ends the estimate too: walking it is always exact.
    if (budget <= 0 || ++visits > 4_096) return true;
  }
  return false;
}

class PieceReader {
  /** Where the next character JSON writes must be found in the text. */
  at = 0;
  /** Items or members per piece, adapted to the sizes met so far. */
  private run = 16;

  constructor(
    private readonly text: string,
    private readonly target: number,
  ) {}

  container(value: object, depth: number): boolean {
    return Array.isArray(value)
      ? this.array(value, depth)
      : this.object(value as Record<string, unknown>, depth);
  }

  private array(items: unknown[], depth: number): boolean {
    if (!this.char(OPEN_ARRAY)) return false;
    const length = items.length;
    let i = 0;
    while (i < length) {
      if (i > 0 && !this.char(COMMA)) return false;
      const item = items[i];
      if (depth < MAX_DEPTH && isWalkedArray(item)) {
        if (!this.array(item, depth + 1)) return false;
        i++;
      } else if (needsOwnIndex(item)) {
        const written = this.member(String(i), item);
        if (written === undefined ? !this.literal('null') : !written) return false;
        i++;
      } else {
        let end = i + 1;
        const last = Math.min(length, i + this.run);
        while (end < last && !needsOwnIndex(items[end]) && !(depth < MAX_DEPTH && isWalkedArray(items[end])))
          end++;
        if (!this.inner(JSON.stringify(items.slice(i, end)), end - i)) return false;
        i = end;
      }
    }
    return this.char(CLOSE_ARRAY);
  }

  private object(object: Record<string, unknown>, depth: number): boolean {
    if (!this.char(OPEN_OBJECT)) return false;
    const keys = Object.keys(object);
    const few = keys.length <= FEW_MEMBERS;
    let written = false;
    let piece: Record<string, unknown> | undefined;
    let inPiece = 0;
    const flush = (): boolean => {
      if (piece === undefined) return true;
      const json = JSON.stringify(piece);
      const count = inPiece;
      piece = undefined;
      inPiece = 0;
      // Every member of the piece omitted (undefined, a function…): JSON writes nothing, not even a comma.
      if (json.length === 2) return true;
      if (written && !this.char(COMMA)) return false;
      written = true;
      return this.inner(json, count);
    };
    for (const key of keys) {
      const value = object[key];
      const walked =
        depth < MAX_DEPTH &&
        isWalkable(value) &&
        (isWalkedArray(value) || (few && !Array.isArray(value) && isLarge(value, this.target)));
      if (walked) {
        if (!flush()) return false;
        if (written && !this.char(COMMA)) return false;
        written = true;
        if (!this.literal(JSON.stringify(key)) || !this.char(COLON) || !this.container(value, depth + 1))
          return false;
        continue;
      }
      piece ??= Object.create(null) as Record<string, unknown>;
      piece[key] = value;
      if (++inPiece >= this.run && !flush()) return false;
    }
    return flush() && this.char(CLOSE_OBJECT);
  }

  /**
   * `item` written as the member `key` of an object, which is how JSON writes it with that key: true or
   * false for whether the text has its JSON here, `undefined` when JSON writes nothing for it.
   */
  private member(key: string, item: unknown): boolean | undefined {
    const holder = Object.create(null) as Record<string, unknown>;
    holder[key] = item;
    const json = JSON.stringify(holder);
    if (json.length === 2) return undefined;
    // `{"key":…}`: the item's JSON starts after the key and its colon.
    const start = JSON.stringify(key).length + 2;
    return this.literal(json.slice(start, -1));
  }

  /** The text between a piece's brackets must come next; the next piece is sized from this one. */
  private inner(json: string, count: number): boolean {
    this.run = Math.max(1, Math.min(1_024, Math.floor((count * this.target) / Math.max(1, json.length))));
    return this.literal(json.slice(1, -1));
  }

  private literal(expected: string): boolean {
    const end = this.at + expected.length;
    // Not `startsWith(expected, at)`, which V8 runs a character at a time (about 1 ns each, as much as
    // the stringify): a substring of a flat string is a slice of it, made without copying, and `===`
    // compares two flat strings a block at a time, 50 times faster here.
    if (this.text.substring(this.at, end) !== expected) return false;
    this.at = end;
    return true;
  }

  private char(code: number): boolean {
    if (this.text.charCodeAt(this.at) !== code) return false;
    this.at++;
    return true;
  }
}
