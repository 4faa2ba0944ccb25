/**
 * Memory between large messages. Relaying a 50 MB message leaves its bytes, its text and the encoded
 * slices written as garbage, and V8 collects it when its heuristics say so, often only after the next
 * large message has allocated as much again: peak memory then grows with the traffic instead of with
 * the largest message. So after a large frame the relay asks for a full collection, which costs a few
 * milliseconds against the hundreds the frame took.
 *
 * The collection runs on the next turn of the event loop, not at once: the code that handled the frame
 * still holds it while it calls afterFrame (a local variable, a closure's context), and a collection
 * then would keep the whole frame alive until the next one, which is the very peak to avoid.
 *
 * Node exposes `gc()` only under --expose-gc, which a CLI cannot count on; V8 still accepts the flag at
 * run time, and a fresh context then has `gc`. If that ever fails, the proxy just does without.
 */

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Frames from this many characters on are followed by a collection. */
export const LARGE_FRAME_CHARS = 16 * 1024 * 1024;

let collect: ((options?: { type: 'minor' | 'major' }) => void) | null | undefined;
let scheduled = false;

function load(): ((options?: { type: 'minor' | 'major' }) => void) | null {
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? (gc as (options?: { type: 'minor' | 'major' }) => void) : null;
  } catch {
    return null;
  }
}

/**
 * Matches the empty string. RegExp's legacy statics (`RegExp.input`, `RegExp.lastMatch`) keep the
 * subject of the last successful match alive: after a regular expression has matched a string cut
 * from a 50 MB frame (a text block's text is a slice of it, parse.ts), the whole frame text would
 * outlive the frame, until some other match, and be held beside the next large frame (measured:
 * 2.9× the message instead of 2.3×, in runs where the validator's last match was on such a slice).
 */
const EMPTY = /(?:)/;

/** A full collection, after the last match is let go of. */
function collectAll(): void {
  EMPTY.test('');
  collect?.();
}

function collectNow(): void {
  scheduled = false;
  collectAll();
}

/**
 * A full collection at once, for large bytes just let go of that have lived through young-generation
 * collections and would otherwise wait for a full one: a staging buffer a growing frame outgrew
 * (frames.ts), a frame's bytes before its repaired text is written. The caller must hold no reference.
 */
export function releasedBytes(length: number): void {
  if (length < LARGE_FRAME_CHARS) return;
  collect ??= load();
  collectAll();
}

/**
 * A young-generation collection while a large frame arrives: the chunks its bytes were copied out of
 * are garbage, and collected every few megabytes their memory is reused for the next chunks instead of
 * piling up to the frame's size. It costs well under a millisecond.
 */
export function duringLargeFrame(): void {
  collect ??= load();
  collect?.({ type: 'minor' });
}

/**
 * Frames from this many characters on, up to LARGE_FRAME_CHARS, are followed by a young-generation
 * collection, which frees their staging buffer and text while they are still young (measured: peak
 * memory relaying 2 MB results went from 12.7× to 4.9× the message, 4 MB ones from 8.6× to 4.7×).
 */
export const MEDIUM_FRAME_CHARS = 1 << 20;

let scheduledYoung = false;

function collectYoung(): void {
  scheduledYoung = false;
  EMPTY.test('');
  collect?.({ type: 'minor' });
}

/** Call once a frame of `length` characters (or bytes) has been handled and let go. */
export function afterFrame(length: number): void {
  if (length < MEDIUM_FRAME_CHARS) return;
  collect ??= load();
  if (!collect) return;
  // unref'd: a pending collection never keeps the proxy running.
  if (length >= LARGE_FRAME_CHARS) {
    if (scheduled) return;
    scheduled = true;
    setImmediate(collectNow).unref();
  } else if (!scheduledYoung && !scheduled) {
    scheduledYoung = true;
    setImmediate(collectYoung).unref();
  }
}
