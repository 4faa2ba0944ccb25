/**
 * Writing frames to the client with flow control and bounded memory. Each write returns a promise only
 * when the caller has to wait before the next frame (the reader is behind, or a long frame is still
 * being written), so that a frame written at once costs no promise.
 *
 * Long texts are written in slices, each encoded into one reused buffer once the previous slice has
 * been handed to the system: neither a text's whole encoded copy nor a garbage buffer per slice is
 * ever held. A repaired message is written the same way from its value, its long strings slice by
 * slice, so that its text is never built whole beside the message it came from (a 50 MB result would
 * otherwise be held as its frame text, the repaired text, and that text flattened for encoding).
 */

import type { Writable } from 'node:stream';
import { whenWritable } from '../io/writable.js';
import { stringifyJson } from '../library/repair/clone.js';
import { restoreNumbers, stringifyMarked } from './number-text.js';

/** Texts up to this many characters are written in one piece; longer ones in slices of this size. */
const SLICE = 1 << 20;
/** Strings from this many characters on are left out of a repaired message's skeleton (writeJson). */
const LONG_STRING = 1 << 15;
/** Stands for the n-th long string in a skeleton: a NUL, a per-process nonce, then n. */
const MARK = `\u0000mcp-shape-long-${Math.random().toString(36).slice(2)}:`;
/** The mark as it appears in the skeleton's JSON text, after its opening quote. */
const MARK_IN_JSON = `"${JSON.stringify(MARK).slice(1, -1)}`;

/**
 * The slice buffer of the last finished write, for the next one: a buffer is taken by one write at a
 * time (writes of several streams at once each get their own), and reusing it spares a fresh
 * allocation, and its page faults, per long frame.
 */
let spare: Buffer | undefined;

/** Writes a frame as the bytes it arrived as (adding the `\n` an unterminated last frame lacks). */
export function writeBytes(stream: Writable, bytes: Buffer): Promise<void> | undefined {
  if (stream.destroyed) return undefined;
  let ready = stream.write(bytes);
  if (bytes[bytes.length - 1] !== 0x0a) ready = stream.write('\n');
  return ready ? undefined : whenWritable(stream);
}

/** Writes bytes as they are: a piece of a frame passed on unjudged (frames.ts); its last piece has the `\n`. */
export function writePiece(stream: Writable, bytes: Buffer): Promise<void> | undefined {
  if (stream.destroyed) return undefined;
  return stream.write(bytes) ? undefined : whenWritable(stream);
}

/** Writes a frame's text and its `\n`. */
export function writeText(stream: Writable, text: string): Promise<void> | undefined {
  if (stream.destroyed) return undefined;
  if (text.length <= SLICE) return stream.write(`${text}\n`) ? undefined : whenWritable(stream);
  return writePieces(stream, slices(text));
}

/**
 * Writes a JSON value as one frame. A value whose text is short is written as that text; otherwise its
 * skeleton is built with its long strings left out, and the strings are written into it slice by slice.
 * `numbers`: the texts of the numbers marked in the value (number-text.ts), written in their places.
 */
export function writeJson(
  stream: Writable,
  value: unknown,
  expectedLength: number,
  numbers: readonly string[] = [],
): Promise<void> | undefined {
  if (expectedLength <= SLICE) return writeText(stream, stringifyMarked(value, numbers));
  if (stream.destroyed) return undefined;
  return writePieces(stream, jsonPieces(value, numbers));
}

/**
 * Writes JSON values as frames of their own, in order (a batch split into its messages): each waits
 * for the one before it to drain, as one frame's pieces do.
 */
export function writeJsonFrames(
  stream: Writable,
  values: readonly unknown[],
  expectedLength: number,
  numbers: readonly string[] = [],
): Promise<void> | undefined {
  let waiting: Promise<void> | undefined;
  for (const value of values) {
    waiting = waiting
      ? waiting.then(() => writeJson(stream, value, expectedLength, numbers))
      : writeJson(stream, value, expectedLength, numbers);
  }
  return waiting;
}

/** The text in slices of at most SLICE characters, never between the halves of a surrogate pair. */
function* slices(text: string): Generator<string> {
  for (let start = 0; start < text.length; ) {
    let end = Math.min(start + SLICE, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    yield text.slice(start, end);
    start = end;
  }
}

/** The JSON text of `value` in pieces of at most SLICE characters (and a few). */
function* jsonPieces(value: unknown, numbers: readonly string[]): Generator<string> {
  const long: string[] = [];
  // Number marks are short strings: they stay in the skeleton, where their texts replace them.
  const skeleton = restoreNumbers(
    stringifyJson(value, (text) => {
      if (text.length < LONG_STRING) return text;
      long.push(text);
      return `${MARK}${long.length - 1}`;
    }),
    numbers,
  );
  let copied = 0;
  for (let index = 0; index < long.length; index++) {
    // The marks come in the order they were made; the nonce keeps server text from posing as one.
    const mark = `${MARK_IN_JSON}${index}"`;
    // Found: stringify writes each string it was given.
    const at = skeleton.indexOf(mark, copied);
    yield* slices(skeleton.slice(copied, at));
    yield '"';
    // Escaping works character by character, so a slice is escaped as it would be inside the whole.
    for (const slice of slices(long[index] as string)) yield JSON.stringify(slice).slice(1, -1);
    yield '"';
    copied = at + mark.length;
  }
  yield* slices(skeleton.slice(copied));
}

/** Writes the pieces, then `\n`, through one slice buffer; resolves once all is handed to the system. */
async function writePieces(stream: Writable, pieces: Iterable<string>): Promise<void> {
  const buffer = spare ?? Buffer.allocUnsafeSlow(SLICE * 3 + 8); // a UTF-16 unit takes at most 3 bytes
  spare = undefined;
  let used = 0;
  const flush = async () => {
    if (used === 0 || stream.destroyed) return;
    const bytes = buffer.subarray(0, used);
    used = 0;
    await new Promise<void>((resolve) => {
      stream.write(bytes, () => resolve());
    });
  };
  for (const piece of pieces) {
    if (stream.destroyed) break;
    // An escaped slice may be up to six times as long as its characters (\u0000): written in parts.
    for (const part of piece.length <= SLICE ? [piece] : slices(piece)) {
      if (used + part.length * 3 > buffer.length) await flush();
      used += buffer.write(part, used, 'utf8');
    }
  }
  if (used === buffer.length) await flush();
  buffer[used++] = 0x0a;
  await flush();
  spare = buffer;
  if (!stream.destroyed && stream.writableNeedDrain) await whenWritable(stream);
}
