/** Facts about one base64 payload (src/core/payload.ts), shared by every block rule that asks. */

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EMPTY,
  payloadFactsAt,
  payloadFactsOfBytes,
  pngHeadLimit,
  pngHeadWithin,
  pngLongestSide,
  pngSideOver,
  readPayload,
  sniffDecoded,
  startsLikePng,
} from '../../src/core/payload.js';
import { FactScope, runInScope } from '../../src/core/run-memo.js';
import { agreesWithBytes } from '../../src/core/sniff.js';
import { runs } from '../support/runs.js';

const png = readFileSync(join(import.meta.dirname, '../../fixtures/media/image.png'));

/** A PNG signature and IHDR chunk of the given size. */
function pngHeader(width: number, height: number): Buffer {
  const header = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(header);
  header.writeUInt32BE(13, 8);
  header.write('IHDR', 12, 'latin1');
  header.writeUInt32BE(width, 16);
  header.writeUInt32BE(height, 20);
  return header;
}

describe('readPayload', () => {
  it('sniffs a valid payload and reads a PNG size from its header', () => {
    const facts = readPayload(png.toString('base64'));
    expect(facts.problem).toBeUndefined();
    expect(facts.sniffed?.mimeType).toBe('image/png');
    expect(facts.pngSize).toEqual({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });
  });

  it('reads sizes of 2^31 and more as positive numbers', () => {
    expect(readPayload(pngHeader(0x80000001, 0xffffffff).toString('base64')).pngSize).toEqual({
      width: 0x80000001,
      height: 0xffffffff,
    });
    expect(readPayload(pngHeader(0x01020304, 7).toString('base64')).pngSize).toEqual({
      width: 0x01020304,
      height: 7,
    });
  });

  it('has no PNG size for other bytes or a header cut short', () => {
    const gif = readPayload(Buffer.from('GIF89a\x01\x00\x01\x00').toString('base64'));
    expect(gif).toEqual({ problem: undefined, sniffed: expect.objectContaining({ mimeType: 'image/gif' }) });
    expect(Object.hasOwn(gif, 'pngSize')).toBe(false);
    expect(readPayload(pngHeader(1, 1).subarray(0, 23).toString('base64')).pngSize).toBeUndefined();
    expect(readPayload(pngHeader(2, 3).subarray(0, 24).toString('base64')).pngSize).toEqual({
      width: 2,
      height: 3,
    });
    const notPng = pngHeader(1, 1);
    notPng[1] = 0x51;
    expect(readPayload(notPng.toString('base64')).pngSize).toBeUndefined();
    notPng[1] = 0x50;
    notPng[0] = 0x88;
    expect(readPayload(notPng.toString('base64')).pngSize).toBeUndefined();
  });

  it('has no PNG size without the whole signature and an IHDR chunk first: filler states no size', () => {
    const filler = Buffer.alloc(64, 7);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(filler);
    const facts = readPayload(filler.toString('base64'));
    // Not a PNG to the sniffer either (it wants the IHDR chunk too, as file-type does).
    expect(facts.sniffed?.mimeType).toBeUndefined();
    expect(facts.pngSize).toBeUndefined();
    const otherChunk = pngHeader(9000, 9000);
    otherChunk.write('tEXt', 12, 'latin1');
    expect(readPayload(otherChunk.toString('base64')).pngSize).toBeUndefined();
    const cutSignature = pngHeader(9000, 9000);
    cutSignature[7] = 0x00;
    expect(readPayload(cutSignature.toString('base64')).pngSize).toBeUndefined();
    expect(payloadFactsOfBytes(filler)).toEqual(facts);
  });

  it('sniffs what atob forgives, nothing it rejects, and an empty payload as no bytes at all', () => {
    expect(readPayload('R0lGODlh AQABAA').sniffed?.mimeType).toBe('image/gif');
    expect(readPayload('R0lGODlh AQABAA').problem).toBe('non-canonical');
    expect(readPayload('%%%')).toEqual({ problem: 'invalid', sniffed: undefined });
    expect(readPayload('')).toEqual({ problem: undefined, sniffed: EMPTY });
    expect(payloadFactsOfBytes(new Uint8Array(0))).toEqual(readPayload(''));
  });
});

describe('payloadFactsAt', () => {
  it('reads the string at holder[key], once per validation', () => {
    const block = { type: 'image', data: png.toString('base64'), mimeType: 7 };
    expect(payloadFactsAt(block, 'mimeType')).toBeUndefined();
    const outside = payloadFactsAt(block, 'data');
    expect(outside?.sniffed?.mimeType).toBe('image/png');
    expect(payloadFactsAt(block, 'data')).not.toBe(outside);
    runInScope(new FactScope(), () => {
      const first = payloadFactsAt(block, 'data');
      expect(payloadFactsAt(block, 'data')).toBe(first);
    });
  });
});

const dir = join(import.meta.dirname, '../../fixtures/media');
const media = readdirSync(dir)
  .filter((name) => !name.endsWith('.md'))
  .map((name) => new Uint8Array(readFileSync(join(dir, name))));

describe('payloadFactsOfBytes()', () => {
  it('finds what readPayload finds in the base64 of the same bytes', () => {
    const signatures = fc.constantFrom(...media.map((m) => m.subarray(0, 64)), new Uint8Array(0));
    const bytes = fc.oneof(
      fc.constantFrom(...media),
      fc.uint8Array({ maxLength: 80 }),
      fc.tuple(signatures, fc.uint8Array({ maxLength: 5000 })).map(([head, tail]) => {
        const out = new Uint8Array(head.length + tail.length);
        out.set(head);
        out.set(tail, head.length);
        return out;
      }),
    );
    fc.assert(
      fc.property(bytes, (b) => {
        expect(payloadFactsOfBytes(b)).toEqual(readPayload(Buffer.from(b).toString('base64')));
      }),
      { numRuns: runs(1500) },
    );
  });
});

describe('the PNG facts read from decoded bytes (startsLikePng, pngLongestSide)', () => {
  /** Bytes at and around a PNG header: the signature whole or broken, IHDR or not, any size. */
  const bytes = fc
    .record({
      width: fc.oneof(fc.nat(), fc.constantFrom(0, 8000, 8001, 0xffffffff)),
      height: fc.oneof(fc.nat(), fc.constantFrom(0, 8000, 8001, 0xffffffff)),
      cut: fc.nat({ max: 40 }),
      flip: fc.option(fc.record({ at: fc.nat({ max: 24 }), byte: fc.nat({ max: 255 }) })),
      tail: fc.uint8Array({ maxLength: 20 }),
    })
    .map(({ width, height, cut, flip, tail }) => {
      const b = Buffer.concat([pngHeader(width, height), tail]).subarray(0, cut);
      if (flip && flip.at < b.length) b[flip.at] = flip.byte;
      return b;
    });

  it('say what readPayload reads of the same bytes', () => {
    fc.assert(
      fc.property(bytes, (b) => {
        const binary = b.toString('latin1');
        const facts = readPayload(b.toString('base64'));
        expect(startsLikePng(binary)).toBe(binary.startsWith('\x89PNG\r\n\x1a\n'));
        const side = startsLikePng(binary) ? pngLongestSide(binary) : -1;
        const size = facts.pngSize;
        expect(side).toBe(size === undefined ? -1 : Math.max(size.width, size.height));
      }),
      { numRuns: runs(3000) },
    );
  });

  it('pngSideOver and pngHeadWithin say what pngLongestSide says of a limit', () => {
    // Sides at the limits the media walk asks about (8000) and at every byte boundary of a side.
    const side = fc.oneof(
      {
        weight: 4,
        arbitrary: fc.constantFrom(0, 1, 0xff, 0x100, 0x1eff, 0x1f00, 7_999, 8_000, 8_001, 0x1fff, 0xffff),
      },
      fc.constantFrom(0x10000, 0x1000000, 0xffffffff, 0x00010000 + 8_000),
      fc.nat(),
    );
    const header = fc
      .record({
        width: side,
        height: side,
        cut: fc.constantFrom(8, 16, 23, 24, 40, 40, 40),
        flip: fc.oneof(
          { weight: 3, arbitrary: fc.constant(null) },
          fc.record({ at: fc.nat({ max: 23 }), byte: fc.nat({ max: 255 }) }),
        ),
      })
      .map(({ width, height, cut, flip }) => {
        const b = pngHeader(width, height).subarray(0, cut);
        if (flip && flip.at < b.length) b[flip.at] = flip.byte;
        return b.toString('latin1');
      });
    let within = 0;
    fc.assert(
      fc.property(header, fc.constantFrom(8_000, 0, 255, 256, 65_534), (binary, max) => {
        if (startsLikePng(binary)) expect(pngSideOver(binary, max)).toBe(pngLongestSide(binary) > max);
        if (pngHeadWithin(binary, max, pngHeadLimit(max))) {
          within++;
          expect(startsLikePng(binary)).toBe(true);
          expect(pngLongestSide(binary)).toBeGreaterThanOrEqual(0);
          expect(pngLongestSide(binary)).toBeLessThanOrEqual(max);
        } else if (binary.length >= 24 && binary.slice(8, 12) === '\0\0\0\r' && startsLikePng(binary)) {
          // A header laid out as the quick test expects is turned away only for a side over the limit.
          expect(pngLongestSide(binary) > max || pngLongestSide(binary) < 0).toBe(true);
        }
      }),
      { numRuns: runs(3000) },
    );
    expect(within).toBeGreaterThan(runs(3000) / 50);
  });

  it('bytes that start with the PNG signature agree with a declared PNG, whatever follows', () => {
    // The media walk's shortcut (src/validate/fast-path.ts, smallPayloadOk): the sniffer finds PNG or
    // APNG in them, or nothing, and then the signature is there, as a declared PNG requires.
    const chunk = fc
      .record({
        length: fc.oneof(fc.nat({ max: 64 }), fc.constantFrom(13, 0x7fffffff, 0xffffffff)),
        type: fc.constantFrom('IHDR', 'IDAT', 'acTL', 'CgBI', 'IEND', 'tEXt', '\0\0\0\0'),
        data: fc.uint8Array({ maxLength: 30 }),
      })
      .map(({ length, type, data }) => {
        const head = Buffer.alloc(8);
        head.writeUInt32BE(length);
        head.write(type, 4, 'latin1');
        return Buffer.concat([head, data]);
      });
    const png = fc
      .tuple(fc.array(chunk, { maxLength: 4 }), fc.uint8Array({ maxLength: 40 }))
      .map(([chunks, tail]) =>
        Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ...chunks, tail]),
      );
    const declared = fc.constantFrom('image/png', 'IMAGE/PNG', 'image/png; x=y', 'image/x-png', 'image/apng');
    fc.assert(
      fc.property(
        fc.oneof(
          png,
          bytes.filter((b) => startsLikePng(b.toString('latin1'))),
        ),
        declared,
        (b, mime) => {
          expect(agreesWithBytes(mime, sniffDecoded(b.toString('latin1')))).toBe(true);
        },
      ),
      { numRuns: runs(3000) },
    );
  });
});
