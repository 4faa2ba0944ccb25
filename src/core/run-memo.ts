/**
 * Memoization scoped to one validation run. Several rules derive the same costly value from one node
 * (the JSON text of a 75 KB structuredContent, say). Caching across runs would go stale when a caller
 * or the repair engine mutates the document between runs, so the engine starts a new generation for
 * every run and each memo forgets everything from earlier generations. Runs are synchronous, so a
 * module-level generation cannot interleave.
 */

let generation = 0;

/** Called by the engine at the start of every run. */
export function startRun(): void {
  generation++;
}

export function memoPerRun<K extends object, V>(compute: (key: K) => V): (key: K) => V {
  let cacheGeneration = -1;
  let cache = new WeakMap<K, V>();
  return (key) => {
    if (cacheGeneration !== generation) {
      cache = new WeakMap();
      cacheGeneration = generation;
    }
    if (cache.has(key)) return cache.get(key) as V;
    const value = compute(key);
    cache.set(key, value);
    return value;
  };
}
