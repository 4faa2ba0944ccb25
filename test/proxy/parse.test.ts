/**
 * parseFrame on large frames: the value is JSON.parse's, and long strings that need no unescaping are
 * slices of the frame text rather than copies, so the parsed value adds little to the frame it came
 * from. A copy would show as the string's size in V8's heap; a slice does not. The strings before the
 * long one (escaped quotes, backslash runs, keys followed by any JSON whitespace) are the ones a quote
 * walk can lose its place in.
 */

import { describe, expect, it } from 'vitest';
import { LARGE_FRAME_CHARS, releasedBytes } from '../../src/proxy/memory.js';
import { NOT_JSON, parseFrame } from '../../src/proxy/parse.js';

/** 4 MB: a copy of it in the heap cannot hide among the test's own allocations. */
const BIG = 4 << 20;

/** Heap bytes `make` adds that outlive a full collection, with what it made (kept alive until then). */
function retained<T>(make: () => T): { bytes: number; value: T } {
  releasedBytes(LARGE_FRAME_CHARS);
  const before = process.memoryUsage().heapUsed;
  const value = make();
  releasedBytes(LARGE_FRAME_CHARS);
  return { bytes: process.memoryUsage().heapUsed - before, value };
}

/** The text made flat in the heap, as a decoded frame is. */
const flat = (text: string) => JSON.parse(JSON.stringify(text)) as string;

const LONG_KEY = 'k'.repeat(1 << 15);

/** Members that come before the big string, each one a way for a quote walk to lose its place. */
const TRICKY_MEMBERS = [
  '"short":"a\\"b"', // an escaped quote
  '"even":"x\\\\"', // a string that ends in an escaped backslash
  '"odd":"y\\\\\\""', // a backslash run ending in an escaped quote
  `"${LONG_KEY}1" :1`, // long keys, followed by each kind of JSON whitespace
  `"${LONG_KEY}2"\t:2`,
  `"${LONG_KEY}3"\n:3`,
  `"${LONG_KEY}4"\r:4`,
  `"${LONG_KEY}5":5`,
  `"escaped":"${'e'.repeat(1 << 15)}\\n\\u00e9${'e'.repeat(10)}"`, // long, but needs unescaping
  `"exact":"${'x'.repeat(1 << 15)}"`, // exactly long enough
];

describe('parseFrame on large frames', () => {
  for (const member of TRICKY_MEMBERS) {
    it(`parses as JSON.parse does, and holds a long plain string after ${JSON.stringify(member.slice(0, 24))} as a slice`, () => {
      const text = flat(`{${member},"big":"${'b'.repeat(BIG)}","after":"${'z'.repeat(1 << 15)}\\"q"}`);
      const { bytes, value } = retained(() => parseFrame(text));
      expect(value).toEqual(JSON.parse(text));
      // A copy would add the 4 MB; the slice and the rest of the value are well under 1 MB.
      expect(bytes).toBeLessThan(1 << 20);
    });
  }

  it('holds strings of exactly 32 KiB as slices, many of them adding little', () => {
    const strings = Array.from({ length: 128 }, (_, n) => `${n}`.padEnd(1 << 15, 'x'));
    const text = flat(`{"list":${JSON.stringify(strings)},"pad":"${'p'.repeat(1 << 20)}"}`);
    const { bytes, value } = retained(() => parseFrame(text));
    expect(value).toEqual(JSON.parse(text));
    // 128 copies would add 4 MB.
    expect(bytes).toBeLessThan(1 << 20);
  });

  it('holds a long string that is the whole frame as a slice', () => {
    const text = flat(`  "${'s'.repeat(BIG)}"  `);
    const { bytes, value } = retained(() => parseFrame(text));
    expect(value).toBe(JSON.parse(text));
    expect(bytes).toBeLessThan(1 << 20);
  });

  it('takes the caller’s word that a frame holds no control character', () => {
    const text = flat(`{"a":"${'c'.repeat(BIG)}"}`);
    const { bytes, value } = retained(() => parseFrame(text, true));
    expect(value).toEqual({ a: 'c'.repeat(BIG) });
    expect(bytes).toBeLessThan(1 << 20);
  });

  it('copies a frame under 1 MB as JSON.parse does', () => {
    const text = `{"a":"${'c'.repeat((1 << 20) - 100)}"}`;
    expect(parseFrame(text)).toEqual(JSON.parse(text));
  });

  it('leaves Error.stackTraceLimit as it was, whether the frame parses or not', () => {
    const limit = Error.stackTraceLimit;
    // A value of its own: a parse earlier in this file that left the limit at 0 would otherwise pass.
    Error.stackTraceLimit = 17;
    try {
      expect(parseFrame('{"a":')).toBe(NOT_JSON);
      expect(Error.stackTraceLimit).toBe(17);
      expect(parseFrame('{"a":1}')).toEqual({ a: 1 });
      expect(parseFrame('nope')).toBe(NOT_JSON);
      expect(Error.stackTraceLimit).toBe(17);
    } finally {
      Error.stackTraceLimit = limit;
    }
  });
});
