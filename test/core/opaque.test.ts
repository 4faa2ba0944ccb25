/** Partial documents from `scan` (src/core/opaque.ts): which finding paths a value the source does not fix makes uncertain. */

import { describe, expect, it } from 'vitest';
import { isOpaque, isOpen, OPEN, Opaque, pathIsUncertain } from '../../src/core/opaque.js';

const open = <T extends object>(value: T): T => Object.assign(value, { [OPEN]: true });

describe('opaque and open values', () => {
  it('tells them apart from plain values', () => {
    expect(isOpaque(new Opaque('encode(buf)'))).toBe(true);
    expect(isOpaque({ source: 'x' })).toBe(false);
    expect(isOpen(open({}))).toBe(true);
    expect(isOpen({})).toBe(false);
    expect(isOpen(Object.assign({}, { [OPEN]: 1 }))).toBe(false);
    expect(isOpen(null)).toBe(false);
    expect(isOpen(undefined)).toBe(false);
    expect(isOpen('x')).toBe(false);
  });

  it('makes a path uncertain where it reaches an opaque value', () => {
    const data = new Opaque('encode(buf)');
    const document = { content: [{ type: 'image', data }] };
    expect(pathIsUncertain(data, [])).toBe(true);
    expect(pathIsUncertain(document, ['content', 0, 'data'])).toBe(true);
    expect(pathIsUncertain(document, ['content', 0, 'data', 'x'])).toBe(true);
    expect(pathIsUncertain(document, ['content', 0, 'type'])).toBe(false);
    expect(pathIsUncertain(document, [])).toBe(false);
  });

  it('makes a path uncertain where a spread might hold the key it names', () => {
    const document = { content: open([{ type: 'text' }]), meta: open({ a: 1 }) };
    expect(pathIsUncertain(document, ['content', 1])).toBe(true);
    expect(pathIsUncertain(document, ['meta', 'b'])).toBe(true);
    expect(pathIsUncertain(document, ['content', 0, 'type'])).toBe(false);
    expect(pathIsUncertain(document, ['meta', 'a'])).toBe(false);
    // A key missing from a closed object is certain: the source fixes every key.
    expect(pathIsUncertain({ meta: { a: 1 } }, ['meta', 'b'])).toBe(false);
    expect(pathIsUncertain({ n: 1 }, ['n', 'x'])).toBe(false);
    expect(pathIsUncertain({ n: null }, ['n', 'x'])).toBe(false);
  });
});
