/**
 * Appends `items` to `target` one at a time. `target.push(...items)` passes every item as an argument,
 * and past about 120,000 of them V8 throws a RangeError: a result with that many blocks, a fix for each,
 * or a tools list that long must not crash what reads it.
 */
export function appendAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}
