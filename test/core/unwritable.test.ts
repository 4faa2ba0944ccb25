import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  CIRCULAR,
  DEPTH_TO_ASK,
  ENDLESS,
  MAX_MADE,
  MAX_STRING_LENGTH,
  textLengthOfParts,
  unwritable,
  writability,
} from '../../src/core/unwritable.js';
import { runs } from '../support/runs.js';

/** `[[…], […]]` `doublings` times over `leaf`: 2^doublings copies of it in JSON. */
function doubled(leaf: unknown, doublings: number): unknown {
  let value = leaf;
  for (let i = 0; i < doublings; i++) value = [value, value];
  return value;
}

/** JSON values whose strings need no escape: their JSON text is exactly as long as the count says. */
const escapeFree = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string({ unit: fc.constantFrom('a', 'é', ' ', '😀', 'Z') }),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value')),
    fc.dictionary(fc.string({ unit: fc.constantFrom('k', 'ü', '_') }), tie('value')),
  ),
})).value;

describe('textLengthOfParts', () => {
  it('is the length of the JSON text of escape-free JSON, shared parts or not', () => {
    fc.assert(
      fc.property(escapeFree, fc.nat(4), (value, doublings) => {
        const shared = doubled(value, doublings);
        expect(textLengthOfParts({ shared })).toBe(JSON.stringify({ shared }).length);
      }),
      { numRuns: runs(500) },
    );
  });

  it('never counts more than JSON.stringify writes, whatever the value', () => {
    fc.assert(
      fc.property(
        fc.anything({ withDate: true, withMap: true, withBoxedValues: true, withNullPrototype: true }),
        (value) => {
          const text = JSON.stringify({ value });
          expect(textLengthOfParts({ value })).toBeLessThanOrEqual(text.length);
        },
      ),
      { numRuns: runs(500) },
    );
  });

  it('counts a value of 2^60 parts by its distinct parts, and stops past the longest string', () => {
    expect(textLengthOfParts(doubled(1, 10) as object)).toBe(JSON.stringify(doubled(1, 10)).length);
    expect(textLengthOfParts(doubled(1, 60) as object)).toBe(MAX_STRING_LENGTH + 1);
  });

  it('finds a circular reference, however deep and however shared the way to it', () => {
    const loop: unknown[] = [];
    const value = doubled([doubled('x', 10), loop], 30);
    loop.push(value);
    expect(textLengthOfParts(value as object)).toBe(CIRCULAR);
  });

  it('counts a million rows of numbers exactly, and a small array read item by item once', () => {
    const rows = { rows: Array.from({ length: 1_000_000 }, (_, i) => [i, -i, i / 7, i % 2 === 0]) };
    expect(textLengthOfParts(rows)).toBe(JSON.stringify(rows).length);
    // A getter on an array item, before and after an object among the items: each read once.
    let reads = 0;
    const items: unknown[] = [0, { a: [1, 2] }, 0];
    for (const index of [0, 2]) {
      Object.defineProperty(items, index, {
        enumerable: true,
        get: () => {
          reads++;
          return 12;
        },
      });
    }
    const written = JSON.stringify({ items }).length;
    reads = 0;
    expect(textLengthOfParts({ items })).toBe(written);
    expect(reads).toBe(2);
    // And a small array that is part of a cycle is found as one.
    const ring: unknown[] = [1];
    ring.push({ back: ring });
    expect(textLengthOfParts({ ring })).toBe(CIRCULAR);
  });
});

describe('unwritable', () => {
  it('leaves alone what JSON.stringify writes, small or deep', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(unwritable(value)).toBeUndefined();
      }),
      { numRuns: runs(300) },
    );
    // Past DEPTH_TO_ASK, JSON.stringify is asked: it writes 2,000 levels.
    let deep: unknown = [];
    for (let i = 0; i < 2 * DEPTH_TO_ASK; i++) deep = [deep];
    expect(JSON.stringify(deep)).toHaveLength(4 * DEPTH_TO_ASK + 2);
    expect(unwritable(deep)).toBeUndefined();
    // 2^20 leaves: past the plain walk, counted part by part, and writable (about 4 MB of text).
    expect(unwritable(doubled('x', 20))).toBeUndefined();
  });

  it('decides at the bottom of a value deeper than recursion reaches, as near the top', () => {
    const under = (bottom: unknown) => {
      let deep: unknown = { bottom };
      for (let i = 0; i < 100_000; i++) deep = i % 2 ? { down: deep } : [deep];
      return deep;
    };
    const loop: Record<string, unknown> = { n: 1 };
    loop.again = [loop];
    expect(unwritable(under(loop))).toBe('circular');
    expect(unwritable(under({ toJSON: () => doubled('x', 60) }))).toBe('too long');
    expect(unwritable(under(doubled('x', 60)))).toBe('too long');
    const getter = Object.defineProperty({}, 'boom', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    expect(unwritable(under(getter))).toBe('unreadable');
    // What is written, but not at this depth: JSON.stringify runs out of call stack.
    expect(unwritable(under([new Date(0), { toJSON: () => 'x' }]))).toBe('too deep');
    expect(unwritable(under(new Date(0)))).toBe('too deep');
    expect(() => JSON.stringify(under(new Date(0)))).toThrow(RangeError);
  });

  it('says a value nested past the call stack of the writer is too deep, as JSON.stringify finds it', () => {
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = i % 2 ? [deep] : { down: deep };
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    expect(unwritable(deep)).toBe('too deep');
    // Past the plain walk's recursion too, and with a toJSON on the way (counted part by part).
    expect(unwritable({ a: deep, b: { toJSON: () => 'x' } })).toBe('too deep');
    // Within DEPTH_TO_ASK, JSON.stringify is not asked.
    const spy = vi.spyOn(JSON, 'stringify');
    try {
      let shallow: unknown = 1;
      for (let i = 0; i < DEPTH_TO_ASK; i++) shallow = [shallow];
      expect(unwritable(shallow)).toBeUndefined();
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });

  it('says what JSON.stringify would throw on: a text no string holds, or a cycle', () => {
    expect(unwritable(doubled('x', 60))).toBe('too long');
    expect(unwritable({ a: doubled({ b: 'x' }, 40) })).toBe('too long');
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = [cycle];
    expect(unwritable(cycle)).toBe('circular');
  });

  it('counts what a toJSON returns, calling it once per object however often it is shared', () => {
    let calls = 0;
    const dated = { toJSON: () => String(++calls) };
    expect(unwritable(doubled(dated, 60))).toBe('too long');
    expect(calls).toBe(1);
    // A toJSON that returns shared parts: JSON.stringify of it never ended either.
    expect(unwritable({ a: { toJSON: () => doubled('x', 60) } })).toBe('too long');
    expect(textLengthOfParts({ at: new Date(0), gone: { toJSON: () => undefined }, n: 1 })).toBe(
      JSON.stringify({ at: new Date(0), n: 1 }).length,
    );
    // JSON calls no toJSON of what a toJSON returned: such a value counts as nothing.
    const inner = { toJSON: () => 'never called', long: 'x'.repeat(100) };
    expect(textLengthOfParts({ a: { toJSON: () => inner } })).toBe('{"a":}'.length);
  });

  it('says a value whose reading throws is unreadable, and which toJSON throws', () => {
    const throwing = doubled(
      Object.defineProperty({}, 'x', {
        enumerable: true,
        get() {
          throw new Error('boom');
        },
      }),
      60,
    );
    expect(unwritable(throwing)).toBe('unreadable');
    expect(() => JSON.stringify(throwing)).toThrow('boom');
    const refusing = {
      toJSON() {
        throw new Error('no');
      },
    };
    expect(unwritable([refusing])).toBe('toJSON throws');
  });

  it('reads a value the plain walk decides once: a getter runs as often as JSON.stringify runs it', () => {
    let reads = 0;
    const counted = {
      get n(): number {
        reads++;
        return 1;
      },
      items: [1, 'two', null, [true], { deeper: [3] }],
      none: null,
    };
    expect(unwritable({ value: counted, more: [counted, 'x', 4, counted] })).toBeUndefined();
    expect(reads).toBe(3);
  });

  it('leaves out what JSON leaves out, and counts what a toJSON at the top returns', () => {
    expect(textLengthOfParts({ f: () => 1, s: Symbol('s'), u: undefined, n: 1 })).toBe('{"n":1}'.length);
    expect(textLengthOfParts({ toJSON: () => 'abc' })).toBe('"abc"'.length);
    expect(textLengthOfParts({ toJSON: () => [1, 2] })).toBe('[1,2]'.length);
    expect(textLengthOfParts({ toJSON: () => null })).toBe('null'.length);
  });

  it('takes a plain Date for the ISO string it writes, without calling it; any other toJSON is called', () => {
    let reads = 0;
    const row = {
      get at(): Date {
        reads++;
        return new Date(0);
      },
    };
    // Decided by the plain walk: each getter read once (the count by parts would read it again).
    expect(unwritable({ rows: [row, row, row] })).toBeUndefined();
    expect(reads).toBe(3);
    // A Date whose toISOString is its own may return anything from toJSON: counted by what it returns.
    const odd = Object.assign(new Date(0), { toISOString: () => doubled('x', 60) });
    expect(unwritable({ odd })).toBe('too long');
    const borrowed = { toJSON: Date.prototype.toJSON, toISOString: () => doubled('x', 60) };
    expect(unwritable({ borrowed })).toBe('too long');
  });

  it('answers at once for a sparse array that stands for more nulls than a string holds', () => {
    // `new Array(2 ** 31 - 1)` holds nothing: the walks stepped through every hole (the validators took
    // 40 s and more on one). JSON writes each hole as null.
    expect(unwritable({ a: new Array(2 ** 31 - 1) })).toBe('too long');
    expect(textLengthOfParts([undefined, () => 1, Symbol('s'), 1])).toBe('[null,null,null,1]'.length);
    // One hole per item still fits: the plain walk decides it.
    expect(unwritable({ a: new Array(1000) })).toBeUndefined();
  });

  it('answers scalars at once', () => {
    for (const scalar of [1, 'x', null, undefined, true, 10n]) expect(unwritable(scalar)).toBeUndefined();
  });
});

describe('a value that reading makes as it goes (MAX_MADE)', () => {
  /** An object whose `next` getter answers a new one of its kind at every read: nested without end. */
  const endless = (): object => ({
    get next() {
      return endless();
    },
  });
  /** Two such getters: a tree without end, wide as well as deep. */
  const endlessTree = (): object => ({
    get a() {
      return endlessTree();
    },
    get b() {
      return endlessTree();
    },
  });
  /** Items made by a proxy's trap at every read. */
  const endlessItems = (): object =>
    new Proxy([0], { get: (target, key) => (key === '0' ? endlessItems() : Reflect.get(target, key)) });
  /** A toJSON answering a new object that has one too. */
  const endlessToJSON = (): object => ({ toJSON: () => ({ next: endlessToJSON() }) });

  it('is endless, found within MAX_MADE made objects: JSON.stringify throws on it, and the count ran out of memory', () => {
    for (const value of [endless(), endlessTree(), endlessItems(), endlessToJSON(), { a: [endless()] }]) {
      expect(() => JSON.stringify(value)).toThrow(RangeError);
      expect(writability(value)).toBe(ENDLESS);
      // Asked without that word (the rules' reasons have none), the closest JSON.stringify gives.
      expect(unwritable(value)).toBe('too deep');
    }
    expect(MAX_MADE).toBe(100_000);
  });

  it('is not what a value of stored parts or made few times is', () => {
    const rows = Array.from({ length: 1000 }, (_, i) => ({ id: i }));
    const once = {
      get rows() {
        return rows.map((row) => ({ ...row }));
      },
    };
    expect(writability(once)).toBeUndefined();
    expect(writability(doubled({ a: 1 }, 40))).toBe('too long');
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(writability(cycle)).toBe('circular');
  });
});
