/**
 * What the TS/JS and Python interpreters share: runs (one interpretation of a function body), the
 * bookkeeping of returns and exits, isolation of module and root runs under their own budget,
 * branches that are interpreted on copies of the state and joined with the conditions that tell
 * them apart, and the objects built by the literals the front ends watch.
 */

import type { Project } from '../project.js';
import { BudgetExceeded } from './budget.js';
import { Heap, type ObjState } from './heap.js';
import { cloneState, joinAllStates, joinStates, newState, type State } from './state.js';
import { type Guard, guarded, join, NOTHING, type Site, type Value } from './value.js';

/** One interpretation of a function body (or of a module's top level). */
export abstract class Run<K> {
  state: State<K> | undefined;
  /** States at each return. */
  readonly exits: State<K>[] = [];
  /** Values returned, per return statement. */
  readonly returns = new Map<object, { value: Value; heap: Heap }>();
  /** States at `throw`/`raise`, per enclosing `try`. */
  readonly tries: State<K>[][] = [];
  done = false;
  /** The end of the body was reachable (an implicit `return undefined` / `return None`). */
  fellThrough = false;

  constructor(
    readonly fn: object,
    heap: Heap,
  ) {
    this.state = newState(heap);
  }
}

/** Where control leaves a `switch`/`match`, with the case it went through. */
export interface Exit<K> {
  readonly state: State<K>;
  readonly guard?: Guard;
}

export abstract class Interpreter<K, R extends Run<K>, N extends object> {
  protected current!: R;
  /** Function nodes being interpreted: calling one of them again is recursion. */
  protected readonly active: object[] = [];
  protected nesting = 0;
  /** Object literals the front end watches (envelopes, payloads): the objects each evaluation built. */
  readonly allocations = new Map<N, Set<number>>();
  /** The tool whose handler is being analysed (set by the front end), for calls recorded meanwhile. */
  handlerTool: string | undefined;

  constructor(
    readonly project: Project,
    readonly watchedObjects: ReadonlySet<N>,
  ) {}

  /** The source range of a node of the current run's file. */
  protected abstract site(node: N): Site;
  /** Where a run's function ends, where its paths meet. */
  protected abstract runSite(run: R): Site;
  /** Clears what a failed isolated run may leave behind (Python: comprehension scopes). */
  protected resetTransient(): void {}

  protected get state(): State<K> {
    const state = this.current.state;
    if (!state) throw new Error('interpreting unreachable code');
    return state;
  }

  protected get heap(): Heap {
    return this.state.heap;
  }

  /** Interprets `work` as `run` (a call: the caller's budget goes on). */
  protected within<T>(run: R, work: () => T): T {
    const previous = this.current;
    this.current = run;
    this.active.push(run.fn);
    try {
      return work();
    } finally {
      this.active.pop();
      this.current = previous;
    }
  }

  /**
   * Runs a module or root function to its end under its own budget, so a pathological one fails
   * alone (its values then stay unknown, with the reason).
   */
  protected isolated(run: R, work: () => void, failed: (reason: string) => void): void {
    const previous = this.current;
    const nesting = this.nesting;
    const active = this.active.length;
    this.current = run;
    this.active.push(run.fn);
    try {
      work();
      this.finish(run);
    } catch (error) {
      if (!(error instanceof BudgetExceeded) && !(error instanceof RangeError)) throw error;
      failed(error instanceof BudgetExceeded ? error.message : 'analysis budget: nesting');
      run.state = undefined;
      run.done = true;
      this.resetTransient();
    } finally {
      this.active.length = active;
      this.nesting = nesting;
      this.current = previous;
    }
    run.state?.heap.freeze();
  }

  /** The run's final state: where its returns and its end meet (closures read it later). */
  protected finish(run: R): void {
    run.fellThrough = run.state !== undefined;
    run.state = joinAllStates([...run.exits, ...(run.state ? [run.state] : [])], this.runSite(run));
    run.done = true;
  }

  protected recordReturn(node: object, returned: Value): void {
    const run = this.current;
    const state = run.state;
    if (!state) return;
    // Returned only on the paths that got here: `when` on a finding names their conditions. Guards
    // are listed innermost first, and the latest condition on the path is the innermost.
    let value = returned;
    for (const guard of [...(state.path ?? [])].reverse()) value = guarded(value, guard);
    const prev = run.returns.get(node);
    run.returns.set(
      node,
      prev
        ? { value: join(prev.value, value), heap: Heap.join(prev.heap, state.heap) }
        : { value, heap: state.heap },
    );
    run.exits.push(state);
    run.state = undefined;
  }

  /**
   * An operand on a path that a refinement may have proven dead (`type === "text" ? a : b` when
   * `type` can only be "blob"): no state, so no value.
   */
  protected ifReachable(evaluate: () => Value): Value {
    return this.current.state ? evaluate() : NOTHING;
  }

  /** `throw`/`raise`: the current state reaches the innermost `try`'s handlers, then ends. */
  protected throwHere(): void {
    const state = this.current.state;
    if (state) this.current.tries.at(-1)?.push(state);
    this.current.state = undefined;
  }

  protected allocate(node: N, state: ObjState): number {
    const id = this.heap.alloc(state);
    if (this.watchedObjects.has(node)) {
      let ids = this.allocations.get(node);
      if (!ids) {
        ids = new Set();
        this.allocations.set(node, ids);
      }
      ids.add(id);
    }
    return id;
  }

  /**
   * Two paths from the current state (`if`/`else`, `a ? b : c`), each on its own copy, joined
   * where they meet; values and variables set on one path only are marked with its condition.
   */
  protected fork<T>(
    at: Site,
    condition: { readonly whenTrue: Guard; readonly whenFalse: Guard } | undefined,
    onTrue: () => T,
    onFalse: () => T,
  ): [T, T] {
    // Each path works on a copy: the state they start from is only read from now on.
    const base = this.state;
    this.current.state = cloneState(base);
    const a = onTrue();
    const afterTrue = this.current.state;
    this.current.state = cloneState(base);
    const b = onFalse();
    const afterFalse = this.current.state;
    this.current.state = joinStates(afterTrue, afterFalse, at, condition?.whenTrue, condition?.whenFalse);
    return [a, b];
  }

  /** The state after `switch`/`match`: every exit joined, each case's values marked with its case. */
  protected joinExits(exits: readonly Exit<K>[], at: Site): State<K> | undefined {
    let out: State<K> | undefined;
    let firstGuard: Guard | undefined;
    for (const [i, exit] of exits.entries()) {
      if (i === 0) {
        out = exit.state;
        firstGuard = exit.guard;
      } else out = joinStates(out, exit.state, at, i === 1 ? firstGuard : undefined, exit.guard);
    }
    return out;
  }

  /**
   * A loop: its body twice (enough for values built across iterations to show), each pass from
   * what the loop head may see, then every pass joined. `pass` interprets one iteration (head and
   * body) on the current state and returns the states of its `continue`s.
   */
  protected iterations(at: Site, pass: () => State<K>[]): (State<K> | undefined)[] {
    const entry = this.current.state;
    if (!entry) return [];
    const seen: (State<K> | undefined)[] = [entry];
    let input: State<K> | undefined = entry;
    for (let i = 0; i < 2 && input; i++) {
      this.current.state = cloneState(input);
      const continues = pass();
      this.current.state = joinAllStates([this.current.state, ...continues], at);
      seen.push(this.current.state);
      input = joinStates(input, this.current.state, at);
    }
    return seen;
  }
}
