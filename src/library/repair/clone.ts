/**
 * Values as they travel on the wire. A tool result is JSON when it is sent, so repair judges and copies
 * what `JSON.stringify` would send: plain objects and arrays, `toJSON()` applied, non-finite numbers as
 * null, `undefined`, functions and symbols left out. What `JSON.stringify` would throw on instead (a
 * circular reference, a BigInt, a getter or `toJSON` that throws) is made sendable here and noted, so
 * the caller can report it as a fix.
 *
 * Everything here is iterative: a handler's value or a server's message may be nested 100,000 levels
 * deep, and a recursive walk would overflow the stack. `structuredClone` would keep class instances and
 * throw on functions, so it is no help.
 */

import { stringifyJson } from '../../core/json-write.js';
import { escapeSegment } from '../../core/pointer.js';
import { DEPTH_TO_ASK, stringifyThrows } from '../../core/unwritable.js';
import type { Fix } from './engine.js';

/** The depth-safe JSON writer lives in core (the rules' repairs use it too); re-exported for its callers. */
export { stringifyJson };

/** Something `cloneJson` changed relative to what was asked for, because JSON could not carry it. */
export interface WireNote {
  /** JSON Pointer of the value, relative to the cloned root. */
  readonly pointer: string;
  readonly description: string;
  readonly lossy: boolean;
}

/**
 * Objects reached a second time through shared references (not cycles) before the walk gives up: a
 * value built from shared parts can describe an exponentially large JSON text (`a = [b, b]`,
 * `b = [c, c]`…), which would take forever to copy or send. Parsed JSON has no shared references.
 */
const MAX_REVISITS = 100_000;

/**
 * Objects and arrays that reading made (a getter, a proxy's `get` trap or a `toJSON` that answers a new
 * one at each read) before the copy gives up. Stored values end; made ones need not: a getter that
 * answers `{ next: <an object with the same getter> }` stands for a value nested without end, which
 * JSON.stringify answers with a RangeError and the copy followed until the process ran out of memory.
 */
const MAX_MADE = 100_000;

/**
 * Whether reading `key` of `source` ran code that may answer a new value at each read: the member is
 * no data property holding `value` (an accessor, a proxy whose `get` trap answers something else, or
 * one that cannot say). Asked only of members that are objects: no primitive can nest.
 */
function madeByReading(source: object, key: string | number, value: object): boolean {
  try {
    const descriptor = Reflect.getOwnPropertyDescriptor(source, key);
    return descriptor === undefined || !('value' in descriptor) || descriptor.value !== value;
  } catch {
    return true;
  }
}

/**
 * Items of an array past which it is left out. V8 holds at most about 2^27 items in a dense array, so
 * a longer one is sparse (`new Array(2 ** 31)`): mostly holes, each written `null,`, five characters,
 * which is more text than a string holds (MAX_STRING_LENGTH). Copying it item by item took minutes and
 * then aborted the process (V8's "invalid size" fatal error).
 */
const MAX_ARRAY_ITEMS = 2 ** 27;

type Container = unknown[] | Record<string, unknown>;

interface Frame {
  readonly source: object;
  readonly out: Container;
  /** Member names of an object; undefined for an array. */
  readonly keys: readonly string[] | undefined;
  readonly length: number;
  index: number;
  /** The key of this container in its parent (unused for the root). */
  readonly key: string | number;
}

function define(out: Container, key: string | number, value: unknown): void {
  if (Array.isArray(out)) out.push(value);
  // Defined, not assigned, so an own `__proto__` key stays a key; any other key is assigned, which is
  // the same and cheaper.
  else if (key === '__proto__') {
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  } else out[key] = value;
}

function describeError(error: unknown): string {
  try {
    return error instanceof Error ? error.message : String(error);
  } catch {
    return 'an unprintable error';
  }
}

/**
 * How deep the fast walk below (`plainWalk`) goes before it hands the value to the
 * exact iterative walks, which also stand for anything unusual: it recurses, and the iterative walks
 * cost several times as much on the shallow plain JSON that tool results almost always are (two Sets
 * and a frame per container). Within this depth a cycle cannot hide: it would run past it.
 */
const FAST_DEPTH = 64;

/** Thrown by the fast walk where only the exact walk can tell: too deep (a cycle always is), too many containers. */
const UNUSUAL = Symbol('unusual');
/** Thrown by the fast walk at a value JSON would not carry as it is (the exact walk finds the same). */
const NOT_PLAIN = Symbol('not plain');

/**
 * Whether `value` is an object with own symbol-keyed members where the official SDKs read keys: the
 * root, and the records `structuredContent` and `_meta`. JSON leaves symbol keys out, but the SDK servers
 * validate a result before they send it, and their schema reads a record's keys with Reflect.ownKeys: a
 * symbol key in structuredContent made SDK v1 answer the call with -32602 ("Invalid key in record"). So
 * such an object is no plain JSON, and is copied without them. Only there: checking every object cost a
 * plain result's walk three times its time.
 */
function hasSymbolKeys(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.getOwnPropertySymbols(value).length > 0;
}

/** Members the official SDKs' schemas read as records (see hasSymbolKeys). */
function isRecordKey(key: string): boolean {
  return key === 'structuredContent' || key === '_meta';
}

/**
 * The fast walk: for plain JSON (see isPlainJson) the copy `cloneJson` makes, or with `copy` false the
 * value itself once it is known to be plain; a plain recursive walk. Throws NOT_PLAIN at anything else,
 * and UNUSUAL when too deep or past MAX_REVISITS containers (so shared parts cannot make it run long).
 */
function plainWalk(item: unknown, copy: boolean, depth: number, budget: { containers: number }): unknown {
  switch (typeof item) {
    case 'string':
    case 'boolean':
      return item;
    case 'number':
      if (!Number.isFinite(item)) throw NOT_PLAIN;
      return item + 0; // JSON writes -0 as 0
    case 'object':
      break;
    default:
      throw NOT_PLAIN;
  }
  if (item === null) return null;
  if (depth > FAST_DEPTH || ++budget.containers > MAX_REVISITS) throw UNUSUAL;
  const proto = Object.getPrototypeOf(item);
  if (Array.isArray(item)) {
    // An array of its own toJSON is sent as what that answers, as an object of one is.
    if (proto !== Array.prototype || typeof (item as { toJSON?: unknown }).toJSON === 'function') {
      throw NOT_PLAIN;
    }
    const out: unknown[] | undefined = copy ? new Array(item.length) : undefined;
    for (let i = 0; i < item.length; i++) {
      if (!Object.hasOwn(item, i)) throw NOT_PLAIN; // a hole is sent as null
      const value = plainWalk(item[i], copy, depth + 1, budget);
      if (out) out[i] = value;
    }
    return out ?? item;
  }
  if (
    (proto !== Object.prototype && proto !== null) ||
    typeof (item as { toJSON?: unknown }).toJSON === 'function'
  ) {
    throw NOT_PLAIN;
  }
  if (depth === 0 && hasSymbolKeys(item)) throw NOT_PLAIN;
  const out: Record<string, unknown> | undefined = copy ? {} : undefined;
  for (const key of Object.keys(item)) {
    const member = (item as Record<string, unknown>)[key];
    if (isRecordKey(key) && hasSymbolKeys(member)) throw NOT_PLAIN;
    const value = plainWalk(member, copy, depth + 1, budget);
    if (!out) continue;
    if (key === '__proto__') define(out, key, value);
    else out[key] = value;
  }
  return out ?? item;
}

/**
 * A deep copy of `value` as JSON would carry it. Never throws, for any value. `notes` (when given)
 * collects what had to change because JSON.stringify would have thrown: circular references (left out),
 * BigInts (sent as strings), getters or `toJSON` methods that throw and objects that cannot be read
 * (left out).
 */
export function cloneJson(value: unknown, notes?: WireNote[]): unknown {
  return cloneWithDepth(value, notes).root;
}

/** cloneJson, and how deep the copy is nested (at most FAST_DEPTH when the fast walk made it). */
function cloneWithDepth(value: unknown, notes?: WireNote[]): { root: unknown; deepest: number } {
  try {
    return { root: plainWalk(value, true, 0, { containers: 0 }), deepest: FAST_DEPTH };
  } catch {
    // Not plain, or a getter or proxy that threw: the exact walk copies it and says what it changed.
  }
  return copyExactly(value, notes, Number.POSITIVE_INFINITY);
}

/** cloneJson by the exact iterative walk alone (exported so a test holds the fast walk to it). */
export function cloneJsonExactly(value: unknown, notes?: WireNote[]): unknown {
  return copyExactly(value, notes, Number.POSITIVE_INFINITY).root;
}

/**
 * The exact copy, leaving out every container nested deeper than `cutDeeperThan` (the root is at depth
 * 0), and how deep the copy goes.
 */
function copyExactly(
  value: unknown,
  notes: WireNote[] | undefined,
  cutDeeperThan: number,
): { root: unknown; deepest: number } {
  const stack: Frame[] = [];
  const visits = new Visits();
  let revisits = 0;
  let made = 0;
  let gaveUp = false;
  let deepest = 0;
  let cut = false;

  const pointer = (key?: string | number): string => {
    let out = '';
    for (let i = 1; i < stack.length; i++) out += `/${escapeSegment((stack[i] as Frame).key)}`;
    return key === undefined ? out : `${out}/${escapeSegment(key)}`;
  };
  const note = (key: string | number | undefined, description: string, lossy = true): void => {
    notes?.push({ pointer: pointer(key), description, lossy });
  };

  /**
   * The wire form of one value: a primitive, a fresh container (pushed on the stack to be filled), or
   * `undefined` when JSON leaves it out.
   */
  const convert = (input: unknown, key: string | number | undefined, byReading = false): unknown => {
    let item = input;
    let madeHere = byReading;
    if (typeof item === 'object' && item !== null) {
      let toJSON: unknown;
      try {
        toJSON = (item as { toJSON?: unknown }).toJSON;
      } catch (error) {
        note(key, `left out an object that cannot be read (${describeError(error)})`);
        return undefined;
      }
      if (typeof toJSON === 'function') {
        try {
          item = toJSON.call(item, key === undefined ? '' : String(key));
          madeHere = true;
        } catch (error) {
          note(key, `left out a value whose toJSON() threw (${describeError(error)})`);
          return undefined;
        }
      }
    }
    try {
      // Number, String, Boolean and BigInt objects are sent as their primitive value.
      if (item instanceof Number || item instanceof String || item instanceof Boolean) item = item.valueOf();
      else if (typeof BigInt === 'function' && item instanceof BigInt) item = item.valueOf();
    } catch {
      // A proxy whose prototype cannot be read. JSON.stringify never reads it (it looks for the internal
      // slot of a wrapper object, which no proxy has), so the proxy is written as the object it is.
    }
    switch (typeof item) {
      case 'number':
        // JSON writes -0 as 0, and non-finite numbers as null.
        return Number.isFinite(item) ? item + 0 : null;
      case 'string':
      case 'boolean':
        return item;
      case 'bigint':
        note(key, `sent the BigInt ${item} as a string (JSON has no BigInt)`, false);
        return item.toString();
      case 'undefined':
      case 'function':
      case 'symbol':
        return undefined;
    }
    if (item === null) return null;
    if (stack.length > cutDeeperThan) {
      if (!cut)
        note(
          key,
          `left out what is nested deeper than ${cutDeeperThan} levels: JSON.stringify runs out of call stack on it`,
        );
      cut = true;
      return undefined;
    }
    const source = item as object;
    const visit = visits.enter(source);
    if (visit === ANCESTOR) {
      note(key, 'left out a circular reference (JSON cannot carry one)');
      return undefined;
    }
    if (visit === REVISIT && ++revisits > MAX_REVISITS) {
      if (!gaveUp) note(key, `stopped copying: shared references repeat more than ${MAX_REVISITS} objects`);
      gaveUp = true;
      return undefined;
    }
    if (madeHere && visit === FIRST && ++made > MAX_MADE) {
      visits.leave(source);
      if (!gaveUp)
        note(
          key,
          `stopped copying: getters, proxies or toJSON methods made more than ${MAX_MADE} objects as they were read (JSON.stringify of a value that never ends throws)`,
        );
      gaveUp = true;
      return undefined;
    }
    try {
      const isArray = Array.isArray(source);
      const keys = isArray ? undefined : Object.keys(source);
      const length = isArray ? (source as unknown[]).length : (keys as string[]).length;
      if (isArray && length > MAX_ARRAY_ITEMS) {
        visits.leave(source);
        note(key, `left out an array of ${length} items: its JSON text would be longer than a string can be`);
        return undefined;
      }
      const out: Container = isArray ? [] : {};
      stack.push({ source, out, keys, length, index: 0, key: key ?? '' });
      if (stack.length > deepest) deepest = stack.length;
      return out;
    } catch (error) {
      visits.leave(source);
      note(key, `left out an object that cannot be read (${describeError(error)})`);
      return undefined;
    }
  };

  const root = convert(value, undefined);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    if (frame.index >= frame.length || gaveUp) {
      stack.pop();
      visits.leave(frame.source);
      continue;
    }
    const index = frame.index++;
    const key = frame.keys ? (frame.keys[index] as string) : index;
    let child: unknown;
    try {
      child = (frame.source as Record<string | number, unknown>)[key];
    } catch (error) {
      note(key, `left out a member whose getter threw (${describeError(error)})`);
      if (!frame.keys) define(frame.out, key, null);
      continue;
    }
    const copy = convert(
      child,
      key,
      typeof child === 'object' && child !== null && madeByReading(frame.source, key, child),
    );
    if (copy !== undefined) define(frame.out, key, copy);
    else if (!frame.keys) define(frame.out, key, null); // arrays keep their length, as JSON does
  }
  // A root container is the first on the stack: depth is one less than the stack's height.
  return { root, deepest: Math.max(0, deepest - 1) };
}

/**
 * Whether `value` is already exactly what JSON would carry: plain objects and arrays of strings, finite
 * numbers, booleans and null, with no circular reference, no `toJSON`, and nothing that throws when
 * read. Values from `JSON.parse` always are. Never throws.
 */
export function isPlainJson(value: unknown): boolean {
  return plainDepth(value) >= 0;
}

/**
 * How deep a value that is plain JSON is nested (at most FAST_DEPTH when the fast walk decided), or -1
 * when it is not plain JSON.
 */
function plainDepth(value: unknown): number {
  try {
    plainWalk(value, false, 0, { containers: 0 });
    return FAST_DEPTH;
  } catch (error) {
    // NOT_PLAIN, or a getter or proxy that threw, is not plain, as the exact walk would also find.
    if (error !== UNUSUAL) return -1;
  }
  return plainDepthExactly(value);
}

/** isPlainJson by the exact iterative walk alone (exported so a test holds the fast walk to it). */
export function isPlainJsonExactly(value: unknown): boolean {
  return plainDepthExactly(value) >= 0;
}

/** plainDepth by the exact iterative walk: the root is at depth 0. */
function plainDepthExactly(value: unknown): number {
  const pending: unknown[] = [value];
  const visits = new Visits();
  let revisits = 0;
  // Containers entered and not yet left, and the most at once: the value's nesting.
  let depth = 0;
  let deepest = 0;
  try {
    while (pending.length > 0) {
      const item = pending.pop();
      switch (typeof item) {
        case 'string':
        case 'boolean':
          continue;
        case 'number':
          if (!Number.isFinite(item)) return -1;
          continue;
        case 'object':
          break;
        default:
          return -1;
      }
      if (item === null) continue;
      if (item instanceof Exit) {
        visits.leave(item.container);
        depth--;
        continue;
      }
      const visit = visits.enter(item);
      if (visit === ANCESTOR) return -1;
      if (visit === REVISIT && ++revisits > MAX_REVISITS) return -1;
      const proto = Object.getPrototypeOf(item);
      if (++depth > deepest) deepest = depth;
      if (Array.isArray(item)) {
        if (proto !== Array.prototype) return -1;
        if (typeof (item as { toJSON?: unknown }).toJSON === 'function') return -1;
        pending.push(new Exit(item));
        for (let i = 0; i < item.length; i++) {
          if (!Object.hasOwn(item, i)) return -1; // a hole is sent as null
          const member = item[i];
          // A value made as it is read may never end (see MAX_MADE): the copy bounds it.
          if (typeof member === 'object' && member !== null && madeByReading(item, i, member)) return -1;
          pending.push(member);
        }
        continue;
      }
      if (proto !== Object.prototype && proto !== null) return -1;
      if (typeof (item as { toJSON?: unknown }).toJSON === 'function') return -1;
      if (item === value && hasSymbolKeys(item)) return -1;
      pending.push(new Exit(item));
      for (const key of Object.keys(item)) {
        const member = (item as Record<string, unknown>)[key];
        if (isRecordKey(key) && hasSymbolKeys(member)) return -1;
        if (typeof member === 'object' && member !== null && madeByReading(item, key, member)) return -1;
        pending.push(member);
      }
    }
  } catch {
    return -1;
  }
  // A container at the root counted 1.
  return Math.max(0, deepest - 1);
}

const FIRST = 0;
const REVISIT = 1;
const ANCESTOR = 2;

/**
 * The containers a walk has entered: whether each is still an ancestor of where the walk is (a cycle
 * when met again) or was left (a shared reference). One Map, not a Set of ancestors beside a Set of the
 * seen: half the lookups (with members assigned rather than defined, a repair of a value nested 100,000
 * deep took a fifth less time, and its WebMCP conversion a quarter less). A Map, not a
 * WeakMap: it lives for one walk, and V8 keeps weak collections as ephemeron tables that every
 * collection during the walk must trace (measured: about a quarter of that copy).
 */
class Visits {
  private readonly open = new Map<object, boolean>();

  /** Enters `container`: what it was before (first met, met and left, or still an ancestor). */
  enter(container: object): typeof FIRST | typeof REVISIT | typeof ANCESTOR {
    const open = this.open.get(container);
    if (open === true) return ANCESTOR;
    this.open.set(container, true);
    return open === false ? REVISIT : FIRST;
  }

  leave(container: object): void {
    this.open.set(container, false);
  }
}

/** Marks where a walk leaves a container, which then stops being an ancestor. */
class Exit {
  constructor(readonly container: object) {}
}

/**
 * The value as the wire would carry it: the value itself when it is plain JSON already (always, for
 * parsed JSON), else a plain copy, with a fix (rule `value-not-serializable`) for each thing JSON could
 * not carry as given. Never throws.
 */
export function toWire(value: unknown): { value: unknown; fixes: Fix[] } {
  const notes: WireNote[] = [];
  const depth = plainDepth(value);
  let { root: copy, deepest } = depth >= 0 ? { root: value, deepest: depth } : cloneWithDepth(value, notes);
  // JSON.stringify recurses, so past some depth (see DEPTH_TO_ASK) it throws on plain JSON too. Copied
  // once more, the value is left out below that depth: the copy is plain, so no getter or toJSON of the
  // value runs twice. (Only here: the proxy and the CLI write what they repair with stringifyJson, which
  // takes any depth, and send the depth that came.)
  if (deepest > DEPTH_TO_ASK && stringifyThrows(copy)) {
    ({ root: copy } = copyExactly(copy, notes, DEPTH_TO_ASK));
  }
  if (copy === value) return { value, fixes: [] };
  const fixes = notes.map((n) => ({
    rule: 'value-not-serializable',
    pointer: n.pointer,
    description: n.description,
    ...(n.lossy ? { lossy: true } : {}),
  }));
  return { value: copy, fixes };
}

/** JSON text of any value; never throws (what cannot be sent is left out, as cloneJson says). */
export function safeJson(value: unknown): string {
  try {
    const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    if (text !== undefined) return text;
  } catch {
    // a cycle, a throwing getter, or nesting too deep for the native writer
  }
  try {
    return stringifyJson(cloneJson(value) ?? null);
  } catch {
    return 'null';
  }
}

/**
 * JSON text of a value that is plain JSON already (a repair's document: parsed JSON, or what cloneJson
 * made), written without the copy safeJson makes first: of a value nested 100,000 deep, that copy was
 * about a sixth of a repair's time. Anything else gets safeJson.
 */
export function plainJson(value: unknown): string {
  try {
    return stringifyJson(value);
  } catch {
    return safeJson(value);
  }
}

function shortener(maxString: number): (text: string) => string {
  return (v) => (v.length > maxString ? `${v.slice(0, maxString)}… (${v.length} characters)` : v);
}

/** JSON of a value with long strings shortened, to describe dropped data without pasting megabytes. */
export function previewJson(value: unknown, maxString = 200): string {
  try {
    return stringifyJson(cloneJson(value) ?? null, shortener(maxString));
  } catch {
    return 'null';
  }
}

/** previewJson of a value that is plain JSON already, without the copy (as plainJson). */
export function previewPlainJson(value: unknown, maxString = 200): string {
  try {
    return stringifyJson(value, shortener(maxString));
  } catch {
    return previewJson(value, maxString);
  }
}
