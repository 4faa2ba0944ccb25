/**
 * Partial values built by the static evaluators (JS and Python), and the side table that maps every
 * value back to the source that produced it. The rule engine sees plain JSON plus `Opaque` leaves
 * (core/opaque.ts); a finding's path is then walked through this table to a source position.
 */

import { isOpen, OPEN, Opaque } from '../core/opaque.js';
import type { PathSegment } from '../core/pointer.js';

export type JsonKind = 'string' | 'number' | 'boolean' | 'array' | 'object';

/**
 * An unknown value whose JSON type the source does fix: a template literal is a string, `xs.map(…)`
 * an array. The engine treats it as opaque like any other; the framework models use the type (a
 * FastMCP tool returning any string is fine, an SDK handler returning one is not).
 */
export class TypedOpaque extends Opaque {
  constructor(
    source: string,
    readonly kind: JsonKind,
  ) {
    super(source);
  }
}

/** An object built by a constructor the scanner knows (`TextContent(...)`, `CallToolResult(...)`). */
export const MODEL: unique symbol = Symbol('mcp-shape.model');

export function modelName(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null ? (value as { [MODEL]?: string })[MODEL] : undefined;
}

export function markOpen<T extends object>(value: T): T {
  (value as { [OPEN]?: boolean })[OPEN] = true;
  return value;
}

export function kindOf(value: unknown): JsonKind | 'null' | 'opaque' | 'undefined' {
  if (value instanceof TypedOpaque) return value.kind;
  if (value instanceof Opaque) return 'opaque';
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'array';
  const t = typeof value;
  return t === 'string' || t === 'number' || t === 'boolean' ? t : 'object';
}

interface Placed<P> {
  readonly self: P;
  readonly keys: Map<PathSegment, P>;
}

/**
 * Where each evaluated container and each of its members came from. Keyed by object identity, so
 * the same table serves values reached through variables and helper functions.
 */
export class ValuePositions<P> {
  private readonly table = new WeakMap<object, Placed<P>>();

  /** Records a container built at `self`; members are added with `member`. */
  container<T extends object>(value: T, self: P): T {
    this.table.set(value, { self, keys: new Map() });
    return value;
  }

  member(container: object, key: PathSegment, at: P): void {
    this.table.get(container)?.keys.set(key, at);
  }

  /**
   * The source position of the value at `path` inside `root`: the deepest member the table knows.
   * Containers the table does not know (wrappers a framework model added) are walked through.
   */
  locate(root: unknown, rootAt: P, path: readonly PathSegment[]): P {
    let at = this.table.get(root as object)?.self ?? rootAt;
    let node: unknown = root;
    for (const key of path) {
      if (node === null || typeof node !== 'object') break;
      const placed = this.table.get(node);
      const memberAt = placed?.keys.get(key);
      if (memberAt !== undefined) at = memberAt;
      node = (node as Record<PathSegment, unknown>)[key];
      // A container built elsewhere (`content: [block]`) is located where it was built: that is
      // where a missing member has to be added.
      const inner = typeof node === 'object' && node !== null ? this.table.get(node) : undefined;
      if (inner) at = inner.self;
    }
    return at;
  }
}

/**
 * One of several possible values (`a ? b : c`, a helper with several returns): unknown which, but
 * typed when all candidates share a JSON type.
 */
export function commonKind(candidates: readonly unknown[], source: string): Opaque {
  const kinds = new Set(candidates.map(kindOf));
  const [kind] = kinds;
  return kinds.size === 1 &&
    (kind === 'string' || kind === 'number' || kind === 'boolean' || kind === 'array' || kind === 'object')
    ? new TypedOpaque(source, kind)
    : new Opaque(source);
}

/**
 * The object or array at `path` inside an evaluated value, for applying a mutation such as
 * `result["content"].append(…)`; undefined when the path leaves what evaluation knows.
 */
export function containerAt(value: unknown, path: readonly string[]): object | undefined {
  let node: unknown = value;
  for (const key of path) {
    if (typeof node !== 'object' || node === null || node instanceof Opaque) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return typeof node === 'object' && node !== null && !(node instanceof Opaque) ? node : undefined;
}

/** No opaque leaf and no open container anywhere: the value is exactly what the program produces. */
export function isFullyKnown(value: unknown): boolean {
  if (value instanceof Opaque) return false;
  if (typeof value !== 'object' || value === null) return true;
  if ((value as { [OPEN]?: boolean })[OPEN] === true) return false;
  return Object.values(value).every(isFullyKnown);
}

/**
 * The text of `JSON.stringify(x)` when `x` is not fully known: unknown, but certainly the JSON of `x`.
 * `of` is the fingerprint of `x`, so a text block holding it can be recognised as the mirror of a
 * `structuredContent` built from the same expression (see analyze.ts).
 */
export class SerializedOpaque extends TypedOpaque {
  constructor(
    source: string,
    readonly of: string,
  ) {
    super(source, 'string');
  }
}

const OPAQUE_TAG = '\u0000opaque';
const OPEN_TAG = '\u0000open';

/**
 * A string that is equal for two partial values exactly when they have the same known members, the
 * same unknown leaves (by source text and type) and the same open containers: two evaluations of one
 * expression (`JSON.stringify(sc)` and `structuredContent: sc`) agree, different expressions do not.
 */
export function fingerprint(value: unknown): string {
  return (
    JSON.stringify(value, (_key, v: unknown) => {
      if (v instanceof Opaque) return { [OPAQUE_TAG]: v.source, kind: kindOf(v) };
      // Copies without the OPEN symbol (object spread would keep it, and recurse here for ever).
      if (isOpen(v))
        return Array.isArray(v)
          ? [...v, OPEN_TAG]
          : { ...Object.fromEntries(Object.entries(v as object)), [OPEN_TAG]: true };
      return v;
    }) ?? 'undefined'
  );
}

/**
 * `JSON.stringify(x, null, indent)` / `json.dumps(x)`: the exact text when `x` is fully known, else a
 * `SerializedOpaque` that remembers which value it serializes.
 */
export function serialized(value: unknown, source: string, indent?: string | number): unknown {
  return isFullyKnown(value) && value !== undefined
    ? JSON.stringify(value, null, indent)
    : new SerializedOpaque(source, fingerprint(value));
}
