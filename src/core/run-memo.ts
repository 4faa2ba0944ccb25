/**
 * Memoization scoped to one validation. Several rules derive the same costly fact from one value (the
 * JSON text of a 75 KB structuredContent, the base64 check of a megabyte image), so the engine opens a
 * scope for each validation and every memo keeps its answers in that scope only: nothing is retained
 * once the validation returns, and a caller who mutates a document between validations is never
 * answered from a stale cache. Outside a scope (a repair function, a builder), memos just compute.
 *
 * Three kinds:
 * - `memoPerRun`, keyed by object identity, forgets at the start of every run, because the repair
 *   engine mutates objects between the runs of one scope;
 * - `memoByString`, keyed by strings, keeps its answers for the whole scope: strings are immutable,
 *   so an answer about one can never go stale. Only for short strings: a Map hashes a string of up to
 *   16K characters character by character (measured in V8: four times the cost of an `atob` of it);
 * - `memoByHolder`, for facts about a long string found at `holder[key]` (a base64 payload): keyed by
 *   the holder's identity and checked against the very string it was computed for, so it keeps its
 *   answers for the whole scope, survives a repair that leaves the string alone, and never hashes it.
 *
 * Runs are synchronous, so a module-level current scope cannot interleave with another.
 */

export class FactScope {
  /** Answers of `memoByString` memos, by memo. */
  readonly byString: (Map<string, unknown> | undefined)[] = [];
  /** Answers of `memoByHolder` memos, by memo. */
  readonly byHolder: (HolderMemo | undefined)[] = [];
  /** Answers of `memoPerRun` memos, by memo; emptied at the start of every run. */
  byObject: (Map<object, unknown> | undefined)[] = NO_MEMOS;
  /**
   * JSON texts the caller already made of objects in the document (toolResult() writes the text mirror
   * of the structuredContent it builds), valid until the document changes; the repair engine drops them
   * before its first change.
   */
  knownJson: ReadonlyMap<object, string> | undefined;
}

const NO_MEMOS: never[] = [];

let current: FactScope | undefined;
let memos = 0;

/**
 * Runs `fn` in `scope`. Entering it starts a new run: object memos start empty, since the document may
 * have changed since the scope was last current. Within the scope already, `fn` just runs.
 */
export function runInScope<T>(scope: FactScope, fn: () => T): T {
  if (current === scope) return fn();
  const previous = current;
  current = scope;
  scope.byObject = NO_MEMOS;
  try {
    return fn();
  } finally {
    current = previous;
  }
}

/** The JSON text the caller of the current validation made of `value`, if it made one. */
export function knownJson(value: object): string | undefined {
  return current?.knownJson?.get(value);
}

/** Whether a validation run is under way (memos remember only then). */
export function inScope(): boolean {
  return current !== undefined;
}

export function memoPerRun<K extends object, V>(compute: (key: K) => V): (key: K) => V {
  const slot = memos++;
  return (key) => {
    const scope = current;
    if (!scope) return compute(key);
    if (scope.byObject === NO_MEMOS) scope.byObject = [];
    return lookup(scope.byObject as (Map<K, unknown> | undefined)[], slot, key, compute);
  };
}

export function memoByString<V>(compute: (key: string) => V): (key: string) => V {
  const slot = memos++;
  return (key) => {
    const scope = current;
    return scope ? lookup(scope.byString, slot, key, compute) : compute(key);
  };
}

function lookup<K, V>(
  caches: (Map<K, unknown> | undefined)[],
  slot: number,
  key: K,
  compute: (key: K) => V,
): V {
  let cache = caches[slot];
  if (!cache) {
    cache = new Map();
    caches[slot] = cache;
  }
  const hit = cache.get(key);
  if (hit !== undefined || cache.has(key)) return hit as V;
  const value = compute(key);
  cache.set(key, value);
  return value;
}

/** An answer holds for the very string it was computed from, wherever that string is found. */
interface HolderEntry {
  readonly value: string;
  readonly answer: unknown;
}

interface HolderMemo {
  readonly entries: Map<object, HolderEntry>;
  /** Several rules in a row ask about the payload of the block they check: the last answer first. */
  last: HolderEntry | undefined;
}

/**
 * Memoizes `compute(holder[key])` for string values. `undefined` when the value is no string.
 */
export function memoByHolder<V>(
  compute: (value: string) => V,
): (holder: object, key: string) => V | undefined {
  const slot = memos++;
  return (holder, key) => {
    const value = (holder as Record<string, unknown>)[key];
    if (typeof value !== 'string') return undefined;
    const scope = current;
    if (!scope) return compute(value);
    let memo = scope.byHolder[slot];
    if (!memo) {
      memo = { entries: new Map(), last: undefined };
      scope.byHolder[slot] = memo;
    }
    // Identical strings compare by reference; a replaced value is a different string.
    let entry = memo.last;
    if (entry === undefined || entry.value !== value) {
      entry = memo.entries.get(holder);
      if (entry === undefined || entry.value !== value) {
        entry = { value, answer: compute(value) };
        memo.entries.set(holder, entry);
      }
      memo.last = entry;
    }
    return entry.answer as V;
  };
}
