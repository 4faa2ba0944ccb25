/**
 * An SSE stream cut into its events as text, before any parsing: what the proxy needs to pass on an
 * event longer than it holds as it arrived, unjudged, as it passes a stdio line that long (frames.ts).
 * eventsource-parser, which parses the events, gives an event only once it is whole, and past its
 * buffer limit drops what it held: that event was then lost, and the stream ended with an error for its
 * request. Here an event is held as text up to the limit and handed over whole, to be parsed; past the
 * limit what was held and the rest of the event go on in pieces as they come.
 *
 * An event ends at a blank line: a line terminator (CRLF, LF or CR, as the SSE format has them) right
 * after another. A CR at the end of a chunk may be the first half of a CRLF, so an event that ends on
 * one is handed over only when the next chunk, or the end of the stream, says which.
 */

/** What the splitter hands over: a whole event's text (with its blank line), or a piece of a long one. */
export type SsePiece = { readonly event: string } | PassedPiece;

/**
 * A piece of an event longer than the limit, in order: the `first` begins it (what was held of it
 * follows in pieces as it was held), the `last` ends it (its text may be empty). `cut`, on the last: the stream ended before the event did.
 */
export interface PassedPiece {
  readonly passed: string;
  readonly first: boolean;
  readonly last: boolean;
  readonly cut?: boolean;
}

const LF = 0x0a;
const CR = 0x0d;

export class SseSplitter {
  /** The text of the event so far, when it is held (not passing). */
  private held: string[] = [];
  /** Bytes of UTF-8 held. */
  private heldLength = 0;
  /** The event outgrew the limit: its text goes on as it comes, to its end. */
  private passing = false;
  /** The last character was a line terminator: a terminator now ends the event. */
  private atLineStart = true;
  /** The last character was a CR: an LF now completes it, as one terminator. */
  private afterCr = false;
  /** The event ended on a CR that closed the chunk: handed over once the next character is known. */
  private endsOnCr = false;

  /**
   * `limit`: the longest event held, in bytes of UTF-8, as a stdio line's (frames.ts). The text comes
   * from a UTF-8 decoder, which never cuts a character in two, so each piece counts whole characters.
   */
  constructor(private readonly limit: number) {}

  push(chunk: string): SsePiece[] {
    const pieces: SsePiece[] = [];
    let start = 0;
    let at = 0;
    if (this.endsOnCr) {
      this.endsOnCr = false;
      // The LF of a CRLF belongs to the event it ends.
      if (chunk.charCodeAt(0) === LF) {
        at = start = 1;
        this.afterCr = false;
        this.take(pieces, '\n');
      }
      this.finish(pieces);
    }
    const terminators = new Terminators(chunk);
    while (at < chunk.length) {
      const end = terminators.next(at);
      if (end === -1) {
        if (at < chunk.length) {
          this.atLineStart = false;
          this.afterCr = false;
        }
        break;
      }
      const code = chunk.charCodeAt(end);
      if (code === LF && this.afterCr && end === at) {
        // The LF of a CRLF: one terminator with the CR before it.
        this.afterCr = false;
        at = end + 1;
        continue;
      }
      const blank = this.atLineStart && end === at;
      this.atLineStart = true;
      this.afterCr = code === CR;
      at = end + 1;
      if (!blank) continue;
      if (code === CR && at === chunk.length) {
        // Maybe half a CRLF: the event is handed over with the next chunk.
        this.take(pieces, chunk.slice(start, at));
        start = at;
        this.endsOnCr = true;
        return pieces;
      }
      if (code === CR && chunk.charCodeAt(at) === LF) {
        at++;
        this.afterCr = false;
      }
      this.take(pieces, chunk.slice(start, at));
      this.finish(pieces);
      start = at;
    }
    if (start < chunk.length) this.take(pieces, chunk.slice(start));
    return pieces;
  }

  /** At the end of the stream: what is left of an event that never ended, passed on if it was passing. */
  end(): SsePiece[] {
    const pieces: SsePiece[] = [];
    if (this.endsOnCr) {
      this.endsOnCr = false;
      this.finish(pieces);
    }
    // An event without its blank line is not dispatched (the SSE format drops it); held, it is dropped
    // as a client's parser would drop it, and a long one ends as it came.
    if (this.passing) pieces.push({ passed: '', first: false, last: true, cut: true });
    this.held = [];
    this.heldLength = 0;
    this.passing = false;
    return pieces;
  }

  /** Adds text of the current event: held, or passed on once the event is past the limit. */
  private take(pieces: SsePiece[], text: string): void {
    if (text === '') return;
    if (this.passing) {
      pieces.push({ passed: text, first: false, last: false });
      return;
    }
    const bytes = Buffer.byteLength(text);
    if (this.heldLength + bytes <= this.limit) {
      this.held.push(text);
      this.heldLength += bytes;
      return;
    }
    // Handed over as the texts it was held in: joined, what was held and the text that outgrew the
    // limit can be longer than a string holds (at the default limit, a RangeError that ended the proxy).
    this.held.push(text);
    for (const [i, passed] of this.held.entries()) pieces.push({ passed, first: i === 0, last: false });
    this.held = [];
    this.heldLength = 0;
    this.passing = true;
  }

  /** The current event ended (its blank line taken). */
  private finish(pieces: SsePiece[]): void {
    if (this.passing) {
      pieces.push({ passed: '', first: false, last: true });
      this.passing = false;
    } else if (this.heldLength > 0) {
      pieces.push({ event: this.held.length === 1 ? (this.held[0] as string) : this.held.join('') });
    }
    this.held = [];
    this.heldLength = 0;
  }
}

/**
 * The line terminators of a text in order. Each kind's next place is kept until the walk passes it:
 * searching for both at every line would search a chunk without CRs to its end once per line.
 */
class Terminators {
  private lf = -2;
  private cr = -2;

  constructor(private readonly text: string) {}

  /** The index of the next CR or LF at or after `from` (which never decreases), or -1. */
  next(from: number): number {
    if (this.lf !== -1 && this.lf < from) this.lf = this.text.indexOf('\n', from);
    if (this.cr !== -1 && this.cr < from) this.cr = this.text.indexOf('\r', from);
    if (this.cr === -1) return this.lf;
    if (this.lf === -1) return this.cr;
    return Math.min(this.cr, this.lf);
  }
}
