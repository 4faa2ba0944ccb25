/**
 * readBase64 decodes a long canonical value a chunk at a time (src/core/base64.ts). It must say exactly
 * what one `atob` of the whole value says: the same problem, and decoded bytes that begin the same.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodedLength, readBase64 } from '../../src/core/base64.js';

/** The definition readBase64 implements, by one `atob` of the whole value. */
function whole(value: string): { problem: string | undefined; binary?: string } {
  let binary: string;
  try {
    binary = atob(value);
  } catch {
    return { problem: 'invalid-or-base64url' };
  }
  const canonical = value.length % 4 === 0 && binary.length === decodedLength(value);
  return { problem: canonical ? undefined : 'non-canonical', binary };
}

const CHUNK = 65_536;
const bytes = (n: number) => Buffer.from(Uint8Array.from({ length: n }, (_, i) => (i * 7919 + 13) & 0xff));

/** A long canonical value, with one edit: a character at a chunk boundary or anywhere. */
const edited = fc
  .record({
    size: fc.constantFrom(CHUNK * 0.75 - 2, CHUNK * 0.75, CHUNK * 0.75 + 1, 3 * CHUNK * 0.75 + 2, 200_000),
    at: fc.oneof(
      fc.constantFrom(CHUNK - 1, CHUNK, CHUNK - 2, 2 * CHUNK - 1, 2 * CHUNK),
      fc.nat({ max: 270_000 }),
    ),
    edit: fc.constantFrom('none', '=', '==', ' ', '\n', '-', '%', 'drop', 'A'),
  })
  .map(({ size, at, edit }) => {
    const value = bytes(size).toString('base64');
    const i = Math.min(at, value.length);
    if (edit === 'none') return value;
    if (edit === 'drop') return value.slice(0, i) + value.slice(i + 1);
    return value.slice(0, i) + edit + value.slice(i + 1);
  });

describe('readBase64 on long values', () => {
  it('says what one atob of the whole value says', () => {
    fc.assert(
      fc.property(edited, (value) => {
        const reading = readBase64(value);
        const expected = whole(value);
        if (expected.problem === 'invalid-or-base64url') {
          expect(['invalid', 'base64url']).toContain(reading.problem);
          expect(reading.binary).toBeUndefined();
          return;
        }
        expect(reading.problem).toBe(expected.problem);
        const head = reading.binary ?? '';
        expect(head.length).toBeGreaterThan(Math.min(4100, (expected.binary ?? '').length) - 1);
        expect(expected.binary?.startsWith(head)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it('decodes only the first chunk of a long canonical value', () => {
    const value = bytes(300_000).toString('base64');
    const reading = readBase64(value);
    expect(reading.problem).toBeUndefined();
    expect(reading.binary?.length).toBe((CHUNK * 3) / 4);
  });
});
