/**
 * What `JSON.stringify(result)` writes, measured without writing it, once per validation run and shared
 * by the rules that ask: result-over-client-limits (its size) and result-not-serializable (whether it
 * can be written at all). Results with megabytes of base64 would otherwise be copied once more just to
 * be measured, and walked once per rule.
 */

import { isObject, type JsonObject } from '../../core/json.js';
import {
  isAscii,
  jsonOfJsonTextBytes,
  jsonOfJsonTextUnits,
  jsonStringBytes,
  jsonStringUnits,
  jsonTextBytes,
} from '../../core/json-size.js';
import { payloadFactsAt } from '../../core/payload.js';
import { mayBeUnwritable, memoPerRun } from '../../core/run-memo.js';
import { MAX_STRING_LENGTH, stringifyThrows, type Unwritable, unwritable } from '../../core/unwritable.js';
import { isWellFormed } from '../../core/well-formed.js';
import { compactJson, isCompactJsonOf, textBlocks } from './call-tool-result.js';

/**
 * The smallest byte limit a client is known to set on a result (Claude Desktop, 1 MiB; see
 * result-over-client-limits): `SerializedSize.bytes` is exact wherever it decides that limit.
 */
export const SMALLEST_CLIENT_LIMIT_BYTES = 1_048_576;

/**
 * What the official TypeScript SDK clients (v1 1.32.2, v2 2.4.0) hold of a stdio stream before they
 * close the connection (`ReadBuffer exceeded maximum size of 10485760 bytes`; STDIO_DEFAULT_MAX_BUFFER_SIZE
 * in shared/stdio): a message longer than this, with its newline, loses every call in flight.
 */
export const SDK_STDIO_MAX_BYTES = 10 * 1024 * 1024;

/**
 * Bytes a response adds around its result: `{"jsonrpc":"2.0","id":…,"result":` and `}` and the newline,
 * with room for a long id.
 */
export const RESPONSE_ENVELOPE_BYTES = 64;

/** A size for a message: `12.50 MiB`. */
export function mebibytes(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(2)} MiB`;
}

export interface SerializedSize {
  /** UTF-16 units of the JSON text, escapes not counted (exact for typical, escape-free payloads). */
  readonly units: number;
  /**
   * UTF-8 bytes of the JSON text: exact when the result may be over SMALLEST_CLIENT_LIMIT_BYTES;
   * below it, `units` (which is then surely under the limit too).
   */
  readonly bytes: number;
  /**
   * A string of the result (a member name included) holds a lone surrogate, which JSON.stringify
   * writes as an escape (`\ud83d`) that strict JSON readers refuse (see result-lone-surrogate).
   */
  readonly loneSurrogate: boolean;
}

/** The size of the serialized result, or why JSON.stringify throws on it. */
export type Serialization = { readonly size: SerializedSize } | { readonly unserializable: string };

/**
 * The serialization facts of `result`, computed once per validation run (memoPerRun forgets them when
 * a repair may have changed the result).
 */
export const serialization: (result: JsonObject) => Serialization = memoPerRun(serialize);

const TOO_LONG = 'its JSON text would be longer than the longest string JavaScript can hold';
const UNREADABLE = 'reading one of its members throws';
const TO_JSON_THROWS = 'a toJSON method throws';

/** Why JSON.stringify throws on a value core/unwritable.ts found it cannot write. */
const UNWRITABLE_REASONS: Record<Unwritable, string> = {
  circular: 'it holds a circular reference',
  'too long': TOO_LONG,
  'too deep': 'it is nested too deep for the writer (past about 4,000 levels, its call stack runs out)',
  unreadable: UNREADABLE,
  'toJSON throws': TO_JSON_THROWS,
};

function serialize(result: JsonObject): Serialization {
  // The walk below counts a shared part at every place it is in, as JSON.stringify writes it: for a
  // handler's value built from shared parts that takes as long as writing it (seconds, or forever).
  const unwritableAs = mayBeUnwritable() ? unwritable(result) : undefined;
  if (unwritableAs !== undefined) return { unserializable: UNWRITABLE_REASONS[unwritableAs] };
  const json = structuredJson(result);
  const size: Size = {
    units: 0,
    atMostBytes: 0,
    plainOwn: enumeratesNothing(Object.prototype),
    json,
    mirrorChars: 0,
    loneSurrogate: false,
  };
  try {
    measure(result, size, json);
    // The walk counts units without escapes; a unit escapes to at most six, so only a result past a
    // sixth of the longest string can be too long to write for its escapes alone: counted exactly then.
    if (size.units > MAX_STRING_LENGTH / 6 && exactLength(result, json, UNITS) > MAX_STRING_LENGTH)
      return { unserializable: TOO_LONG };
    return {
      size: {
        units: size.units,
        bytes: serializedBytes(result, size, json, SMALLEST_CLIENT_LIMIT_BYTES),
        loneSurrogate: size.loneSurrogate || (json !== undefined && jsonTextHasLoneSurrogate(json)),
      },
    };
  } catch (error) {
    if (error instanceof Unserializable) return { unserializable: error.reason };
    // Reading the value ran its own code (a getter, a proxy's trap), and that threw: JSON.stringify,
    // which reads it alike, throws too. Asked of JSON.stringify itself, so that a fault of this walk is
    // never passed off as the handler's.
    if (stringifyThrows(result)) return { unserializable: UNREADABLE };
    throw error;
  }
}

/** Why JSON.stringify throws on a document, and where: the member (or tool) that holds the cause. */
export interface UnserializableAt {
  readonly reason: string;
  /** Empty: the document itself (unreadable, or a `toJSON` of its own). */
  readonly path: readonly (string | number)[];
}

/**
 * Why JSON.stringify throws on `document` for what it holds, member by member, or `undefined`: a cycle
 * or a BigInt in a message's `error.data`, a getter on its `id`, a BigInt in a tool's annotations. The
 * members are read as JSON.stringify reads them, its own enumerable keys, each once; `skip` is left to
 * a rule of its own (a message's result). Within the member `items` (a tools/list result's `tools`), each
 * item is judged on its own, so that the cause is placed at its tool. A document with a `toJSON` of its
 * own is sent as what that returns, so it is judged whole.
 */
export function unserializableMember(
  document: unknown,
  { skip, items }: { readonly skip?: string; readonly items?: string } = {},
): UnserializableAt | undefined {
  const itself = unreadableItself(document);
  if (itself !== undefined) return { reason: itself, path: [] };
  if (!isObject(document)) return undefined;
  let keys: string[];
  try {
    if (typeof document.toJSON === 'function') {
      const whole = serialize(document);
      return 'unserializable' in whole ? { reason: whole.unserializable, path: [] } : undefined;
    }
    keys = Object.keys(document);
  } catch {
    return { reason: UNREADABLE, path: [] };
  }
  for (const member of keys) {
    if (member === skip) continue;
    let value: unknown;
    try {
      value = document[member];
    } catch {
      return { reason: UNREADABLE, path: [member] };
    }
    const inItems = member === items ? unserializableItem(value) : undefined;
    if (inItems !== undefined) return { reason: inItems.reason, path: [member, ...inItems.path] };
    const serialized = serialize({ [member]: value });
    if ('unserializable' in serialized) return { reason: serialized.unserializable, path: [member] };
  }
  return undefined;
}

/** The first item of an array that JSON.stringify throws on, and why; `undefined` if none (or no array). */
function unserializableItem(value: unknown): UnserializableAt | undefined {
  if (unreadableItself(value) !== undefined || !Array.isArray(value)) return undefined;
  let length: number;
  try {
    length = value.length;
  } catch {
    // A proxy of an array whose length throws: the array itself cannot be read.
    return { reason: UNREADABLE, path: [] };
  }
  for (let index = 0; index < length; index++) {
    let item: unknown;
    try {
      item = value[index];
    } catch {
      return { reason: UNREADABLE, path: [index] };
    }
    const serialized = serialize({ item });
    if ('unserializable' in serialized) return { reason: serialized.unserializable, path: [index] };
  }
  return undefined;
}

/**
 * Why JSON.stringify throws on `value` before it reads a single member, or `undefined`: a revoked proxy
 * throws even when asked whether it is an array (so every rule asking that throws too).
 */
export function unreadableItself(value: unknown): string | undefined {
  try {
    isObject(value);
    return undefined;
  } catch {
    return UNREADABLE;
  }
}

const MAX_BYTES_PER_UNIT = 6;
/** JSON text has its escapes already: a unit of it is at most 3 bytes of UTF-8. */
const STRUCTURED_BYTES_PER_UNIT = 3;

/**
 * The serialized size of a result, measured in one walk without building its JSON: results with
 * megabytes of base64 would otherwise be copied once more just to be measured.
 * - `units`: UTF-16 units, escapes not counted (exact for typical, escape-free payloads); the token
 *   estimate uses it.
 * - `atMostBytes`: an upper bound of the UTF-8 bytes. Canonical base64 (known from the payload facts
 *   the base64 rules compute anyway) is ASCII without escapes, so it counts exactly; structuredContent
 *   counts by its JSON text, which the text-mirror rules build in the same run anyway.
 */
interface Size {
  units: number;
  atMostBytes: number;
  /** Object.prototype has no enumerable member, so for…in over a plain object sees only its own. */
  readonly plainOwn: boolean;
  /** structuredContent's JSON text, and the characters of strings equal to it (its text mirrors). */
  readonly json: string | undefined;
  mirrorChars: number;
  /** A string met (a value or a member name) holds a lone surrogate. */
  loneSurrogate: boolean;
}

function enumeratesNothing(object: object): boolean {
  for (const _ in object) return false;
  return true;
}

/**
 * What JSON.stringify throws on, met by the walks, which follow it: the result cannot be sent at all.
 * Only a JS value (a handler's, given to the library's validators) can hold one; parsed JSON never does.
 */
class Unserializable extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/**
 * A value still to be counted: where it is (for payload facts), whether toJSON already ran on it, and
 * how deep it is.
 */
interface Pending {
  readonly value: unknown;
  readonly holder: object | undefined;
  readonly key: string | undefined;
  readonly fromToJSON: boolean;
  readonly depth: number;
}

/**
 * The depth to which the explicit walk keeps every container it is inside, to find a circular reference
 * the moment it comes back; below, only every ANCESTOR_STRIDE-th. A set entry per level made a value
 * 100,000 deep take a fifth of a second, and a cycle is found all the same: a walk going round one of
 * p containers meets the same container at two depths K·p apart that are both multiples of K, at most
 * K·(p + 1) levels after the cycle began.
 */
const EXACT_ANCESTOR_DEPTH = 1024;
const ANCESTOR_STRIDE = 64;

function keptAsAncestor(depth: number): boolean {
  return depth < EXACT_ANCESTOR_DEPTH || depth % ANCESTOR_STRIDE === 0;
}

/** Marks where a container's members end on the walk's stack: it stops being an ancestor there. */
class Leave {
  constructor(readonly container: object) {}
}

/** Hands the walk a value to walk next (a member, an item, what toJSON returned). */
type Push = (value: unknown, holder?: object, key?: string, fromToJSON?: boolean) => void;
/** Counts one value, pushing what is inside it. Positional, so that the recursive walk allocates nothing. */
type Visit = (
  value: unknown,
  holder: object | undefined,
  key: string | undefined,
  fromToJSON: boolean | undefined,
  push: Push,
) => void;

/**
 * Walks `root` as JSON.stringify would write it, handing `visit` each value; what `visit` pushes is
 * walked next, in the order pushed. Recursion first: it is the fast way for the results servers send.
 * A result parsed from the wire may nest deeper than the call stack reaches (the proxy forwards such
 * messages), and its size must be counted all the same: then `restart` clears what was counted, and an
 * explicit stack walks it again. A circular reference (only a handler's JS value holds one) cannot be
 * written at all: it throws Unserializable, as JSON.stringify throws.
 */
function walkJson(root: unknown, visit: Visit, restart: () => void): void {
  const push: Push = (value, holder, key, fromToJSON) => visit(value, holder, key, fromToJSON, push);
  try {
    push(root);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    restart();
    walkIteratively(root, visit);
  }
}

function walkIteratively(root: unknown, visit: Visit): void {
  const stack: (Pending | Leave)[] = [
    { value: root, holder: undefined, key: undefined, fromToJSON: false, depth: 0 },
  ];
  const ancestors = new Set<object>();
  const later: Pending[] = [];
  let below = 1;
  const push: Push = (value, holder, key, fromToJSON) => {
    // What toJSON returned stands in the place of its object, at its depth.
    const depth = fromToJSON === true ? below - 1 : below;
    later.push({ value, holder, key, fromToJSON: fromToJSON === true, depth });
  };
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (item instanceof Leave) {
      ancestors.delete(item.container);
      continue;
    }
    const { value, holder, key, fromToJSON, depth } = item;
    below = depth + 1;
    if (
      typeof value === 'object' &&
      value !== null &&
      !callsToJSON(value, fromToJSON) &&
      keptAsAncestor(depth)
    ) {
      if (ancestors.has(value)) throw new Unserializable('it holds a circular reference');
      ancestors.add(value);
      stack.push(new Leave(value));
    }
    visit(value, holder, key, fromToJSON, push);
    // What was pushed goes on the stack last first, so that it is walked in the order pushed.
    for (let i = later.length - 1; i >= 0; i--) stack.push(later[i] as Pending);
    later.length = 0;
  }
}

/** Whether JSON.stringify calls this value's toJSON (once: not on what a toJSON returned). */
function callsToJSON(value: unknown, fromToJSON: boolean | undefined): boolean {
  return (
    !fromToJSON &&
    typeof value === 'object' &&
    value !== null &&
    typeof (value as JsonObject).toJSON === 'function'
  );
}

/**
 * The common case, walked by plain recursion: the fastest walk for the results servers send (the
 * generic walk below costs a microsecond more on a 10 KB image result). `measure` falls back to the
 * generic walk when this one overflows the stack.
 */
function measureRecursively(
  value: unknown,
  size: Size,
  structured: string | undefined,
  holder?: object,
  key?: string,
  fromToJSON = false,
): void {
  if (
    !fromToJSON &&
    typeof value === 'object' &&
    value !== null &&
    typeof (value as JsonObject).toJSON === 'function'
  ) {
    // JSON writes what toJSON returns (a Date's ISO string, say), for arrays too: counting the object
    // instead would make the bound short of the truth and pass a result over the limit. Once, as
    // JSON.stringify calls it: a toJSON returning its own object would otherwise recurse forever.
    measureRecursively(serializedByToJSON(value, key), size, undefined, holder, key, true);
  } else if (typeof value === 'string') {
    countString(size, value, holder, key);
  } else if (Array.isArray(value)) {
    countStructure(size, value.length);
    // JSON writes what it cannot carry in an array as null.
    for (const item of value) measureRecursively(omitted(item) ? null : item, size, undefined);
  } else if (isObject(value)) {
    let members = 0;
    const own = enumeratesOwnOnly(size, value);
    for (const member in value) {
      const v = value[member];
      if (omitted(v) || (!own && !Object.hasOwn(value, member))) continue;
      members++;
      countMember(size, member);
      if (structured !== undefined && member === 'structuredContent') countStructured(size, structured);
      else measureRecursively(v, size, undefined, value, member);
    }
    countStructure(size, members);
  } else countScalar(size, value);
}

/*
 * What both walks count, value by value: small enough for V8 to inline into the recursive walk, which
 * keeps its speed, and written once, so that the two walks cannot count differently.
 */

function countString(size: Size, value: string, holder: object | undefined, key: string | undefined): void {
  if (value.length === size.json?.length && value === size.json) size.mirrorChars += value.length;
  size.units += value.length + 2;
  if (!size.loneSurrogate && !isWellFormed(value)) size.loneSurrogate = true;
  size.atMostBytes += isCanonicalPayload(holder, key)
    ? value.length + 2
    : value.length * MAX_BYTES_PER_UNIT + 2;
}

/** Brackets and commas of an array or object with `items` items or members. */
function countStructure(size: Size, items: number): void {
  const structure = 2 + Math.max(0, items - 1);
  size.units += structure;
  size.atMostBytes += structure;
  checkLength(size);
}

/**
 * A JS value built from shared parts (`a = [b, b]`, `b = [c, c]`…) can stand for a JSON text of
 * exponential length, which no walk could finish and JSON.stringify could never write: the walk stops
 * once the text it counted (a lower bound of the real one) is past the longest string there can be.
 * Checked where every container and member is counted.
 */
function checkLength(size: Size): void {
  if (size.units > MAX_STRING_LENGTH) {
    throw new Unserializable(TOO_LONG);
  }
}

/** A member's name, quotes and colon. */
function countMember(size: Size, member: string): void {
  size.units += member.length + 3;
  if (!size.loneSurrogate && !isWellFormed(member)) size.loneSurrogate = true;
  size.atMostBytes += member.length * MAX_BYTES_PER_UNIT + 3;
  checkLength(size);
}

/**
 * Whether JSON text as JSON.stringify writes it holds a lone surrogate: it writes one as a `\udXXX`
 * escape and a pair as the characters themselves, so an escape of that range (a backslash before it
 * that is not itself escaped) is one. Text written otherwise may escape a pair too, which this counts
 * as well: a caller that must be sure reads the strings themselves.
 */
export function jsonTextHasLoneSurrogate(json: string): boolean {
  if (!json.includes('\\ud') && !json.includes('\\uD')) return false;
  return /(?<!\\)(?:\\\\)*\\u[dD][89a-fA-F][0-9a-fA-F]{2}/.test(json);
}

/** The result's structuredContent, counted by its JSON text. */
function countStructured(size: Size, structured: string): void {
  size.units += structured.length;
  size.atMostBytes += structured.length * STRUCTURED_BYTES_PER_UNIT;
}

function countScalar(size: Size, value: unknown): void {
  if (typeof value === 'bigint') {
    const text = bigIntJson(value);
    size.units += text.length;
    size.atMostBytes += text.length * STRUCTURED_BYTES_PER_UNIT;
    return;
  }
  // JSON writes NaN and the infinities as null.
  const text = typeof value === 'number' && !Number.isFinite(value) ? 'null' : String(value);
  size.units += text.length;
  size.atMostBytes += text.length;
}

/**
 * A BigInt's JSON text: JSON.stringify throws on one, unless the program defined BigInt.prototype.toJSON
 * (rare enough to be written by the native writer then).
 */
function bigIntJson(value: bigint): string {
  if (typeof (BigInt.prototype as { toJSON?: unknown }).toJSON !== 'function') {
    throw new Unserializable('it holds a BigInt');
  }
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    throw new Unserializable('BigInt.prototype.toJSON throws');
  }
  return text ?? 'null';
}

/** What for…in enumerates of a plain object is its own when Object.prototype adds nothing to it. */
function enumeratesOwnOnly(size: Size, value: object): boolean {
  return size.plainOwn && Object.getPrototypeOf(value) === Object.prototype;
}

function measure(root: unknown, size: Size, structured: string | undefined): void {
  try {
    measureRecursively(root, size, structured);
    return;
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    size.units = 0;
    size.atMostBytes = 0;
    size.mirrorChars = 0;
  }
  // Too deep for recursion: the explicit stack, at once (walkJson would try recursion again first).
  walkIteratively(root, (value, holder, key, fromToJSON, push) => {
    if (callsToJSON(value, fromToJSON)) {
      // As in measureRecursively: what toJSON returns, once.
      push(serializedByToJSON(value as object, key), holder, key, true);
    } else if (typeof value === 'string') {
      countString(size, value, holder, key);
    } else if (Array.isArray(value)) {
      countStructure(size, value.length);
      for (const element of value) push(omitted(element) ? null : element);
    } else if (isObject(value)) {
      let members = 0;
      const own = enumeratesOwnOnly(size, value);
      for (const member in value) {
        const v = value[member];
        if (omitted(v) || (!own && !Object.hasOwn(value, member))) continue;
        members++;
        countMember(size, member);
        // Only the result's own structuredContent is counted by its JSON text.
        if (structured !== undefined && value === root && member === 'structuredContent')
          countStructured(size, structured);
        else push(v, value, member);
      }
      countStructure(size, members);
    } else countScalar(size, value);
  });
}

/** What `toJSON` hands JSON.stringify for `value`. One that throws makes JSON.stringify throw. */
function serializedByToJSON(value: object, key: string | undefined): unknown {
  try {
    return (value as { toJSON(key: string): unknown }).toJSON(key ?? '');
  } catch {
    throw new Unserializable(TO_JSON_THROWS);
  }
}

/**
 * The string at `holder[key]` is a base64 payload the base64 rules found canonical (their facts are
 * shared): ASCII without escapes, one byte per character.
 */
function isCanonicalPayload(holder: object | undefined, key: string | undefined): boolean {
  if (holder === undefined || (key !== 'data' && key !== 'blob')) return false;
  const facts = payloadFactsAt(holder, key);
  return facts !== undefined && facts.problem === undefined;
}

/** How exactLength counts a string, and the JSON of a text holding structuredContent's JSON. */
interface LengthOf {
  readonly string: (value: string) => number;
  /** Of structuredContent's JSON text, as it stands in the result's. */
  readonly jsonText: (json: string) => number;
  /** Of that JSON text written as a string (a text block that mirrors it), from the length before. */
  readonly jsonOfJsonText: (json: string, jsonLength: number) => number;
}

/** UTF-8 bytes, for the client limits. */
const BYTES: LengthOf = {
  string: jsonStringBytes,
  jsonText: jsonTextBytes,
  jsonOfJsonText: jsonOfJsonTextBytes,
};

/** UTF-16 units, for the longest string JSON.stringify can write. */
const UNITS: LengthOf = {
  string: jsonStringUnits,
  jsonText: (json) => json.length,
  jsonOfJsonText: jsonOfJsonTextUnits,
};

/**
 * The exact length of `JSON.stringify(result)` in UTF-8 bytes or UTF-16 units, for the rare result
 * whose bounds straddle a limit: strings are counted with an ASCII fast path, and the text that mirrors
 * structuredContent from structuredContent's JSON, by its quotes and backslashes.
 */
function exactLength(result: JsonObject, json: string | undefined, of: LengthOf): number {
  const mirror = json === undefined ? undefined : { json, length: of.jsonText(json) };
  let length = 0;
  walkJson(
    result,
    (value, holder, key, fromToJSON, push) => {
      if (typeof value === 'string') {
        if (mirror && value === mirror.json) length += of.jsonOfJsonText(value, mirror.length);
        else length += isCanonicalPayload(holder, key) ? value.length + 2 : of.string(value);
      } else if (typeof value === 'number') {
        length += Number.isFinite(value) ? String(value).length : 'null'.length;
      } else if (typeof value === 'bigint') {
        length += bigIntJson(value).length;
      } else if (typeof value !== 'object' || value === null) {
        length += String(value).length;
      } else if (callsToJSON(value, fromToJSON)) {
        push(serializedByToJSON(value, key), undefined, undefined, true);
      } else if (Array.isArray(value)) {
        length += 2 + Math.max(0, value.length - 1);
        for (const element of value) push(omitted(element) ? null : element);
      } else {
        let members = 0;
        for (const member in value) {
          const v = (value as JsonObject)[member];
          if (omitted(v) || !Object.hasOwn(value, member)) continue;
          members++;
          length += of.string(member) + 1;
          if (mirror && value === result && member === 'structuredContent') length += mirror.length;
          else push(v, value, member);
        }
        length += 2 + Math.max(0, members - 1);
      }
    },
    () => {
      length = 0;
    },
  );
  return length;
}

/** What JSON.stringify leaves out of objects (and writes as null in arrays). */
function omitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/** UTF-8 size of the serialized result when it could exceed `limit`; a bound that decides it otherwise. */
function serializedBytes(result: JsonObject, size: Size, json: string | undefined, limit: number): number {
  if (size.units > limit || size.atMostBytes <= limit) return size.units;
  // A tighter bound where structuredContent's JSON is ASCII, for a large result with a text mirror:
  // that JSON is then one byte a character (not three), and a mirror of it at most two (a quote or
  // backslash gains one; JSON.stringify output holds no raw control character), not six. Counting
  // the mirror's quotes exactly cost a third of stringifying a 200 KB structuredContent.
  if (json !== undefined && size.mirrorChars > 0 && isAscii(json)) {
    const tighter =
      size.atMostBytes -
      size.mirrorChars * (MAX_BYTES_PER_UNIT - 2) -
      json.length * (STRUCTURED_BYTES_PER_UNIT - 1);
    if (tighter <= limit) return size.units;
  }
  return exactLength(result, json, BYTES);
}

/**
 * structuredContent's JSON text, `undefined` when it has none: the text block that mirrors it exactly
 * when there is one (the text-mirror rules ask the same in this run), else JSON.stringify's. The mirror
 * is a string the document holds already, so a long JSON text is never made and then compared whole
 * (see core/json-text.ts for why that costs).
 */
function structuredJson(result: JsonObject): string | undefined {
  if (!Object.hasOwn(result, 'structuredContent') || result.structuredContent === undefined) return undefined;
  const structured = result.structuredContent;
  for (const { text } of textBlocks(result)) if (isCompactJsonOf(text, structured)) return text;
  return compactJson(structured);
}
