/**
 * Numbers in a repaired message as the server wrote them. A repaired message is written anew from the
 * values JSON.parse read, and for some numbers that is another text: `1e400` parses to Infinity, which
 * JSON.stringify writes `null`; `12345678901234567890` to a double written `12345678901234567000`; `-0`
 * to a zero written `0`; `1.0` and `1E2` to `1` and `100`. A number the repair left where it was is
 * written as its own text instead, as the message's untouched parts go out as sent.
 *
 * Only numbers whose text JSON.stringify would not give back are looked for, in one pass over the frame
 * (strings skipped with indexOf), and only when a message was repaired. Each is found again in the
 * repaired message by its path, and used only when that is sure to be the same number (stillThere). A
 * number the repair moved, made or changed is written as JSON.stringify writes it, and so are numbers
 * in the texts repairs write (a structuredContent mirror is the JSON.stringify of its values).
 *
 * Written here rather than taken from lossless-json, which keeps every number's text: that is a second
 * parse of the whole frame in JavaScript, building values of its own that repair does not read, where
 * this finds only the few numbers JSON.parse loses, beside the parse the proxy has already made.
 */

import { isObject } from '../core/json.js';
import { stringifyJson } from '../library/repair/clone.js';
import { stringEnd } from './id-text.js';

export type PathSegment = string | number;

/** A number token whose text JSON.stringify would not write back. */
export interface SourceNumber {
  readonly path: readonly PathSegment[];
  readonly text: string;
  readonly value: number;
}

/** Stands for the n-th number text in a marked value: a NUL, a per-process nonce, then n. */
const MARK = `\u0000mcp-shape-number-${Math.random().toString(36).slice(2)}:`;
/** A mark as JSON.stringify writes it, quotes included. */
const MARK_PATTERN = new RegExp(`"${JSON.stringify(MARK).slice(1, -1).replace(/\\/g, '\\\\')}(\\d+)"`, 'g');

/** A value with marks in place of some numbers, and the texts they stand for. */
export interface MarkedNumbers {
  readonly marked: unknown;
  readonly texts: readonly string[];
}

/** JSON's whitespace, and a byte order mark (a frame's own is dropped before it is parsed). */
function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09 || code === 0xfeff;
}

/** Whether the character may be part of a number token. */
function isNumberUnit(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) ||
    code === 0x2d ||
    code === 0x2b ||
    code === 0x2e ||
    code === 0x65 ||
    code === 0x45
  );
}

interface Level {
  readonly array: boolean;
  /** The current item's index, or member's name. */
  at: PathSegment;
}

/**
 * The numbers of `text` (JSON that parsed) that JSON.stringify would write otherwise, with their paths.
 * Iterative: a frame nested a million deep costs no stack.
 */
export function sourceNumbers(text: string): SourceNumber[] {
  const found: SourceNumber[] = [];
  const levels: Level[] = [];
  for (let i = 0; i < text.length; ) {
    const code = text.charCodeAt(i);
    if (code === 0x22) {
      const end = stringEnd(text, i);
      const top = levels[levels.length - 1];
      if (top && !top.array) {
        let after = end;
        while (after < text.length && isSpace(text.charCodeAt(after))) after++;
        if (text.charCodeAt(after) === 0x3a) {
          const literal = text.slice(i, end);
          top.at = literal.includes('\\') ? (JSON.parse(literal) as string) : literal.slice(1, -1);
          i = after + 1;
          continue;
        }
      }
      i = end;
    } else if (code === 0x7b || code === 0x5b) {
      levels.push({ array: code === 0x5b, at: code === 0x5b ? 0 : '' });
      i++;
    } else if (code === 0x7d || code === 0x5d) {
      levels.pop();
      i++;
    } else if (code === 0x2c) {
      const top = levels[levels.length - 1];
      if (top?.array) top.at = (top.at as number) + 1;
      i++;
    } else if (code === 0x2d || (code >= 0x30 && code <= 0x39)) {
      let stop = i + 1;
      while (stop < text.length && isNumberUnit(text.charCodeAt(stop))) stop++;
      const token = text.slice(i, stop);
      const value = Number(token);
      if (JSON.stringify(value) !== token)
        found.push({ path: levels.map((level) => level.at), text: token, value });
      i = stop;
    } else i++;
  }
  return found;
}

/** One repaired message and the original it was made from, found at `prefix` in the frame. */
export interface RepairedPair {
  readonly value: unknown;
  readonly original: unknown;
  readonly prefix: readonly PathSegment[];
}

/**
 * `pair.value` with a mark in place of each number of `numbers` (under `pair.prefix`) that is still
 * where it was, its text added to `texts`: a copy along the paths marked only, the rest shared.
 * Undefined when nothing is marked.
 */
export function markNumbers(pair: RepairedPair, numbers: readonly SourceNumber[], texts: string[]): unknown {
  const { prefix } = pair;
  const marks: { path: readonly PathSegment[]; index: number }[] = [];
  const same = new Map<unknown, boolean>();
  for (const number of numbers) {
    if (number.path.length <= prefix.length || prefix.some((segment, i) => number.path[i] !== segment))
      continue;
    const path = number.path.slice(prefix.length);
    if (!stillThere(pair.value, pair.original, path, number.value, same)) continue;
    marks.push({ path, index: texts.length });
    texts.push(number.text);
  }
  if (marks.length === 0) return undefined;
  // Copies made for this value, so that each container on the paths is copied once.
  const copies = new Map<object, Record<string, unknown> | unknown[]>();
  const copy = (node: object): Record<string, unknown> | unknown[] => {
    let made = copies.get(node);
    if (!made) {
      made = Array.isArray(node) ? [...node] : { ...(node as Record<string, unknown>) };
      copies.set(node, made);
      copies.set(made, made);
    }
    return made;
  };
  const root = copy(pair.value as object);
  for (const { path, index } of marks) {
    let node = root as Record<PathSegment, unknown>;
    for (const segment of path.slice(0, -1)) {
      const child = copy(node[segment] as object);
      node[segment] = child;
      node = child as Record<PathSegment, unknown>;
    }
    node[path[path.length - 1] as PathSegment] = `${MARK}${index}`;
  }
  return root;
}

/**
 * Whether `value` holds what JSON makes of `number`, as the repair's copy of a message holds it: the
 * number, or null for one that is not finite (1e400, which JSON.stringify sends as null) and 0 for -0.
 */
function sameNumber(value: unknown, number: number): boolean {
  if (Object.is(value, number)) return true;
  if (!Number.isFinite(number)) return value === null;
  return number === 0 && value === 0;
}

/** Whether `value` (of the repaired message) is `original` as the repair's copy holds it; iterative. */
function sameJson(value: unknown, original: unknown): boolean {
  const pending: [unknown, unknown][] = [[value, original]];
  for (let pair = pending.pop(); pair !== undefined; pair = pending.pop()) {
    const [here, there] = pair;
    if (typeof there === 'number') {
      if (!sameNumber(here, there)) return false;
    } else if (Array.isArray(there)) {
      if (!Array.isArray(here) || here.length !== there.length) return false;
      for (let i = 0; i < there.length; i++) pending.push([here[i], there[i]]);
    } else if (isObject(there)) {
      if (!isObject(here) || Array.isArray(here)) return false;
      const keys = Object.keys(there);
      if (Object.keys(here).length !== keys.length) return false;
      for (const key of keys) {
        if (!Object.hasOwn(here, key)) return false;
        pending.push([here[key], there[key]]);
      }
    } else if (here !== there) return false;
  }
  return true;
}

/**
 * Whether the value at `path` in `value` is surely the number at `path` in `original`: both are reached
 * through the same kinds of containers, the value is what JSON makes of `number`, and the first array on
 * the way has the length it had and, at that index, the same value as the original's item, so that no
 * item the repair dropped or added moved another into its place. (An array the repair made longer, a
 * content list it appended a block to, keeps its items' numbers as JSON.stringify writes them; an item
 * dropped and another appended could only move one there that is the same value, written with the
 * digits of the one it replaced.) `same` keeps the answers for items already compared.
 */
function stillThere(
  value: unknown,
  original: unknown,
  path: readonly PathSegment[],
  number: number,
  same: Map<unknown, boolean>,
): boolean {
  let here = value;
  let there = original;
  let itemChecked = false;
  for (const segment of path) {
    const array = Array.isArray(there);
    const fits = array
      ? Array.isArray(here) && typeof segment === 'number'
      : isObject(there) && !Array.isArray(there) && isObject(here) && !Array.isArray(here);
    if (!fits) return false;
    if (array && !itemChecked && (here as unknown[]).length !== (there as unknown[]).length) return false;
    const from = here as Record<PathSegment, unknown>;
    const to = there as Record<PathSegment, unknown>;
    if (!Object.hasOwn(from, segment) || !Object.hasOwn(to, segment)) return false;
    here = from[segment];
    there = to[segment];
    if (array && !itemChecked) {
      let answer = same.get(here);
      if (answer === undefined) {
        answer = sameJson(here, there);
        if (typeof here === 'object' && here !== null) same.set(here, answer);
      }
      if (!answer) return false;
      itemChecked = true;
    }
  }
  return isObject(there) || Array.isArray(there)
    ? false
    : sameNumber(here, number) && Object.is(there, number);
}

/** JSON text with each mark replaced by the number text it stands for. */
export function restoreNumbers(json: string, texts: readonly string[]): string {
  if (texts.length === 0) return json;
  return json.replace(MARK_PATTERN, (_, index: string) => texts[Number(index)] as string);
}

/** The JSON text of a value, marked or not (`texts` empty). */
export function stringifyMarked(value: unknown, texts: readonly string[]): string {
  return restoreNumbers(stringifyJson(value), texts);
}
