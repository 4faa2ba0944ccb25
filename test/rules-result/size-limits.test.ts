/**
 * result-over-client-limits where its own code paths part from the common case (result.test.ts has the
 * rule's limits on ordinary results).
 *
 * Results nested deeper than the call stack reaches. Such a result comes
 * off the wire (JSON.parse builds any depth) and its size is counted by the explicit-stack walks, which
 * repeat what the recursive walks count. Each deep result here has a shallow twin of the same size: the
 * nested arrays replaced by a string of `x` as long in JSON (`[[…]]`, 2n characters, and `"x…x"`, 2n
 * characters, are as many UTF-16 units and UTF-8 bytes). The recursive walks measure the twin, and
 * JSON.stringify measures the twin exactly, so the deep result must get the twin's findings word for
 * word, and be over 1 MiB exactly when the twin is.
 *
 * PNG dimensions of payloads the base64 rules reject: Claude Code still reads their header.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/core/json.js';
import { getRule } from '../../src/rules/catalog.js';
import { type EngineFinding, runToolResult } from '../../src/validate/engine.js';
import { runs } from '../support/runs.js';

const LIMIT = 1_048_576;
/** Deeper than the recursive walks reach on a default Node stack (they overflow near 10,000 levels). */
const LEVELS = 40_000;
const rule = getRule('result-over-client-limits');
if (!rule) throw new Error('result-over-client-limits is not in the catalog');
/** Which walks the two rules that read the serialization facts share (rules/support/serialization.ts). */
const notSerializable = getRule('result-not-serializable');
if (!notSerializable) throw new Error('result-not-serializable is not in the catalog');
const RULES = [rule, notSerializable];

/** 300,000 three-byte characters: the byte bound is far above the limit and the unit count far below it, so the exact count decides. */
const WIDE = '€'.repeat(300_000);

function said(result: unknown): string[][] {
  return runToolResult(result, { version: '2025-06-18', rules: RULES }).map((f: EngineFinding) => [
    f.messageId,
    f.pointer,
    f.message,
  ]);
}

/** `levels` arrays, each the only item of the one around it. */
function nested(levels: number): unknown[] {
  let value: unknown[] = [];
  for (let i = 1; i < levels; i++) value = [value];
  return value;
}

/** The string JSON writes in as many characters (and bytes) as `nested(levels)`. */
function twinOf(levels: number): string {
  return 'x'.repeat(2 * levels - 2);
}

const text = (value: string) => ({ type: 'text', text: value });
const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/**
 * A result built around `filler` (where the deep value or its twin goes), padded with `x` so that its
 * twin serializes to exactly `LIMIT + over` bytes.
 */
function atLimit(
  build: (filler: unknown, pad: string) => unknown,
  over: 0 | 1,
): (filler: unknown) => unknown {
  const twin = twinOf(LEVELS);
  const pad = LIMIT + over - bytesOf(build(twin, ''));
  if (pad < 0) throw new Error(`the result is ${-pad} bytes over the limit without padding`);
  return (filler) => build(filler, 'x'.repeat(pad));
}

/** Asserts the deep result's findings are its twin's, and that it is over 1 MiB exactly when `over`. */
function expectTwins(build: (filler: unknown, pad: string) => unknown): void {
  for (const over of [0, 1] as const) {
    const make = atLimit(build, over);
    const twin = make(twinOf(LEVELS));
    expect(bytesOf(twin)).toBe(LIMIT + over);
    const twinFindings = said(twin);
    expect(twinFindings.some(([id]) => id === 'default')).toBe(over === 1);
    expect(said(make(nested(LEVELS)))).toEqual(twinFindings);
  }
}

describe('result-over-client-limits on a result deeper than the call stack', () => {
  it('the deep value goes where JSON would write it: a member of _meta, a block, an array item', () => {
    expectTwins((filler, pad) => ({ content: [text(WIDE + pad)], _meta: { deep: filler } }));
    expectTwins((filler, pad) => ({ content: [{ ...text(WIDE + pad), _meta: { list: [1, filler, 'é'] } }] }));
  });

  it('counts names, escapes, numbers and what JSON writes as null or leaves out, as the recursive walk does', () => {
    // Member names with control characters (six bytes each in JSON) and non-ASCII; NaN and the
    // infinities as null; undefined, functions and symbols left out of objects and null in arrays.
    const odd: JsonObject = {
      '\u0001\u0002 name': 'a\u0007b',
      ключ: [1.5, -0, 1e21, Number.NaN, Number.POSITIVE_INFINITY, undefined, () => 1, Symbol('s')],
      gone: undefined,
      fn: () => 2,
      yes: true,
      no: null,
    };
    expectTwins((filler, pad) => ({ content: [text(WIDE + pad)], _meta: { odd, deep: filler } }));
    // A name of control characters alone takes the result over the limit (six bytes a unit): a bound
    // that counted it short would pass the result unmeasured.
    const name = '\u0001'.repeat(160_000);
    expectTwins((filler, pad) => ({ content: [text(pad)], _meta: { [name]: 1, deep: filler } }));
  });

  it('takes a canonical base64 payload at one byte a character', () => {
    const png = btoa('\x89PNG\r\n\x1a\n'.padEnd(30_000, '\0'));
    expectTwins((filler, pad) => ({
      content: [{ type: 'image', data: png, mimeType: 'image/png' }, text(WIDE + pad)],
      _meta: { deep: filler },
    }));
  });

  it("counts the result's own structuredContent by its JSON text, with its mirror", () => {
    const structured = { s: `${WIDE.slice(0, 150_000)}"quoted"\\`, n: [1, 2] };
    expectTwins((filler, pad) => ({
      content: [text(JSON.stringify(structured)), text(pad)],
      structuredContent: structured,
      _meta: { deep: filler, wrapped: { toJSON: () => ({ structuredContent: 'not the result' }) } },
    }));
  });

  it('counts what toJSON returns once, for objects and arrays, and a toJSON of the result itself', () => {
    const list = Object.assign([1, 2], { toJSON: () => ['y'.repeat(5_000)] });
    // What toJSON returns is written as it is: its own toJSON member is a function, left out.
    const again = { toJSON: () => ({ toJSON: () => 'never called', kept: 'z'.repeat(3_000) }) };
    expectTwins((filler, pad) => ({
      content: [text(WIDE + pad)],
      _meta: { list, again, date: new Date(0), deep: filler },
    }));
    expectTwins((filler, pad) => ({
      content: [text('small')],
      toJSON: () => ({ content: [text(WIDE + pad)], _meta: { deep: filler } }),
    }));
  });

  it('counts a value that appears twice (not a cycle) twice, as JSON writes it', () => {
    const shared = { s: 'ü'.repeat(1_000) };
    expectTwins((filler, pad) => ({
      content: [text(WIDE + pad)],
      _meta: { a: shared, b: [shared, shared], deep: [filler, shared] },
    }));
  });

  it('counts only own members when Object.prototype has an enumerable one', () => {
    Object.defineProperty(Object.prototype, 'polluted', {
      value: 'y'.repeat(100_000),
      enumerable: true,
      configurable: true,
      writable: true,
    });
    try {
      expectTwins((filler, pad) => ({ content: [text(WIDE + pad)], _meta: { deep: filler } }));
    } finally {
      delete (Object.prototype as { polluted?: string }).polluted;
    }
  });

  it('finds a cycle that begins at any depth, its loop of any length, and says it is one', () => {
    // Below a depth the walk keeps only some of the containers it is inside: the cycle must be
    // found all the same, and as a cycle, not as a text too long to write.
    const circular =
      'the result cannot be serialized: it holds a circular reference, so JSON.stringify throws and no client receives it';
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 12_000 }), fc.integer({ min: 1, max: 300 }), (depth, period) => {
        const loop: JsonObject[] = Array.from({ length: period }, (_, i) => ({ n: i }));
        loop.forEach((item, i) => {
          item.next = [loop[(i + 1) % period] as JsonObject];
        });
        let value: unknown = loop[0];
        for (let i = 0; i < depth; i++) value = { down: value };
        const found = said({ content: [text('x')], _meta: { deep: value } });
        expect(found.map((f) => f[2])).toEqual([circular]);
      }),
      { numRuns: runs(40) },
    );
  });

  it('finds a cycle below the deep value, as JSON.stringify does, and reports it as an error', () => {
    const cycle: JsonObject = { name: 'loop' };
    cycle.self = [cycle];
    const found = said({ content: [text('x')], _meta: { deep: [nested(LEVELS), cycle] } });
    expect(found).toHaveLength(1);
    expect(found[0]?.[2]).toBe(
      'the result cannot be serialized: it holds a circular reference, so JSON.stringify throws and no client receives it',
    );
    // And a BigInt that deep, which only the explicit stack's walk reaches.
    expect(said({ content: [text('x')], _meta: { deep: [nested(LEVELS), 1n] } })[0]?.[2]).toBe(
      'the result cannot be serialized: it holds a BigInt, so JSON.stringify throws and no client receives it',
    );
  });

  it('any JSON beside the deep value: the twin findings, at the limit and one byte over', () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 3, stringUnit: 'binary' }),
        fc.constantFrom('meta', 'block', 'structured'),
        (value, where) => {
          expectTwins((filler, pad) =>
            where === 'meta'
              ? { content: [text(WIDE + pad)], _meta: { value, deep: filler } }
              : where === 'block'
                ? { content: [{ ...text(WIDE + pad), _meta: { value, deep: filler } }] }
                : { content: [text(WIDE + pad)], structuredContent: { value }, _meta: { deep: filler } },
          );
        },
      ),
      { numRuns: runs(15) },
    );
  });
});

describe('result-over-client-limits: the dimensions of a PNG whose base64 is not canonical', () => {
  /** A PNG header (24 bytes: signature, IHDR length and type, width, height) as a binary string. */
  function header(width: number, height: number): string {
    const bytes = new Uint8Array(24);
    bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    new DataView(bytes.buffer).setUint32(16, width);
    new DataView(bytes.buffer).setUint32(20, height);
    return String.fromCharCode(...bytes);
  }
  const wide = btoa(`${header(9000, 20)}${'\0'.repeat(30)}`);
  const dimensions = (data: string) =>
    said({ content: [{ type: 'image', data, mimeType: 'image/png' }] }).filter(([id]) => id === 'dimensions');
  const REPORTED = [
    [
      'dimensions',
      '/content/0/data',
      "image block 0 is 9000×20 px; Claude Code's API refuses images over 8000 px a side",
    ],
  ];

  it.each([
    ['canonical', wide],
    ['with line breaks', `${wide.slice(0, 20)}\n${wide.slice(20)}`],
    ['without its padding', btoa(`${header(9000, 20)}\0`).replace(/=+$/, '')],
    ['with a character atob rejects after the header', `${wide}!`],
    ['in the URL-safe alphabet past the header', `${wide.slice(0, 40)}-_${wide.slice(40)}`],
  ])('%s: read from its header', (_name, data) => {
    expect(dimensions(data)).toEqual(REPORTED);
  });

  it.each([
    ['a header cut short before a character atob rejects', `${btoa(header(9000, 20).slice(0, 21))}!`],
    // The signature's first three bytes decide, one at a time.
    ...[0, 1, 2].map((at): [string, string] => {
      const png = header(9000, 20);
      const other = `${png.slice(0, at)}\xff${png.slice(at + 1)}`;
      return [`not a PNG (byte ${at}), before a character atob rejects`, `${btoa(other)}!`];
    }),
    ['a character atob rejects inside the header', `${wide.slice(0, 10)}!${wide.slice(10)}`],
    ['a data: URI', `data:image/png;base64,${wide}`],
  ])('%s: no dimensions, and no failure', (_name, data) => {
    expect(dimensions(data)).toEqual([]);
    // Nothing else either: a header too short to read must not be read past its end.
    expect(said({ content: [{ type: 'image', data, mimeType: 'image/png' }] })).toEqual([]);
  });
});

describe('result-over-client-limits: bytes that are not characters', () => {
  /** The `default` finding's message for `result`, measured by JSON.stringify itself. */
  const over = (result: unknown) => [
    `the result is ${(bytesOf(result) / LIMIT).toFixed(2)} MiB serialized; Claude Desktop refuses results over 1 MiB`,
  ];
  const sizeFindings = (result: unknown) =>
    said(result)
      .filter(([id]) => id === 'default')
      .map(([, , message]) => message);
  // 600,000 two-byte characters: 1.14 MiB, though only 0.57 M characters.
  const wide = 'é'.repeat(600_000);

  it('counts a payload that is no canonical base64 by its UTF-8 bytes, in data and in blob', () => {
    // Only canonical base64 is one byte a character; these would pass at one.
    for (const result of [
      { content: [{ type: 'image', data: wide, mimeType: 'image/png' }] },
      { content: [{ type: 'audio', data: wide, mimeType: 'audio/wav' }] },
      { content: [{ type: 'resource', resource: { uri: 'file:///a.bin', blob: wide } }] },
    ]) {
      expect(sizeFindings(result)).toEqual(over(result));
    }
    // A member named otherwise is no payload, whatever it holds.
    const named = { content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png', note: wide }] };
    expect(sizeFindings(named)).toEqual(over(named));
  });

  it('counts only a text equal to structuredContent’s JSON as its mirror when bounding the bytes', () => {
    // 400,000 three-byte characters beside a structuredContent: 1.14 MiB. Taken for mirror text (at
    // most two bytes a character), they would seem to fit.
    const result = { content: [{ type: 'text', text: '€'.repeat(400_000) }], structuredContent: { a: 1 } };
    expect(sizeFindings(result)).toEqual(over(result));
    const mirrored = { ...result, content: [...result.content, { type: 'text', text: '{"a":1}' }] };
    expect(sizeFindings(mirrored)).toEqual(over(mirrored));
  });

  it('says nothing, and does not fail, on results it cannot measure as such', () => {
    for (const result of [
      null,
      'x',
      { content: 'x' },
      { content: [null, 5, { type: 'image', data: 5 }, { type: 'image' }] },
    ]) {
      expect(said(result), JSON.stringify(result)).toEqual([]);
    }
  });
});

describe('result-over-client-limits: more of what JSON writes', () => {
  const over = (result: unknown) => said(result).filter(([id]) => id === 'default').length > 0;

  it('walks what a toJSON returned, itself included, also past the call stack, and finds no cycle in it', () => {
    const itself = {
      a: 1,
      toJSON() {
        return this;
      },
    };
    expect(said({ content: [text('x')], _meta: { deep: [nested(LEVELS), itself] } })).toEqual([]);
    expect(said({ content: [text('x')], _meta: { shallow: itself } })).toEqual([]);
  });

  it('counts structuredContent by the UTF-8 bytes of its JSON', () => {
    // 400,000 three-byte characters: 1.14 MiB, in 0.38 M characters.
    const structured = { s: '€'.repeat(400_000) };
    expect(over({ content: [text('x')], structuredContent: structured })).toBe(true);
    expect(over({ content: [text(JSON.stringify(structured))], structuredContent: structured })).toBe(true);
  });

  it('counts numbers and booleans as JSON writes them, at the limit and one byte over', () => {
    for (const scalar of [7, false, true, null, Number.NaN, -1.5e-7]) {
      const make = (pad: number) => ({
        content: [text('x'.repeat(pad))],
        _meta: { list: Array.from({ length: 2_000 }, () => scalar) },
      });
      let pad = LIMIT - bytesOf(make(0));
      while (bytesOf(make(pad)) > LIMIT) pad--;
      expect(bytesOf(make(pad))).toBe(LIMIT);
      expect(over(make(pad)), `${String(scalar)} at the limit`).toBe(false);
      expect(over(make(pad + 1)), `${String(scalar)} one byte over`).toBe(true);
    }
  });
});
