import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { payloadFactsOfBytes, readPayload } from '../../src/core/payload.js';

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
      { numRuns: 1500 },
    );
  });
});
