/**
 * A map in layers, for the states of an interpretation: a branch starts a new (empty) layer over
 * the map it branched from, which from then on is only read, so copying a state costs nothing and
 * joining two states visits only what either path changed since they parted.
 */

/** Past this many layers, a copy starts from the map flattened into one layer. */
const MAX_LAYERS = 12;

let nextSerial = 0;

export class Layers<K, V> {
  /**
   * This layer's own entries; none until the first set. Most layers a branch opens are never written
   * (a condition that assigns nothing), and allocating a map for each was a twentieth of a scan.
   */
  private local: Map<K, V> | undefined;
  private readonly depth: number;
  /** This map flattened, made once: every copy of a deep map then shares it as ancestor. */
  private flat: Layers<K, V> | undefined;

  /** Creation order: a map is newer than every map in its history (see divergence). */
  private readonly serial = nextSerial++;

  constructor(
    private readonly parent?: Layers<K, V>,
    /** For a flattened copy: the map it copies, which never changes again (it has a child). */
    private readonly origin?: Layers<K, V>,
    /** Entries to start from (copied). */
    from?: ReadonlyMap<K, V>,
  ) {
    this.depth = parent ? parent.depth + 1 : 0;
    this.local = from === undefined ? undefined : new Map(from);
  }

  get(key: K): V | undefined {
    for (let layer: Layers<K, V> | undefined = this; layer; layer = layer.parent) {
      const value = layer.local?.get(key);
      if (value !== undefined) return value;
    }
    return undefined;
  }

  has(key: K): boolean {
    return this.get(key) !== undefined;
  }

  set(key: K, value: V): void {
    if (this.local) this.local.set(key, value);
    else this.local = new Map([[key, value]]);
  }

  /** A new layer over this map. From now on this map must not change. */
  child(): Layers<K, V> {
    return new Layers(this.depth >= MAX_LAYERS ? this.flattened() : this);
  }

  private flattened(): Layers<K, V> {
    if (!this.flat) {
      // Oldest layer first, each newer one overriding: a native copy of the oldest (usually the last
      // flattened map, holding most entries) and plain sets, where entries() would track every key in
      // a set of its own (flattening was a tenth of scanning a 38,000-line bundle).
      const chain = this.chain();
      const out = new Layers<K, V>(undefined, this, (chain[chain.length - 1] as Layers<K, V>).local);
      for (let i = chain.length - 2; i >= 0; i--) {
        (chain[i] as Layers<K, V>).local?.forEach((value, key) => {
          out.set(key, value);
        });
      }
      this.flat = out;
    }
    return this.flat;
  }

  /**
   * The next older map in this one's history: the map it layers over, or for a flattened copy the map
   * it copies (which holds the same). So two maps flattened at different depths of one history still
   * part at a common map; without the second, such maps had none, and each of their joins visited
   * every key of both (99% of the keys that joins visited on a 38,000-line bundle).
   */
  private get older(): Layers<K, V> | undefined {
    return this.parent ?? this.origin;
  }

  /** This map and the maps it layers over, innermost first. */
  private chain(): Layers<K, V>[] {
    const out: Layers<K, V>[] = [];
    for (let layer: Layers<K, V> | undefined = this; layer; layer = layer.parent) out.push(layer);
    return out;
  }

  /** Every visible entry, once each. */
  *entries(): IterableIterator<[K, V]> {
    const seen = new Set<K>();
    for (const layer of this.chain()) {
      for (const entry of layer.local ?? []) {
        if (seen.has(entry[0])) continue;
        seen.add(entry[0]);
        yield entry;
      }
    }
  }

  /**
   * Where two maps parted (their nearest common layer, if any), and the keys either changed since:
   * the only keys whose values may differ between them.
   */
  static divergence<K, V>(
    a: Layers<K, V>,
    b: Layers<K, V>,
  ): { base: Layers<K, V> | undefined; keys: Set<K> } {
    // Each history runs from newer to older maps, and two histories that meet share the rest: stepping
    // back on whichever side is newer finds the meeting point having visited only what either changed.
    const keys = new Set<K>();
    let x: Layers<K, V> | undefined = a;
    let y: Layers<K, V> | undefined = b;
    while (x !== y) {
      let step: Layers<K, V>;
      if (x && (!y || x.serial > y.serial)) {
        step = x;
        x = x.older;
      } else {
        step = y as Layers<K, V>;
        y = y?.older;
      }
      // A flattened copy's keys are its origin's, which come next in its history.
      if (!step.origin && step.local) for (const key of step.local.keys()) keys.add(key);
    }
    return { base: x, keys };
  }

  /** A new layer over `base` holding `entries` (the result of joining two maps that parted there). */
  static over<K, V>(base: Layers<K, V> | undefined, entries: Iterable<[K, V]>): Layers<K, V> {
    const out = new Layers<K, V>(base);
    for (const [key, value] of entries) out.set(key, value);
    return out;
  }
}
