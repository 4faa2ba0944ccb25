/**
 * Newline-delimited frames, as the MCP stdio transport defines them: a message ends at `\n` and nowhere
 * else. `readline` also ends lines at a lone `\r`, which splits (and loses) a message whose text holds
 * one; this splitter does not. A `\r` before the `\n` stays in the frame: JSON allows it as whitespace,
 * and a message needing no repair is forwarded with it.
 *
 * A message that needs no repair must reach the client as the very bytes it arrived as. A frame that
 * arrived within one chunk keeps them (a view into the chunk, which costs nothing). A frame that spans
 * chunks is copied into one staging buffer as it arrives and decoded once when its `\n` comes; when
 * those bytes are valid UTF-8 (`isUtf8`, a vectorized check), encoding the text again gives them back
 * exactly, so the frame does not keep them: the staging buffer is free for the next frame at once, and a
 * large message is held as its text alone, not as its bytes beside its text. Bytes that are no UTF-8
 * (the decoder replaced some) are copied out and kept, to be forwarded as they came.
 */

import { isUtf8 } from 'node:buffer';
import { duringLargeFrame, releasedBytes } from './memory.js';

const NEWLINE = 0x0a;

/** Frames from this many bytes on say whether they hold a control character (Frame.controlFree). */
const SCANNED_FRAME = 1 << 20;
/** The first buffer for a frame that spans chunks. */
const MIN_BUFFER = 1 << 16;
/**
 * The staging buffer is kept for the next frame up to this size: a server that sends results of a few
 * megabytes then costs no fresh allocation (and no page faults on it) per message, while one giant
 * message does not leave its size behind.
 */
const KEPT_BUFFER = 16 << 20;
/** Every 8 MB of a pending frame, the chunks it was copied out of are collected (memory.ts). */
const COLLECT_SHIFT = 23;

export interface Frame {
  /** The frame decoded as UTF-8, without its `\n`. */
  readonly text: string;
  /**
   * The frame's bytes as they arrived, with its `\n` when it had one (only the unterminated rest at end
   * of input has none); undefined when they are exactly `text` (and its `\n`) encoded as UTF-8, so that
   * writing the text gives the same bytes. A relay sets it to undefined once it knows it will not
   * forward them, so that a large frame's bytes are not held while its repaired text is written.
   */
  bytes: Buffer | undefined;
  /**
   * Set on large frames: whether the text holds no character below U+0020 at all, which spares the
   * parser a look for one inside each long string (parse.ts).
   */
  readonly controlFree?: boolean;
}

export class FrameSplitter {
  /**
   * The start of a frame whose `\n` has not arrived yet, copied out of the chunks as they arrive into
   * one staging buffer that grows by doubling: the frame's bytes are then whole when its `\n` arrives,
   * without a join that would hold every chunk and the joined copy at once, and each chunk is garbage
   * at once. Reused from frame to frame (up to KEPT_BUFFER).
   */
  private buffer: Buffer | undefined;
  private length = 0;
  /** Whether a control character has arrived in the pending frame: scanned as the bytes come. */
  private control = false;
  /**
   * How many bytes of the pending frame are proven UTF-8 (checked as they come, up to the start of a
   * sequence the chunk cut short), or -1 once some are not.
   */
  private checked = 0;

  /** Adds a chunk; returns the frames it completes. */
  push(chunk: Buffer): Frame[] {
    const frames: Frame[] = [];
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      if (this.length === 0) {
        frames.push({ text: chunk.toString('utf8', start, end), bytes: chunk.subarray(start, end + 1) });
      } else {
        this.append(chunk.subarray(start, end));
        this.append(chunk.subarray(end, end + 1), false);
        frames.push(this.take(true));
      }
      start = end + 1;
    }
    if (start < chunk.length) this.append(chunk.subarray(start));
    return frames;
  }

  /** The unterminated rest at end of input, if any. */
  end(): Frame | undefined {
    return this.length === 0 ? undefined : this.take(false);
  }

  /** Bytes held for an unfinished frame. */
  get pending(): number {
    return this.length;
  }

  private append(piece: Buffer, scan = true): void {
    const needed = this.length + piece.length;
    // A large outgrown buffer has lived through collections and would wait for a full one, the frame
    // holding it and its successor at once: it is collected at once (memory.ts), once grow() returned
    // and nothing refers to it.
    if (!this.buffer || needed > this.buffer.length) releasedBytes(this.grow(needed));
    const buffer = this.buffer as Buffer;
    piece.copy(buffer, this.length);
    if (scan && !this.control) this.control = !controlFree(piece, piece.length);
    const before = this.length;
    this.length = needed;
    if (this.checked >= 0) {
      const boundary = sequenceBoundary(buffer, this.checked, needed);
      this.checked = isUtf8(buffer.subarray(this.checked, boundary)) ? boundary : -1;
    }
    if (before >>> COLLECT_SHIFT !== needed >>> COLLECT_SHIFT) duringLargeFrame();
  }

  /** Replaces the staging buffer with one that holds `needed` bytes; returns the old one's size. */
  private grow(needed: number): number {
    const old = this.buffer;
    const grown = Buffer.allocUnsafeSlow(Math.max(needed, MIN_BUFFER, (old?.length ?? 0) * 2));
    old?.copy(grown, 0, 0, this.length);
    this.buffer = grown;
    return old?.length ?? 0;
  }

  private take(terminated: boolean): Frame {
    const buffer = this.buffer as Buffer;
    const length = this.length;
    const control = this.control;
    const checked = this.checked;
    this.length = 0;
    this.control = false;
    this.checked = 0;
    const end = terminated ? length - 1 : length;
    // Not Latin-1 for ASCII, though it decodes faster: Node makes long Latin-1 strings external, and
    // each one then counts as external memory that brings on full collections (measured: more CPU time
    // per 5 MB message, not less).
    const text = buffer.toString('utf8', 0, end);
    const utf8 = checked >= 0 && isUtf8(buffer.subarray(checked, length));
    const bytes = utf8 ? undefined : Buffer.from(buffer.subarray(0, length));
    if (buffer.length > KEPT_BUFFER) this.buffer = undefined;
    return end < SCANNED_FRAME ? { text, bytes } : { text, bytes, controlFree: !control };
  }
}

/**
 * Where the last UTF-8 sequence in bytes [from, end) starts when the end cuts it short, else `end`: the
 * bytes before it can be checked now, and it is checked once its continuation bytes arrive. Only the
 * last three bytes can belong to an unfinished sequence (four bytes at most).
 */
function sequenceBoundary(bytes: Buffer, from: number, end: number): number {
  for (let i = end - 1; i >= from && i >= end - 3; i--) {
    const byte = bytes[i] as number;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: its lead is further back
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return i + length > end ? i : end;
  }
  return end;
}

/**
 * Whether bytes [0, end) hold none below 0x20. In UTF-8 such a byte is always a control character of
 * its own (the bytes of a multi-byte sequence are all 0x80 or above), so this answers for the decoded
 * text too. Four bytes at a time: `(w - 0x20202020) & ~w & 0x80808080` is non-zero exactly when some
 * byte of w is below 0x20 (the "has less than" bit trick, exact for bounds up to 0x80). About twice as
 * fast as a regular expression over the text.
 */
export function controlFree(bytes: Buffer, end: number): boolean {
  const misaligned = (4 - (bytes.byteOffset & 3)) & 3;
  const head = Math.min(end, misaligned);
  for (let i = 0; i < head; i++) if ((bytes[i] as number) < 0x20) return false;
  // Fewer bytes than it takes to reach an aligned word: the loop above has seen them all.
  const count = head === misaligned ? (end - head) >>> 2 : 0;
  if (count > 0) {
    // Int32 words, two per step: V8 keeps them small integers (Uint32 words above 2^31 are doubles), and
    // one test per pair halves the branches (measured: 1.4 ms for 5 MB instead of 1.9).
    const words = new Int32Array(bytes.buffer, bytes.byteOffset + head, count);
    const pairs = count & ~1;
    for (let i = 0; i < pairs; i += 2) {
      const a = words[i] as number;
      const b = words[i + 1] as number;
      if ((((a - 0x20202020) & ~a) | ((b - 0x20202020) & ~b)) & 0x80808080) return false;
    }
    const last = words[count - 1] as number;
    if (pairs < count && ((last - 0x20202020) & ~last & 0x80808080) !== 0) return false;
  }
  for (let i = head + count * 4; i < end; i++) if ((bytes[i] as number) < 0x20) return false;
  return true;
}
