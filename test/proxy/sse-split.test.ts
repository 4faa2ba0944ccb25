/**
 * The SSE stream cut into events before parsing (src/proxy/sse-split.ts): whatever the chunking and the
 * line terminators (CRLF, LF, CR), the events it hands over, fed to eventsource-parser, give what the
 * parser gives for the stream itself; the text handed over is the stream's own; an event longer than
 * the limit is passed on in pieces, and no other is.
 */

import { createParser, type EventSourceMessage } from 'eventsource-parser';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_HELD_FRAME_BYTES } from '../../src/proxy/frames.js';
import { type PassedPiece, type SsePiece, SseSplitter } from '../../src/proxy/sse-split.js';
import { runs } from '../support/runs.js';

/** Every event eventsource-parser gives for `chunks` fed one after the other. */
function parsed(chunks: readonly string[]): EventSourceMessage[] {
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => events.push(event) });
  for (const chunk of chunks) parser.feed(chunk);
  return events;
}

/**
 * The splitter's pieces for `text` cut into chunks of the given sizes, and those of its end. A chunk
 * never ends inside a surrogate pair, as the proxy's UTF-8 decoder never cuts a character in two.
 */
function pieces(text: string, sizes: readonly number[], limit: number): SsePiece[] {
  const splitter = new SseSplitter(limit);
  const out: SsePiece[] = [];
  let at = 0;
  for (let i = 0; at < text.length; i++) {
    let end = at + Math.max(1, sizes[i % Math.max(1, sizes.length)] ?? 1);
    if (/[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end++;
    out.push(...splitter.push(text.slice(at, end)));
    at = end;
  }
  out.push(...splitter.end());
  return out;
}

/** An event's text, held whole or passed on in pieces; `cut` when the stream ended inside it. */
interface Segment {
  readonly text: string;
  readonly passed: boolean;
  readonly cut: boolean;
}

/** The pieces grouped by event; throws where the passed pieces are out of order. */
function segments(all: readonly SsePiece[]): Segment[] {
  const out: Segment[] = [];
  let passing: string[] | undefined;
  for (const piece of all) {
    if ('event' in piece) {
      expect(passing).toBeUndefined();
      out.push({ text: piece.event, passed: false, cut: false });
      continue;
    }
    expect(piece.first).toBe(passing === undefined);
    passing = [...(passing ?? []), piece.passed];
    if (piece.last) {
      out.push({ text: passing.join(''), passed: true, cut: piece.cut === true });
      passing = undefined;
    }
  }
  expect(passing).toBeUndefined();
  return out;
}

/**
 * The stream's events as text, found character by character as the SSE format defines them: a line
 * ends at CRLF, LF or CR, and an event at a blank line (a terminator right after one, or at the start).
 * The last item is what follows the last blank line: an event the stream ends inside, or ''.
 */
function eventTexts(text: string): string[] {
  const events: string[] = [];
  let start = 0;
  let atLineStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c !== '\r' && c !== '\n') {
      atLineStart = false;
      continue;
    }
    if (c === '\r' && text[i + 1] === '\n') i++;
    if (atLineStart) {
      events.push(text.slice(start, i + 1));
      start = i + 1;
    }
    atLineStart = true;
  }
  events.push(text.slice(start));
  return events;
}

/** Feeds each event as the proxy does: a bare CR at its end made a CRLF (see relayEventStream). */
function asFed(text: string): string {
  return text.endsWith('\r') ? `${text}\n` : text;
}

const terminator = fc.constantFrom('\n', '\r\n', '\r');
/** A field line's text, without its terminator: data (maybe long), event, id, retry, a comment. */
const line = fc.oneof(
  fc
    .string({ unit: fc.constantFrom('a', '{', '"', ':', ' ', 'é', '😀'), maxLength: 40 })
    .map((v) => `data: ${v}`),
  fc.nat(300).map((n) => `data: ${'x'.repeat(n)}`),
  fc.constantFrom('event: message', 'id: 7', 'retry: 100', ': keep-alive', 'data', 'data:'),
);
/** A stream: events of field lines, each line and each blank line ending in any terminator. */
const stream = fc
  .array(
    fc.record({
      lines: fc.array(fc.tuple(line, terminator), { maxLength: 4 }),
      blank: terminator,
    }),
    { maxLength: 6 },
  )
  .chain((events) =>
    fc.tuple(
      fc.constant(events.map((e) => e.lines.map(([l, t]) => l + t).join('') + e.blank).join('')),
      // Maybe an event the stream ends inside.
      fc.constantFrom('', 'data: unfinished', 'data: x\n', `data: ${'y'.repeat(200)}`),
    ),
  )
  .map(([whole, rest]) => whole + rest);

describe('SseSplitter', () => {
  it('hands over the stream as events that parse as the stream does, passing on exactly the long ones', () => {
    fc.assert(
      fc.property(
        stream,
        fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 400 }),
        (text, sizes, limit) => {
          const all = segments(pieces(text, sizes, limit));
          // Its own text, in order, but for an unfinished event held when the stream ended.
          const handed = all.map((s) => s.text).join('');
          expect(text.startsWith(handed)).toBe(true);
          const rest = text.slice(handed.length);
          const cut = all.filter((s) => s.cut);
          // Only the last can be cut short, and then nothing is left over.
          expect(cut.length === 0 || (cut[0] === all.at(-1) && rest === '')).toBe(true);
          // Counted in bytes of UTF-8, as a stdio line is.
          for (const s of all) expect(s.passed).toBe(Buffer.byteLength(s.text) > limit);
          // Cut exactly at the blank lines: each event whole, the unfinished rest held or cut short.
          const expected = eventTexts(text);
          const unfinished = expected.pop() as string;
          expect(all.filter((s) => !s.cut).map((s) => s.text)).toEqual(expected);
          expect(cut.length === 0 ? rest : cut[0]?.text).toBe(unfinished);
          // Whole events: the parser gives for them, in order, what it gives for the stream.
          // (A CR ending the stream ends a line; the parser, given no end, takes it for half a CRLF.)
          expect(parsed(all.filter((s) => !s.cut).map((s) => asFed(s.text)))).toEqual(parsed([asFed(text)]));
          // And each gives at most one event.
          for (const s of all) expect(parsed([asFed(s.text)]).length).toBeLessThanOrEqual(1);
        },
      ),
      { numRuns: runs(2000) },
    );
  });

  it('holds an event that ends on a CR until it is known whether an LF follows', () => {
    const splitter = new SseSplitter(100);
    expect(splitter.push('data: a\r\r')).toEqual([]);
    expect(splitter.push('\ndata: b\n\n')).toEqual([{ event: 'data: a\r\r\n' }, { event: 'data: b\n\n' }]);
    expect(splitter.push('data: c\r\r')).toEqual([]);
    expect(splitter.push('data: d\n\n')).toEqual([{ event: 'data: c\r\r' }, { event: 'data: d\n\n' }]);
    expect(splitter.push('data: e\r\r')).toEqual([]);
    expect(splitter.end()).toEqual([{ event: 'data: e\r\r' }]);
  });

  it('passes on a long event as it comes: what was held first, then each chunk, then its end', () => {
    const splitter = new SseSplitter(10);
    expect(splitter.push('data: 12')).toEqual([]);
    expect(splitter.push('345')).toEqual([
      { passed: 'data: 12', first: true, last: false },
      { passed: '345', first: false, last: false },
    ]);
    expect(splitter.push('67')).toEqual([{ passed: '67', first: false, last: false }]);
    expect(splitter.push('8\n\ndata: ok\n\n')).toEqual([
      { passed: '8\n\n', first: false, last: false },
      { passed: '', first: false, last: true },
      { event: 'data: ok\n\n' },
    ]);
    expect(splitter.push('data: 1234567890')).toEqual([
      { passed: 'data: 1234567890', first: true, last: false },
    ]);
    expect(splitter.end()).toEqual([{ passed: '', first: false, last: true, cut: true }]);
  });

  it('passes on an event longer than a string holds, at the default limit, without joining what it held', () => {
    // Joined, the megabytes held and the one past the limit made a string longer than V8 holds: a
    // RangeError that ended the proxy (a 1 GB event from an upstream, at the default limit).
    const splitter = new SseSplitter(MAX_HELD_FRAME_BYTES);
    const megabyte = 'x'.repeat(2 ** 20);
    const megabytes = Math.ceil(MAX_HELD_FRAME_BYTES / 2 ** 20) + 1;
    const out = [...splitter.push('data: ')];
    for (let i = 0; i < megabytes; i++) out.push(...splitter.push(megabyte));
    out.push(...splitter.push('\n\n'));
    const passed = out as PassedPiece[];
    expect(passed.every((piece) => 'passed' in piece)).toBe(true);
    expect(passed.filter((piece) => piece.first)).toEqual([passed[0]]);
    expect(passed.at(-1)).toEqual({ passed: '', first: false, last: true });
    expect(passed.reduce((sum, piece) => sum + piece.passed.length, 0)).toBe(8 + megabytes * 2 ** 20);
  });

  it('counts the limit in bytes of UTF-8, as a stdio line is counted', () => {
    // 12 characters, 16 bytes: held under a limit of 16, passed on under 15.
    const event = 'data: éééé\n\n';
    expect(new SseSplitter(16).push(event)).toEqual([{ event }]);
    expect(new SseSplitter(15).push(event)).toEqual([
      { passed: event, first: true, last: false },
      { passed: '', first: false, last: true },
    ]);
    // A character outside the BMP is two UTF-16 units and four bytes.
    expect(new SseSplitter(11).push('data: 😀\n\n')).toHaveLength(2);
    expect(new SseSplitter(12).push('data: 😀\n\n')).toEqual([{ event: 'data: 😀\n\n' }]);
  });

  it('finds each terminator once: a long chunk of many LF lines and no CR is split in linear time', () => {
    // A search for a CR from every line to the end of the chunk would still be running long after the
    // test's timeout (some 10^11 characters read).
    const out = new SseSplitter(100).push('data: x\n\n'.repeat(200_000));
    expect(out).toHaveLength(200_000);
  });
});
