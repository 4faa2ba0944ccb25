/**
 * What the TS/JS and Python interpreters share: runs (one interpretation of a function body), the
 * bookkeeping of returns and exits, isolation of module and root runs under their own budget,
 * branches that are interpreted on copies of the state and joined with the conditions that tell
 * them apart, and the objects built by the literals the front ends watch.
 */

import { appendAll } from '../../core/append.js';
import type { Project } from '../project.js';
import { BudgetExceeded } from './budget.js';
import { Heap, type Member, newObject, type ObjState } from './heap.js';
import { cloneState, joinAllStates, joinStates, newState, type State } from './state.js';
import {
  type Guard,
  guarded,
  join,
  NOTHING,
  ofKind,
  type Site,
  tested,
  unknown,
  type Value,
  type Variant,
} from './value.js';

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

/**
 * Where objects that watched literals built (envelopes) leave the code the analysis follows: a
 * return statement, or a call to code outside the project that carries one (`res.json(envelope)`,
 * `jsonify(envelope)`, `res.end(JSON.stringify(envelope))`): what a client receives, as it is there.
 */
export interface Outflow<R> {
  readonly site: Site;
  /** The run it happened in (its function and module). */
  readonly run: R;
  /** The watched objects it carries. */
  readonly value: Value;
  readonly heap: Heap;
}

/** Members of an object an outflow may carry a watched object in (`{ body: JSON.stringify(envelope) }`). */
const MAX_CARRY_DEPTH = 2;

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
  /** Ids of every object a watched literal built. */
  private readonly watchedIds = new Set<number>();
  /**
   * Ids of the objects watched literals built while a tool handler ran: judged as what the handler
   * returns, after its framework's conversion, not as payloads of their own.
   */
  readonly handlerIds = new Set<number>();
  /** Ids of watched objects spread into another object (`{ ...base, result }`). */
  readonly spreadIds = new Set<number>();
  /** Responses a web framework builds from a response model (FastAPI's `response_model`), `jsonrpc` or not. */
  readonly modelResponses = new Set<number>();

  /** Whether a watched literal built the object `id`. */
  protected allocatedByWatched(id: number): boolean {
    return this.watchedIds.has(id);
  }
  /** Returns and calls out of the project that carry watched objects, by source position. */
  private readonly outflows = new Map<string, Outflow<R>>();
  /** The positions of the outflows that carry each watched object. */
  private readonly outflowsById = new Map<number, Set<string>>();
  /** Project functions called by project code: what they return goes on to their callers. */
  readonly callees = new Set<object>();
  /**
   * Set while a function runs as its framework calls it (a tool handler): a function it hands to
   * code outside the project may be called there before it returns, so the front ends run it. What
   * a module or a registering function hands on (a handler, a route) is called later, on its own.
   */
  protected followsCallbacks = false;

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

  /**
   * The variants of a variable after a type test on its member `key` held (`typeof x.key ===
   * "string"`, `isinstance(x["key"], str)`): on this path the member is of `kind`. An object whose
   * member cannot pass (`passes`), or that lacks it and holds nothing unlisted, is not on the path;
   * the others keep only the member's variants that pass, their unknowns of that kind. An unknown
   * variable is an object there (only an object's member passes), open, holding the member. Each
   * typed unknown remembers the test (value.ts, `tested`); `source` names the member in reasons.
   */
  protected withTypedMember(
    value: Value,
    key: string,
    kind: 'string' | 'boolean',
    test: string,
    passes: (v: Variant) => boolean,
    at: Site,
    source: string,
  ): Value {
    const member = (): Member => ({
      value: ofKind(tested(unknown(at, `${source} is known only at run time`), test), kind),
      site: at,
    });
    const typed: Variant[] = [];
    for (const v of value) {
      if (v.k === 'unknown' && (v.kind === undefined || v.kind === 'object')) {
        const id = this.heap.alloc({ ...newObject(at), props: new Map([[key, member()]]), open: v.reason });
        typed.push({ k: 'ref', id, site: v.site });
        continue;
      }
      const state = v.k === 'ref' ? this.heap.get(v.id) : undefined;
      if (v.k !== 'ref' || state?.kind !== 'object' || state.model !== undefined) {
        typed.push(v);
        continue;
      }
      const known = state.props.get(key);
      const passing = known?.value.filter(passes) ?? [];
      if (known ? passing.length === 0 : state.open === undefined) continue;
      const props = new Map(state.props);
      props.set(key, known ? { ...known, value: ofKind(tested(passing, test), kind) } : member());
      this.heap.set(v.id, { ...state, props });
      typed.push(v);
    }
    return typed;
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
    const follows = this.followsCallbacks;
    this.followsCallbacks = false;
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
      this.followsCallbacks = follows;
    }
    run.state?.heap.freeze();
  }

  /** Runs `work` as the framework runs a handler: functions it hands out of the project are followed. */
  protected asFrameworkCalls<T>(work: () => T): T {
    const follows = this.followsCallbacks;
    this.followsCallbacks = true;
    try {
      return work();
    } finally {
      this.followsCallbacks = follows;
    }
  }

  /**
   * Calls `once` as code that may call a callback any number of times does: twice, each call from
   * what the calls before it may have left, with every outcome (not calling it too) joined.
   */
  protected repeatedly(at: Site, once: () => Value): Value {
    const entry = this.state;
    let result: Value = NOTHING;
    const states: State<K>[] = [entry];
    let input = entry;
    for (let i = 0; i < 2; i++) {
      this.current.state = cloneState(input);
      result = join(result, once());
      const after = this.current.state;
      if (!after) break;
      states.push(after);
      input = joinStates(input, after, at) ?? after;
    }
    this.current.state = joinAllStates(states, at);
    return result;
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
    this.noteOutflow(this.site(node as N), [value]);
    run.exits.push(state);
    run.state = undefined;
  }

  /** A return or a call out of the project at `site` hands on `values`: record the watched objects among them. */
  protected noteOutflow(site: Site, values: readonly Value[]): void {
    if (this.watchedIds.size === 0 || !this.current.state) return;
    const carried = values.flatMap((v) => this.carried(v, 0));
    if (carried.length === 0) return;
    // A snapshot for the record; the run goes on with a copy of its own.
    const heap = this.heap.clone();
    this.state.heap = this.heap.clone();
    const key = `${site.file.id}:${site.start}`;
    for (const v of carried) {
      if (v.k !== 'ref') continue;
      let keys = this.outflowsById.get(v.id);
      if (!keys) {
        keys = new Set();
        this.outflowsById.set(v.id, keys);
      }
      keys.add(key);
    }
    const prev = this.outflows.get(key);
    this.outflows.set(
      key,
      prev
        ? { ...prev, value: join(prev.value, carried), heap: Heap.join(prev.heap, heap) }
        : { site, run: this.current, value: carried, heap },
    );
  }

  /** The outflows that carry any of the objects `ids`. */
  outflowsOf(ids: Iterable<number>): Outflow<R>[] {
    const keys = new Set<string>();
    for (const id of ids) for (const key of this.outflowsById.get(id) ?? []) keys.add(key);
    return [...keys].flatMap((key) => this.outflows.get(key) ?? []);
  }

  private carried(value: Value, depth: number): Variant[] {
    const out: Variant[] = [];
    for (const v of value) {
      if (v.k === 'ref') {
        if (this.watchedIds.has(v.id)) out.push(v);
        else if (depth < MAX_CARRY_DEPTH) {
          for (const member of this.heap.get(v.id)?.props.values() ?? [])
            appendAll(out, this.carried(member.value, depth + 1));
        }
      } else if (v.k === 'json' && depth < MAX_CARRY_DEPTH) appendAll(out, this.carried(v.of, depth + 1));
    }
    return out;
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
      this.watchedIds.add(id);
      if (this.handlerTool !== undefined) this.handlerIds.add(id);
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
