/**
 * Decoding a large message's bytes to text without leaving the runtime an external string.
 *
 * Node 24 decodes a long ASCII buffer into an *external* string: its characters live outside V8's heap
 * and count as external memory, and V8 answers a few such megabytes per message with a full collection.
 * Relaying 5 MB results, that was a full collection per message and about three times the CPU time of
 * Node 20 and 22, whose strings of the same text live on the heap (measured: 30 ms of CPU per message
 * instead of 11). Decoded in 64 KB pieces and joined, the text is one string on the heap whatever the
 * runtime; where the runtime does not externalize, decoding whole is a little cheaper, so the joined way
 * is taken only where the first large frame showed that it does.
 *
 * Only ASCII is decoded in pieces: a piece boundary then never splits a character, and `latin1` reads
 * ASCII bytes as the same characters as UTF-8 does.
 */

import { isAscii } from 'node:buffer';
import { getHeapStatistics } from 'node:v8';

/**
 * Below this many bytes Node copies a decoded string onto the heap on every version (its threshold for
 * external strings is a little over 1 MB).
 */
const EXTERNAL_FROM_BYTES = 1 << 20;
/** Pieces small enough to be allocated in the young generation, which is the cheap way. */
const PIECE_BYTES = 1 << 16;

/** Whether this runtime makes long decoded ASCII external; learnt from the first large ASCII frame. */
let externalizes: boolean | undefined;

/** `bytes[0, end)` decoded as UTF-8, as `bytes.toString('utf8', 0, end)` would, for any size. */
export function decodeUtf8(bytes: Buffer, end = bytes.length): string {
  if (end < EXTERNAL_FROM_BYTES || externalizes === false || !isAscii(bytes.subarray(0, end))) {
    return bytes.toString('utf8', 0, end);
  }
  if (externalizes) return joinedAscii(bytes, end);
  const before = getHeapStatistics().external_memory;
  const text = bytes.toString('utf8', 0, end);
  externalizes = getHeapStatistics().external_memory - before >= end;
  return text;
}

/** ASCII bytes as one heap string: decoded a piece at a time, joined in one copy. */
export function joinedAscii(bytes: Buffer, end: number): string {
  const pieces: string[] = [];
  for (let start = 0; start < end; start += PIECE_BYTES) {
    pieces.push(bytes.toString('latin1', start, Math.min(end, start + PIECE_BYTES)));
  }
  return pieces.join('');
}

/** For tests: what the first large frame showed, or `undefined` before one came. */
export function externalizesLongStrings(): boolean | undefined {
  return externalizes;
}
