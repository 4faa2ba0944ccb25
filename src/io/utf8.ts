/**
 * Bytes a server sent, decoded as a lenient client decodes them, with where they stop being UTF-8.
 * Node says whether bytes are UTF-8 (`isUtf8`, native) but not where they stop; the scan below runs
 * only on bytes that are not, to name the first bad byte in the finding.
 */

import { isUtf8 } from 'node:buffer';
import type { InvalidUtf8 } from '../rules/types.js';

export interface DecodedFrame {
  /** The UTF-8 decoding, with U+FFFD for each bad sequence (what `Buffer#toString('utf8')` gives). */
  readonly text: string;
  readonly invalidUtf8?: InvalidUtf8;
}

/** A stdio line: decoded as the TypeScript SDK's stdio client decodes it. */
export function decodeFrame(bytes: Buffer): DecodedFrame {
  return withProblem(bytes.toString('utf8'), bytes);
}

/** The decoded `text` of `bytes`, with the first bad byte of `bytes` when they are not UTF-8. */
export function withProblem(text: string, bytes: Uint8Array): DecodedFrame {
  const invalidUtf8 = utf8Problem(bytes);
  return invalidUtf8 === undefined ? { text } : { text, invalidUtf8 };
}

/** The first bad byte of `bytes`, or `undefined` when they are UTF-8. */
export function utf8Problem(bytes: Uint8Array): InvalidUtf8 | undefined {
  // isUtf8 is native and answers for almost every frame; the scan runs only to say where.
  return isUtf8(bytes) ? undefined : firstInvalidUtf8(bytes);
}

/**
 * The first byte where `bytes` stop being UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing
 * past U+10FFFF), or `undefined` when they are UTF-8 throughout. A sequence cut short is reported at
 * its lead byte.
 */
export function firstInvalidUtf8(bytes: Uint8Array): InvalidUtf8 | undefined {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const lead = bytes[i] as number;
    if (lead < 0x80) {
      i++;
      continue;
    }
    const length =
      lead >= 0xc2 && lead <= 0xdf
        ? 2
        : lead >= 0xe0 && lead <= 0xef
          ? 3
          : lead >= 0xf0 && lead <= 0xf4
            ? 4
            : 0;
    if (length === 0) return { offset: i, byte: lead };
    // The second byte's range excludes overlong forms (E0, F0), surrogates (ED) and values past
    // U+10FFFF (F4); every later byte is a plain continuation byte.
    let low = lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80;
    let high = lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf;
    for (let k = 1; k < length; k++) {
      const next = bytes[i + k];
      if (next === undefined || next < low || next > high) return { offset: i, byte: lead };
      low = 0x80;
      high = 0xbf;
    }
    i += length;
  }
  return undefined;
}

/** Where one line of an input stops being UTF-8: its 1-based number, and the bad byte in it. */
export interface InvalidUtf8Line extends InvalidUtf8 {
  readonly line: number;
}

/**
 * The first bad byte of each line of `bytes` that is not UTF-8 (of the first `limit` such lines): a
 * capture of a server's stdout is judged line by line, as its client reads it. Offsets count from the
 * line's start. One pass over the bytes, however many lines are bad.
 */
export function invalidUtf8Lines(bytes: Uint8Array, limit = Number.POSITIVE_INFINITY): InvalidUtf8Line[] {
  if (isUtf8(bytes)) return [];
  const found: InvalidUtf8Line[] = [];
  let line = 1;
  let lineStart = 0;
  let from = 0;
  while (found.length < limit) {
    const bad = firstInvalidUtf8(bytes.subarray(from));
    if (bad === undefined) break;
    const at = from + bad.offset;
    for (
      let nl = bytes.indexOf(NEWLINE, lineStart);
      nl !== -1 && nl < at;
      nl = bytes.indexOf(NEWLINE, lineStart)
    ) {
      line++;
      lineStart = nl + 1;
    }
    found.push({ line, offset: at - lineStart, byte: bad.byte });
    const next = bytes.indexOf(NEWLINE, at);
    if (next === -1) break;
    from = next + 1;
  }
  return found;
}

const NEWLINE = 0x0a;

/**
 * A stream's bytes as text that keeps every byte that is not UTF-8, so that where each one fell can
 * be told after the text has been cut up (into SSE events): valid UTF-8 decodes as usual, and each
 * byte of a bad sequence becomes the lone surrogate U+DC00 + byte (as Python's surrogateescape),
 * which no valid UTF-8 decodes to. A character split across chunks is decoded whole; a leading byte
 * order mark is dropped, as `fetch`'s decoder drops it. {@link unescapeBytes} turns a piece of the
 * text into what a lenient client reads, with its first bad byte.
 */
export class EscapingUtf8Decoder {
  /** The bytes at the end of the last chunk that begin a character the next chunk may complete. */
  private carry: Uint8Array = new Uint8Array(0);
  private atStart = true;
  /** Whether any byte has been escaped: until then, no text needs {@link unescapeBytes}. */
  escaped = false;

  decode(chunk: Uint8Array): string {
    const bytes = this.carry.length === 0 ? chunk : Buffer.concat([this.carry, chunk]);
    const kept = incompleteTail(bytes);
    this.carry = bytes.slice(bytes.length - kept);
    return this.text(bytes.subarray(0, bytes.length - kept));
  }

  /** What is left at the end of the stream: a character cut short is bad bytes. */
  end(): string {
    const bytes = this.carry;
    this.carry = new Uint8Array(0);
    return this.text(bytes);
  }

  private text(bytes: Uint8Array): string {
    if (bytes.length === 0) return '';
    if (this.atStart) {
      this.atStart = false;
      if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
    }
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (isUtf8(buffer)) return buffer.toString('utf8');
    this.escaped = true;
    let text = '';
    let from = 0;
    for (
      let bad = firstInvalidUtf8(buffer);
      bad !== undefined;
      bad = firstInvalidUtf8(buffer.subarray(from))
    ) {
      const at = from + bad.offset;
      text += buffer.toString('utf8', from, at) + String.fromCharCode(ESCAPE + bad.byte);
      from = at + 1;
    }
    return text + buffer.toString('utf8', from);
  }
}

/** The surrogate a bad byte is kept as is ESCAPE + byte (only bytes 0x80–0xFF are ever bad). */
const ESCAPE = 0xdc00;

/** An escaped byte: a low surrogate of the escapes' range that no high surrogate precedes. */
const ESCAPED = /(?<![\uD800-\uDBFF])[\uDC80-\uDCFF]/g;

/** Decodes as `fetch`'s decoder does within a stream: U+FFFD for each bad sequence, a U+FEFF kept. */
const LENIENT = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * A piece of an {@link EscapingUtf8Decoder}'s text as a lenient client reads it (U+FFFD for each bad
 * sequence, as `fetch` decodes the stream), with the first bad byte, counted in the piece's bytes.
 */
export function unescapeBytes(text: string): DecodedFrame {
  ESCAPED.lastIndex = 0;
  const first = ESCAPED.exec(text);
  if (first === null) return { text };
  const invalidUtf8 = {
    offset: Buffer.byteLength(text.slice(0, first.index)),
    byte: escapedByte(text, first.index),
  };
  const parts: Buffer[] = [];
  let from = 0;
  for (let found: RegExpExecArray | null = first; found !== null; found = ESCAPED.exec(text)) {
    parts.push(Buffer.from(text.slice(from, found.index)), Buffer.of(escapedByte(text, found.index)));
    from = found.index + 1;
  }
  parts.push(Buffer.from(text.slice(from)));
  return { text: LENIENT.decode(Buffer.concat(parts)), invalidUtf8 };
}

function escapedByte(text: string, at: number): number {
  return text.charCodeAt(at) - ESCAPE;
}

/**
 * The number of bytes at the end of `bytes` that begin a character longer than they are (0 to 3), for
 * the next chunk to complete. Bytes that could never begin one are kept as well: decoded with the
 * next chunk they are escaped all the same.
 */
function incompleteTail(bytes: Uint8Array): number {
  const n = bytes.length;
  for (let back = 1; back <= Math.min(3, n); back++) {
    const byte = bytes[n - back] as number;
    if (byte < 0x80) return 0;
    if (byte < 0xc0) continue; // a continuation byte: its lead is further back
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
    return length > back ? back : 0;
  }
  return 0;
}
