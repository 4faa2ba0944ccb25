import { isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeFrame, firstInvalidUtf8, invalidUtf8Lines } from '../../src/io/utf8.js';

/** Bytes near UTF-8: valid text with bytes changed, cut or inserted, so every kind of break occurs. */
const nearUtf8 = fc
  .tuple(
    fc.string({ unit: 'grapheme', maxLength: 20 }),
    fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 3 }),
    fc.nat(),
  )
  .map(([text, changes, cut]) => {
    const bytes = Buffer.from(text, 'utf8');
    for (const [at, byte] of changes) if (bytes.length > 0) bytes[at % bytes.length] = byte;
    return bytes.length > 0 ? bytes.subarray(0, bytes.length - (cut % Math.min(bytes.length, 3))) : bytes;
  });

describe('firstInvalidUtf8', () => {
  it('finds a bad byte exactly when Node says the bytes are not UTF-8', () => {
    fc.assert(
      fc.property(fc.oneof(nearUtf8, fc.uint8Array({ maxLength: 12 })), (raw) => {
        const bytes = Buffer.from(raw);
        const bad = firstInvalidUtf8(bytes);
        expect(bad === undefined).toBe(isUtf8(bytes));
        if (bad === undefined) return;
        // Everything before it is UTF-8, and a sequence that cannot be read begins there.
        expect(isUtf8(bytes.subarray(0, bad.offset))).toBe(true);
        expect(bad.byte).toBe(bytes[bad.offset]);
        expect(firstInvalidUtf8(bytes.subarray(bad.offset))?.offset).toBe(0);
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['Latin-1 é', [0x43, 0x61, 0x66, 0xe9], 3],
    ['an overlong slash', [0x61, 0xc0, 0xaf], 1],
    ['a UTF-16 surrogate', [0xed, 0xa0, 0x80], 0],
    ['a code point past U+10FFFF', [0xf4, 0x90, 0x80, 0x80], 0],
    ['a character cut short', [0x61, 0x62, 0xe2, 0x82], 2],
    ['a lone continuation byte', [0x80], 0],
  ])('names %s at its first byte', (_, bytes, offset) => {
    expect(firstInvalidUtf8(Uint8Array.from(bytes))).toEqual({ offset, byte: bytes[offset] });
  });
});

describe('decodeFrame', () => {
  it('decodes as Buffer#toString does, with the bad byte only when there is one', () => {
    expect(decodeFrame(Buffer.from('Café'))).toEqual({ text: 'Café' });
    expect(decodeFrame(Buffer.from('Café', 'latin1'))).toEqual({
      text: 'Caf\uFFFD',
      invalidUtf8: { offset: 3, byte: 0xe9 },
    });
  });
});

describe('invalidUtf8Lines', () => {
  it('names the first bad byte of each line, counting from the line, and none for UTF-8', () => {
    const bytes = Buffer.concat([
      Buffer.from('ok\n'),
      Buffer.from('Café \xff\n', 'latin1'),
      Buffer.from('Café\n'),
      Buffer.from('\x80', 'latin1'),
    ]);
    expect(invalidUtf8Lines(bytes)).toEqual([
      { line: 2, offset: 3, byte: 0xe9 },
      { line: 4, offset: 0, byte: 0x80 },
    ]);
    expect(invalidUtf8Lines(Buffer.from('Café\nok'))).toEqual([]);
    expect(invalidUtf8Lines(Buffer.from('\xff\n\xff\n\xff', 'latin1'), 2)).toHaveLength(2);
  });
});
