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
