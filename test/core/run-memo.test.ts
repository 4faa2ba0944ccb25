import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FactScope, memoByHolder, runInScope } from '../../src/core/run-memo.js';

describe('memoByHolder()', () => {
  it('answers as computing afresh would, in any order of asking, and computes each value once', () => {
    const asks = fc.array(
      fc.record({
        holder: fc.nat(40),
        key: fc.constantFrom('data', 'blob'),
        value: fc.constantFrom('a', 'b', 'c'),
      }),
      { maxLength: 300 },
    );
    fc.assert(
      fc.property(asks, (steps) => {
        let computed = 0;
        const facts = memoByHolder((value: string) => {
          computed++;
          return `${value}!`;
        });
        const holders = Array.from({ length: 41 }, () => ({}) as Record<string, string>);
        const cached = new Map<object, string>();
        let expected = 0;
        runInScope(new FactScope(), () => {
          for (const { holder, key, value } of steps) {
            const h = holders[holder] as Record<string, string>;
            h[key] = value;
            // A new holder, another key of it, or a replaced value is computed; anything else is known.
            if (cached.get(h) !== `${key}=${value}`) expected++;
            cached.set(h, `${key}=${value}`);
            expect(facts(h, key)).toBe(`${value}!`);
          }
        });
        expect(computed).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('finds payloads asked about again in document order, skipping some, without losing any', () => {
    let computed = 0;
    const facts = memoByHolder((value: string) => {
      computed++;
      return value.length;
    });
    const blocks = Array.from({ length: 100 }, (_, i) => ({ data: 'x'.repeat(i) }));
    runInScope(new FactScope(), () => {
      for (const block of blocks) facts(block, 'data');
      for (const block of blocks.filter((_, i) => i % 3 === 0))
        expect(facts(block, 'data')).toBe(block.data.length);
      for (const block of [...blocks].reverse()) expect(facts(block, 'data')).toBe(block.data.length);
    });
    expect(computed).toBe(100);
  });
});
