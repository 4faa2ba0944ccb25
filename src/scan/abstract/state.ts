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
  /**
   * Conditions every path to here went through, because the other side of each ended (`if (c)
   * return …` leaves `c` false for the rest): a value returned from here is produced only then.
   */
  readonly path?: readonly Guard[];
}

export function newState<K>(heap: Heap): State<K> {
  return { vars: new Layers(), heap };
}

export function cloneState<K>(state: State<K>): State<K> {
  return { vars: state.vars.child(), heap: state.heap.clone(), ...(state.path ? { path: state.path } : {}) };
}

/** The same state, known to hold `guard` from now on. */
function along<K>(state: State<K>, guard: Guard | undefined): State<K> {
  if (!guard || state.path?.some((g) => g.site === guard.site && g.holds === guard.holds)) return state;
  return { ...state, path: [...(state.path ?? []), guard] };
}

/** The conditions both paths went through. */
function commonPath(a: State<unknown>, b: State<unknown>): readonly Guard[] | undefined {
  if (!a.path || !b.path) return undefined;
  const shared = a.path.filter((g) => b.path?.some((h) => h.site === g.site && h.holds === g.holds));
  return shared.length > 0 ? shared : undefined;
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
  // One path ended (returned, threw, broke out): the other goes on under its condition.
  if (!a) return b && along(b, guardB);
  if (!b) return along(a, guardA);
  if (a === b) return a;
  // The same state, one of them known to hold more conditions (see `along`).
  if (a.vars === b.vars && a.heap === b.heap) {
    const path = commonPath(a, b);
    return path === a.path
      ? a
      : path === b.path
        ? b
        : { vars: a.vars, heap: a.heap, ...(path ? { path } : {}) };
  }
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
  const path = commonPath(a, b);
  return { vars, heap: Heap.join(a.heap, b.heap, guardA, guardB), ...(path ? { path } : {}) };
}

export function joinAllStates<K>(states: readonly (State<K> | undefined)[], at: Site): State<K> | undefined {
  let out: State<K> | undefined;
  for (const s of states) out = joinStates(out, s, at);
  return out;
}
