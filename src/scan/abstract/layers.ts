/**
 * A map in layers, for the states of an interpretation: a branch starts a new (empty) layer over
 * the map it branched from, which from then on is only read, so copying a state costs nothing and
 * joining two states visits only what either path changed since they parted.
 */

/** Past this many layers, a copy starts from the map flattened into one layer. */
const MAX_LAYERS = 12;

export class Layers<K, V> {
  private readonly local = new Map<K, V>();
  private readonly depth: number;
  /** This map flattened, made once: every copy of a deep map then shares it as ancestor. */
  private flat: Layers<K, V> | undefined;

  constructor(private readonly parent?: Layers<K, V>) {
    this.depth = parent ? parent.depth + 1 : 0;
  }

  get(key: K): V | undefined {
    for (let layer: Layers<K, V> | undefined = this; layer; layer = layer.parent) {
      const value = layer.local.get(key);
      if (value !== undefined) return value;
    }
    return undefined;
  }

  has(key: K): boolean {
    return this.get(key) !== undefined;
  }

  set(key: K, value: V): void {
    this.local.set(key, value);
  }

  /** A new layer over this map. From now on this map must not change. */
  child(): Layers<K, V> {
    return new Layers(this.depth >= MAX_LAYERS ? this.flattened() : this);
  }

  private flattened(): Layers<K, V> {
    if (!this.flat) {
      const out = new Layers<K, V>();
      for (const [key, value] of this.entries()) out.local.set(key, value);
      this.flat = out;
    }
    return this.flat;
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
      for (const entry of layer.local) {
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
    const ofA = a.chain();
    const inA = new Set(ofA);
    let base: Layers<K, V> | undefined;
    const fromB: Layers<K, V>[] = [];
    for (let layer: Layers<K, V> | undefined = b; layer; layer = layer.parent) {
      if (inA.has(layer)) {
        base = layer;
        break;
      }
      fromB.push(layer);
    }
    const fromA = base ? ofA.slice(0, ofA.indexOf(base)) : ofA;
    const keys = new Set<K>();
    for (const layer of [...fromA, ...fromB]) for (const key of layer.local.keys()) keys.add(key);
    return { base, keys };
  }

  /** A new layer over `base` holding `entries` (the result of joining two maps that parted there). */
  static over<K, V>(base: Layers<K, V> | undefined, entries: Iterable<[K, V]>): Layers<K, V> {
    const out = new Layers<K, V>(base);
    for (const [key, value] of entries) out.local.set(key, value);
    return out;
  }
}
