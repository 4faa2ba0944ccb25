/** Type guards and equality over untrusted JSON (src/core/json.ts). */

import { describe, expect, it } from 'vitest';
import { hasOwn, isObject, jsonEqual, jsonTypeOf } from '../../src/core/json.js';

describe('JSON guards', () => {
  it('takes only plain objects for objects', () => {
    expect(isObject({})).toBe(true);
    expect(isObject([])).toBe(false);
    expect(isObject(null)).toBe(false);
    expect(isObject('x')).toBe(false);
  });

  it('names JSON types for messages, integers apart', () => {
    expect([null, [], 1, 1.5, 'x', true, {}, undefined].map(jsonTypeOf)).toEqual([
      'null',
      'array',
      'integer',
      'number',
      'string',
      'boolean',
      'object',
      'undefined',
    ]);
  });

  it('sees own members only', () => {
    expect(hasOwn({ a: undefined }, 'a')).toBe(true);
    expect(hasOwn({}, 'toString')).toBe(false);
  });
});

describe('jsonEqual', () => {
  it('compares structure, not key order', () => {
    expect(jsonEqual({ a: [1, { b: 2 }], c: null }, { c: null, a: [1, { b: 2 }] })).toBe(true);
    expect(jsonEqual('x', 'x')).toBe(true);
  });

  it('tells different values apart', () => {
    const pairs: [unknown, unknown][] = [
      [1, '1'],
      [null, {}],
      [{}, null],
      [1, 2],
      [[1], { 0: 1 }],
      [{ 0: 1 }, [1]],
      [[1, 2], [1]],
      [[1], [1, 2]],
      [
        [1, 2],
        [1, 3],
      ],
      [{ a: 1 }, { a: 1, b: 2 }],
      [{ a: 1, b: 2 }, { a: 1 }],
      [{ a: 1 }, { b: 1 }],
      [{ a: undefined }, { b: undefined }],
      [{ a: { b: 1 } }, { a: { b: 2 } }],
      [
        { a: 1, b: 2 },
        { a: 1, b: 3 },
      ],
      [{ 0: 'x' }, 'x'],
    ];
    for (const [a, b] of pairs)
      expect(jsonEqual(a, b), `${JSON.stringify(a)} ${JSON.stringify(b)}`).toBe(false);
  });
});
