/**
 * From abstract values to the concrete partial documents the rule engine checks. A value with
 * several variants is a choice; documents are generated until every variant of every choice met has
 * appeared in at least one of them (a covering set, not the full product, which can explode), so
 * every possible block is judged. Each document's containers and members are recorded in
 * `ValuePositions` with their source ranges and branch conditions.
 */

import type { ModelType } from '../pydantic-lax.js';
import {
  isFullyKnown,
  MODEL,
  markOpen,
  RAISES,
  REFUSED,
  SerializedOpaque,
  UnknownValue,
  type ValuePositions,
} from '../values.js';
import type { Heap, ObjState } from './heap.js';
import { type Site, type Value, type Variant, variantKey } from './value.js';

export interface Concretized {
  readonly docs: readonly unknown[];
  /** Some variant could not be placed in any document within the limit: not everything was judged. */
  readonly incomplete: boolean;
}

const MAX_DOCS = 32;
const MAX_DEPTH = 64;
const MAX_NODES = 20_000;
const MAX_SOURCE = 80;

/**
 * The abstract variant each unknown concrete value was made from. Two unknowns made from the very same
 * variant are one value of one run: a variable read twice (`JSON.stringify({ n })` beside `{ n }`).
 * Keys (variantKey) do not say that: they name source positions, which two inputs may share (the
 * arguments an inputSchema types, a helper's result).
 */
export const originOf = new WeakMap<UnknownValue, Variant>();

/** The source text of a site, on one line and cut for messages. */
export function sourceText(site: Site): string {
  // A site may span a whole function; a window of its start is enough unless it is mostly spaces.
  const end = Math.min(site.end, site.start + SOURCE_WINDOW);
  let text = site.file.text.slice(site.start, end).replace(/\s+/g, ' ').trim();
  if (text.length <= MAX_SOURCE && end < site.end)
    text = site.file.text.slice(site.start, site.end).replace(/\s+/g, ' ').trim();
  return text.length > MAX_SOURCE ? `${text.slice(0, MAX_SOURCE - 1)}…` : text;
}

/** Characters of a site read for its source text at first (see `sourceText`). */
const SOURCE_WINDOW = 16 * MAX_SOURCE;

/**
 * The identities of the possible values of an abstract value (one per variant): two uses of one
 * expression share them, and a document built from it holds one of them (`ValuePositions.keyOf`).
 */
export function variantKeys(value: Value): readonly string[] {
  return value.map(variantKey);
}

class Builder {
  /** The variants of each choice (a value with several variants) some document has shown. */
  private readonly shown = new Map<Value, Set<number>>();
  /**
   * The variant each choice takes in the document being built: one value read in two places (a
   * structuredContent and the JSON text mirroring it) is the same variant in both, as at run time.
   */
  private chosen = new Map<Value, number>();
  private documents = 0;
  private nodes = 0;

  constructor(
    private readonly heap: Heap,
    private readonly positions: ValuePositions,
  ) {}

  /** Every choice met has shown each of its variants. */
  covered(): boolean {
    for (const [value, shown] of this.shown) if (shown.size < value.length) return false;
    return true;
  }

  startDocument(): void {
    this.nodes = 0;
    this.chosen = new Map();
    this.documents++;
  }

  /** A variant not shown yet, if any; the same one wherever the value is read in this document. */
  private choose(value: Value): Variant | undefined {
    if (value.length <= 1) return value[0];
    let i = this.chosen.get(value);
    if (i === undefined) {
      let shown = this.shown.get(value);
      if (!shown) {
        shown = new Set();
        this.shown.set(value, shown);
      }
      i = 0;
      while (i < value.length && shown.has(i)) i++;
      if (i === value.length) i = this.documents % value.length;
      shown.add(i);
      this.chosen.set(value, i);
    }
    return value[i];
  }

  /** The concrete value, and the site a finding about it as a member should point at. */
  value(value: Value, depth: number, stack: readonly number[]): { out: unknown; variant?: Variant } {
    const variant = this.choose(value);
    if (!variant) return { out: undefined };
    return { out: this.variant(variant, depth, stack), variant };
  }

  private variant(v: Variant, depth: number, stack: readonly number[]): unknown {
    const out = this.concreteOf(v, depth, stack);
    if (out instanceof UnknownValue) originOf.set(out, v);
    return out;
  }

  private concreteOf(v: Variant, depth: number, stack: readonly number[]): unknown {
    if (++this.nodes > MAX_NODES) {
      // Still the value it stands for: a text block with its JSON text is its mirror (keyOf).
      return new UnknownValue(
        sourceText(v.site),
        'the value is too large to check statically',
        v.site,
        undefined,
        {
          key: variantKey(v),
        },
      );
    }
    switch (v.k) {
      case 'str':
        return (
          v.value ??
          new UnknownValue(sourceText(v.site), 'a string known only at run time', v.site, 'string', {
            key: variantKey(v),
            nonEmpty: v.nonEmpty,
            format: v.format,
          })
        );
      case 'num':
        // NaN and the infinities are sent as the null JSON writes for them.
        if (v.value !== undefined && !Number.isFinite(v.value)) return null;
        return (
          v.value ??
          new UnknownValue(sourceText(v.site), 'a number known only at run time', v.site, 'number', {
            integral: v.integral,
          })
        );
      case 'bool':
        return (
          v.value ??
          new UnknownValue(sourceText(v.site), 'a boolean known only at run time', v.site, 'boolean')
        );
      case 'null':
        return null;
      case 'undef':
        return v.soft
          ? new UnknownValue(
              sourceText(v.site),
              'a value that may be missing at run time',
              v.site,
              undefined,
              {
                maybeMissing: true,
              },
            )
          : undefined;
      case 'fn':
        return undefined;
      case 'unknown':
        return new UnknownValue(sourceText(v.site), v.reason, v.site, v.kind, {
          declared: v.declared,
          key: variantKey(v),
          tested: v.tested,
          integral: v.integral,
          ...(v.untyped ? { untyped: true } : {}),
        });
      case 'json': {
        const { out } = this.value(v.of, depth + 1, stack);
        if (isFullyKnown(out)) return JSON.stringify(out);
        return new SerializedOpaque(sourceText(v.site), v.site, variantKeys(v.of), out);
      }
      case 'ref':
        return this.object(v, depth, stack);
    }
  }

  private object(v: Variant & { k: 'ref' }, depth: number, stack: readonly number[]): unknown {
    const state = this.heap.get(v.id);
    if (!state) return new UnknownValue(sourceText(v.site), 'an object the analysis lost track of', v.site);
    if (stack.includes(v.id))
      return new UnknownValue(sourceText(state.site), 'a circular structure', state.site);
    if (depth > MAX_DEPTH)
      return new UnknownValue(sourceText(state.site), 'nested too deeply to check statically', state.site);
    // JSON.stringify sends what an object's toJSON() returns in its place (a class's serializer).
    if (state.kind === 'object' && state.props.get('toJSON')?.value.some((m) => m.k === 'fn'))
      return new UnknownValue(
        sourceText(state.site),
        'what its toJSON() returns, which JSON sends in its place',
        state.site,
      );
    const inner = [...stack, v.id];
    const key = `r${v.id}`;
    const out =
      state.kind === 'array'
        ? this.array(state, v, depth, inner, key)
        : this.record(state, v, depth, inner, key);
    if (state.derived !== undefined) this.positions.derive(out as object);
    return out;
  }

  private record(state: ObjState, v: Variant, depth: number, stack: readonly number[], key: string): unknown {
    const out = this.positions.container<Record<string, unknown>>({}, state.site, v.guards, key);
    if (state.model) (out as { [MODEL]?: string })[MODEL] = state.model;
    if (state.refused) (out as { [REFUSED]?: ModelType })[REFUSED] = state.refused;
    if (state.raises) (out as { [RAISES]?: string })[RAISES] = state.raises;
    for (const [name, member] of state.props) {
      const { out: child, variant } = this.value(member.value, depth + 1, stack);
      if (child === undefined) continue;
      // Defined, not assigned: a member named `__proto__` (a Python dict key, a JSON member) would
      // otherwise set the object's prototype, and be lost to every rule.
      if (name === '__proto__')
        Object.defineProperty(out, name, {
          value: child,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      else out[name] = child;
      this.positions.member(out, name, leafSite(variant, member.site), variant?.guards);
    }
    if (state.open) markOpen(out, state.open);
    return out;
  }

  private array(state: ObjState, v: Variant, depth: number, stack: readonly number[], key: string): unknown {
    const out = this.positions.container<unknown[]>([], state.site, v.guards, key);
    if (state.model) (out as { [MODEL]?: string })[MODEL] = state.model;
    for (const member of state.items) {
      const { out: child, variant } = this.value(member.value, depth + 1, stack);
      this.positions.member(out, out.length, leafSite(variant, member.site), variant?.guards);
      out.push(child === undefined ? null : child);
    }
    // Items of unknown number: one representative of each possibility, so each is judged.
    for (const variant of state.rest ?? []) {
      const child = this.variant(variant, depth + 1, stack);
      this.positions.member(out, out.length, leafSite(variant, variant.site), variant.guards);
      out.push(child === undefined ? null : child);
    }
    if (state.open) markOpen(out, state.open);
    return out;
  }
}

/**
 * Where a finding about a member points: a known string, number or boolean at its literal
 * (`"object"`, possibly in the caller that passed it), anything else (null, unknown, an object)
 * where the member was set.
 */
function leafSite(variant: Variant | undefined, memberSite: Site): Site {
  if (!variant) return memberSite;
  switch (variant.k) {
    case 'str':
    case 'num':
    case 'bool':
      return variant.value === undefined ? memberSite : variant.site;
    default:
      return memberSite;
  }
}

/** The documents that together show every possible variant of `value` (up to a limit). */
export function concretize(value: Value, heap: Heap, positions: ValuePositions): Concretized {
  const builder = new Builder(heap, positions);
  const docs: unknown[] = [];
  for (let i = 0; i < MAX_DOCS; i++) {
    builder.startDocument();
    docs.push(builder.value(value, 0, []).out);
    if (builder.covered()) return { docs, incomplete: false };
  }
  return { docs, incomplete: true };
}

/** Where the document built from the first variant starts (the return's own site otherwise). */
export function siteOfValue(value: Value, heap: Heap): Site | undefined {
  const [first] = value;
  if (!first) return undefined;
  if (first.k === 'ref') return heap.get(first.id)?.site ?? first.site;
  return first.site;
}
