/**
 * The state of one running interpretation at a program point: the values of the function's
 * variables and its heap layer. Each live state owns both exclusively; a branch works on a copy and
 * the copies are joined where control flow meets again.
 */

import { Heap } from './heap.js';
import { type Guard, join, maybeUndef, type Site, type Value } from './value.js';

export interface State<K> {
  readonly vars: Map<K, Value>;
  heap: Heap;
}

export function cloneState<K>(state: State<K>): State<K> {
  return { vars: new Map(state.vars), heap: state.heap.clone() };
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
  const vars = new Map<K, Value>();
  for (const [key, va] of a.vars) {
    const vb = b.vars.get(key);
    vars.set(key, vb === undefined ? join(va, maybeUndef(at), guardA, guardB) : join(va, vb, guardA, guardB));
  }
  for (const [key, vb] of b.vars) {
    if (!a.vars.has(key)) vars.set(key, join(maybeUndef(at), vb, guardA, guardB));
  }
  return { vars, heap: Heap.join(a.heap, b.heap, guardA, guardB) };
}

export function joinAllStates<K>(states: readonly (State<K> | undefined)[], at: Site): State<K> | undefined {
  let out: State<K> | undefined;
  for (const s of states) out = joinStates(out, s, at);
  return out;
}
