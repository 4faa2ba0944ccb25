/**
 * Framing and parsing on the proxy's hot path: only `\n` ends a frame, whatever the chunking; large
 * frames parse to exactly what JSON.parse gives, invalid ones stay invalid.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FrameSplitter } from '../../src/proxy/frames.js';
import { NOT_JSON, parseFrame } from '../../src/proxy/parse.js';

/** Feeds `bytes` to a splitter in the given chunk sizes; returns the frames and the rest. */
function split(bytes: Buffer, sizes: readonly number[]): { frames: string[]; rest: string | undefined } {
  const splitter = new FrameSplitter();
  const frames: string[] = [];
  let at = 0;
  for (let i = 0; at < bytes.length; i++) {
    const size = Math.max(1, sizes[i % Math.max(1, sizes.length)] ?? 1);
    frames.push(...splitter.push(bytes.subarray(at, at + size)));
    at += size;
  }
  return { frames, rest: splitter.end() };
}

describe('FrameSplitter', () => {
  it('ends frames at \\n only: a lone \\r stays inside, \\r\\n keeps its \\r', () => {
    const input = Buffer.from('{"a":\r1}\n{"b":2}\r\n\rx\ry\n');
    expect(split(input, [3])).toEqual({ frames: ['{"a":\r1}', '{"b":2}\r', '\rx\ry'], rest: undefined });
  });

  it('gives the same frames for any chunking, multi-byte characters included', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: fc.constantFrom('a', 'é', '€', '😀', '\r', '"', ' ') }), { maxLength: 8 }),
        fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 5 }),
        (lines, sizes) => {
          const text = lines.map((line) => `${line}\n`).join('');
          expect(split(Buffer.from(text), sizes)).toEqual({ frames: lines, rest: undefined });
        },
      ),
    );
  });

  it('hands back an unterminated last frame at the end of input', () => {
    expect(split(Buffer.from('{"a":1}\n{"b":'), [4])).toEqual({ frames: ['{"a":1}'], rest: '{"b":' });
  });
});

/** JSON text of `value` with a long string somewhere, as a large frame has. */
const longText = fc
  .tuple(
    fc.string({ unit: fc.constantFrom('x', 'é', '😀', '\\', '"', '\n', '\u0001', ' ') }),
    fc.integer({ min: 1 << 15, max: 1 << 16 }),
  )
  .map(
    ([piece, length]) =>
      piece.repeat(Math.ceil(length / Math.max(1, piece.length))).slice(0, length) || 'x'.repeat(length),
  );

describe('parseFrame', () => {
  it('parses large frames exactly as JSON.parse does, long strings (and keys) included', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), longText, longText, (value, long, key) => {
        const document = {
          before: value,
          long,
          [key]: [long, { nested: long }],
          after: value,
          padding: 'p'.repeat(1 << 20),
        };
        const text = JSON.stringify(document);
        expect(parseFrame(text)).toEqual(JSON.parse(text));
      }),
      { numRuns: 25 },
    );
  });

  it('says NOT_JSON for what JSON.parse rejects, however long, and never throws', () => {
    const long = 'y'.repeat(1 << 16);
    const padding = 'p'.repeat(1 << 20);
    const broken = [
      `{"a":"${long}","b":"${padding}"`, // unterminated object
      `{"a":"${long}\u0001","b":"${padding}"}`, // a raw control character inside a long string
      `{"a":"${long}","b":"${padding}",}`, // trailing comma
      `{"a":"${long}" "b":"${padding}"}`, // missing comma between members
      `{"a":"${long}\\q","b":"${padding}"}`, // invalid escape
      `{"a":"${long}`, // unterminated string
      '',
      'not json',
    ];
    for (const text of broken) {
      expect(() => JSON.parse(text)).toThrow();
      expect(parseFrame(text)).toBe(NOT_JSON);
    }
  });
});
