/**
 * The state of one running interpretation at a program point: the values of the function's
 * variables and its heap layer. Each live state owns both exclusively; a branch works on a copy and
 * the copies are joined where control flow meets again. A state that has been copied is never
 * changed again (its heap layer is the parent of the copies'): whoever goes on works on a copy.
 */

import { Heap } from './heap.js';
import { Layers } from './layers.js';
import { type Guard, join, maybeUndef, type Site, type Value } from './value.js';

export interface State<K> {
  readonly vars: Layers<K, Value>;
  heap: Heap;
}

export function newState<K>(heap: Heap): State<K> {
  return { vars: new Layers(), heap };
}

export function cloneState<K>(state: State<K>): State<K> {
  return { vars: state.vars.child(), heap: state.heap.clone() };
}

/**
 * The state where two paths meet. A variable set on one path only may be missing on the other
 * (Python's unbound name); reading it there would fail, so that absence is soft, never judged as
 * a certain `undefined`. `at` is where the paths meet.
 */
export function joinStates<K>(
  a: State<K> | undefined,
  b: State<K> | undefined,
  at: Site,
  guardA?: Guard,
  guardB?: Guard,
): State<K> | undefined {
  if (!a) return b;
  if (!b) return a;
  if (a === b) return a;
  const { base, keys } = Layers.divergence(a.vars, b.vars);
  const entries: [K, Value][] = [];
  for (const key of keys) {
    const va = a.vars.get(key);
    const vb = b.vars.get(key);
    if (va === vb) {
      if (va) entries.push([key, va]);
    } else {
      entries.push([key, join(va ?? maybeUndef(at), vb ?? maybeUndef(at), guardA, guardB)]);
    }
  }
  const vars = Layers.over(base, entries);
  return { vars, heap: Heap.join(a.heap, b.heap, guardA, guardB) };
}

export function joinAllStates<K>(states: readonly (State<K> | undefined)[], at: Site): State<K> | undefined {
  let out: State<K> | undefined;
  for (const s of states) out = joinStates(out, s, at);
  return out;
}
