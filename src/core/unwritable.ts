/**
 * Whether JSON.stringify could write a JS value at all, decided without writing it.
 *
 * A handler's value can be built from shared parts (`a = [b, b]`, `b = [c, c]`…): sixty such steps are
 * a few hundred bytes of memory and stand for a JSON text of 2^60 characters. JSON.stringify writes
 * every copy and gives up only past the longest string there can be, which at that size is never: a
 * validator that stringified such a value hung. Counting the text once per shared part instead of once
 * per place takes as long as there are distinct parts.
 *
 * Parsed JSON has no shared parts, so only the validators of a handler's value ask (validate/as-sent.ts,
 * FactScope.unbounded). No library does this count; JSON.stringify's own is the one that never ends.
 */

/** The longest string V8 makes (2^29 − 24 characters): JSON.stringify throws on a longer text. */
export const MAX_STRING_LENGTH = 2 ** 29 - 24;

/**
 * Objects and arrays the plain walk visits before counting part by part: as many as validate/as-sent.ts
 * walks. Values servers send end within it, and the plain walk of one costs a fraction of the count by
 * parts, which keeps a map of every part.
 */
const PLAIN_WALK_CONTAINERS = 1 << 20;

/** Thrown by the plain walk at what it cannot decide: past its budget, or at a toJSON. */
const UNDECIDED = Symbol('undecided');

/**
 * Why JSON.stringify would throw on `value`: its text would be longer than MAX_STRING_LENGTH, it holds
 * a circular reference, it is nested deeper than the writer's stack reaches, or reading it throws (a
 * getter, a proxy's trap, a toJSON). `undefined` when it
 * writes: then JSON.stringify takes time in proportion to a text that fits in a string.
 *
 * The count is a lower bound of the text (escapes are not counted, nor what it cannot see). A toJSON is
 * called as JSON.stringify calls it, but once per object rather than once per place, with the key `''`;
 * a getter is read once per part. One that answers differently at each call makes the count that of its
 * first answer.
 */
export function unwritable(value: unknown): Unwritable | undefined {
  const answer = writability(value);
  if (answer !== ENDLESS) return answer;
  // Reading it made more objects than the count follows (see writability): a value that goes on
  // without end goes on in depth (it has finitely many members at each level), where JSON.stringify
  // runs out of stack, the commonest case; its rules have no word for "too large to judge".
  return 'too deep';
}

/**
 * What reading a value made, past MAX_MADE: unwritable's answer for it, when asked of writability.
 */
export const ENDLESS = 'endless';

/**
 * Objects that reading a value made (a getter, a proxy's trap or a toJSON answering a new object), past
 * which the count by parts gives up, as the library's copy does (src/library/repair/clone.ts). Stored
 * values end; made ones need not: a getter answering `{ next: <an object with the same getter> }` stands
 * for a value nested without end, which JSON.stringify answers with a RangeError and the count followed
 * until the process ran out of memory.
 */
export const MAX_MADE = 100_000;

/**
 * unwritable, except that a value whose reading made more than MAX_MADE objects is ENDLESS: whether
 * it ends at all is not known, and it is too large to judge.
 */
export function writability(value: unknown): Unwritable | typeof ENDLESS | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  let deep = false;
  try {
    walkPlainly(value, { left: PLAIN_WALK_CONTAINERS }, 0);
    return undefined;
  } catch (error) {
    // Deep, or too deep to recurse: the same walk with a stack of its own (a cycle is too deep, and then
    // past the budget), then JSON.stringify itself on what it finds plain. Undecided, or reading threw:
    // by parts.
    deep = error === DEEP || error instanceof RangeError;
    try {
      const walked = deep && walksPlainlyWithStack(value);
      if (walked === ENDLESS) return ENDLESS;
      if (walked === true) return stringifyThrows(value) ? tooDeepOrLong(value) : undefined;
    } catch {
      // Reading threw: by parts, which says so.
    }
  }
  let length: number;
  try {
    length = textLengthOfParts(value);
  } catch (error) {
    if (error === MADE_TOO_MANY) return ENDLESS;
    return error === TO_JSON_THREW ? 'toJSON throws' : 'unreadable';
  }
  if (length === CIRCULAR) return 'circular';
  if (length > MAX_STRING_LENGTH) return 'too long';
  // Deep and not plain (a toJSON on the way): its text fits in a string, so JSON.stringify is asked.
  return deep && stringifyThrows(value) ? 'too deep' : undefined;
}

export type Unwritable = 'circular' | 'too long' | 'too deep' | 'unreadable' | 'toJSON throws';

/**
 * Nesting past which the plain walk asks JSON.stringify itself. V8's writer recurses, and throws
 * RangeError once the call stack runs out: about 4,100 levels of arrays or objects on Node 20, 4,450 on
 * Node 24, and fewer in some states of a process (a 3,000-deep message in one test file). The McpServer
 * of the official SDK then sends nothing, and the client waits for its timeout (tested over a real
 * pipe). No depth stands for the limit, so JSON.stringify is asked, here, of values this deep, which no
 * server's result comes near.
 */
export const DEPTH_TO_ASK = 1_000;

/** Thrown by the plain walk past DEPTH_TO_ASK. */
const DEEP = Symbol('deep');

/**
 * Whether the native JSON.stringify throws on `value`: of a value found plain and bounded, only for its
 * depth, or for a text longer than a string (both RangeError in V8). Its cost is that of writing the
 * text, so callers ask only of what is bounded.
 */
export function stringifyThrows(value: unknown): boolean {
  try {
    JSON.stringify(value);
    return false;
  } catch {
    return true;
  }
}

/** Why JSON.stringify threw on a plain value: its text is too long, or else it is nested too deep. */
function tooDeepOrLong(value: object): Unwritable {
  return textLengthOfParts(value) > MAX_STRING_LENGTH ? 'too long' : 'too deep';
}

/** Thrown by the count past MAX_MADE objects made by reading. */
const MADE_TOO_MANY = Symbol('made too many');

/** Thrown by the count when a toJSON throws (what else throws is a getter's or a proxy trap's). */
const TO_JSON_THREW = Symbol('toJSON threw');

/**
 * Walks every place of every container, as JSON.stringify would, throwing UNDECIDED past the budget or
 * at a toJSON (what it returns is unseen here), but for a plain Date's, whose text is an ISO string or
 * null, and DEEP past DEPTH_TO_ASK. for…in without an own-member test: it may visit more than JSON writes (inherited members),
 * which only makes it undecided sooner, and it is four times as fast as with the test.
 */
function walkPlainly(value: object, budget: { left: number }, depth: number): void {
  if (--budget.left < 0) throw UNDECIDED;
  if (depth > DEPTH_TO_ASK) throw DEEP;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    if (isPlainDate(value)) return;
    throw UNDECIDED;
  }
  if (Array.isArray(value)) {
    // Each item takes at least a comma: past this length (a sparse `new Array(2 ** 31)` holds nothing
    // yet stands for that many nulls) the count by parts answers at once, where this loop would not.
    if (value.length > MAX_STRING_LENGTH / 2) throw UNDECIDED;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item === 'object' && item !== null) walkPlainly(item, budget, depth + 1);
    }
    return;
  }
  for (const key in value) {
    const member = (value as Record<string, unknown>)[key];
    if (typeof member === 'object' && member !== null) walkPlainly(member, budget, depth + 1);
  }
}

/**
 * walkPlainly for a value nested deeper than recursion reaches (parsed JSON may be): true where it would
 * return, false where it would throw UNDECIDED. The count by parts keeps a map entry per container,
 * which made a value 100,000 deep take a fifth of a second; this keeps a stack of them.
 *
 * A cycle is too deep for recursion too, and would keep this walk going to the end of its budget. So it
 * keeps every CYCLE_STRIDE-th container it is inside, and gives up on meeting one again: a walk going
 * round a loop of p containers meets the same one at two depths that are multiples of the stride, at
 * most CYCLE_STRIDE·(p + 1) levels into the loop. The count by parts then says exactly what it is.
 *
 * A value that reading makes as it goes (a getter answering a new object at each read) may be deep
 * without end: past MAX_MADE such objects the walk answers ENDLESS. It counts them here, on a deep
 * value only, rather than leave them to the count by parts: a million of them, each made with getters
 * of its own, took this walk 17 seconds.
 */
function walksPlainlyWithStack(root: object): boolean | typeof ENDLESS {
  let left = PLAIN_WALK_CONTAINERS;
  let made = 0;
  // Parallel stacks: a container and its depth, or a container being left and -1.
  const stack: object[] = [root];
  const depths: number[] = [0];
  const inside = new Set<object>();
  for (let value = stack.pop(); value !== undefined; value = stack.pop()) {
    const depth = depths.pop() as number;
    if (depth < 0) {
      inside.delete(value);
      continue;
    }
    if (--left < 0) return false;
    if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
      if (isPlainDate(value)) continue;
      return false;
    }
    if (depth % CYCLE_STRIDE === 0) {
      if (inside.has(value)) return false;
      inside.add(value);
      stack.push(value);
      depths.push(-1);
    }
    if (Array.isArray(value)) {
      if (value.length > MAX_STRING_LENGTH / 2) return false;
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        if (typeof item === 'object' && item !== null) {
          if (madeByReading(value, i, item) && ++made > MAX_MADE) return ENDLESS;
          stack.push(item);
          depths.push(depth + 1);
        }
      }
      continue;
    }
    for (const key in value) {
      const member = (value as Record<string, unknown>)[key];
      if (typeof member === 'object' && member !== null) {
        if (madeByReading(value, key, member) && ++made > MAX_MADE) return ENDLESS;
        stack.push(member);
        depths.push(depth + 1);
      }
    }
  }
  return true;
}

const CYCLE_STRIDE = 64;

/**
 * A Date whose toJSON and toISOString are the built-in ones: JSON writes it as an ISO string or null
 * (handler values hold many, and each would otherwise send the whole value to the count by parts). A
 * Date with its own `toISOString` could return anything from toJSON, so it is not one.
 */
function isPlainDate(value: object): boolean {
  return (
    value instanceof Date &&
    (value as { toJSON?: unknown }).toJSON === Date.prototype.toJSON &&
    value.toISOString === Date.prototype.toISOString
  );
}

/** What textLengthOfParts answers for a value that holds a circular reference. */
export const CIRCULAR = -1;

/** A container whose parts are being counted: what it writes, and the count so far. */
interface Frame {
  readonly container: object;
  readonly members: readonly unknown[];
  /** Characters that are the container's own: brackets, commas, member names. */
  length: number;
  next: number;
}

/**
 * A lower bound of the length of JSON.stringify(root), counting each distinct container once and
 * adding its count at every place it is in; CIRCULAR for a circular reference, MAX_STRING_LENGTH + 1
 * once the bound passes the limit. An explicit stack, since a value this large may also be deep.
 * Throws what reading the value throws. Exported for its tests.
 */
export function textLengthOfParts(root: object): number {
  const parts = new Parts();
  const top = parts.written(root);
  if (typeof top !== 'object' || top === null) return scalarLength(top);
  // One map for both what is being counted (OPEN) and what was (its count): a Set of the open ones
  // beside a Map of the counted took two more hash operations a container.
  const state = new Map<object, number>([[top, OPEN]]);
  const stack: Frame[] = [parts.frame(top)];
  // A member read by the scan of a small array (below), for the frame that scan then made.
  let carried: unknown = NOTHING;
  let finished = 0;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    if (carried !== NOTHING || frame.next < frame.members.length) {
      let raw: unknown;
      if (carried !== NOTHING) {
        raw = carried;
        carried = NOTHING;
      } else {
        const at = frame.next++;
        raw = frame.members[at];
        // An array's items are read here; an object's members were read by parts.frame, which noted
        // those that reading made.
        if (frame.members === frame.container) parts.noteItem(frame.container, at, raw);
      }
      const member = parts.written(raw);
      if (typeof member !== 'object' || member === null) {
        frame.length += scalarLength(member);
      } else {
        const known = state.get(member);
        if (known === OPEN) return CIRCULAR;
        if (known !== undefined) frame.length += known;
        else if (isSmallArray(member)) {
          // Rows of scalars are most of a large value's containers: such an array is counted where it
          // is met, without a frame or a place in the map (a tenth of the time). It is no ancestor of
          // anything, so no cycle runs through it; met again, it is counted again, at most SMALL_ARRAY
          // per place it is in, so the count stays in proportion to the distinct parts. Each item is
          // read once: at the first object among them, the array gets its frame, from that item on.
          let length = 2 + Math.max(0, member.length - 1);
          let i = 0;
          for (; i < member.length; i++) {
            const item: unknown = member[i];
            if (typeof item === 'object' && item !== null) {
              parts.noteItem(member, i, item);
              carried = item;
              break;
            }
            length += scalarLength(item);
          }
          if (carried === NOTHING) frame.length += length;
          else {
            state.set(member, OPEN);
            stack.push({ container: member, members: member, length, next: i + 1 });
          }
        } else {
          state.set(member, OPEN);
          stack.push(parts.frame(member));
        }
      }
      if (frame.length > MAX_STRING_LENGTH) return MAX_STRING_LENGTH + 1;
      continue;
    }
    stack.pop();
    state.set(frame.container, frame.length);
    finished = frame.length;
    const parent = stack[stack.length - 1];
    if (parent !== undefined) {
      parent.length += frame.length;
      if (parent.length > MAX_STRING_LENGTH) return MAX_STRING_LENGTH + 1;
    }
  }
  return finished;
}

/** A container's state in textLengthOfParts while its parts are being counted (counts are never negative). */
const OPEN = -2;

/** No member carried over (see textLengthOfParts). */
const NOTHING = Symbol('nothing');

/** Items of an array that textLengthOfParts scans where it meets it. */
const SMALL_ARRAY = 64;

function isSmallArray(value: object): value is unknown[] {
  return Array.isArray(value) && value.length <= SMALL_ARRAY && !isWrittenOtherwise(value);
}

/**
 * The parts of one count: what each toJSON returned, asked once per object (a shared one is shared), and
 * how many objects reading made (MAX_MADE).
 */
class Parts {
  private readonly byToJSON = new Map<object, unknown>();
  private made = 0;

  /** Counts an object that reading made; past MAX_MADE, the count gives up. */
  private noteMade(): void {
    if (++this.made > MAX_MADE) throw MADE_TOO_MANY;
  }

  /** Notes the item read at `array[index]` when reading made it (an accessor, a proxy's trap). */
  noteItem(array: object, index: number, item: unknown): void {
    if (typeof item === 'object' && item !== null && madeByReading(array, index, item)) this.noteMade();
  }

  /** What JSON writes in place of `value`: what its toJSON returns, else itself. */
  written(value: unknown): unknown {
    if (typeof value !== 'object' || value === null) return value;
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON !== 'function') return value;
    if (this.byToJSON.has(value)) return this.byToJSON.get(value);
    let returned: unknown;
    try {
      returned = toJSON.call(value, '');
    } catch {
      throw TO_JSON_THREW;
    }
    if (typeof returned === 'object' && returned !== null && returned !== value) this.noteMade();
    this.byToJSON.set(value, returned);
    return returned;
  }

  /**
   * A container's members as JSON writes them, and the characters of its own (brackets, commas, names).
   * JSON calls no toJSON of what a toJSON returned; such a container, and a boxed primitive, is counted
   * as nothing here (a lower bound).
   */
  frame(container: object): Frame {
    if (isWrittenOtherwise(container)) return { container, members: [], length: 0, next: 0 };
    if (Array.isArray(container)) {
      return { container, members: container, length: 2 + Math.max(0, container.length - 1), next: 0 };
    }
    const members: unknown[] = [];
    let length = 2;
    for (const key of Object.keys(container)) {
      const member = (container as Record<string, unknown>)[key];
      if (typeof member === 'object' && member !== null && madeByReading(container, key, member))
        this.noteMade();
      const written = this.written(member);
      // JSON leaves out a member it cannot write, name and all.
      if (written === undefined || typeof written === 'function' || typeof written === 'symbol') continue;
      length += (members.length > 0 ? 1 : 0) + key.length + 3;
      // As it is: `written` answers it again from the map, without calling its toJSON twice.
      members.push(member);
    }
    return { container, members, length, next: 0 };
  }
}

/**
 * Whether reading `source[key]` ran code that may answer a new object at each read: the member is no
 * data property holding `value` (an accessor, or a proxy whose trap answers something else). Asked only
 * of members that are objects: no primitive nests. (src/library/repair/clone.ts has a copy of its own.)
 */
export function madeByReading(source: object, key: string | number, value: object): boolean {
  try {
    const descriptor = Reflect.getOwnPropertyDescriptor(source, key);
    return descriptor === undefined || !('value' in descriptor) || descriptor.value !== value;
  } catch {
    return true;
  }
}

/** A toJSON JSON does not call (on what a toJSON returned), or a boxed string, number or boolean. */
function isWrittenOtherwise(value: object): boolean {
  return (
    typeof (value as { toJSON?: unknown }).toJSON === 'function' ||
    value instanceof String ||
    value instanceof Number ||
    value instanceof Boolean
  );
}

/** Characters JSON writes for a value that is no container (at least: escapes are not counted). */
function scalarLength(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return value.length + 2;
    case 'number':
      return numberLength(value);
    case 'boolean':
      return value ? 4 : 5;
    case 'object':
      return 4; // null
    case 'undefined':
    case 'function':
    case 'symbol':
      // Only array items get here (an object leaves such members out), and JSON writes them as null.
      return 4;
    default:
      return 0;
  }
}

/**
 * The characters JSON writes for a number. An integer's digits are counted without writing it (a string
 * per number was most of the count of a million rows of numbers); JSON writes -0 as 0, as this counts.
 */
function numberLength(value: number): number {
  if (!Number.isFinite(value)) return 4; // null
  if (!Number.isInteger(value) || Math.abs(value) >= 1e15) return String(value).length;
  let length = value < 0 ? 2 : 1;
  for (let rest = Math.abs(value); rest >= 10; rest = Math.floor(rest / 10)) length++;
  return length;
}
