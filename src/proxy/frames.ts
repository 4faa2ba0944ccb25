/**
 * Newline-delimited frames, as the MCP stdio transport defines them: a message ends at `\n` and nowhere
 * else. `readline` also ends lines at a lone `\r`, which splits (and loses) a message whose text holds
 * one; this splitter does not. A `\r` before the `\n` stays in the frame: JSON allows it as whitespace,
 * and a message needing no repair is forwarded with it.
 */

import { StringDecoder } from 'node:string_decoder';

const NEWLINE = 0x0a;

export class FrameSplitter {
  private readonly decoder = new StringDecoder('utf8');
  /** The start of a frame whose `\n` has not arrived yet. */
  private partial = '';

  /** Adds a chunk; returns the frames it completes, without their `\n`. */
  push(chunk: Buffer): string[] {
    const frames: string[] = [];
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      // `\n` is never inside a UTF-8 sequence, so the decoder has nothing pending but a broken one.
      frames.push(this.partial + this.decoder.end(chunk.subarray(start, end)));
      this.partial = '';
      start = end + 1;
    }
    if (start < chunk.length) this.partial += this.decoder.write(chunk.subarray(start));
    return frames;
  }

  /** The unterminated rest at end of input, if any. */
  end(): string | undefined {
    const rest = this.partial + this.decoder.end();
    this.partial = '';
    return rest === '' ? undefined : rest;
  }

  /** Characters held for an unfinished frame. */
  get pending(): number {
    return this.partial.length;
  }
}
