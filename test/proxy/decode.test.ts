/**
 * Decoding large frames: the same text as Buffer#toString('utf8') gives, and on the heap, never as one
 * external string (Node 24 makes long decoded ASCII external, which cost a full collection per large
 * message). Runs on every Node of the test matrix.
 */

import { getHeapStatistics } from 'node:v8';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeUtf8, externalizesLongStrings, joinedAscii } from '../../src/proxy/decode.js';

const MB = 1 << 20;

/** External memory the call added (positive when it allocated outside V8's heap). */
function externalGrowth(work: () => unknown): { growth: number; value: unknown } {
  const before = getHeapStatistics().external_memory;
  const value = work();
  return { growth: getHeapStatistics().external_memory - before, value };
}

function asciiBuffer(size: number, seed: number): Buffer {
  const bytes = Buffer.allocUnsafe(size);
  let s = seed >>> 0;
  for (let i = 0; i < size; i++) {
    s = (s * 1664525 + 1013904223) >>> 0;
    bytes[i] = 0x20 + (s >>> 25); // 0x20–0x9f would not be ASCII: the top 7 bits give 0–127
    if ((bytes[i] as number) > 0x7e) bytes[i] = 0x41;
  }
  return bytes;
}

describe('joinedAscii', () => {
  it('decodes ASCII as UTF-8 does, across and exactly at its 64 KB pieces', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(1, 65_535, 65_536, 65_537, 131_072, 200_003),
        fc.integer({ min: 0, max: 2 ** 31 }),
        (size, seed) => {
          const bytes = asciiBuffer(size, seed);
          expect(joinedAscii(bytes, size)).toBe(bytes.toString('utf8'));
          expect(joinedAscii(bytes, size - 1)).toBe(bytes.toString('utf8', 0, size - 1));
        },
      ),
      { numRuns: 12 },
    );
  });
});

describe('decodeUtf8', () => {
  it('gives what toString gives: small and large, ASCII and not, and a prefix', () => {
    const ascii = asciiBuffer(3 * MB + 5, 7);
    expect(decodeUtf8(ascii)).toBe(ascii.toString('utf8'));
    expect(decodeUtf8(ascii, 2 * MB + 1)).toBe(ascii.toString('utf8', 0, 2 * MB + 1));
    // Non-ASCII (a character split across any piece boundary would show here) is decoded whole.
    const mixed = Buffer.from(`${'é€😀x'.repeat(300_000)}"`);
    expect(decodeUtf8(mixed)).toBe(mixed.toString('utf8'));
    const invalid = Buffer.concat([ascii.subarray(0, 2 * MB), Buffer.from([0xc3, 0x28, 0xff])]);
    expect(decodeUtf8(invalid)).toBe(invalid.toString('utf8'));
    expect(decodeUtf8(Buffer.from('{"a":1}'))).toBe('{"a":1}');
  });

  it('leaves no long external string once a large ASCII frame has shown what the runtime does', () => {
    const bytes = asciiBuffer(6 * MB, 11);
    decodeUtf8(bytes); // the first large frame: the runtime's way is learnt from it
    expect(externalizesLongStrings()).toBeTypeOf('boolean');
    const { growth, value } = externalGrowth(() => decodeUtf8(bytes));
    expect(value).toBe(bytes.toString('utf8'));
    // An external copy of the text would add its 6 MB; on the heap it adds nothing outside it.
    expect(growth).toBeLessThan(MB);
  });

  it('learns that the runtime externalizes exactly when a plain decode adds the text to external memory', () => {
    const bytes = asciiBuffer(2 * MB, 3);
    decodeUtf8(bytes);
    const plain = externalGrowth(() => bytes.toString('utf8'));
    expect(externalizesLongStrings()).toBe(plain.growth >= bytes.length);
  });
});
