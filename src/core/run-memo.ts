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
  byObject: (RunAnswers | undefined)[] = NO_MEMOS;
  /**
   * JSON texts the caller already made of objects in the document (toolResult() writes the text mirror
   * of the structuredContent it builds), valid until the document changes; the repair engine drops them
   * before its first change.
   */
  knownJson: ReadonlyMap<object, string> | undefined;
  /**
   * Whether the document may be built from shared parts that stand for a JSON text too long to write
   * (see core/unwritable.ts): a handler's JS value the validators could not walk whole. Parsed JSON never
   * is, so JSON.stringify of its parts needs no such check first.
   */
  unbounded = false;

  /**
   * `unchanged`: the document is the same in every run of this scope, so object memos are kept from
   * one run to the next. The check command judges one parsed document once per protocol version (its
   * version matrix), and the JSON text of a 16 MB structuredContent was made six times. Every memo is a
   * fact of a value alone, never of the version or the tool, so runs for other versions may share it.
   */
  constructor(readonly unchanged = false) {}
}

const NO_MEMOS: never[] = [];

let current: FactScope | undefined;
let memos = 0;

/**
 * Runs `fn` in `scope`. Entering it starts a new run: object memos start empty, since the document may
 * have changed since the scope was last current (unless the scope says it is unchanged). Within the
 * scope already, `fn` just runs.
 */
export function runInScope<T>(scope: FactScope, fn: () => T): T {
  if (current === scope) return fn();
  const previous = current;
  current = scope;
  if (!scope.unchanged) scope.byObject = NO_MEMOS;
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

/** Whether the current run's document may stand for a JSON text too long to write (FactScope.unbounded). */
export function mayBeUnwritable(): boolean {
  return current?.unbounded === true;
}

/** Whether a validation run is under way (memos remember only then). */
export function inScope(): boolean {
  return current !== undefined;
}

/**
 * A `memoPerRun` memo's answers in one run. Most are asked about a single object a run (the result), so
 * the first answer is kept inline and a map is made only for a second object: a map per memo and run
 * cost a tenth of validating a 10 KB image result.
 */
interface RunAnswers {
  readonly key: object;
  readonly value: unknown;
  more: Map<object, unknown> | undefined;
}

export function memoPerRun<K extends object, V>(compute: (key: K) => V): (key: K) => V {
  const slot = memos++;
  return (key) => {
    const scope = current;
    if (!scope) return compute(key);
    if (scope.byObject === NO_MEMOS) scope.byObject = [];
    const answers = scope.byObject[slot];
    if (answers === undefined) {
      const value = compute(key);
      // Set after computing: a compute that asked this memo about another object may have set it.
      scope.byObject[slot] ??= { key, value, more: undefined };
      if (scope.byObject[slot]?.key !== key) remember(scope.byObject[slot] as RunAnswers, key, value);
      return value;
    }
    if (answers.key === key) return answers.value as V;
    const more = answers.more;
    if (more !== undefined) {
      const hit = more.get(key);
      if (hit !== undefined || more.has(key)) return hit as V;
    }
    const value = compute(key);
    remember(answers, key, value);
    return value;
  };
}

function remember(answers: RunAnswers, key: object, value: unknown): void {
  answers.more ??= new Map();
  answers.more.set(key, value);
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

interface HolderEntry {
  readonly holder: object;
  readonly key: string;
  readonly value: string;
  readonly answer: unknown;
  /** Where it is in `HolderMemo.entries`. */
  readonly position: number;
}

/**
 * A memo's entries in the order they were computed. A validation asks about payloads in document order,
 * walk after walk (the fast path, then the size rule, then the image checks), so one of the few entries
 * after the last one asked about, or the first one when a new walk starts, is nearly always the one
 * asked for: they are tried before the map, which is only built if that guess ever fails. Hashing each
 * block into a map cost about a tenth of validating a result of a hundred small images.
 */
interface HolderMemo {
  readonly entries: HolderEntry[];
  /** The entries by holder, built on the first failed guess. */
  byHolder: Map<object, HolderEntry> | undefined;
  last: HolderEntry | undefined;
}

/** Entries tried after the last one asked about: a walk that skips some payloads (only images) still hits. */
const LOOKAHEAD = 8;

function matches(entry: HolderEntry | undefined, holder: object, key: string, value: string): boolean {
  return entry !== undefined && entry.holder === holder && entry.key === key && entry.value === value;
}

function find(memo: HolderMemo, holder: object): HolderEntry | undefined {
  const { entries } = memo;
  const next = memo.last === undefined ? 0 : memo.last.position + 1;
  const end = Math.min(entries.length, next + LOOKAHEAD);
  for (let i = next; i < end; i++) if ((entries[i] as HolderEntry).holder === holder) return entries[i];
  const first = entries[0];
  if (first !== undefined && first.holder === holder) return first;
  // Every entry was just tried (a new memo, or a walk still within its first few payloads): the holder is
  // new, and hashing every entry into a map would cost more than it could save.
  if (next <= 1 && end === entries.length) return undefined;
  if (memo.byHolder === undefined) {
    memo.byHolder = new Map();
    for (const entry of entries) memo.byHolder.set(entry.holder, entry);
  }
  return memo.byHolder.get(holder);
}

/** A memo of facts about the string at `holder[key]`, which a caller that knows the answer can tell it. */
export interface HolderMemoFn<V> {
  (holder: object, key: string): V | undefined;
  /**
   * Records `answer` as the fact about the string now at `holder[key]` in `scope`: for a caller that
   * made that string from what it already knew (toolResult encodes the bytes it sniffed).
   */
  remember(scope: FactScope, holder: object, key: string, answer: V): void;
}

function memoOf(scope: FactScope, slot: number): HolderMemo {
  let memo = scope.byHolder[slot];
  if (!memo) {
    memo = { entries: [], byHolder: undefined, last: undefined };
    scope.byHolder[slot] = memo;
  }
  return memo;
}

/** Adds the entry, in the place of `known` (what `find` answered for the holder) when that is its own. */
function insert(
  memo: HolderMemo,
  known: HolderEntry | undefined,
  holder: object,
  key: string,
  value: string,
  answer: unknown,
): HolderEntry {
  const position = known === undefined || known.holder !== holder ? memo.entries.length : known.position;
  const entry = { holder, key, value, answer, position };
  memo.entries[position] = entry;
  memo.byHolder?.set(holder, entry);
  return entry;
}

/**
 * Memoizes `compute(holder[key])` for string values. `undefined` when the value is no string.
 */
export function memoByHolder<V>(compute: (value: string) => V): HolderMemoFn<V> {
  const slot = memos++;
  const memoized = (holder: object, key: string): V | undefined => {
    const value = (holder as Record<string, unknown>)[key];
    if (typeof value !== 'string') return undefined;
    const scope = current;
    if (!scope) return compute(value);
    const memo = memoOf(scope, slot);
    // Identical strings compare by reference; a replaced value is a different string.
    let entry = memo.last;
    if (!matches(entry, holder, key, value)) {
      const known = find(memo, holder);
      entry = matches(known, holder, key, value)
        ? known
        : insert(memo, known, holder, key, value, compute(value));
      memo.last = entry;
    }
    return (entry as HolderEntry).answer as V;
  };
  memoized.remember = (scope: FactScope, holder: object, key: string, answer: V): void => {
    const value = (holder as Record<string, unknown>)[key];
    if (typeof value !== 'string') return;
    const memo = memoOf(scope, slot);
    insert(memo, find(memo, holder), holder, key, value, answer);
  };
  return memoized;
}

/**
 * Lets `to` share what the memos of `scope` know about `from`, for the members where both hold the very
 * same string: a repair copies the document it was given, and the copy's payloads are the same strings,
 * so their base64 checks and sniffed types need not be computed again. A later change to either is a
 * different string, which the memos never mistake for this one.
 */
export function shareHolderFacts(scope: FactScope, from: object, to: object): void {
  for (const memo of scope.byHolder) {
    if (memo === undefined) continue;
    // find answers only an entry of `from` itself.
    const entry = find(memo, from);
    if (entry === undefined) continue;
    if ((to as Record<string, unknown>)[entry.key] !== entry.value) continue;
    const shared = { ...entry, holder: to, position: memo.entries.length };
    memo.entries.push(shared);
    memo.byHolder?.set(to, shared);
    memo.last = entry;
  }
}
