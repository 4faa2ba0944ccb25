/**
 * Reading and changing abstract objects and arrays, the same for both languages: member reads
 * (joined over every object a value may be), strong updates when the target is one known object
 * and weak ones (joined with the old value) otherwise, items of iterables, and escapes (objects
 * handed to code the analysis cannot follow become open: that code may add to them).
 */

import { sourceText } from './concretize.js';
import type { Heap, Member, ObjState } from './heap.js';
import {
  isNullish,
  join,
  NOTHING,
  num,
  type Site,
  str,
  undef,
  unknown,
  untyped,
  type Value,
  type Variant,
} from './value.js';

/** The states of the objects a value may refer to. */
export function objectsOf(heap: Heap, value: Value): { id: number; state: ObjState }[] {
  const out: { id: number; state: ObjState }[] = [];
  for (const v of value) {
    if (v.k !== 'ref') continue;
    const state = heap.get(v.id);
    if (state) out.push({ id: v.id, state });
  }
  return out;
}

/**
 * What `await value` gives: the value a Promise resolves to, any other value itself (as `await 42` is
 * 42). A Promise resolved to a Promise resolves to the inner one's value.
 */
export function awaited(heap: Heap, value: Value, depth = 0): Value {
  if (!value.some((v) => v.k === 'ref' && heap.get(v.id)?.promised)) return value;
  let out: Value = NOTHING;
  for (const v of value) {
    const promised = v.k === 'ref' ? heap.get(v.id)?.promised : undefined;
    out = join(out, promised && depth < 8 ? awaited(heap, promised, depth + 1) : [v]);
  }
  return out;
}

function runtime(at: Site, why?: string): Value {
  return unknown(at, `${sourceText(at)} is known only at run time${why ? ` (${why})` : ''}`);
}

/**
 * The members read so far of each unknown value, by name: `arguments["a"]` read twice is one value
 * (`json.dumps({"a": arguments["a"]})` beside `structuredContent={"a": arguments["a"]}` is a mirror),
 * where two fresh unknowns would be two values that may differ. Keyed by the variant itself, which
 * stands for one run-time value; weakly, so nothing outlives the analysis. The first read's site names
 * the member in the reasons of every later read.
 */
const membersOfUnknowns = new WeakMap<Variant, Map<string, Value>>();

function memberOfUnknown(receiver: Variant, key: string | undefined, at: Site): Value {
  const made = () =>
    unknown(at, `${sourceText(at)} is known only at run time`, key === 'length' ? 'number' : undefined);
  // A member of what TypeScript types `any` is `any` too.
  const make = () => (receiver.k === 'unknown' && receiver.untyped ? untyped(made()) : made());
  // A computed key may name another member on every read.
  if (key === undefined) return make();
  const members = membersOfUnknowns.get(receiver) ?? new Map<string, Value>();
  membersOfUnknowns.set(receiver, members);
  const member = members.get(key) ?? make();
  members.set(key, member);
  return member;
}

/**
 * The value of `object[key]` (a member or an item; `key` undefined: computed at run time). `absent`
 * is what a missing member reads as: `undefined` in JavaScript; Python raises, so no value.
 */
export function readMember(
  heap: Heap,
  object: Value,
  key: string | undefined,
  at: Site,
  absent: Value,
): Value {
  let out: Value = NOTHING;
  // When only some of the objects have the member, its absence may be a path that never happens.
  const objects = objectsOf(heap, object);
  const some = key !== undefined && objects.length > 1 && objects.some((o) => o.state.props.has(key));
  const missing = some ? absent.map((v) => (v.k === 'undef' ? { ...v, soft: true } : v)) : absent;
  for (const v of object) {
    switch (v.k) {
      case 'ref': {
        const state = heap.get(v.id);
        if (state) out = join(out, readState(state, key, at, missing));
        break;
      }
      case 'str':
      case 'json':
        out = join(
          out,
          key === 'length' ? num(at) : key !== undefined && /^-?\d+$/.test(key) ? str(at) : runtime(at),
        );
        break;
      case 'null':
      case 'undef':
        break;
      case 'unknown':
        out = join(out, memberOfUnknown(v, key, at));
        break;
      default:
        out = join(out, runtime(at));
    }
  }
  if (out.length > 0) return out;
  return absent.length > 0 ? absent : runtime(at);
}

export function readState(state: ObjState, key: string | undefined, at: Site, absent: Value): Value {
  if (state.kind === 'array') {
    if (key === 'length') return num(at, state.rest || state.open ? undefined : state.items.length);
    if (key === undefined || /^-?\d+$/.test(key)) {
      const index = key === undefined ? Number.NaN : Number(key);
      const item = index < 0 ? state.items[state.items.length + index] : state.items[index];
      if (item && !state.rest && !(index < 0 && state.open)) return item.value;
      let out: Value = state.rest ?? NOTHING;
      for (const m of Number.isNaN(index) || index < 0 ? state.items : state.items.slice(index))
        out = join(out, m.value);
      if (state.open) out = join(out, runtime(at, state.open));
      return join(out, absent);
    }
    return runtime(at);
  }
  if (key === undefined) {
    let out: Value = state.open ? runtime(at, state.open) : NOTHING;
    if (state.rest) out = join(out, state.rest);
    for (const m of state.props.values()) out = join(out, m.value);
    return join(out, absent);
  }
  const member = state.props.get(key);
  if (member) return member.value;
  // A member set under a computed name (`tools[fn.__name__] = fn`) may be this one.
  return state.open ? join(state.rest ?? NOTHING, runtime(at, state.open)) : absent;
}

/** An object state with `key` set: replaced (a strong update) or joined with what was there. */
export function writeState(
  state: ObjState,
  key: string | undefined,
  value: Value,
  at: Site,
  strong: boolean,
): ObjState {
  if (state.kind === 'array') {
    if (key !== undefined && /^\d+$/.test(key) && !state.rest) {
      const index = Number(key);
      const items = [...state.items];
      if (index < items.length) {
        const old = items[index] as Member;
        items[index] = { value: strong ? value : join(old.value, value), site: at };
        return { ...state, items };
      }
      if (index === items.length && strong) return { ...state, items: [...items, { value, site: at }] };
    }
    if (key === 'length') {
      // `items.length = 0`: a known array cut short loses its last items.
      const [only] = value;
      const length = value.length === 1 && only?.k === 'num' ? only.value : undefined;
      const cut = strong && !state.rest && length !== undefined && Number.isInteger(length) && length >= 0;
      return cut && length < state.items.length ? { ...state, items: state.items.slice(0, length) } : state;
    }
    return { ...state, rest: join(state.rest ?? NOTHING, value) };
  }
  // Under a computed name: one more member of unknown name, kept (`rest`) for reads of any member.
  if (key === undefined)
    return {
      ...state,
      open: `a member with a computed name (${sourceText(at)})`,
      rest: join(state.rest ?? NOTHING, value),
    };
  const props = new Map(state.props);
  const old = props.get(key);
  const next = strong ? value : old ? join(old.value, value) : join(value, undef(at));
  props.set(key, { value: next, site: at });
  return { ...state, props };
}

export function writeMember(
  heap: Heap,
  object: Value,
  key: string | undefined,
  value: Value,
  at: Site,
): void {
  const targets = objectsOf(heap, object);
  const strong = object.length === 1 && targets.length === 1;
  for (const { id, state } of targets) heap.set(id, writeState(state, key, value, at, strong));
}

/**
 * Appends items to the arrays a value may be (`push`, `append`, `extend`): at the end when the array
 * is one known array, else as items of unknown position. `only` restricts it to one of the arrays.
 */
export function appendItems(
  heap: Heap,
  array: Value,
  items: readonly Value[],
  at: Site,
  front = false,
  only?: number,
): void {
  const targets = objectsOf(heap, array).filter(
    (t) => t.state.kind === 'array' && (only === undefined || t.id === only),
  );
  const strong = array.length === 1 && targets.length === 1;
  for (const { id, state } of targets) {
    if (!strong || state.rest) {
      let rest = state.rest ?? NOTHING;
      for (const item of items) rest = join(rest, item);
      heap.set(id, { ...state, rest });
    } else {
      const added = items.map((value) => ({ value, site: at }));
      heap.set(id, { ...state, items: front ? [...added, ...state.items] : [...state.items, ...added] });
    }
  }
}

/** One item of an iterable: an array's items, a string's characters, or something unknown. */
export function itemOf(heap: Heap, iterable: Value, at: Site): Value {
  let out: Value = NOTHING;
  for (const v of iterable) {
    if (v.k === 'ref') {
      const state = heap.get(v.id);
      if (state?.kind === 'array') {
        for (const m of state.items) out = join(out, m.value);
        if (state.rest) out = join(out, state.rest);
        if (state.open) out = join(out, unknown(at, `an item of ${sourceText(at)}`));
      } else if (state?.kind === 'object') {
        // Iterating a dict (Python) yields its keys.
        out = join(
          out,
          state.open || state.props.size === 0 ? str(at) : [...state.props.keys()].flatMap((k) => str(at, k)),
        );
      } else out = join(out, unknown(at, `an item of ${sourceText(at)}`));
    } else if (v.k === 'str' || v.k === 'json') out = join(out, str(at));
    else if (!isNullish(v)) out = join(out, unknown(at, `an item of ${sourceText(at)}`));
  }
  return out.length > 0 ? out : unknown(at, `an item of ${sourceText(at)}`);
}

/** Items of arrays among `value`, and the other variants as they are (`flatMap`, `flat`). */
export function flatten(heap: Heap, value: Value, at: Site): Value {
  let out: Value = NOTHING;
  for (const v of value) {
    const state = v.k === 'ref' ? heap.get(v.id) : undefined;
    out = join(out, state?.kind === 'array' ? itemOf(heap, [v], at) : [v]);
  }
  return out;
}

/** Objects passed where the analysis cannot follow may be changed there: they become open. */
export function escapeTo(
  heap: Heap,
  values: readonly Value[],
  reason: string,
  keep?: (id: number) => boolean,
): void {
  const seen = new Set<number>();
  const stack: Value[] = [...values];
  for (let value = stack.pop(); value; value = stack.pop()) {
    for (const v of value) {
      if (v.k !== 'ref' || seen.has(v.id) || keep?.(v.id)) continue;
      seen.add(v.id);
      const state = heap.get(v.id);
      if (!state) continue;
      if (!state.open) heap.set(v.id, { ...state, open: reason });
      for (const m of state.props.values()) stack.push(m.value);
      for (const m of state.items) stack.push(m.value);
      if (state.rest) stack.push(state.rest);
    }
  }
}

/** `Object.assign(target, source)`, `dict.update(source)`: source's members copied onto target. */
export function assignFrom(heap: Heap, target: Value, source: Value, at: Site): void {
  const sources = objectsOf(heap, source);
  const targets = objectsOf(heap, target);
  const strong = target.length === 1 && targets.length === 1 && source.length === 1 && sources.length === 1;
  for (const { id, state } of targets) {
    let next = state;
    for (const { state: s } of sources) {
      for (const [key, member] of s.props) next = writeState(next, key, member.value, member.site, strong);
      if (s.open) next = { ...next, open: s.open };
    }
    if (source.some((v) => v.k === 'unknown'))
      next = { ...next, open: `members copied from ${sourceText(at)}` };
    heap.set(id, next);
  }
}

/**
 * Copies objects' own members into `props` (`{...a}`, `{**a}`); returns why the result is open, if
 * it is. A spread that may be of several objects (or of nothing) makes each of its keys optional.
 */
export function spreadInto(
  props: Map<string, Member>,
  spread: Value,
  heap: Heap,
  at: Site,
): string | undefined {
  let open: string | undefined;
  const objects: ObjState[] = [];
  let maybeNothing = false;
  for (const v of spread) {
    if (v.k === 'ref') {
      const state = heap.get(v.id);
      if (state?.kind === 'object') objects.push(state);
      else if (state) open = `members spread from ${sourceText(at)}`;
    } else if (isNullish(v) || v.k === 'bool' || (v.k === 'unknown' && v.falsy)) maybeNothing = true;
    else open = `members spread from ${sourceText(at)}`;
  }
  const single = objects.length === 1 && !maybeNothing && spread.length === 1;
  const keys = new Set(objects.flatMap((o) => [...o.props.keys()]));
  for (const key of keys) {
    let value: Value = NOTHING;
    let site = at;
    for (const o of objects) {
      const member = o.props.get(key);
      if (member) {
        value = join(value, member.value);
        site = member.site;
      } else value = join(value, undef(at));
    }
    if (!single) {
      if (maybeNothing) value = join(value, undef(at));
      const previous = props.get(key)?.value;
      // An earlier member stays possible when the spread may not have this key.
      if (previous && value.some((x) => x.k === 'undef'))
        value = join(
          value.filter((x) => x.k !== 'undef'),
          previous,
        );
    }
    props.delete(key);
    props.set(key, { value, site });
  }
  for (const o of objects) if (o.open) open = o.open;
  return open;
}
