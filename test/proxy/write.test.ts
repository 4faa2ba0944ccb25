/**
 * Writing frames: long texts go out in slices and repaired messages piece by piece, and the bytes are
 * exactly those of the whole text written at once, escapes and surrogate pairs at slice ends included.
 */

import { Writable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { writeJson, writeText } from '../../src/proxy/write.js';

/** A stream that keeps what it is given, taking each write on the next turn as a pipe would. */
function collector(): { stream: Writable; bytes: () => Buffer } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(Buffer.from(chunk)); // a copy: the writer reuses its buffer once called back
      setImmediate(callback);
    },
  });
  return { stream, bytes: () => Buffer.concat(chunks) };
}

const SLICE = 1 << 20;

/** A long string of the given units, which cross slice ends anywhere. */
const longString = fc
  .tuple(
    fc.array(fc.constantFrom('x', 'é', '😀', '"', '\\', '\n', '\u0001', '\ud800', '\udc00', '€'), {
      minLength: 1,
      maxLength: 6,
    }),
    fc.integer({ min: 1 << 15, max: SLICE + 50 }),
  )
  .map(([units, length]) => units.join('').repeat(Math.ceil(length / units.join('').length)));

describe('writeText', () => {
  it('writes a long text in slices as the bytes of the whole, surrogate pairs across slice ends included', async () => {
    // A pair straddles the first slice end.
    const text = `${'a'.repeat(SLICE - 1)}😀${'b'.repeat(10)}`;
    const { stream, bytes } = collector();
    await writeText(stream, text);
    expect(bytes().equals(Buffer.from(`${text}\n`))).toBe(true);
  });
});

describe('writeJson', () => {
  it('writes a repaired value piece by piece as exactly its JSON text', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 2 }), longString, longString, async (value, long, other) => {
        const message = {
          jsonrpc: '2.0',
          id: 1,
          result: { content: [{ type: 'text', text: long }, value, { [other.slice(0, 40)]: other }] },
        };
        const { stream, bytes } = collector();
        await writeJson(stream, message, SLICE + 1);
        expect(bytes().equals(Buffer.from(`${JSON.stringify(message)}\n`))).toBe(true);
      }),
      { numRuns: 12 },
    );
  });

  it('leaves a string that looks like its own placeholder as it is', async () => {
    const message = { a: '\u0000mcp-shape-long-0:0', b: 'y'.repeat(1 << 16), c: '"\u0000mcp-shape-long-:0"' };
    const { stream, bytes } = collector();
    await writeJson(stream, message, SLICE + 1);
    expect(bytes().toString()).toBe(`${JSON.stringify(message)}\n`);
  });

  it('writes a short value whole', async () => {
    const { stream, bytes } = collector();
    await writeJson(stream, { a: [1, 'é'] }, 20);
    expect(bytes().toString()).toBe('{"a":[1,"é"]}\n');
  });
});
