/**
 * The synchronous sniffer (src/core/magic.ts) against file-type, its authority: on real encoder output
 * (fixtures/media, made with ffmpeg, ImageMagick, cwebp and libheif; see its README) and on random bytes
 * behind every signature, whenever the fast sniffer names a type, file-type names the same one. The
 * formats it leaves to file-type are pinned too.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { fileTypeFromBuffer } from 'file-type/core';
import { describe, expect, it } from 'vitest';
import { sniffMagic, sniffMagicAnswer } from '../../src/core/magic.js';
import { sniffBytes, sniffSync } from '../../src/core/sniff.js';
import { runs } from '../support/runs.js';

const dir = join(import.meta.dirname, '../../fixtures/media');
const samples = readdirSync(dir)
  .filter((f) => f !== 'README.md')
  .sort()
  .map((name) => ({ name, bytes: new Uint8Array(readFileSync(join(dir, name))) }));

async function fileType(bytes: Uint8Array): Promise<string | undefined> {
  try {
    return (await fileTypeFromBuffer(bytes.subarray(0, 4100)))?.mime;
  } catch {
    return undefined;
  }
}

function binary(bytes: Uint8Array): string {
  return String.fromCharCode(...bytes);
}

/**
 * Real files of formats outside the fast sniffer's list: only file-type names them, so the asynchronous
 * validators see their type and the synchronous ones do not (the documented difference).
 */
const FILE_TYPE_ONLY: Readonly<Record<string, string>> = {
  'audio.aiff': 'audio/aiff',
  'document.svg.gz': 'application/gzip',
  'image.psd': 'image/vnd.adobe.photoshop',
  'image.tiff': 'image/tiff',
};

/** Real files that are text without a signature: neither sniffer names a type (SVG is seen from the markup). */
const NO_SIGNATURE = ['image.svg'];

describe('synchronous magic numbers against file-type', () => {
  it('covers every format the issue lists, from real encoder output', () => {
    const names = samples.map((s) => s.name);
    for (const expected of [
      'image.png',
      'anim.apng',
      'image.jpg',
      'image.gif',
      'image.webp',
      'image.bmp',
      'image.ico',
      'image.avif',
      'image.heic',
      'image.svg',
      'audio.wav',
      'audio-raw.mp3',
      'audio-id3.mp3',
      'audio.opus',
      'audio.flac',
      'audio.aac',
      'audio.m4a',
      'video.webm',
      'document.pdf',
    ]) {
      expect(names).toContain(expected);
    }
  });

  it.each(samples.map((s) => [s.name, s.bytes] as const))(
    '%s: same type as file-type',
    async (name, bytes) => {
      const expected = await fileType(bytes);
      const ours = sniffMagic(bytes);
      if (Object.hasOwn(FILE_TYPE_ONLY, name)) {
        expect(ours).toBeUndefined();
        expect(expected).toBe(FILE_TYPE_ONLY[name]);
      } else if (NO_SIGNATURE.includes(name)) {
        expect(ours).toBeUndefined();
        expect(expected).toBeUndefined();
      } else {
        expect(expected).toBeDefined();
        expect(ours).toBe(expected);
      }
      // A binary string (what atob returns, and what the validators sniff) reads the same.
      expect(sniffMagic(binary(bytes))).toBe(ours);
    },
  );

  it('sniffBytes (the asynchronous sniffer) answers as file-type does on every sample', async () => {
    for (const { name, bytes } of samples) {
      const sniffed = await sniffBytes(bytes);
      expect(sniffed.mimeType, name).toBe(await fileType(bytes));
      expect(sniffSync(bytes).text, name).toBe(sniffed.text);
    }
  });

  it('never contradicts file-type on truncated, mutated or random bytes', { timeout: 120_000 }, async () => {
    const truncated = fc
      .record({ sample: fc.constantFrom(...samples), length: fc.nat({ max: 4100 }) })
      .map(({ sample, length }) => sample.bytes.slice(0, length));
    const mutated = fc
      .record({
        sample: fc.constantFrom(...samples),
        edits: fc.array(fc.tuple(fc.nat({ max: 300 }), fc.nat({ max: 255 })), { minLength: 1, maxLength: 6 }),
      })
      .map(({ sample, edits }) => {
        const bytes = sample.bytes.slice();
        for (const [at, value] of edits) if (at < bytes.length) bytes[at] = value;
        return bytes;
      });
    // Each format's opening, then bytes of any kind: whatever follows a signature must not fool it.
    const openings = samples.map((s) => s.bytes.slice(0, 16));
    const behindSignature = fc
      .record({
        opening: fc.constantFrom(...openings),
        keep: fc.integer({ min: 1, max: 16 }),
        tail: fc.uint8Array({ maxLength: 600 }),
      })
      .map(({ opening, keep, tail }) => Uint8Array.from([...opening.slice(0, keep), ...tail]));
    const random = fc.uint8Array({ maxLength: 64 });
    let decided = 0;
    let nothing = 0;
    await fc.assert(
      fc.asyncProperty(fc.oneof(truncated, mutated, behindSignature, random), async (bytes) => {
        const answer = sniffMagicAnswer(bytes);
        expect(sniffMagic(bytes)).toBe(answer ?? undefined);
        expect(sniffSync(bytes).settled).toBe(answer !== undefined);
        if (answer === undefined) return;
        // A type, or null where file-type is said to find none: either way, file-type's own answer.
        if (answer === null) nothing++;
        else decided++;
        expect(answer ?? undefined, Buffer.from(bytes.subarray(0, 48)).toString('hex')).toBe(
          await fileType(bytes),
        );
      }),
      { numRuns: runs(4000) },
    );
    // The property must actually be exercised: most generated inputs keep a recognisable signature, and
    // many break it in a way that stops file-type's detection (a PNG chunk running past the end, say).
    expect(decided).toBeGreaterThan(runs(4000) / 4);
    expect(nothing).toBeGreaterThan(runs(4000) / 20);
  });
});
