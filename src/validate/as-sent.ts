/**
 * Documents as the wire carries them. The validators take a handler's JS value as well as parsed JSON,
 * and a JS value can say something other than the JSON a server sends of it: a Date is sent as its ISO
 * string, NaN and the infinities as null, a member holding `undefined` or a function not at all, a class
 * instance as its own enumerable members (its getters left out), a Map as `{}`. Judged as given, a Date
 * in structuredContent passed an outputSchema that asks for an object, while every client received a
 * string and the official SDK client rejected the call: a false pass. So the validators judge what
 * `JSON.stringify` sends, and copy only a value that is not plain JSON already (parsed JSON always is).
 *
 * A value JSON.stringify throws on (a cycle, a BigInt, a getter that throws) or would never finish (shared
 * parts standing for a text too long for a string, core/unwritable.ts) has no sent form; it is judged as
 * given, and result-not-serializable reports that it cannot be sent at all. (This is why the
 * copy is JSON's own and not repair's cloneJson, which makes such values sendable. Nor is the plain test
 * repair's isPlainJson: that one walks with Object.keys and has no shallow mode for structuredContent,
 * and cost the structured corpus twice as much.)
 */

import { isObject } from '../core/json.js';
import { ENDLESS, MAX_MADE, writability } from '../core/unwritable.js';

/**
 * Nesting within which the walk recurses. A deeper document is taken for not plain and copied through
 * JSON.stringify, which is exact at any depth it can write (one it cannot is judged as given, as above).
 */
const MAX_DEPTH = 64;

/**
 * Objects and arrays the plainness walk visits at most; past this many the value is copied, as one
 * that is not plain, when it can be written at all. A value built from shared parts (`a = [b, b]`,
 * `b = [c, c]`…) stands for exponentially many, which neither a walk nor JSON.stringify could get
 * through: core/unwritable.ts tells whether it can be written.
 */
const MAX_CONTAINERS = 1 << 20;

/** Thrown by the walk past MAX_CONTAINERS. */
const OVER_BUDGET = Symbol('over budget');

interface Budget {
  containers: number;
}

/** A document as sent, and whether its JSON text is known to be writable in bounded time. */
export interface Sent {
  readonly document: unknown;
  /**
   * False when JSON.stringify could not write it (core/unwritable.ts): built from shared parts that stand
   * for a text too long for a string, circular, or unreadable. Then the rules must ask before writing
   * any part of it (FactScope.unbounded): JSON.stringify of a part may never end.
   */
  readonly bounded: boolean;
  /**
   * True when reading it made more than MAX_MADE objects (getters, proxies or toJSON methods answering
   * a new object at each read): a value that may go on without end, too large to judge, which no rule
   * may walk.
   */
  readonly endless?: boolean;
}

/** Why a value that `Sent.endless` says of cannot be sent, as the sendability rules word a reason. */
export const ENDLESS_REASON = `reading it made more than ${MAX_MADE.toLocaleString('en-US')} objects (getters, proxies or toJSON methods that answer a new one at each read), a value that may never end and is too large to judge`;

/**
 * `document` as `JSON.parse(JSON.stringify(document))` would give it: `document` itself when it is plain
 * JSON. With `structuredShallow`, the members of a tool result's structuredContent are taken as plain
 * without being walked, except its `error` member (see isPlainResult): for a result whose tool has no
 * outputSchema, where no rule judges them by value.
 */
export function asSent(document: unknown, structuredShallow = false): Sent {
  let plain: boolean;
  const budget: Budget = { containers: 0 };
  try {
    plain = structuredShallow ? isPlainResult(document, budget) : isPlain(document, 0, budget);
  } catch {
    // Past the budget, plainness is unknown, and a value judged as given might not be what is sent (a
    // Date among a million rows): it is copied as any value that is not plain, if it can be written.
    // Or reading the value ran code that threw (a getter, a proxy's trap): JSON.stringify throws too.
    plain = false;
  }
  // Walked whole within the budget, each place of a shared part counted: bounded. A shallow
  // structuredContent's members were not walked.
  if (plain) {
    if (!structuredShallow) return { document, bounded: true };
    const structured = writability(structuredOf(document));
    return structured === ENDLESS
      ? { document, bounded: false, endless: true }
      : { document, bounded: structured === undefined };
  }
  const why = writability(document);
  if (why === ENDLESS) return { document, bounded: false, endless: true };
  if (why !== undefined) return { document, bounded: false };
  let text: string | undefined;
  try {
    text = JSON.stringify(document);
  } catch {
    // What unwritable could not see throws after all (a toJSON that throws only when called again).
    return { document, bounded: false };
  }
  return { document: text === undefined ? document : JSON.parse(text), bounded: true };
}

/** A result's structuredContent, or `undefined` (a plain document: reading it runs no code). */
function structuredOf(result: unknown): unknown {
  return isObject(result) ? result.structuredContent : undefined;
}

/**
 * Whether a tool result is plain JSON where rules read it without an outputSchema. Such rules read
 * structuredContent only for its kind (an object or not), its `error` member (result-error-without-is-
 * error) and its JSON text (the text-mirror rules, which serialize it, so the text is the sent one).
 * A property test holds the validators to judging any value as they judge its sent form.
 */
function isPlainResult(result: unknown, budget: Budget): boolean {
  if (!isPlainObject(result)) return isPlain(result, 0, budget);
  for (const key in result) {
    const member = (result as Record<string, unknown>)[key];
    if (key !== 'structuredContent') {
      if (!isPlain(member, 1, budget)) return false;
    } else if (!isSentAsIs(member)) return false;
    else if (isObject(member) && !isPlain(member.error ?? null, 2, budget)) return false;
  }
  return true;
}

/** A plain object: its prototype is Object.prototype or none, and it has no toJSON. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  // biome-ignore lint/suspicious/noProto: read as V8 inlines it (see validate/fast-path.ts, PLAIN_OBJECTS)
  const proto = (value as { __proto__?: unknown }).__proto__;
  // An object without a prototype has no `__proto__` accessor either: there it reads as undefined.
  const plainProto =
    proto === Object.prototype || (proto === undefined && Object.getPrototypeOf(value) === null);
  return plainProto && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

/** Whether JSON writes the value as it is, judged without walking into it. */
function isSentAsIs(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return isPlainScalar(value);
  return Array.isArray(value) ? isPlainArrayShell(value) : isPlainObject(value);
}

/** A string, a finite number, a boolean or null: what JSON writes as it is. */
function isPlainScalar(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    default:
      return value === null;
  }
}

/** An array JSON writes item by item: no subclass, no toJSON. */
function isPlainArrayShell(value: unknown[]): boolean {
  return (
    // biome-ignore lint/suspicious/noProto: as in isPlainObject
    (value as { __proto__?: unknown }).__proto__ === Array.prototype &&
    typeof (value as { toJSON?: unknown }).toJSON !== 'function'
  );
}

/**
 * Whether `item` is plain JSON: strings, finite numbers, booleans, null, and plain objects and arrays of
 * them, with no hole, no `undefined`, no toJSON. An element or member that is `undefined` (or a hole,
 * which reads as `undefined`) is not: JSON writes null or nothing in its place.
 */
function isPlain(item: unknown, depth: number, budget: Budget): boolean {
  if (typeof item !== 'object' || item === null) return isPlainScalar(item);
  if (depth > MAX_DEPTH) return false;
  if (++budget.containers > MAX_CONTAINERS) throw OVER_BUDGET;
  if (Array.isArray(item)) {
    if (!isPlainArrayShell(item)) return false;
    for (let i = 0; i < item.length; i++) if (!isPlain(item[i], depth + 1, budget)) return false;
    return true;
  }
  if (!isPlainObject(item)) return false;
  for (const key in item) if (!isPlain(item[key], depth + 1, budget)) return false;
  return true;
}

/**
 * Whether reading `document` as JSON.stringify reads it runs code that throws: a getter, a proxy's trap,
 * a `toJSON`. A cycle or a BigInt, which JSON.stringify refuses by itself, is no such throw. Walked here
 * rather than told from JSON.stringify's error, since a getter may throw a TypeError as JSON does.
 * Bounded by MAX_CONTAINERS and MAX_READS (past either: false, as for a value that reads cleanly).
 */
/** Members readingThrows reads at most; past them, as past MAX_CONTAINERS, it answers false. */
const MAX_READS = 1 << 22;

export function readingThrows(document: unknown): boolean {
  const seen = new Set<object>();
  const pending: unknown[] = [document];
  let reads = 0;
  try {
    while (pending.length > 0) {
      const value = pending.pop();
      if (typeof value !== 'object' || value === null || seen.has(value)) continue;
      if (seen.size >= MAX_CONTAINERS) return false;
      seen.add(value);
      const toJSON = (value as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') {
        pending.push(toJSON.call(value, ''));
        continue;
      }
      // An array is read as JSON.stringify reads it: its length, then each index (a sparse one of 2^31
      // holes too, hence the budget of reads).
      if (Array.isArray(value)) {
        const length = value.length;
        reads += length;
        if (reads > MAX_READS) return false;
        for (let i = 0; i < length; i++) pending.push(value[i]);
      } else {
        const keys = Object.keys(value);
        reads += keys.length;
        if (reads > MAX_READS) return false;
        for (const key of keys) pending.push((value as Record<string, unknown>)[key]);
      }
    }
  } catch {
    return true;
  }
  return false;
}

/*
 * What the official TypeScript SDK sends of a tool result. Its server (v1 `Server`, under `McpServer`)
 * parses a handler's result with CallToolResultSchema and sends the parse's output, not the value: the
 * schema's object parsers read each member they name as a property, so a class instance whose `text` is
 * a getter on its prototype is sent whole, `{"type":"text","text":"hi"}`, where JSON.stringify of the
 * value writes `{}` (tested with a real McpServer and Client over an in-memory transport). Members the
 * schema does not name pass through as JSON writes them: the object's own enumerable ones.
 */

/** The members CallToolResultSchema names on a result, a content block, a resource's contents… */
const RESULT_MEMBERS = ['content', 'structuredContent', 'isError', '_meta'];
const BLOCK_MEMBERS = [
  'type',
  'text',
  'data',
  'mimeType',
  'uri',
  'name',
  'title',
  'description',
  'size',
  'icons',
  'resource',
  'annotations',
  '_meta',
];
const CONTENTS_MEMBERS = ['uri', 'mimeType', 'text', 'blob', '_meta'];
const ANNOTATIONS_MEMBERS = ['audience', 'priority', 'lastModified'];
const ICON_MEMBERS = ['src', 'mimeType', 'sizes', 'theme'];

/**
 * A tool result as the SDK's server sends it (see above): `result` itself when no object where the
 * schema names members is a class instance, else a copy in which each such instance is a plain object
 * of its own enumerable members and the named members it has (read as properties, getters included).
 * Only an instance the schema can take is read so: a result whose `content` reads as an array, a block
 * whose `type` reads as a string, contents whose `uri` does, annotations or an icon with a named member.
 * Any other (a Map in place of a block) the SDK refuses, and it is judged as JSON writes it, as before;
 * what the parse refuses that JSON writes as valid (a boxed string as `text`) is found by
 * rules/support/sdk-server-parse.ts on this view. Where reading throws, the SDK's parse throws too and nothing is sent: `result` is
 * returned, and judged as JSON would write it.
 */
export function asParsedResult(result: unknown): unknown {
  try {
    const read = asParsed(result, RESULT_MEMBERS, 'content');
    if (!isObject(read) || !Array.isArray(read.content)) return read;
    const content = read.content;
    let blocks: unknown[] | undefined;
    for (let i = 0; i < content.length; i++) {
      const block = asParsedBlock(content[i]);
      if (block !== content[i]) {
        blocks ??= content.slice();
        blocks[i] = block;
      }
    }
    return blocks === undefined ? read : { ...read, content: blocks };
  } catch {
    return result;
  }
}

function asParsedBlock(value: unknown): unknown {
  const block = asParsed(value, BLOCK_MEMBERS, 'type');
  if (!isObject(block)) return block;
  let changed: Record<string, unknown> | undefined;
  const set = (key: string, member: unknown) => {
    if (member === block[key]) return;
    changed ??= { ...block };
    changed[key] = member;
  };
  set('resource', asParsed(block.resource, CONTENTS_MEMBERS, 'uri'));
  set('annotations', asParsed(block.annotations, ANNOTATIONS_MEMBERS));
  if (Array.isArray(block.icons)) {
    const icons = block.icons.map((icon) => asParsed(icon, ICON_MEMBERS));
    if (icons.some((icon, i) => icon !== (block.icons as unknown[])[i])) set('icons', icons);
  }
  return changed ?? block;
}

/**
 * `value` when it is no class instance (or is a result JSON writes by its toJSON), else a plain object
 * of its own enumerable members (toJSON left out) and of the `named` ones it has, read as properties.
 * `gate`: the member that must read as what the schema asks (`content` an array, `type` or `uri` a
 * string); without one, some named member must read as anything but undefined. Otherwise `value`
 * itself, unless its class has a toJSON, which the parse does not call.
 */
function asParsed(value: unknown, named: readonly string[], gate?: 'content' | 'type' | 'uri'): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const proto = Object.getPrototypeOf(value);
  // A plain object is judged as JSON writes it, a toJSON of its own called: the SDK's parse leaves out
  // a block's own toJSON, but a server without the SDK sends what it answers.
  if (proto === Object.prototype || proto === null) return value;
  const toJSON = typeof (value as { toJSON?: unknown }).toJSON === 'function';
  // Below the result (a loose object, whose parse output JSON writes as the value), the schema's
  // object parsers read a class instance's members and never call a toJSON of its class: a block of
  // a class whose toJSON answers a valid block is refused when its members are not one.
  // One whose toJSON answers no object (a Date in place of a block) is refused by both readings.
  if (toJSON && (gate === 'content' || !answersObject(value))) return value;
  const object = value as Record<string, unknown>;
  if (
    !toJSON &&
    (gate === 'content' ? !Array.isArray(object.content) : gate && typeof object[gate] !== 'string')
  )
    return value;
  const read: Record<string, unknown> = {};
  for (const key of Object.keys(value)) if (key !== 'toJSON') read[key] = object[key];
  let found = false;
  for (const key of named) {
    if (Object.hasOwn(read, key)) continue;
    const member = object[key];
    if (member === undefined) continue;
    read[key] = member;
    found = true;
  }
  return found || gate !== undefined || toJSON ? read : value;
}

/** Whether `value.toJSON()` answers an object (not an array); false where it throws. */
function answersObject(value: object): boolean {
  try {
    const answer = (value as { toJSON: () => unknown }).toJSON();
    return typeof answer === 'object' && answer !== null && !Array.isArray(answer);
  } catch {
    return false;
  }
}
