/**
 * JSON text of plain JSON values at any depth. V8's JSON.stringify recurses and throws RangeError once
 * the call stack runs out (a few thousand levels); a value parsed from a server's message, or a repair's
 * copy of one, may be nested 200,000 levels deep all the same (JSON.parse does not recurse). The rules'
 * repairs and the library both write such values with `stringifyJson`.
 */

/**
 * JSON text of a plain JSON value (what the library's `cloneJson` returns, or `JSON.parse` does), at any depth: the
 * native `JSON.stringify` first, and an iterative writer when the value is nested too deeply for it.
 * The output is the same either way. `mapString` may shorten strings (for previews).
 */
export function stringifyJson(value: unknown, mapString?: (text: string) => string): string {
  try {
    const text = mapString
      ? JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' ? mapString(v) : v))
      : JSON.stringify(value);
    if (text !== undefined) return text;
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
  }
  return stringifyDeep(value, mapString);
}

/** A container the iterative writer is inside: what it has written of it so far. */
interface WriteFrame {
  readonly node: object;
  /** Member names of an object; undefined for an array. */
  readonly keys: readonly string[] | undefined;
  index: number;
  /** Whether a member or item was written yet (a comma goes before each after the first). */
  wrote: boolean;
}

/**
 * The iterative writer behind stringifyJson: an explicit stack of the containers it is inside. (Items
 * and separators queued as objects on a stack, as it once did, took about 7% longer on a value nested
 * 100,000 deep.)
 */
function stringifyDeep(value: unknown, mapString?: (text: string) => string): string {
  const parts: string[] = [];
  const frames: WriteFrame[] = [];
  const ancestors = new Set<object>();
  // Writes a primitive, or opens a container and enters it.
  const write = (item: unknown): void => {
    if (typeof item === 'string') {
      parts.push(JSON.stringify(mapString ? mapString(item) : item));
      return;
    }
    if (typeof item !== 'object' || item === null) {
      // numbers (non-finite ones as null), booleans, null; what JSON leaves out never gets here
      parts.push(
        typeof item === 'number' || typeof item === 'boolean' ? String(JSON.stringify(item)) : 'null',
      );
      return;
    }
    if (ancestors.has(item)) throw new TypeError('Converting circular structure to JSON');
    ancestors.add(item);
    const isArray = Array.isArray(item);
    parts.push(isArray ? '[' : '{');
    frames.push({ node: item, keys: isArray ? undefined : Object.keys(item), index: 0, wrote: false });
  };
  write(value);
  while (frames.length > 0) {
    const frame = frames[frames.length - 1] as WriteFrame;
    const { node, keys } = frame;
    if (!keys) {
      const items = node as unknown[];
      if (frame.index >= items.length) {
        parts.push(']');
        frames.pop();
        ancestors.delete(node);
        continue;
      }
      const child: unknown = items[frame.index++];
      if (frame.wrote) parts.push(',');
      frame.wrote = true;
      write(child === undefined || typeof child === 'function' || typeof child === 'symbol' ? null : child);
      continue;
    }
    let key: string | undefined;
    let child: unknown;
    while (frame.index < keys.length) {
      const candidate = keys[frame.index++] as string;
      child = (node as Record<string, unknown>)[candidate];
      if (child !== undefined && typeof child !== 'function' && typeof child !== 'symbol') {
        key = candidate;
        break;
      }
    }
    if (key === undefined) {
      parts.push('}');
      frames.pop();
      ancestors.delete(node);
      continue;
    }
    parts.push(`${frame.wrote ? ',' : ''}${JSON.stringify(key)}:`);
    frame.wrote = true;
    write(child);
  }
  return parts.join('');
}
