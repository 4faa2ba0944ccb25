/**
 * Concrete partial documents: what the rule engine sees. The value analysis (abstract/) produces
 * sets of abstract values; concretize.ts turns them into plain JSON with `Opaque` leaves (what the
 * source does not fix) and open containers (core/opaque.ts), and records in a side table where in
 * the source each container and member came from, and under which branch conditions. A finding's
 * path is walked through that table back to the literal to fix.
 */

import { isOpen, OPEN, Opaque } from '../core/opaque.js';
import type { PathSegment } from '../core/pointer.js';
import type { Declared, Guard, JsonKind, Site, StringFormat } from './abstract/value.js';
import type { ModelType } from './pydantic-lax.js';

export type { JsonKind };

/** What else is known of an unknown value (see the members of `UnknownValue`). */
export interface UnknownFacts {
  readonly declared?: Declared;
  readonly key?: string;
  readonly nonEmpty?: boolean;
  readonly tested?: string;
  readonly format?: StringFormat;
  readonly maybeMissing?: boolean;
  readonly integral?: boolean;
  readonly untyped?: boolean;
}

/**
 * A value the source does not fix, with why (`the parameter "args"`, `the result of fetch()`), the
 * JSON type when certain (a template literal is a string) and the declared type, if any.
 */
export class UnknownValue extends Opaque {
  /** Where the value comes from; not enumerable, so rules that walk a document never walk a file. */
  declare readonly site: Site;
  /** The type the source declares for it, if any. */
  declare readonly declared?: Declared;
  /** Identity of the abstract value, to recognise two uses of one expression. */
  declare readonly key?: string;
  /** A string certainly not empty (`f"no such file: {p}"`). */
  declare readonly nonEmpty?: boolean;
  /**
   * Its type is the input's, told only by a branch test (`node.trim()` where `typeof node ===
   * "string"`): `kind` holds on that path but says nothing about what the input is.
   */
  declare readonly tested?: string;
  /** What a string is known to hold though its text is not (see `StringFormat`). */
  declare readonly format?: StringFormat;
  /**
   * It stands for an absence the analysis is not sure of (a variable a `switch` may leave unset): an
   * optional member is fine either way, a required one is not shown.
   */
  declare readonly maybeMissing?: boolean;
  /** A number surely an integer though its value is not known (`len(x)`, an `int` parameter). */
  declare readonly integral?: boolean;
  /** TypeScript types it `any`, so no declared type proves it (abstract/value.ts, `untyped`). */
  declare readonly untyped?: boolean;

  constructor(
    source: string,
    readonly reason: string,
    site: Site,
    readonly kind?: JsonKind,
    facts: UnknownFacts = {},
  ) {
    super(source);
    Object.defineProperty(this, 'site', { value: site, enumerable: false });
    Object.assign(this, facts);
  }

  /** Two serializations of one unknown value agree (the structuredContent mirror compares JSON). */
  toJSON(): unknown {
    return { $unknown: this.source };
  }
}

/**
 * The text of `JSON.stringify(x)` when `x` is not fully known: unknown, but certainly the JSON of `x`.
 * `of` identifies each possible value of `x`, so a text block holding it is recognised as the mirror
 * of a `structuredContent` built from the same value, whichever of them a document shows (see
 * analyze.ts).
 */
export class SerializedOpaque extends UnknownValue {
  /**
   * The value serialized, as far as the analysis knows it (unknown parts are UnknownValues), when it
   * was concretized; not enumerable, so rules that walk a document never walk it.
   */
  declare readonly serialized?: unknown;

  constructor(
    source: string,
    site: Site,
    readonly of: readonly string[],
    serialized?: unknown,
  ) {
    super(source, 'the JSON text of a value known only at run time', site, 'string', { nonEmpty: true });
    if (serialized !== undefined) Object.defineProperty(this, 'serialized', { value: serialized });
  }
}

/** Values compared at most this deep (concretize stops deeper still). */
const MAX_COMPARED_DEPTH = 64;

/**
 * Whether two concretized values are built alike: the same members and items, equal constants, and
 * where either is unknown, the same unknown on both sides, as `sameOrigin` tells. Two objects built
 * apart from the same values (`JSON.stringify({ n })` beside `structuredContent: { n }`) are then
 * serialized alike.
 */
export function builtAlike(
  a: unknown,
  b: unknown,
  sameOrigin: (a: UnknownValue, b: UnknownValue) => boolean,
  depth = 0,
): boolean {
  // One value (a framework's own mirror of what it sends as structuredContent).
  if (a === b) return true;
  if (depth > MAX_COMPARED_DEPTH) return false;
  if (a instanceof Opaque || b instanceof Opaque) {
    if (!(a instanceof UnknownValue) || !(b instanceof UnknownValue)) return false;
    // One that may be missing is left out of the text where the other may be present.
    return sameOrigin(a, b) && !a.maybeMissing && !b.maybeMissing;
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return a === b;
  // Open: members or items beyond those listed (a spread, items of unknown number).
  if (isOpen(a) || isOpen(b) || Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  // In any order: the mirror rules compare a text with structuredContent as JSON values.
  const other = b as Record<string, unknown>;
  return keys.every(
    (key) =>
      Object.hasOwn(other, key) &&
      builtAlike((a as Record<string, unknown>)[key], other[key], sameOrigin, depth + 1),
  );
}

/** An object built by a model the scanner knows (`TextContent(...)`, `CallToolResult(...)`), or `tuple`. */
export const MODEL: unique symbol = Symbol('mcp-shape.model');

/**
 * A pydantic model's construction that surely raises (`Weather(temp="hot")`), concretized as the fields
 * it was given: the model they were checked against.
 */
export const REFUSED: unique symbol = Symbol('mcp-shape.refused');

export function refusedModel(value: unknown): ModelType | undefined {
  return typeof value === 'object' && value !== null
    ? (value as { [REFUSED]?: ModelType })[REFUSED]
    : undefined;
}

/** A FastMCP helper's construction that surely fails (ObjState.raises): why. */
export const RAISES: unique symbol = Symbol('mcp-shape.raises');

export function raisesWhy(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null ? (value as { [RAISES]?: string })[RAISES] : undefined;
}

export function modelName(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null ? (value as { [MODEL]?: string })[MODEL] : undefined;
}

/** Why an open container may hold more than it lists (`members spread from \`args\``). */
const OPEN_REASON: unique symbol = Symbol('mcp-shape.open-reason');

export function markOpen<T extends object>(value: T, reason?: string): T {
  (value as { [OPEN]?: boolean })[OPEN] = true;
  if (reason !== undefined) (value as { [OPEN_REASON]?: string })[OPEN_REASON] = reason;
  return value;
}

/** The reason `markOpen` recorded for an open container, if any. */
export function openReason(value: unknown): string | undefined {
  return isOpen(value) ? (value as { [OPEN_REASON]?: string })[OPEN_REASON] : undefined;
}

export function kindOf(value: unknown): JsonKind | 'null' | 'opaque' | 'undefined' {
  if (value instanceof UnknownValue) return value.kind ?? 'opaque';
  if (value instanceof Opaque) return 'opaque';
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'array';
  const t = typeof value;
  return t === 'string' || t === 'number' || t === 'boolean' ? t : 'object';
}

export interface Placement {
  readonly site: Site;
  readonly guards: readonly Guard[];
}

interface Placed {
  readonly self: Placement;
  readonly keys: Map<PathSegment, Placement>;
}

const NO_GUARDS: readonly Guard[] = [];

/**
 * Where each concrete container and member came from, keyed by object identity, so one table serves
 * every document built from the same abstract values. A table lives as long as the judgement of one
 * return or document (analyze.ts), with the documents it describes: plain maps, which cost less to
 * fill than weak ones and nothing to the garbage collector while they live.
 */
export class ValuePositions {
  private readonly table = new Map<object, Placed>();
  /** The abstract identity of containers, for the structuredContent mirror. */
  private readonly keys = new Map<object, string>();
  /** Containers built from an input by its type (`node.map(…)`), which are what the input is. */
  private readonly derived = new Set<object>();

  container<T extends object>(value: T, site: Site, guards: readonly Guard[] = NO_GUARDS, key?: string): T {
    this.table.set(value, { self: { site, guards }, keys: new Map() });
    if (key !== undefined) this.keys.set(value, key);
    return value;
  }

  member(container: object, key: PathSegment, site: Site, guards: readonly Guard[] = NO_GUARDS): void {
    this.table.get(container)?.keys.set(key, { site, guards });
  }

  /**
   * Places `to`, a container a framework model builds of `from` (the block FastMCP makes of an
   * `Image(…)`), where `from` is, and its members named in `members` where `from`'s members of the
   * given names are.
   */
  adopt(to: object, from: object, members: Readonly<Record<string, PathSegment>>): void {
    const placed = this.table.get(from);
    if (!placed) return;
    const keys = new Map<PathSegment, Placement>();
    for (const [toKey, fromKey] of Object.entries(members)) {
      const member = placed.keys.get(fromKey);
      if (member) keys.set(toKey, member);
    }
    this.table.set(to, { self: placed.self, keys });
  }

  /** Marks a container whose own type mirrors an input known only at run time (heap.ts, `derived`). */
  derive(container: object): void {
    this.derived.add(container);
  }

  /**
   * Whether the value at `path` inside `root` is, or holds, a value whose type comes only from an
   * input known only at run time: a finding about it may be about that type, so it is no proven
   * defect. A finding inside such a value (an item `node.map(…)` builds) still is.
   */
  dependsOnDerived(root: unknown, path: readonly PathSegment[]): boolean {
    let node: unknown = root;
    for (const key of path) {
      if (node === null || typeof node !== 'object') return false;
      node = (node as Record<PathSegment, unknown>)[key];
    }
    return this.holdsDerived(node, new Set());
  }

  private holdsDerived(node: unknown, seen: Set<object>): boolean {
    if (node instanceof UnknownValue) return node.tested !== undefined;
    if (node === null || typeof node !== 'object' || seen.has(node)) return false;
    seen.add(node);
    if (this.derived.has(node)) return true;
    return Object.values(node).some((child) => this.holdsDerived(child, seen));
  }

  keyOf(value: unknown): string | undefined {
    if (value instanceof UnknownValue) return value.key;
    return typeof value === 'object' && value !== null ? this.keys.get(value) : undefined;
  }

  siteOf(value: unknown): Site | undefined {
    if (value instanceof UnknownValue) return value.site;
    return typeof value === 'object' && value !== null ? this.table.get(value)?.self.site : undefined;
  }

  /**
   * The source of the value at `path` inside `root`: the deepest member the table knows, and the
   * branch conditions met on the way. Containers the table does not know (wrappers a framework
   * model added) are walked through.
   */
  locate(root: unknown, rootAt: Site, path: readonly PathSegment[]): Placement {
    const rootPlaced = typeof root === 'object' && root !== null ? this.table.get(root) : undefined;
    let site = rootPlaced?.self.site ?? rootAt;
    const guards: Guard[] = [...(rootPlaced?.self.guards ?? [])];
    let node: unknown = root;
    for (const key of path) {
      if (node === null || typeof node !== 'object') break;
      const member = this.table.get(node)?.keys.get(key);
      if (member) {
        site = member.site;
        guards.push(...member.guards);
      }
      node = (node as Record<PathSegment, unknown>)[key];
      // A container built elsewhere (`content: [block]`) is located where it was built: that is
      // where a missing member has to be added.
      const inner = typeof node === 'object' && node !== null ? this.table.get(node) : undefined;
      if (inner) {
        site = inner.self.site;
        guards.push(...inner.self.guards);
      } else if (node instanceof UnknownValue) site = node.site;
    }
    return { site, guards: dedupeGuards(guards) };
  }
}

function dedupeGuards(guards: readonly Guard[]): Guard[] {
  const out: Guard[] = [];
  for (const g of guards) {
    if (!out.some((o) => o.site === g.site && o.holds === g.holds)) out.push(g);
  }
  return out.slice(-2);
}

/** No opaque leaf and no open container anywhere: the value is exactly what the program produces. */
export function isFullyKnown(value: unknown): boolean {
  if (value instanceof Opaque) return false;
  if (typeof value !== 'object' || value === null) return true;
  if (isOpen(value)) return false;
  return Object.values(value).every(isFullyKnown);
}
