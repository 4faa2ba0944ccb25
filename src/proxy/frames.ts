/**
 * Newline-delimited frames, as the MCP stdio transport defines them: a message ends at `\n` and nowhere
 * else. `readline` also ends lines at a lone `\r`, which splits (and loses) a message whose text holds
 * one; this splitter does not. A `\r` before the `\n` stays in the frame: JSON allows it as whitespace,
 * and a message needing no repair is forwarded with it.
 *
 * A message that needs no repair must reach the client as the very bytes it arrived as. A frame that
 * arrived within one chunk keeps them (a view into the chunk, which costs nothing). A frame that spans
 * chunks is copied into one staging buffer as it arrives (each chunk is garbage at once) and decoded
 * once when its `\n` comes; the frame then takes the staging buffer as its bytes, and the next frame
 * starts a new one. Forwarding those bytes spares encoding the text again between the server's last
 * byte and the client's first (about 2 ms of a 5 MB message here), and costs no memory: the buffer's
 * bytes and the text are held together either way, until the frame is judged.
 */

import { constants } from 'node:buffer';
import { decodeUtf8 } from './decode.js';
import { duringLargeFrame, releasedBytes } from './memory.js';

const NEWLINE = 0x0a;

/** Frames from this many bytes on say whether they hold a control character (Frame.controlFree). */
const SCANNED_FRAME = 1 << 20;
/** The first buffer for a frame that spans chunks. */
const MIN_BUFFER = 1 << 16;
/** Every 8 MB of a pending frame, the chunks it was copied out of are collected (memory.ts). */
const COLLECT_SHIFT = 23;

/**
 * The longest frame that is held and decoded: the longest string V8 holds, since a frame is judged
 * from its text. A longer one could never be judged, and holding it grew the staging buffer until
 * Buffer's own limit (4 GB) crashed the proxy; it is passed through instead (Frame.passed).
 */
export const MAX_HELD_FRAME_BYTES = constants.MAX_STRING_LENGTH;

/**
 * A limit on held frames, in the words of a log line or an error: the default one is what a string can
 * hold; a lower one is the operator's (`--max-message-mb`), set to bound the proxy's memory, which grows
 * with the largest message it holds.
 */
export function tooLongWords(limit: number): string {
  const megabytes = limit / 2 ** 20;
  if (limit >= MAX_HELD_FRAME_BYTES) return `longer than ${Math.floor(megabytes)} MB (no string can hold it)`;
  const size = limit < 2 ** 20 ? `${limit} bytes` : `${Number(megabytes.toFixed(3))} MB`;
  return `longer than ${size} (the proxy's --max-message-mb)`;
}

export interface Frame {
  /** The frame decoded as UTF-8, without its `\n`. */
  readonly text: string;
  /**
   * The frame's bytes as they arrived, with its `\n` when it had one (only the unterminated rest at end
   * of input has none). A relay sets it to undefined once it knows it will not forward them, so that a
   * large frame's bytes are not held while its repaired text is written; a frame without them is
   * written from its text.
   */
  bytes: Buffer | undefined;
  /**
   * Set on large frames: whether the text holds no character below U+0020 at all, which spares the
   * parser a look for one inside each long string (parse.ts).
   */
  readonly controlFree?: boolean;
  /**
   * Set on the pieces of a frame longer than the splitter holds, in order, as they arrive: bytes to pass
   * on as they are, unjudged (`text` is empty). The `first` piece starts such a frame, the `last` ends it
   * with its `\n`; a piece may be both.
   */
  readonly passed?: { readonly first: boolean; readonly last: boolean; readonly cut?: boolean };
}

/** The size a frame counts for, in flow control: its text, or a passed piece's bytes. */
export function frameSize(frame: Frame): number {
  return frame.passed ? (frame.bytes?.length ?? 0) : frame.text.length;
}

export class FrameSplitter {
  /**
   * The start of a frame whose `\n` has not arrived yet, copied out of the chunks as they arrive into
   * one staging buffer that grows by doubling: the frame's bytes are then whole when its `\n` arrives,
   * without a join that would hold every chunk and the joined copy at once, and each chunk is garbage
   * at once. Handed over to the frame as its bytes.
   */
  private buffer: Buffer | undefined;
  private length = 0;
  /** The size of the next frame's first staging buffer (see grow()). */
  private sizeHint = MIN_BUFFER;
  /** Whether a control character has arrived in the pending frame: scanned as the bytes come. */
  private control = false;
  /** Whether the pending frame outgrew the limit: its bytes are passed on as they come, to its `\n`. */
  private passing = false;

  /** `limit`: the longest frame held and decoded (see MAX_HELD_FRAME_BYTES). */
  constructor(private readonly limit = MAX_HELD_FRAME_BYTES) {}

  /** Adds a chunk; returns the frames it completes, and the pieces of a frame too long to hold. */
  push(chunk: Buffer): Frame[] {
    const frames: Frame[] = [];
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      if (this.passing || this.length + (end - start) > this.limit) {
        this.pass(frames, chunk.subarray(start, end + 1), true);
      } else if (this.length === 0) {
        frames.push({ text: chunk.toString('utf8', start, end), bytes: chunk.subarray(start, end + 1) });
      } else {
        this.append(chunk.subarray(start, end));
        this.append(chunk.subarray(end, end + 1), false);
        frames.push(this.take(true));
      }
      start = end + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      if (this.passing || this.length + rest.length > this.limit) this.pass(frames, rest, false);
      else this.append(rest);
    }
    return frames;
  }

  /**
   * The unterminated rest at end of input, if any. Of a frame passed on as it came, the `\n` it never
   * had, as an unterminated frame that is held gets one when it is written.
   */
  end(): Frame | undefined {
    if (this.passing) {
      this.passing = false;
      return { text: '', bytes: Buffer.from('\n'), passed: { first: false, last: true, cut: true } };
    }
    return this.length === 0 ? undefined : this.take(false);
  }

  /**
   * Passes `piece` on, after the bytes held of its frame if this is the piece that outgrew the limit:
   * the frame is written as it arrived, without being held whole.
   */
  private pass(frames: Frame[], piece: Buffer, last: boolean): void {
    const first = !this.passing;
    if (first && this.length > 0) {
      const held = (this.buffer as Buffer).subarray(0, this.length);
      frames.push({ text: '', bytes: held, passed: { first: true, last: false } });
      this.buffer = undefined;
      this.length = 0;
      this.control = false;
      frames.push({ text: '', bytes: piece, passed: { first: false, last } });
    } else {
      frames.push({ text: '', bytes: piece, passed: { first, last } });
    }
    this.passing = !last;
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
    if (before >>> COLLECT_SHIFT !== needed >>> COLLECT_SHIFT) duringLargeFrame();
  }

  /**
   * Replaces the staging buffer with one that holds `needed` bytes; returns the old one's size. A frame's
   * first buffer is sized after the last frame that spanned chunks: a server that sends results of a few
   * megabytes then costs one allocation per message, not a dozen doublings and their copies (the pages
   * of a buffer count only once they are written, so a larger one than needed costs no memory).
   */
  private grow(needed: number): number {
    const old = this.buffer;
    const grown = Buffer.allocUnsafeSlow(Math.max(needed, old ? old.length * 2 : this.sizeHint));
    old?.copy(grown, 0, 0, this.length);
    this.buffer = grown;
    return old?.length ?? 0;
  }

  private take(terminated: boolean): Frame {
    const buffer = this.buffer as Buffer;
    const length = this.length;
    const control = this.control;
    this.buffer = undefined;
    this.sizeHint = Math.max(MIN_BUFFER, length + (length >>> 2));
    this.length = 0;
    this.control = false;
    const end = terminated ? length - 1 : length;
    // Never one long external string (Node makes long Latin-1 strings external, and Node 24 long UTF-8
    // ones too): each counts as external memory that brings on full collections (decode.ts).
    const text = decodeUtf8(buffer, end);
    const bytes = buffer.subarray(0, length);
    return end < SCANNED_FRAME ? { text, bytes } : { text, bytes, controlFree: !control };
  }
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
