/**
 * The layered maps the scan's interpretation keeps its states in (src/scan/abstract/layers.ts): a copy
 * reads through to what it branched from, and where two copies meet, only the keys either changed since
 * they parted are joined, also when one of them was flattened on the way (deep maps are).
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Layers } from '../../src/scan/abstract/layers.js';
import { runs } from '../support/runs.js';

/** `depth` copies deep, each copy setting one key of its own. */
function deepen(map: Layers<string, number>, depth: number, tag: string): Layers<string, number> {
  let out = map;
  for (let i = 0; i < depth; i++) {
    out = out.child();
    out.set(`${tag}${i}`, i);
  }
  return out;
}

function contents(map: Layers<string, number>, keys: Iterable<string>): Map<string, number | undefined> {
  return new Map([...keys].map((key) => [key, map.get(key)]));
}

describe('Layers', () => {
  it('copies read what they branched from and keep their own changes apart', () => {
    const root = new Layers<string, number>();
    root.set('a', 1);
    const left = root.child();
    const right = root.child();
    left.set('a', 2);
    right.set('b', 3);
    expect([left.get('a'), left.get('b'), right.get('a'), right.get('b')]).toEqual([2, undefined, 1, 3]);
  });

  it('two maps that parted after a flattening meet where they parted: only what they changed is joined', () => {
    const root = new Layers<string, number>();
    for (let i = 0; i < 1000; i++) root.set(`shared${i}`, i);
    // Deep enough that both sides are copies of a flattened map, flattened at different depths.
    const trunk = deepen(root, 30, 'trunk');
    const a = deepen(trunk, 20, 'a');
    const b = deepen(trunk, 3, 'b');
    const { base, keys } = Layers.divergence(a, b);
    expect(base).toBeDefined();
    expect([...keys].sort()).toEqual(
      [
        ...Array.from({ length: 20 }, (_, i) => `a${i}`),
        ...Array.from({ length: 3 }, (_, i) => `b${i}`),
      ].sort(),
    );
  });

  it('the join over the base holds what both maps hold, for random histories', () => {
    // Random trees of copies, some deep enough to be flattened; for two leaves, every key outside the
    // divergence has the same value in both and in the base the join is built on.
    const step = fc.record({ from: fc.nat(), key: fc.integer({ min: 0, max: 40 }), value: fc.integer() });
    fc.assert(
      fc.property(fc.array(step, { minLength: 2, maxLength: 120 }), fc.nat(), fc.nat(), (steps, i, j) => {
        const root = new Layers<string, number>();
        root.set('k0', 0);
        const maps = [root];
        for (const { from, key, value } of steps) {
          const copy = (maps[from % maps.length] as Layers<string, number>).child();
          copy.set(`k${key}`, value);
          maps.push(copy);
        }
        // Each map was set once, before anything copied it, so any two of them may be compared.
        const a = maps[i % maps.length] as Layers<string, number>;
        const b = maps[j % maps.length] as Layers<string, number>;
        const { base, keys } = Layers.divergence(a, b);
        const all = Array.from({ length: 41 }, (_, k) => `k${k}`);
        const outside = all.filter((key) => !keys.has(key));
        expect(contents(a, outside)).toEqual(contents(b, outside));
        if (base) expect(contents(base, outside)).toEqual(contents(a, outside));
        const joined = Layers.over(
          base,
          [...keys].map((key) => [key, a.get(key) ?? -1] as [string, number]),
        );
        for (const key of outside) expect(joined.get(key)).toBe(a.get(key));
      }),
      { numRuns: runs(150) },
    );
  });
});
