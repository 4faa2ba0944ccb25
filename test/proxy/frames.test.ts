/**
 * Framing and parsing on the proxy's hot path: only `\n` ends a frame, whatever the chunking; large
 * frames parse to exactly what JSON.parse gives, invalid ones stay invalid.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { controlFree, type Frame, FrameSplitter } from '../../src/proxy/frames.js';
import { NOT_JSON, parseFrame } from '../../src/proxy/parse.js';
import { runs } from '../support/runs.js';

/** Feeds `bytes` to a splitter in the given chunk sizes; returns the frames and the rest. */
function splitFrames(
  bytes: Buffer,
  sizes: readonly number[],
  limit?: number,
): { frames: Frame[]; rest: Frame | undefined } {
  const splitter = new FrameSplitter(limit);
  const frames: Frame[] = [];
  let at = 0;
  for (let i = 0; at < bytes.length; i++) {
    const size = Math.max(1, sizes[i % Math.max(1, sizes.length)] ?? 1);
    frames.push(...splitter.push(bytes.subarray(at, at + size)));
    at += size;
  }
  return { frames, rest: splitter.end() };
}

/** The frames' texts. */
function split(bytes: Buffer, sizes: readonly number[]): { frames: string[]; rest: string | undefined } {
  const { frames, rest } = splitFrames(bytes, sizes);
  return { frames: frames.map((f) => f.text), rest: rest?.text };
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
          // Every frame keeps its bytes: a view of its chunk, or the staging buffer it was copied into.
          const { frames } = splitFrames(Buffer.from(text), sizes);
          expect(Buffer.concat(frames.map((f) => f.bytes ?? Buffer.alloc(0))).equals(Buffer.from(text))).toBe(
            true,
          );
        },
      ),
    );
  });

  it("gives each frame's bytes exactly as they arrived, its \\n and bytes that are no UTF-8 included", () => {
    // A frame without bytes is written as its text encoded (write.ts), with a \n after it.
    const written = (frame: Frame, newline: string) => frame.bytes ?? Buffer.from(`${frame.text}${newline}`);
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 12 }).map((b) => Buffer.from(b.filter((x) => x !== 0x0a)))),
        fc.uint8Array({ maxLength: 6 }).map((b) => Buffer.from(b.filter((x) => x !== 0x0a))),
        fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 5 }),
        (lines, last, sizes) => {
          const terminated = lines.map((line) => Buffer.concat([line, Buffer.from('\n')]));
          const { frames, rest } = splitFrames(Buffer.concat([...terminated, last]), sizes);
          expect(frames.map((f) => written(f, '\n'))).toEqual(terminated);
          expect(frames.map((f) => f.text)).toEqual(lines.map((line) => line.toString('utf8')));
          expect(rest === undefined ? undefined : written(rest, '')).toEqual(
            last.length === 0 ? undefined : last,
          );
        },
      ),
    );
  });

  it('hands each frame that spans chunks its own staging buffer, valid UTF-8 or not', () => {
    const valid = Buffer.from('{"a":"é😀"}\n');
    const invalid = Buffer.from([
      ...Buffer.from('{"a":"'),
      0xc3,
      0x28,
      0xed,
      0xa0,
      0x80,
      ...Buffer.from('"}\n'),
    ]);
    const { frames } = splitFrames(Buffer.concat([valid, invalid]), [3]);
    expect(frames.map((f) => f.bytes)).toEqual([valid, invalid]);
    // Not one buffer reused: the first frame's bytes stay as they were while the second arrived.
    expect(frames[0]?.bytes?.buffer).not.toBe(frames[1]?.bytes?.buffer);
    // A frame within one chunk keeps a view of its bytes, valid or not: it costs nothing.
    expect(splitFrames(valid, [100]).frames[0]?.bytes).toEqual(valid);
  });

  it('joins a large frame from many chunks as it grows, and says whether it holds a control character', () => {
    const clean = Buffer.from(`{"text":"${'é'.repeat(1 << 20)}"}`);
    const dirty = Buffer.from(clean);
    dirty[dirty.length - 10] = 0x01;
    const { frames, rest } = splitFrames(
      Buffer.concat([clean, Buffer.from('\n'), dirty, Buffer.from('\n')]),
      [65_535, 100_000, 7],
    );
    expect(rest).toBeUndefined();
    expect(frames).toHaveLength(2);
    // Buffer#equals and ===: a deep toEqual walks 2 MB buffers element by element (20 s).
    expect(frames[0]?.bytes?.equals(Buffer.concat([clean, Buffer.from('\n')]))).toBe(true);
    expect(frames[1]?.bytes?.equals(Buffer.concat([dirty, Buffer.from('\n')]))).toBe(true);
    expect(frames.map((f, i) => f.text === [clean, dirty][i]?.toString())).toEqual([true, true]);
    expect(frames.map((f) => f.controlFree)).toEqual([true, false]);
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

describe('FrameSplitter past its limit', () => {
  /** What the splitter gives for `bytes` in `sizes` chunks: frames held, and pieces passed on. */
  function split(bytes: Buffer, sizes: readonly number[], limit: number): Frame[] {
    const { frames, rest } = splitFrames(bytes, sizes, limit);
    return rest ? [...frames, rest] : frames;
  }

  it('passes a longer frame on in pieces, in order, and holds every other frame whole', () => {
    const limit = 16;
    const line = fc.oneof(
      fc.string({ maxLength: 30 }).map((s) => s.replaceAll('\n', ' ')),
      fc.constant('x'.repeat(limit)),
      fc.constant('y'.repeat(limit + 1)),
    );
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 8 }),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1 }),
        (lines, sizes) => {
          const bytes = Buffer.from(lines.map((l) => `${l}\n`).join(''));
          const out = split(bytes, sizes, limit);
          // Nothing lost, nothing reordered: the bytes out are the bytes in.
          expect(Buffer.concat(out.map((f) => f.bytes as Buffer)).equals(bytes)).toBe(true);
          // Each line within the limit is one frame with its text; each longer one, pieces from first to last.
          let i = 0;
          for (const text of lines) {
            const frame = out[i] as Frame;
            if (Buffer.byteLength(text) <= limit) {
              expect(frame.passed).toBeUndefined();
              expect(frame.text).toBe(text);
              i++;
              continue;
            }
            expect(frame.passed?.first).toBe(true);
            while (!(out[i] as Frame).passed?.last) {
              expect((out[i] as Frame).text).toBe('');
              i++;
            }
            i++;
          }
          expect(i).toBe(out.length);
        },
      ),
      { numRuns: runs(300) },
    );
  });

  it('ends a frame passed on at the end of input with the \n it never had', () => {
    const splitter = new FrameSplitter(4);
    expect(splitter.push(Buffer.from('ok\nabc')).map((f) => f.text)).toEqual(['ok']);
    const passed = splitter.push(Buffer.from('defgh'));
    expect(passed.map((f) => [f.bytes?.toString(), f.passed])).toEqual([
      ['abc', { first: true, last: false }],
      ['defgh', { first: false, last: false }],
    ]);
    expect(splitter.end()).toMatchObject({ text: '', passed: { first: false, last: true } });
    expect(splitter.end()?.bytes?.toString()).toBeUndefined();
    // The next frame is held again.
    expect(splitter.push(Buffer.from('{}\n')).map((f) => [f.text, f.passed])).toEqual([['{}', undefined]]);
  });
});

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
      `{"b":"${padding}","a":"${long}`, // unterminated string in a frame long enough to be walked quote by quote
      `{"b":"${padding}","a":"${long}\\"}`, // its last quote escaped: unterminated too
      '',
      'not json',
    ];
    for (const text of broken) {
      expect(() => JSON.parse(text)).toThrow();
      expect(parseFrame(text)).toBe(NOT_JSON);
    }
  });
});

describe('controlFree', () => {
  it('tells 0x1f from 0x20 at every position and alignment', () => {
    // Every byte is at the bound: a space is no control character, a unit separator is one.
    for (let offset = 0; offset < 8; offset++) {
      for (let length = 0; length <= 24; length++) {
        const buffer = Buffer.alloc(offset + length, 0x20);
        const bytes = buffer.subarray(offset);
        expect(controlFree(bytes, length), `spaces, offset ${offset}, length ${length}`).toBe(true);
        for (let at = 0; at < length; at++) {
          bytes[at] = 0x1f;
          expect(controlFree(bytes, length), `0x1f at ${at}, offset ${offset}`).toBe(false);
          expect(controlFree(bytes, at), `0x1f just past the end ${at}, offset ${offset}`).toBe(true);
          bytes[at] = 0x20;
        }
      }
    }
  });

  it('says whether any byte is below 0x20, whatever the alignment and wherever the byte', () => {
    fc.assert(
      fc.property(
        // Mostly bytes of 0x20 and above, so that one control byte (or none) decides, with the bytes
        // at the bound drawn often, and every control byte still drawn: uniform bytes hold a control
        // byte in nearly every array of 40.
        fc
          .array(
            fc.oneof(
              { weight: 1, arbitrary: fc.constantFrom(0x00, 0x1f, 0x20, 0x21, 0x7f, 0x80, 0xff) },
              { weight: 1, arbitrary: fc.integer({ min: 0x00, max: 0x1f }) },
              { weight: 8, arbitrary: fc.integer({ min: 0x20, max: 0xff }) },
            ),
            { maxLength: 40 },
          )
          .map((values) => Uint8Array.from(values)),
        fc.integer({ min: 0, max: 7 }),
        (content, offset) => {
          // At every offset in a larger buffer, so that the word-wise part meets every alignment.
          const buffer = Buffer.alloc(offset + content.length);
          buffer.set(content, offset);
          const bytes = buffer.subarray(offset);
          for (let end = 0; end <= bytes.length; end++) {
            expect(controlFree(bytes, end)).toBe(!bytes.subarray(0, end).some((b) => b < 0x20));
          }
        },
      ),
    );
  });
});

describe('FrameSplitter allocations', () => {
  it('takes a frame within one chunk as a view of the chunk, and sizes staging buffers after the last frame', () => {
    const splitter = new FrameSplitter();
    const chunk = Buffer.from('{"a":1}\n{"b":');
    const [whole] = splitter.push(chunk);
    expect(whole?.bytes?.buffer).toBe(chunk.buffer);
    // The rest went into a first staging buffer of 64 KiB, which doubles when the frame outgrows it.
    splitter.push(Buffer.alloc(99_995, 0x20));
    const [large] = splitter.push(Buffer.from('2}\n'));
    expect(large?.bytes?.length).toBe(100_003);
    expect(large?.bytes?.buffer.byteLength).toBe(131_072);
    // The next frame's first buffer holds a frame a quarter larger than the last one.
    splitter.push(Buffer.from('{"c":'));
    const [next] = splitter.push(Buffer.from('3}\n'));
    expect(next?.bytes?.buffer.byteLength).toBe(100_003 + (100_003 >>> 2));
    splitter.push(Buffer.from('{"d":'));
    expect(splitter.push(Buffer.from('4}\n'))[0]?.bytes?.buffer.byteLength).toBe(1 << 16);
  });
});
