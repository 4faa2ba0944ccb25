import { isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeFrame,
  EscapingUtf8Decoder,
  firstInvalidUtf8,
  invalidUtf8Lines,
  unescapeBytes,
  utf8Problem,
} from '../../src/io/utf8.js';

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

describe('EscapingUtf8Decoder', () => {
  /** The bytes cut into chunks at `cuts`, decoded, and the text read back as a lenient client reads it. */
  function roundTrip(bytes: Uint8Array, cuts: readonly number[]) {
    const decoder = new EscapingUtf8Decoder();
    let text = '';
    let from = 0;
    for (const cut of [...cuts].map((c) => c % (bytes.length + 1)).sort((a, b) => a - b)) {
      text += decoder.decode(bytes.subarray(from, Math.max(from, cut)));
      from = Math.max(from, cut);
    }
    text += decoder.decode(bytes.subarray(from)) + decoder.end();
    return { read: unescapeBytes(text), escaped: decoder.escaped };
  }

  it('reads, however the bytes are cut, what fetch reads, and the first bad byte after a byte order mark', () => {
    const withBom = fc
      .tuple(fc.boolean(), nearUtf8)
      .map(([bom, bytes]) => (bom ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]) : bytes));
    fc.assert(
      fc.property(
        fc.oneof(withBom, fc.uint8Array({ maxLength: 12 })),
        fc.array(fc.nat(), { maxLength: 4 }),
        (raw, cuts) => {
          const bytes = Buffer.from(raw);
          const { read, escaped } = roundTrip(bytes, cuts);
          expect(read.text).toBe(new TextDecoder().decode(bytes));
          const body =
            bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
          expect(read.invalidUtf8).toEqual(utf8Problem(body));
          expect(escaped).toBe(!isUtf8(body));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('keeps a character split across chunks, and a U+FFFD or surrogate pair the server sent is not a bad byte', () => {
    const bytes = Buffer.from('\uFFFD 𝄞 \uDBFF\uDFFF é');
    for (let cut = 0; cut <= bytes.length; cut++)
      expect(roundTrip(bytes, [cut]).read).toEqual({ text: '\uFFFD 𝄞 \uDBFF\uDFFF é' });
    const bad = Buffer.concat([Buffer.from('𝄞'), Buffer.from([0xe9]), Buffer.from('\n')]);
    expect(roundTrip(bad, [2]).read).toEqual({ text: '𝄞\uFFFD\n', invalidUtf8: { offset: 4, byte: 0xe9 } });
  });
});
