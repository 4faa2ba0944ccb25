/** Waiting on a stream that is written to, shared by the proxy's relays and the audit's stdio channel. */

import type { Writable } from 'node:stream';

/**
 * Resolves once the stream can take more, or is gone. Never rejects: `events.once(stream, 'drain')`
 * rejects with the stream's error, and a write to a process that died before reading fails with EPIPE,
 * which the caller learns from the process's exit, not from the write.
 */
export function whenWritable(stream: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      stream.off('error', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
    stream.on('error', done);
  });
}
