/**
 * Abstract objects and arrays. Values refer to them by id (`ref` variants), so a mutation through
 * one name is seen through every other (`content.push(block); block.mimeType = …`). Each running
 * interpretation owns a `Heap`: its own layer of changes over the objects of finished
 * interpretations (module top levels, the function that registered a handler), which are frozen and
 * shared. Branches copy the layer (copy-on-write per object) and are joined where they meet.
 */

import type { ModelType } from '../pydantic-lax.js';
import { Layers } from './layers.js';
import { type Guard, join, type Site, undef, type Value } from './value.js';

export interface Member {
  readonly value: Value;
  /** Where the member was set: the property in the literal, or the assignment target. */
  readonly site: Site;
}

export interface ObjState {
  readonly kind: 'object' | 'array';
  /** The literal or call that built it. */
  readonly site: Site;
  readonly props: ReadonlyMap<string, Member>;
  readonly items: readonly Member[];
  /**
   * Arrays: any number of further items, each one of these (`push` in a loop, `.map`). Objects: the
   * values of members set under computed names (`table[name] = fn`), and a JS Map's values.
   */
  readonly rest?: Value;
  /** Why members or items the analysis cannot list may exist (`...spread`, a computed key). */
  readonly open?: string;
  /** Python: the pydantic model (`TextContent`) or `tuple` that built it. */
  readonly model?: string;
  /**
   * Python: a pydantic model's construction that surely raises ValidationError (`Weather(temp="hot")`
   * for a `float`), standing for the fields it was given; the model it was checked against.
   */
  readonly refused?: ModelType;
  /**
   * Python: a FastMCP helper (`Image(data=…)`) that surely raises where it is built or where FastMCP
   * converts it, so the call gets an error result; why.
   */
  readonly raises?: string;
  /**
   * Built from an input by its type, under the branch test named here (`node.map(…)` where
   * `Array.isArray(node)`): it is an array only when the input is, which is known only at run time,
   * so its own type is never reported as a defect (its items still are).
   */
  readonly derived?: string;
  /**
   * What calling an async function gives, resolved to this value by `await`: in JS a Promise, which has
   * no members of its own, so JSON writes it as `{}` (a block or text nobody awaited); in Python a
   * coroutine, which is no JSON at all.
   */
  readonly promised?: Value;
}

const NO_PROPS: ReadonlyMap<string, Member> = new Map();

export function newObject(site: Site, model?: string): ObjState {
  return model
    ? { kind: 'object', site, props: NO_PROPS, items: [], model }
    : { kind: 'object', site, props: NO_PROPS, items: [] };
}

export function newArray(site: Site, model?: string): ObjState {
  return model
    ? { kind: 'array', site, props: NO_PROPS, items: [], model }
    : { kind: 'array', site, props: NO_PROPS, items: [] };
}

/** Objects of finished interpretations, shared read-only by every later one; also hands out ids. */
export class FrozenHeap {
  private readonly objects = new Map<number, ObjState>();
  private next = 1;

  nextId(): number {
    return this.next++;
  }

  get(id: number): ObjState | undefined {
    return this.objects.get(id);
  }

  set(id: number, state: ObjState): void {
    this.objects.set(id, state);
  }

  get size(): number {
    return this.objects.size;
  }
}

/**
 * A heap is layered (layers.ts): a branch starts a new layer over the heap it branched from, which
 * from then on is only read; joining two heaps joins only the objects either path changed.
 */
export class Heap {
  constructor(
    readonly frozen: FrozenHeap,
    private readonly layers: Layers<number, ObjState> = new Layers(),
  ) {}

  get(id: number): ObjState | undefined {
    return this.layers.get(id) ?? this.frozen.get(id);
  }

  set(id: number, state: ObjState): void {
    this.layers.set(id, state);
  }

  alloc(state: ObjState): number {
    const id = this.frozen.nextId();
    this.layers.set(id, state);
    return id;
  }

  /**
   * A new layer over this heap, for one path of a branch. From now on this heap must not change:
   * every path (including the one that goes on) works on a layer of its own.
   */
  clone(): Heap {
    return new Heap(this.frozen, this.layers.child());
  }

  /** Makes this heap's objects visible to every later interpretation. */
  freeze(): void {
    for (const [id, state] of this.layers.entries()) this.frozen.set(id, state);
  }

  /** The heap after two paths meet: objects changed differently on each are joined. */
  static join(a: Heap, b: Heap, guardA?: Guard, guardB?: Guard): Heap {
    if (a === b) return a;
    const { base, keys } = Layers.divergence(a.layers, b.layers);
    const entries: [number, ObjState][] = [];
    for (const id of keys) {
      const sa = a.get(id);
      const sb = b.get(id);
      if (sa === sb || !sb) {
        if (sa) entries.push([id, sa]);
      } else entries.push([id, sa ? joinObjects(sa, sb, guardA, guardB) : sb]);
    }
    return new Heap(a.frozen, Layers.over(base, entries));
  }
}

export function joinObjects(a: ObjState, b: ObjState, guardA?: Guard, guardB?: Guard): ObjState {
  if (a === b) return a;
  const props = new Map<string, Member>();
  for (const [key, ma] of a.props) {
    const mb = b.props.get(key);
    props.set(key, {
      value: mb ? join(ma.value, mb.value, guardA, guardB) : join(ma.value, undef(a.site), guardA, guardB),
      site: ma.site,
    });
  }
  for (const [key, mb] of b.props) {
    if (a.props.has(key)) continue;
    props.set(key, { value: join(undef(b.site), mb.value, guardA, guardB), site: mb.site });
  }
  let items: Member[];
  let rest = a.rest && b.rest ? join(a.rest, b.rest) : (a.rest ?? b.rest);
  if (a.items.length === b.items.length) {
    items = a.items.map((ma, i) => {
      const mb = b.items[i] as Member;
      return ma === mb ? ma : { value: join(ma.value, mb.value, guardA, guardB), site: ma.site };
    });
  } else {
    // Different lengths: the common prefix stays positional, the rest may be any of the others.
    const common = Math.min(a.items.length, b.items.length);
    items = a.items.slice(0, common).map((ma, i) => {
      const mb = b.items[i] as Member;
      return ma === mb ? ma : { value: join(ma.value, mb.value, guardA, guardB), site: ma.site };
    });
    for (const extra of [...a.items.slice(common), ...b.items.slice(common)]) {
      rest = rest ? join(rest, extra.value) : extra.value;
    }
  }
  const open = a.open ?? b.open;
  return {
    kind: a.kind,
    site: a.site,
    props,
    items,
    ...(rest ? { rest } : {}),
    ...(open ? { open } : {}),
    ...(a.model && a.model === b.model ? { model: a.model } : {}),
    ...((a.derived ?? b.derived) ? { derived: a.derived ?? b.derived } : {}),
  };
}
