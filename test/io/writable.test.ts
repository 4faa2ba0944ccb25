/** whenWritable waits for a stream's drain, close or error, and never rejects. */

import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { whenWritable } from '../../src/io/writable.js';

describe('whenWritable', () => {
  it('resolves on drain, on close and on error, and stops listening', async () => {
    for (const end of ['drain', 'close', 'error'] as const) {
      const stream = new PassThrough();
      stream.on('error', () => {});
      let done = false;
      const waiting = whenWritable(stream).then(() => {
        done = true;
      });
      await new Promise((resolve) => setImmediate(resolve));
      expect(done).toBe(false);
      stream.emit(end, end === 'error' ? new Error('x') : undefined);
      await waiting;
      expect(done).toBe(true);
      expect([stream.listenerCount('drain'), stream.listenerCount('close')]).toEqual([0, 0]);
    }
    expect(new Writable().listenerCount('drain')).toBe(0);
  });
});

describe('whenWritable and its listeners', () => {
  it('leaves no listener of its own behind, on error either', async () => {
    for (const end of ['drain', 'close', 'error'] as const) {
      const stream = new PassThrough();
      const counts = () => ['drain', 'close', 'error'].map((name) => stream.listenerCount(name));
      const before = counts();
      const waiting = whenWritable(stream);
      expect(counts()).toEqual(before.map((n) => n + 1));
      stream.emit(end, end === 'error' ? new Error('x') : undefined);
      await waiting;
      expect(counts()).toEqual(before);
    }
  });
});
