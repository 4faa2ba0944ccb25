/**
 * Numbers in a repaired message as the server wrote them. A repaired message is written anew from the
 * values JSON.parse read, and for some numbers that is another text: `1e400` parses to Infinity, which
 * JSON.stringify writes `null`; `12345678901234567890` to a double written `12345678901234567000`; `-0`
 * to a zero written `0`; `1.0` and `1E2` to `1` and `100`. A number the repair left where it was is
 * written as its own text instead, as the message's untouched parts go out as sent.
 *
 * Only numbers whose text JSON.stringify would not give back are looked for, in one pass over the frame
 * (strings skipped with indexOf), and only when a message was repaired. A message that has any is
 * repaired a second time, the same way, in place of a copy whose containers are each known by the one
 * they copy (trackedCopy): each number is found again through the deepest container on its way that is
 * still in the repaired message, wherever the repair left or moved it, so that an item the repair
 * dropped or added beside it, a neighbour it replaced or a member it mended does not lose it. A number
 * the repair made or changed is written as JSON.stringify writes it; one whose place is not sure (an
 * array of numbers the repair made shorter, 1e400 beside a null) too. A text the repair wrote as the
 * JSON of structuredContent (its mirror) is written with structuredContent's numbers as they are sent,
 * so that it says what structuredContent says.
 *
 * Written here rather than taken from lossless-json, which keeps every number's text: that is a second
 * parse of the whole frame in JavaScript, building values of its own that repair does not read, where
 * this finds only the few numbers JSON.parse loses, beside the parse the proxy has already made.
 */

import { isObject } from '../core/json.js';
import { cloneJson, stringifyJson } from '../library/repair/clone.js';
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
  /**
   * When `value` is a copy of the original that the repair changed in place (trackedCopy): each
   * container of the copy, by the container of the original it was copied from. A number is then found
   * by its container wherever the repair left or moved it, and an array the repair made shorter or longer
   * keeps its items' numbers.
   */
  readonly copies?: ReadonlyMap<object, object>;
}

/**
 * A copy of parsed JSON as the repair copies its input (cloneJson: 1e400 null, -0 0), and for each of
 * its containers the container of `value` it copies: for a repair in place of the copy, whose result
 * markNumbers can then follow container by container. Iterative.
 */
export function trackedCopy(value: unknown): { copy: unknown; copies: Map<object, object> } {
  const copy = cloneJson(value);
  const copies = new Map<object, object>();
  // Two stacks in step: a pair per member would be an allocation per member.
  const from: unknown[] = [value];
  const to: unknown[] = [copy];
  while (from.length > 0) {
    const source = from.pop();
    const made = to.pop();
    if (typeof source !== 'object' || source === null || typeof made !== 'object' || made === null) continue;
    copies.set(made, source);
    if (Array.isArray(source)) {
      if (!Array.isArray(made)) continue;
      for (let i = 0; i < source.length; i++) {
        const item = source[i];
        if (typeof item === 'object' && item !== null) {
          from.push(item);
          to.push(made[i]);
        }
      }
    } else {
      for (const key of Object.keys(source)) {
        const member = (source as Record<string, unknown>)[key];
        if (typeof member === 'object' && member !== null) {
          from.push(member);
          to.push((made as Record<string, unknown>)[key]);
        }
      }
    }
  }
  return { copy, copies };
}

/** Where a container sits in the repaired message: its parent's place and its key there. */
interface Place {
  readonly node: object;
  readonly up: Place | undefined;
  readonly key: PathSegment;
}

function pathOf(place: Place | undefined): PathSegment[] {
  const path: PathSegment[] = [];
  for (let at = place; at?.up !== undefined; at = at.up) path.push(at.key);
  return path.reverse();
}

/**
 * The places of the copies in `value` of the original containers in `wanted`, by the original. Iterative.
 * A repair may put one object in two places: the walk stops past twice as many containers as the copy
 * had, so that shared parts cannot make it long, and what it found is all it gives.
 */
function placesOfCopies(
  value: unknown,
  copies: ReadonlyMap<object, object>,
  wanted: ReadonlySet<unknown>,
): Map<object, Place[]> {
  const places = new Map<object, Place[]>();
  if (typeof value !== 'object' || value === null) return places;
  let left = 2 * copies.size + 1024;
  const pending: Place[] = [{ node: value, up: undefined, key: '' }];
  for (let place = pending.pop(); place !== undefined && left-- > 0; place = pending.pop()) {
    const { node } = place;
    const original = copies.get(node);
    if (original !== undefined && wanted.has(original)) {
      const known = places.get(original);
      if (known) known.push(place);
      else places.set(original, [place]);
    }
    const keys: PathSegment[] = Array.isArray(node) ? [...node.keys()] : Object.keys(node);
    for (const key of keys) {
      const child = (node as Record<PathSegment, unknown>)[key];
      if (typeof child === 'object' && child !== null) pending.push({ node: child, up: place, key });
    }
  }
  return places;
}

/** What markNumbers works with for one pair. */
interface Walk {
  readonly pair: RepairedPair;
  readonly numbers: readonly SourceNumber[];
  /** sameJson's answers for items already compared. */
  readonly same: Map<unknown, boolean>;
  /** Whether a copied array still has each item at its index, by the copy. */
  readonly inPlace: Map<unknown[], boolean>;
  places?: Map<object, Place[]>;
  /** The texts of the frame's numbers, by their paths (for twinIndexes), made when first needed. */
  textsByPath?: Map<string, string>;
  /** twinIndexes' groups, by the copy of the array. */
  twins?: Map<unknown[], Map<unknown, Twins>>;
}

/**
 * `pair.value` with a mark in place of each number of `numbers` (under `pair.prefix`) that is still
 * there, wherever the repair left it, its text added to `texts`: a copy along the paths marked only, the
 * rest shared. A text the repair wrote as the JSON of structuredContent (its mirror) is written as that
 * structuredContent is, with the same numbers. Undefined when nothing is marked.
 */
export function markNumbers(pair: RepairedPair, numbers: readonly SourceNumber[], texts: string[]): unknown {
  const { prefix } = pair;
  const marks: { path: readonly PathSegment[]; index: number }[] = [];
  const walk: Walk = { pair, numbers, same: new Map(), inPlace: new Map() };
  for (const number of numbers) {
    if (number.path.length <= prefix.length || prefix.some((segment, i) => number.path[i] !== segment))
      continue;
    const found = repairedPaths(walk, number.path.slice(prefix.length), number);
    if (found.length === 0) continue;
    for (const path of found) marks.push({ path, index: texts.length });
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
  markMirrors(root, pair, texts, copy);
  return root;
}

/**
 * The text blocks of a repaired result that the repair wrote as the JSON of its structuredContent (its
 * text mirror), in `root` (the marked copy of `pair.value`), written with structuredContent's numbers as
 * they are sent, so that the mirror says what structuredContent says: `{"n":1e400}`, not `{"n":null}`.
 * A text the server sent is left as it is.
 */
function markMirrors(
  root: Record<string, unknown> | unknown[],
  pair: RepairedPair,
  texts: readonly string[],
  copy: (node: object) => Record<string, unknown> | unknown[],
): void {
  const repaired = isObject(pair.value) ? pair.value.result : undefined;
  const marked = isObject(root) ? root.result : undefined;
  if (!isObject(repaired) || !isObject(marked) || !Array.isArray(repaired.content)) return;
  if (marked.structuredContent === repaired.structuredContent) return; // no number marked in it
  const original = isObject(pair.original) ? pair.original.result : undefined;
  const ownTexts = new Set<unknown>();
  if (isObject(original) && Array.isArray(original.content))
    for (const block of original.content) if (isObject(block)) ownTexts.add(block.text);
  // Only a text the repair wrote can be its mirror: structuredContent is written only when there is one.
  const written = repaired.content.filter(
    (block) =>
      isObject(block) && block.type === 'text' && typeof block.text === 'string' && !ownTexts.has(block.text),
  );
  if (written.length === 0) return;
  const plain = stringifyJson(repaired.structuredContent);
  if (!written.some((block) => (block as Record<string, unknown>).text === plain)) return;
  const sent = stringifyMarked(marked.structuredContent, texts);
  if (sent === plain) return;
  repaired.content.forEach((block, index) => {
    if (!isObject(block) || block.type !== 'text' || block.text !== plain || ownTexts.has(plain)) return;
    const result = copy(marked) as Record<string, unknown>;
    (root as Record<string, unknown>).result = result;
    const content = copy(result.content as object) as unknown[];
    result.content = content;
    const text = copy(content[index] as object) as Record<string, unknown>;
    content[index] = text;
    text.text = sent;
  });
}

/**
 * The paths in the repaired message of the number at `path` in the original, when it is surely there:
 * found through the deepest container on its way whose copy the repaired message holds (with `copies`),
 * else from the root; empty when it is not there.
 */
function repairedPaths(walk: Walk, path: readonly PathSegment[], number: SourceNumber): PathSegment[][] {
  const { pair } = walk;
  if (pair.copies === undefined) {
    const found = follow(walk, pair.value, pair.original, path, number, false);
    return found === undefined ? [] : [found];
  }
  const chain = containersOnWay(pair.original, path);
  if (chain === undefined) return [];
  walk.places ??= placesOfCopies(pair.value, pair.copies, wantedContainers(walk));
  for (let depth = chain.length - 1; depth >= 0; depth--) {
    const places = walk.places.get(chain[depth] as object);
    if (!places) continue;
    const found: PathSegment[][] = [];
    for (const place of places) {
      const rest = path.slice(depth);
      // The copy's own item: at its index, or where the items the repair dropped or added moved it.
      const at = Array.isArray(place.node) ? itemIndexes(walk, place.node, chain[depth], rest, number) : [];
      for (const index of Array.isArray(place.node) ? at : [undefined]) {
        const tail = follow(walk, place.node, chain[depth], rest, number, index !== undefined, index);
        if (tail) found.push([...pathOf(place), ...tail]);
      }
    }
    return found;
  }
  const found = follow(walk, pair.value, pair.original, path, number, false);
  return found === undefined ? [] : [found];
}

/** The containers of `original` on the way to the value at `path` (not it), from `original` itself. */
function containersOnWay(original: unknown, path: readonly PathSegment[]): unknown[] | undefined {
  const chain: unknown[] = [original];
  for (let i = 0; i < path.length - 1; i++) {
    const node = chain[i];
    if (typeof node !== 'object' || node === null) return undefined;
    chain.push((node as Record<PathSegment, unknown>)[path[i] as PathSegment]);
  }
  return chain;
}

/** The containers of the original on the way to any of the walk's numbers. */
function wantedContainers(walk: Walk): Set<unknown> {
  const wanted = new Set<unknown>();
  const { prefix, original } = walk.pair;
  for (const { path } of walk.numbers) {
    if (path.length <= prefix.length || prefix.some((segment, i) => path[i] !== segment)) continue;
    let node = original;
    for (let i = prefix.length; i < path.length && typeof node === 'object' && node !== null; i++) {
      wanted.add(node);
      node = (node as Record<PathSegment, unknown>)[path[i] as PathSegment];
    }
  }
  return wanted;
}

/**
 * Where the item at `rest[0]` of the original array `there` is in its copy `here`: the same index when
 * every item is where it was; else, for a number item, its index among the items that look the same
 * (twinIndexes). An item that is a container and is not where it was was dropped or replaced: its copy
 * is nowhere in the message (or its place would have been found).
 */
function itemIndexes(
  walk: Walk,
  here: unknown[],
  there: unknown,
  rest: readonly PathSegment[],
  number: SourceNumber,
): number[] {
  const index = rest[0];
  if (!Array.isArray(there) || typeof index !== 'number') return [];
  let inPlace = walk.inPlace.get(here);
  if (inPlace === undefined) {
    inPlace = itemsInPlace(here, there, walk.pair.copies as ReadonlyMap<object, object>);
    walk.inPlace.set(here, inPlace);
  }
  if (inPlace) return [index];
  if (rest.length !== 1) return [];
  return twinIndexes(walk, here, there, index, number);
}

/** Whether each item of the copy `here` is still at the index of the item of `there` it stands for. */
function itemsInPlace(here: unknown[], there: unknown[], copies: ReadonlyMap<object, object>): boolean {
  if (here.length !== there.length) return false;
  for (let i = 0; i < here.length; i++) {
    const item = here[i];
    const was = there[i];
    if (typeof item === 'object' && item !== null) {
      const from = copies.get(item);
      if (from !== undefined && from !== was) return false;
    } else if (typeof was === 'number' ? !sameNumber(item, was) : item !== was) return false;
  }
  return true;
}

/** The items of an original array that look alike in its copy, and those of the copy that look so. */
interface Twins {
  readonly twins: number[];
  readonly candidates: number[];
  /** Whether the twins were all written alike, when known. */
  alike?: boolean;
}

/**
 * The indexes in the copy `here` (whose items the repair dropped, added or moved) of the number at
 * `index` of `there`. The items that look like it in the copy (its twins: 1e400 and null, 1.0 and 1)
 * are all it can be: each gets its text when every twin of the original was written alike; else, when
 * there are as many in the copy as in the original, the one in its order; else none. Grouped once per
 * array, so that an array of many numbers costs no more than a walk of it.
 */
function twinIndexes(
  walk: Walk,
  here: unknown[],
  there: unknown[],
  index: number,
  number: SourceNumber,
): number[] {
  const looks = (value: unknown) => (typeof value === 'number' ? jsonNumber(value) : value);
  walk.twins ??= new Map();
  let groups = walk.twins.get(here);
  if (groups === undefined) {
    const made = new Map<unknown, Twins>();
    const group = (value: unknown) => {
      let twins = made.get(value);
      if (!twins) {
        twins = { twins: [], candidates: [] };
        made.set(value, twins);
      }
      return twins;
    };
    for (let i = 0; i < there.length; i++)
      if (typeof there[i] !== 'object' || there[i] === null) group(looks(there[i])).twins.push(i);
    for (let j = 0; j < here.length; j++)
      if (typeof here[j] !== 'object' || here[j] === null) group(here[j]).candidates.push(j);
    groups = made;
    walk.twins.set(here, groups);
  }
  const found = groups.get(looks(number.value));
  if (!found) return [];
  if (found.alike === undefined) {
    if (walk.textsByPath === undefined) {
      walk.textsByPath = new Map();
      for (const { path, text } of walk.numbers) walk.textsByPath.set(JSON.stringify(path), text);
    }
    const textsByPath = walk.textsByPath;
    const base = [...walk.pair.prefix, ...pathTo(walk, there)];
    const textOf = (i: number) =>
      textsByPath.get(JSON.stringify([...base, i])) ?? JSON.stringify(there[i] as unknown) ?? '';
    const first = textOf(found.twins[0] as number);
    found.alike = found.twins.every((i) => textOf(i) === first);
  }
  if (found.alike) return found.candidates;
  const { twins, candidates } = found;
  if (twins.length !== candidates.length) return [];
  // The twins are in order: the number's own place among them, by halving.
  let low = 0;
  for (let high = twins.length - 1; low < high; ) {
    const middle = (low + high) >> 1;
    if ((twins[middle] as number) < index) low = middle + 1;
    else high = middle;
  }
  return [candidates[low] as number];
}

/** The path of a container of the original, from the root of the pair (found once, by a search). */
function pathTo(walk: Walk, target: unknown): PathSegment[] {
  const pending: Place[] = [{ node: walk.pair.original as object, up: undefined, key: '' }];
  for (let place = pending.pop(); place !== undefined; place = pending.pop()) {
    if (place.node === target) return pathOf(place);
    const { node } = place;
    for (const key of Array.isArray(node) ? [...node.keys()] : Object.keys(node)) {
      const child = (node as Record<PathSegment, unknown>)[key];
      if (typeof child === 'object' && child !== null) pending.push({ node: child, up: place, key });
    }
  }
  return [];
}

/** The number as the repair's copy holds it: null for one that is not finite, 0 for -0. */
function jsonNumber(value: number): number | null {
  return Number.isFinite(value) ? value + 0 : null;
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
 * The path in `value` (from `here`) of the number at `path` in `original` (from `there`), when the value
 * there is surely that number: both are reached through the same kinds of containers, the value is what
 * JSON makes of `number`, and the first array on the way has the length it had and, at that index, the
 * same value as the original's item, so that no item the repair dropped or added moved another into its
 * place (an item dropped and another appended could only move one there that is the same value, written
 * with the digits of the one it replaced). `checked`: the first segment leads into an array whose item
 * is known to be its own (itemIndexes), at `index`.
 */
function follow(
  walk: Walk,
  value: unknown,
  original: unknown,
  path: readonly PathSegment[],
  number: SourceNumber,
  checked: boolean,
  index?: number,
): PathSegment[] | undefined {
  const { same } = walk;
  const out: PathSegment[] = [];
  let here = value;
  let there = original;
  let itemChecked = checked;
  for (const [step, segment] of path.entries()) {
    const array = Array.isArray(there);
    const fits = array
      ? Array.isArray(here) && typeof segment === 'number'
      : isObject(there) && !Array.isArray(there) && isObject(here) && !Array.isArray(here);
    if (!fits) return undefined;
    if (array && !itemChecked && (here as unknown[]).length !== (there as unknown[]).length) return undefined;
    const to = step === 0 && index !== undefined ? index : segment;
    const from = here as Record<PathSegment, unknown>;
    const was = there as Record<PathSegment, unknown>;
    if (!Object.hasOwn(from, to) || !Object.hasOwn(was, segment)) return undefined;
    here = from[to];
    there = was[segment];
    out.push(to);
    if (array && !itemChecked) {
      let answer = same.get(here);
      if (answer === undefined) {
        answer = sameJson(here, there);
        if (typeof here === 'object' && here !== null) same.set(here, answer);
      }
      if (!answer) return undefined;
      itemChecked = true;
    }
  }
  return isObject(there) ||
    Array.isArray(there) ||
    !sameNumber(here, number.value) ||
    !Object.is(there, number.value)
    ? undefined
    : out;
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
