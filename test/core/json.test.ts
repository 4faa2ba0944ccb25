/** Type guards and equality over untrusted JSON (src/core/json.ts). */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasOwn, isObject, jsonEqual, jsonTypeOf, tryParseJson } from '../../src/core/json.js';
import { runs } from '../support/runs.js';

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

  it('compares values nested deeper than a recursive comparison reaches (JSON.parse reads them)', () => {
    const nested = (leaf: string, key = 'a') =>
      JSON.parse(`${`{"${key}":[`.repeat(200_000)}${leaf}${']}'.repeat(200_000)}`);
    expect(jsonEqual(nested('1'), nested('1'))).toBe(true);
    expect(jsonEqual(nested('1'), nested('2'))).toBe(false);
    expect(jsonEqual(nested('1'), nested('1', 'b'))).toBe(false);
    expect(jsonEqual(nested('[1]'), nested('[1,2]'))).toBe(false);
  });
});

describe('tryParseJson', () => {
  it('gives what JSON.parse gives, or undefined where it throws, for any text', () => {
    // Led by JSON's whitespace or by what JSON.parse does not skip (a no-break space, a byte order mark).
    const lead = fc.constantFrom('', ' ', '\t', '\n', '\r', '\u00a0', '\ufeff', ' \r\n\t');
    const text = fc
      .tuple(
        lead,
        fc.oneof(
          fc.string(),
          fc.jsonValue().map((v) => JSON.stringify(v)),
        ),
      )
      .map(([a, b]) => a + b);
    fc.assert(
      fc.property(text, (t) => {
        let expected: { value: unknown } | undefined;
        try {
          expected = { value: JSON.parse(t) };
        } catch {
          expected = undefined;
        }
        expect(tryParseJson(t)).toEqual(expected);
      }),
      { numRuns: runs(1000) },
    );
    expect(tryParseJson('null')).toEqual({ value: null });
    expect(tryParseJson('log line')).toBeUndefined();
  });

  it('puts back the stack trace limit it lowers, whether the parse throws or not', () => {
    const before = Error.stackTraceLimit;
    tryParseJson('not json');
    expect(Error.stackTraceLimit).toBe(before);
    tryParseJson('{}');
    expect(Error.stackTraceLimit).toBe(before);
  });
});
