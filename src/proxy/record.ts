/**
 * `proxy --record FILE`: every frame both ways, in the session recording format of
 * src/core/recording.ts (which `check` reads). `message` is the frame as it arrived, written as its own
 * JSON text rather than re-serialized, so a 50 MB result is not built twice and `1.0` stays `1.0`; a
 * repaired message adds `forwarded` and `fixes`, a frame that was not forwarded adds `dropped`, and a
 * frame longer than the proxy holds, passed on unjudged, is recorded by its length in `passed` (and that
 * limit in `limit`), and a client request that long, refused, by its length in `refused`.
 */

import { createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import type { FrameSource, RecordedFix, RecordedFrame } from '../core/recording.js';
import { MAX_HELD_FRAME_BYTES } from './frames.js';
import { NOT_JSON } from './parse.js';
import type { ServerOutcome } from './session.js';

type Head = Omit<RecordedFrame, 'message' | 'frame' | 'forwarded' | 'passed' | 'limit' | 'refused'>;

export class Recorder {
  private constructor(private readonly out: Writable) {}

  /**
   * Opens FILE for writing; resolves once it is open, rejects with the reason it cannot be. A write
   * that fails later (a full disk) ends the recording, not the proxy, and `onError` hears of it once.
   */
  static open(path: string, onError: (error: Error) => void = () => {}): Promise<Recorder> {
    const out = createWriteStream(path, { flags: 'w' });
    return new Promise((resolve, reject) => {
      out.once('open', () => {
        out.off('error', reject);
        out.once('error', onError);
        resolve(new Recorder(out));
      });
      out.once('error', reject);
    });
  }

  /** A recorder on any stream (tests). */
  static on(out: Writable): Recorder {
    return new Recorder(out);
  }

  client(text: string, parsed: unknown, where: Pick<Head, 'connection' | 'transport'>): void {
    this.write({ time: new Date().toISOString(), from: 'client', ...where }, text, parsed);
  }

  server(text: string, outcome: ServerOutcome, where: Pick<Head, 'connection' | 'transport'>): void {
    const head: Head = { time: new Date().toISOString(), from: 'server', ...where };
    if (outcome.kind === 'drop') {
      this.write({ ...head, dropped: outcome.reason }, text, outcome.message ?? NOT_JSON);
      return;
    }
    if (outcome.fixes.length === 0) {
      this.write(head, text, outcome.message);
      return;
    }
    const fixes: RecordedFix[] = outcome.fixes.map((f) => ({ rule: f.rule, description: f.description }));
    if (outcome.split) {
      // Sent one message a line: recorded as their array, marked as split.
      const forwarded = `[${(outcome.splitTexts ?? []).join(',')}]`;
      this.write({ ...head, split: true, fixes }, text, outcome.message, forwarded);
      return;
    }
    this.write({ ...head, fixes }, text, outcome.message, outcome.text);
  }

  /**
   * A frame passed on unjudged, longer than `limit` (the proxy's, by default the longest text a string
   * holds): its length and that limit, not its text (frames.ts).
   */
  passed(
    from: FrameSource,
    bytes: number,
    where: Pick<Head, 'connection' | 'transport'>,
    limit: number = MAX_HELD_FRAME_BYTES,
  ): void {
    const head: Head = { time: new Date().toISOString(), from, ...where };
    this.out.write(`${JSON.stringify({ ...head, passed: bytes, limit })}\n`);
  }

  /** A client request refused unread, too long for any string: its length and why, not its text. */
  refused(bytes: number, reason: string, where: Pick<Head, 'connection' | 'transport'>): void {
    const head: Head = { time: new Date().toISOString(), from: 'client', ...where, dropped: reason };
    this.out.write(`${JSON.stringify({ ...head, refused: bytes })}\n`);
  }

  /** Resolves once everything written is on disk. */
  close(): Promise<void> {
    return new Promise((resolve) => {
      // A stream that fails (a full disk) still closes: end() calls back with the error too; the
      // listener keeps the error from being thrown.
      this.out.once('error', () => {});
      this.out.end(() => resolve());
    });
  }

  private write(head: Head, text: string, parsed: unknown, forwarded?: string): void {
    const start = JSON.stringify(head).slice(0, -1);
    if (forwarded !== undefined) this.out.write(`${start},"forwarded":${forwarded}`);
    else this.out.write(start);
    // Not JSON as it came, a byte order mark before it included: its text, which check judges as such.
    if (parsed === NOT_JSON || text.charCodeAt(0) === 0xfeff) {
      this.out.write(`,"frame":${JSON.stringify(text)}}\n`);
      return;
    }
    this.out.write(`,"message":`);
    // The frame's own text is JSON already, and not written anew: that would write 1e400 as null and
    // 1.0 as 1. A line end in it (a pretty-printed HTTP body, an SSE event of several data lines, a \r
    // on stdio) would split the line, and is JSON whitespace: a string holds none unescaped.
    const own = text.trim();
    this.out.write(own.includes('\n') || own.includes('\r') ? own.replace(/[\r\n]/g, ' ') : own);
    this.out.write('}\n');
  }
}
