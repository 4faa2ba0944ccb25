/**
 * Writing frames: long texts go out in slices and repaired messages piece by piece, and the bytes are
 * exactly those of the whole text written at once, escapes and surrogate pairs at slice ends included.
 */

import { Writable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { writeBytes, writeJson, writeText } from '../../src/proxy/write.js';

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

  it('keeps together a pair straddling any slice end, whichever its high surrogate, from the first to the last', async () => {
    // U+10000 and U+10FFFF have the first and the last high surrogate: a test of the range that
    // missed either end would split them into two U+FFFD.
    for (const pair of ['\ud800\udc00', '\ud83d\ude00', '\udbff\udfff']) {
      // The first slice ends before the first pair, so the second starts with it and ends in the second.
      const text = `${'a'.repeat(SLICE - 1)}${pair}${'b'.repeat(SLICE - 3)}${pair}${'c'.repeat(10)}`;
      const { stream, bytes } = collector();
      await writeText(stream, text);
      expect(bytes().equals(Buffer.from(`${text}\n`)), JSON.stringify(pair)).toBe(true);
    }
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

describe('writing with flow control', () => {
  /** A stream whose writes the test takes when it says: it reports backpressure past one byte. */
  function held() {
    const chunks: Buffer[] = [];
    const callbacks: (() => void)[] = [];
    const stream = new Writable({
      highWaterMark: 1,
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(Buffer.from(chunk));
        callbacks.push(callback);
      },
    });
    const take = async () => {
      for (let next = callbacks.shift(); next; next = callbacks.shift()) {
        next();
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    return { stream, take, text: () => Buffer.concat(chunks).toString('utf8') };
  }

  it('writes bytes as they are, adding the \\n only to an unterminated frame, and waits only for a reader behind', async () => {
    const { stream, bytes } = collector();
    expect(writeBytes(stream, Buffer.from('{"a":1}\r\n'))).toBeUndefined();
    expect(writeBytes(stream, Buffer.from('{"b":2}'))).toBeUndefined();
    await new Promise((resolve) => stream.end(resolve));
    expect(bytes().toString()).toBe('{"a":1}\r\n{"b":2}\n');
    const slow = held();
    let done = false;
    const waiting = writeBytes(slow.stream, Buffer.from('{"c":3}\n'))?.then(() => {
      done = true;
    });
    expect(waiting).toBeInstanceOf(Promise);
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toBe(false);
    await slow.take();
    await waiting;
    expect(slow.text()).toBe('{"c":3}\n');
  });

  it('makes a short text wait for a reader behind, and not otherwise', async () => {
    const { stream } = collector();
    expect(writeText(stream, 'x')).toBeUndefined();
    const slow = held();
    const waiting = writeText(slow.stream, 'y');
    expect(waiting).toBeInstanceOf(Promise);
    await slow.take();
    await waiting;
    expect(slow.text()).toBe('y\n');
  });

  it('writes nothing to a stream that is gone', async () => {
    const { stream, bytes } = collector();
    stream.destroy();
    expect(writeBytes(stream, Buffer.from('a\n'))).toBeUndefined();
    expect(writeText(stream, 'b')).toBeUndefined();
    expect(writeText(stream, 'c'.repeat(SLICE + 1))).toBeUndefined();
    expect(writeJson(stream, { d: 'd'.repeat(SLICE) }, SLICE + 10)).toBeUndefined();
    await new Promise((resolve) => setImmediate(resolve));
    expect(bytes().length).toBe(0);
  });

  it('stops writing a long text once the stream is gone, and resolves', async () => {
    const chunks: Buffer[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(Buffer.from(chunk));
        callback();
        stream.destroy();
      },
    });
    stream.on('error', () => {});
    await writeText(stream, 'e'.repeat(5 * SLICE));
    expect(Buffer.concat(chunks).toString()).toBe('e'.repeat(SLICE));
  });

  it('waits, once a long text is handed over, until a reader behind has taken it', async () => {
    const slow = held();
    let done = false;
    const waiting = writeText(slow.stream, 'f'.repeat(SLICE + 1))?.then(() => {
      done = true;
    });
    await slow.take();
    await new Promise((resolve) => setImmediate(resolve));
    await slow.take();
    await waiting;
    expect(done).toBe(true);
    expect(slow.text()).toBe(`${'f'.repeat(SLICE + 1)}\n`);
  });

  it('ends with \\n a long text whose last slice fills the slice buffer to its last byte', async () => {
    // SLICE units of 1 048 580 bytes, then 699 052 three-byte units: 3 × SLICE + 8 bytes, the buffer's size.
    const text = `${'a'.repeat(SLICE - 2)}€€${'€'.repeat(699_052)}`;
    expect(Buffer.byteLength(text)).toBe(3 * SLICE + 8);
    const { stream, bytes } = collector();
    await writeText(stream, text);
    expect(bytes().equals(Buffer.from(`${text}\n`))).toBe(true);
  });
});
