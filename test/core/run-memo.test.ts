/**
 * Memoization scoped to one validation (src/core/run-memo.ts): answers are shared within a scope,
 * never kept outside one, and never stale after the document changes.
 */

import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  FactScope,
  inScope,
  knownJson,
  memoByHolder,
  memoByString,
  memoPerRun,
  runInScope,
  shareHolderFacts,
} from '../../src/core/run-memo.js';
import { runs } from '../support/runs.js';

/** Made before any other memo of this file: the first slot, which a fresh scope must hold nothing in. */
const firstMemo = memoByHolder((value: string) => value.length);

function counting<K, V>(compute: (key: K) => V): { fn: (key: K) => V; calls: K[] } {
  const calls: K[] = [];
  return {
    calls,
    fn: (key) => {
      calls.push(key);
      return compute(key);
    },
  };
}

describe('scopes', () => {
  it('are current only while they run, and restore the one before, even on a throw', () => {
    const outer = new FactScope();
    const inner = new FactScope();
    expect(inScope()).toBe(false);
    runInScope(outer, () => {
      expect(inScope()).toBe(true);
      expect(() =>
        runInScope(inner, () => {
          throw new Error('boom');
        }),
      ).toThrow('boom');
      expect(inScope()).toBe(true);
    });
    expect(inScope()).toBe(false);
  });

  it('give the JSON texts the caller made, within the scope only', () => {
    const value = { a: 1 };
    const scope = new FactScope();
    scope.knownJson = new Map([[value, '{"a":1}']]);
    expect(knownJson(value)).toBeUndefined();
    runInScope(scope, () => {
      expect(knownJson(value)).toBe('{"a":1}');
      expect(knownJson({ a: 1 })).toBeUndefined();
    });
    runInScope(new FactScope(), () => expect(knownJson(value)).toBeUndefined());
  });
});

describe('memo slots', () => {
  it('start empty in a new scope, the first one too', () => {
    runInScope(new FactScope(), () => expect(firstMemo({ data: 'abc' }, 'data')).toBe(3));
  });

  it('start empty in a new scope for the first memo of every kind', async () => {
    // A fresh copy of the module numbers its memos from 0 again.
    vi.resetModules();
    const byString = await import('../../src/core/run-memo.js');
    const length = byString.memoByString((key: string) => key.length);
    byString.runInScope(new byString.FactScope(), () => expect(length('abc')).toBe(3));
    vi.resetModules();
    const perRun = await import('../../src/core/run-memo.js');
    const n = perRun.memoPerRun((key: { n: number }) => key.n);
    perRun.runInScope(new perRun.FactScope(), () => expect(n({ n: 3 })).toBe(3));
  });

  it('keep memos of one kind apart, whatever kind was made between them', () => {
    // Each kind made twice with one memo of another kind between: slots taken in any other order than
    // one after another would collide.
    const stringA = memoByString((key: string) => `a${key}`);
    const perRunA = memoPerRun((key: { n: number }) => `a${key.n}`);
    const stringB = memoByString((key: string) => `b${key}`);
    const perRunB = memoPerRun((key: { n: number }) => `b${key.n}`);
    const holderA = memoByHolder((value: string) => `a${value}`);
    const stringC = memoByString((key: string) => `c${key}`);
    const holderB = memoByHolder((value: string) => `b${value}`);
    const key = { n: 1 };
    const holder = { data: 'x' };
    runInScope(new FactScope(), () => {
      expect([stringA('x'), stringB('x'), stringC('x')]).toEqual(['ax', 'bx', 'cx']);
      expect([perRunA(key), perRunB(key)]).toEqual(['a1', 'b1']);
      expect([holderA(holder, 'data'), holderB(holder, 'data')]).toEqual(['ax', 'bx']);
    });
  });
});

describe('memoByString', () => {
  it('computes every time outside a scope, once per key within one (undefined answers too)', () => {
    const { fn, calls } = counting((key: string) => (key === 'none' ? undefined : key.length));
    const memo = memoByString(fn);
    memo('abc');
    memo('abc');
    expect(calls).toEqual(['abc', 'abc']);
    calls.length = 0;
    const scope = new FactScope();
    runInScope(scope, () => {
      expect(memo('abc')).toBe(3);
      expect(memo('abc')).toBe(3);
      expect(memo('none')).toBeUndefined();
      expect(memo('none')).toBeUndefined();
      expect(memo('de')).toBe(2);
    });
    expect(calls).toEqual(['abc', 'none', 'de']);
    // The whole scope keeps the answers, across runs; another scope starts afresh.
    runInScope(scope, () => memo('abc'));
    runInScope(new FactScope(), () => memo('abc'));
    expect(calls).toEqual(['abc', 'none', 'de', 'abc']);
  });

  it('keeps each memo apart', () => {
    const length = memoByString((key: string) => key.length);
    const upper = memoByString((key: string) => key.toUpperCase());
    runInScope(new FactScope(), () => {
      expect(length('ab')).toBe(2);
      expect(upper('ab')).toBe('AB');
    });
  });
});

describe('memoPerRun', () => {
  it('remembers by identity for one run, and forgets when the scope is entered again', () => {
    const { fn, calls } = counting((key: { n: number }) => key.n);
    const memo = memoPerRun(fn);
    const key = { n: 1 };
    const scope = new FactScope();
    runInScope(scope, () => {
      memo(key);
      key.n = 2;
      expect(memo(key)).toBe(1);
      // Entering the current scope again is the same run.
      runInScope(scope, () => expect(memo(key)).toBe(1));
    });
    expect(calls).toHaveLength(1);
    runInScope(scope, () => expect(memo(key)).toBe(2));
    expect(memo(key)).toBe(2);
    expect(calls).toHaveLength(3);
  });
});

describe('memoPerRun in an unchanged scope', () => {
  it('keeps its answers from one run to the next, for each object', () => {
    const { fn, calls } = counting((key: { n: number }) => key.n);
    const memo = memoPerRun(fn);
    const [a, b] = [{ n: 1 }, { n: 2 }];
    const scope = new FactScope(true);
    runInScope(scope, () => expect([memo(a), memo(b)]).toEqual([1, 2]));
    runInScope(scope, () => expect([memo(a), memo(b)]).toEqual([1, 2]));
    expect(calls).toEqual([a, b]);
    // A scope that is not unchanged computes again in its next run.
    runInScope(new FactScope(), () => memo(a));
    expect(calls).toEqual([a, b, a]);
  });
});

describe('memoPerRun with several objects a run', () => {
  it('answers each from its own computation, one computation each, undefined answers included', () => {
    const { fn, calls } = counting((key: { n: number }) => (key.n === 0 ? undefined : key.n * 10));
    const memo = memoPerRun(fn);
    const [a, b, c] = [{ n: 1 }, { n: 2 }, { n: 0 }];
    runInScope(new FactScope(), () => {
      for (let round = 0; round < 3; round++) {
        expect([memo(a), memo(b), memo(c)]).toEqual([10, 20, undefined]);
      }
    });
    expect(calls).toEqual([a, b, c]);
  });

  it('keeps what a computation asked of the same memo about another object', () => {
    const inner = { n: 5 };
    const calls: number[] = [];
    const memo: (key: { n: number }) => number = memoPerRun((key: { n: number }) => {
      calls.push(key.n);
      // The outer object's answer is made of the inner one's, asked through the memo itself.
      return key === inner ? 1 : memo(inner) + 1;
    });
    const outer = { n: 6 };
    runInScope(new FactScope(), () => {
      expect(memo(outer)).toBe(2);
      expect(memo(inner)).toBe(1);
      expect(memo(outer)).toBe(2);
    });
    expect(calls).toEqual([6, 5]);
  });
});

describe('memoByHolder', () => {
  it('computes once per holder and string, for the whole scope', () => {
    const { fn, calls } = counting((value: string) => value.length);
    const memo = memoByHolder(fn);
    const a: Record<string, unknown> = { data: 'aaaa', blob: 'bb', n: 1 };
    const b: Record<string, unknown> = { data: 'ccc' };
    expect(memo(a, 'n')).toBeUndefined();
    expect(memo(a, 'data')).toBe(4);
    expect(memo(a, 'data')).toBe(4);
    expect(calls).toEqual(['aaaa', 'aaaa']);
    calls.length = 0;
    const scope = new FactScope();
    runInScope(scope, () => {
      expect(memo(a, 'data')).toBe(4);
      expect(memo(b, 'data')).toBe(3);
      expect(memo(a, 'data')).toBe(4);
      expect(memo(b, 'data')).toBe(3);
    });
    runInScope(scope, () => expect(memo(a, 'data')).toBe(4));
    expect(calls).toEqual(['aaaa', 'ccc']);
  });

  it('answers afresh when the string or the key changes', () => {
    const { fn, calls } = counting((value: string) => value.length);
    const memo = memoByHolder(fn);
    const block: Record<string, unknown> = { data: 'aaaa', blob: 'bb' };
    const other: Record<string, unknown> = { data: 'x' };
    runInScope(new FactScope(), () => {
      expect(memo(block, 'data')).toBe(4);
      expect(memo(block, 'blob')).toBe(2);
      block.data = 'aaaaa';
      expect(memo(block, 'data')).toBe(5);
      expect(memo(other, 'data')).toBe(1);
      block.data = 'a';
      expect(memo(block, 'data')).toBe(1);
      expect(memo(other, 'data')).toBe(1);
      expect(memo(block, 'blob')).toBe(2);
    });
    expect(calls).toEqual(['aaaa', 'bb', 'aaaaa', 'x', 'a', 'bb']);
  });
});

describe('shareHolderFacts and remember', () => {
  it("let a copy use the original's answer for the very same string, and answer afresh for any other", () => {
    const { fn, calls } = counting((value: string) => value.length);
    const memo = memoByHolder(fn);
    const scope = new FactScope();
    const original: Record<string, unknown> = { data: 'aaaa' };
    const copy = { ...original };
    const changed: Record<string, unknown> = { data: 'bbbbbb' };
    const stranger: Record<string, unknown> = { data: 'cc' };
    runInScope(scope, () => {
      expect(memo(original, 'data')).toBe(4);
      shareHolderFacts(scope, original, copy);
      shareHolderFacts(scope, original, changed);
      // A holder the memos never saw has nothing to share.
      shareHolderFacts(scope, stranger, { data: 'cc' });
      expect(memo(copy, 'data')).toBe(4);
      expect(memo(changed, 'data')).toBe(6);
      expect(memo(stranger, 'data')).toBe(2);
    });
    expect(calls).toEqual(['aaaa', 'bbbbbb', 'cc']);
  });

  it('remember an answer told for a string, and nothing for a value that is no string', () => {
    const { fn, calls } = counting((value: string) => value.length);
    const memo = memoByHolder(fn);
    const scope = new FactScope();
    const told: Record<string, unknown> = { data: 'aaaa' };
    const number: Record<string, unknown> = { data: 5 };
    memo.remember(scope, told, 'data', 40);
    memo.remember(scope, number, 'data', 50);
    runInScope(scope, () => {
      expect(memo(told, 'data')).toBe(40);
      expect(memo(number, 'data')).toBeUndefined();
      number.data = 'five!';
      expect(memo(number, 'data')).toBe(5);
    });
    expect(calls).toEqual(['five!']);
  });
});

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
      { numRuns: runs(300) },
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
