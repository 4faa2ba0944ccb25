/**
 * Partial documents. `scan` evaluates server source statically: a literal such as
 * `{ type: 'image', data: encode(buf) }` becomes `{ type: 'image', data: <opaque> }`. The same rules then
 * run over it, and the engine drops every finding that depends on a value the source does not fix.
 */

/** A value the static evaluator could not determine; `source` is the expression text, for messages. */
export class Opaque {
  constructor(readonly source: string) {}
}

/** Marks an object or array built with a spread: keys or items beyond those listed may exist. */
export const OPEN: unique symbol = Symbol('mcp-shape.open');

export function isOpaque(value: unknown): value is Opaque {
  return value instanceof Opaque;
}

export function isOpen(value: unknown): boolean {
  return (value as { [OPEN]?: boolean } | null | undefined)?.[OPEN] === true;
}

/**
 * True when a finding at `path` (absolute, within `root`) cannot be trusted because the path reaches an
 * opaque value, or names a key that an open object or array might hold.
 */
export function pathIsUncertain(root: unknown, path: readonly (string | number)[]): boolean {
  let node: unknown = root;
  if (isOpaque(node)) return true;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return false;
    const record = node as Record<string | number, unknown>;
    if (!(key in record) && isOpen(node)) return true;
    node = record[key];
    if (isOpaque(node)) return true;
  }
  return false;
}
