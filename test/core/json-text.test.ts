import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isJsonTextOf, PIECEWISE_FROM } from '../../src/core/json-text.js';
import { validateToolResultSync } from '../../src/validate/index.js';
import { runs } from '../support/runs.js';

/** Pieces for every text, a few characters each: every path of the piecewise reader on small values. */
const tiny = (targetPiece: number) => ({ piecewiseFrom: 0, targetPiece });

function stringifiedOrUndefined(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/** An object holding `entries` in order, made without `__proto__` turning into a prototype. */
function objectOf(
  entries: readonly (readonly [string, unknown])[],
  nullProto: boolean,
): Record<string, unknown> {
  const object = nullProto ? (Object.create(null) as Record<string, unknown>) : {};
  for (const [key, value] of entries) {
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return object;
}

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}

const key = fc.oneof(
  fc.string({ maxLength: 4 }),
  fc.constantFrom('__proto__', '0', '7', '10', 'toJSON', 'a"b', '\u2028'),
);

/**
 * What a handler may hand JSON.stringify: JSON, and what JSON writes differently from how it looks
 * (undefined, functions, symbols, NaN, Dates, boxed values, class instances, a toJSON that writes the
 * key it is given, holes), in arrays short and long (past the walked size) and objects with and without
 * a prototype.
 */
const handlerValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.string({ unit: fc.constantFrom('a', 'é', '"', '\\', '\n', '😀', '\ud800', 'Z') }),
    fc.double(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.constant(() => 1),
    fc.constant(Symbol('s')),
    fc.date({ noInvalidDate: false }),
    fc.string({ maxLength: 3 }).map((tag) => ({ toJSON: (k: string) => `${tag}@${k}` })),
    fc.constant({ toJSON: () => undefined }),
    fc.integer().map((n) => new Number(n)),
    fc.tuple(fc.integer(), fc.integer()).map(([x, y]) => new Point(x, y)),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.array(tie('value'), { minLength: 33, maxLength: 40 }),
    fc.sparseArray(tie('value'), { maxLength: 40 }),
    fc
      .tuple(fc.array(fc.tuple(key, tie('value')), { maxLength: 6 }), fc.boolean())
      .map(([entries, nullProto]) => objectOf(entries, nullProto)),
    fc
      .array(fc.tuple(key, tie('value')), { minLength: 17, maxLength: 24 })
      .map((entries) => objectOf(entries, false)),
  ),
})).value;

/** A text near the value's own: a character changed, dropped, added, or the text cut short. */
function mutated(text: string, at: number, kind: number, char: string): string {
  const i = text.length === 0 ? 0 : at % text.length;
  switch (kind) {
    case 0:
      return text.slice(0, i) + char + text.slice(i + 1);
    case 1:
      return text.slice(0, i) + text.slice(i + 1);
    case 2:
      return text.slice(0, i) + char + text.slice(i);
    default:
      return text.slice(0, i);
  }
}

/** `text` with the last character of its innermost value changed (not a bracket, brace or quote). */
function withLastValueChanged(text: string): string {
  let i = text.length - 1;
  while (i > 0 && ']}"'.includes(text[i] as string)) i--;
  return `${text.slice(0, i)}${text[i] === '0' ? '1' : '0'}${text.slice(i + 1)}`;
}

describe('isJsonTextOf', () => {
  it('says a value JSON.stringify writes is written as its own text, in pieces of any size', () => {
    fc.assert(
      fc.property(handlerValue, fc.integer({ min: 1, max: 64 }), (value, target) => {
        const text = stringifiedOrUndefined(value);
        fc.pre(text !== undefined);
        expect(isJsonTextOf(text as string, value, tiny(target))).toBe(true);
      }),
      { numRuns: runs(2_000) },
    );
  });

  it('agrees with `text === JSON.stringify(value)` on texts one edit away', () => {
    fc.assert(
      fc.property(
        handlerValue,
        fc.integer({ min: 1, max: 64 }),
        fc.nat(),
        fc.nat(3),
        fc.constantFrom(',', ']', '}', '"', 'n', '0', ' ', 'é'),
        (value, target, at, kind, char) => {
          const whole = stringifiedOrUndefined(value) ?? '';
          const text = mutated(whole, at, kind, char);
          expect(isJsonTextOf(text, value, tiny(target))).toBe(text === stringifiedOrUndefined(value));
        },
      ),
      { numRuns: runs(2_000) },
    );
  });

  it('gives a toJSON in a long array its own index, as the whole text does', () => {
    const items = Array.from({ length: 40 }, (_, i) =>
      i % 7 === 3 ? { toJSON: (k: string) => `item ${k}` } : { n: i },
    );
    const text = JSON.stringify({ items });
    expect(text).toContain('"item 38"');
    expect(isJsonTextOf(text, { items }, tiny(8))).toBe(true);
    // Written at index 0 of a slice, the item would say "item 0": a text saying so is not its text.
    expect(isJsonTextOf(text.replace('"item 38"', '"item 0"'), { items }, tiny(8))).toBe(false);
  });

  it('finds no text for values JSON.stringify throws on, without overflowing the stack', () => {
    const cycle: Record<string, unknown> = { name: 'a' };
    cycle.self = cycle;
    const longCycle: unknown[] = Array.from({ length: 40 }, (_, i) => i);
    longCycle.push(longCycle);
    const throwing = Object.defineProperty({ a: 1 }, 'b', {
      enumerable: true,
      get() {
        throw new Error('no');
      },
    });
    for (const value of [cycle, longCycle, { big: 1n }, [1, 2n], throwing]) {
      expect(() => JSON.stringify(value)).toThrow();
      for (const text of [
        '{"name":"a","self":{"name":"a","self":',
        '[0,1,2',
        '{"big":1}',
        '[1,2]',
        '{"a":1}',
        '',
      ]) {
        expect(isJsonTextOf(text, value, tiny(4))).toBe(false);
      }
    }
  });

  it('is exact past the walked depth, and on shared parts', () => {
    // Long arrays nested 100 deep: walked down to the depth limit, written in pieces below it.
    let arrays: unknown = Array.from({ length: 40 }, (_, i) => i);
    for (let i = 0; i < 100; i++) arrays = [...Array.from({ length: 39 }, (_, j) => j), arrays];
    // Large objects of few members nested 100 deep: walked alike.
    const objects: Record<string, unknown> = {};
    let at = objects;
    for (let i = 0; i < 100; i++) {
      const inner: Record<string, unknown> = { pad: 'y'.repeat(40) };
      at.next = inner;
      at = inner;
    }
    // One part in many places.
    const small = { a: [1, 2, 3], b: 'c' };
    const shared = Array.from({ length: 40 }, () => Array.from({ length: 40 }, () => small));
    for (const value of [arrays, objects, shared]) {
      const text = JSON.stringify(value);
      expect(isJsonTextOf(text, value, tiny(4))).toBe(true);
      // The innermost part differs: found at the bottom.
      const wrong = withLastValueChanged(text);
      expect(wrong).not.toBe(text);
      expect(isJsonTextOf(wrong, value, tiny(4))).toBe(false);
    }
  });

  it('writes raw JSON objects as JSON.stringify does, where the runtime has them', () => {
    const raw = (JSON as { rawJSON?: (text: string) => unknown }).rawJSON;
    const values: unknown[] = [{ plain: Array.from({ length: 40 }, (_, i) => i) }];
    if (typeof raw === 'function')
      values.push({ n: raw('1e1000'), list: Array.from({ length: 40 }, () => raw('12')) });
    for (const value of values) {
      const text = JSON.stringify(value);
      expect(isJsonTextOf(text, value, tiny(8))).toBe(true);
      expect(isJsonTextOf(text.replace(/]/, ',0]'), value, tiny(8))).toBe(false);
    }
  });

  it('compares a long text piece by piece at the default sizes', () => {
    const items = Array.from({ length: 20_000 }, (_, i) => ({
      id: `sku-${i}`,
      name: `Ítem ${i}`,
      price: i / 100,
    }));
    const value = { result: { items, total: items.length } };
    const text = JSON.stringify(value);
    expect(text.length).toBeGreaterThan(PIECEWISE_FROM * 10);
    expect(isJsonTextOf(text, value)).toBe(true);
    expect(isJsonTextOf(text.replace('"Ítem 19999"', '"Ítem 19998"'), value)).toBe(false);
    expect(isJsonTextOf(`${text} `, value)).toBe(false);
    expect(isJsonTextOf(text.slice(0, -1), value)).toBe(false);
  });
});

describe('the validator on long text mirrors', () => {
  const items = Array.from({ length: 5_000 }, (_, i) => ({ id: `sku-${i}`, inStock: i % 2 === 0 }));
  const structuredContent = { items, total: items.length };
  const mirror = JSON.stringify(structuredContent);

  it('takes an exact long mirror as the mirror, and reports one that differs at its end', () => {
    expect(mirror.length).toBeGreaterThan(PIECEWISE_FROM);
    const exact = validateToolResultSync(
      { content: [{ type: 'text', text: mirror }], structuredContent },
      { protocolVersion: '2025-11-25' },
    );
    expect(exact.map((f) => f.rule)).not.toContain('structured-content-text-mismatch');
    const differing = validateToolResultSync(
      { content: [{ type: 'text', text: mirror.replace(/5000}$/, '4999}') }], structuredContent },
      { protocolVersion: '2025-11-25' },
    );
    expect(differing.map((f) => f.rule)).toContain('structured-content-text-mismatch');
  });

  it('finds the exact mirror among long texts that differ from it only at the end', () => {
    const near = [mirror.replace(/5000}$/, '4999}'), mirror.replace(/5000}$/, '5001}')];
    const rules = (texts: string[]) =>
      validateToolResultSync(
        { content: texts.map((text) => ({ type: 'text', text })), structuredContent },
        { protocolVersion: '2025-11-25' },
      ).map((f) => `${f.rule} ${f.pointer}`);
    const withMirror = rules([...near, mirror]);
    expect(withMirror.filter((f) => f.startsWith('structured-content-text'))).toEqual([]);
    expect(rules(near)).toContain('structured-content-text-mismatch /content/0/text');
  });
});
