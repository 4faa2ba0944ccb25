/**
 * Memory between large messages. Relaying a 50 MB message leaves about twice that in garbage (the
 * decoded pieces of the frame, the frame itself, the encoded slices written), and V8 collects it when
 * its heuristics say so, often only after the next large message has allocated as much again: peak
 * memory then grows with the traffic instead of with the largest message. So after a large frame the
 * relay asks for a full collection, which costs a few milliseconds against the hundreds the frame took.
 *
 * Node exposes `gc()` only under --expose-gc, which a CLI cannot count on; V8 still accepts the flag at
 * run time, and a fresh context then has `gc`. If that ever fails, the proxy just does without.
 */

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Frames from this many characters on are followed by a collection. */
export const LARGE_FRAME_CHARS = 16 * 1024 * 1024;

let collect: (() => void) | null | undefined;

function load(): (() => void) | null {
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? (gc as () => void) : null;
  } catch {
    return null;
  }
}

/** Call once a frame of `length` characters has been handled and let go. */
export function afterFrame(length: number): void {
  if (length < LARGE_FRAME_CHARS) return;
  collect ??= load();
  collect?.();
}
