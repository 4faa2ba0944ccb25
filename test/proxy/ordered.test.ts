/**
 * OrderedQueue: server frames handled one at a time, in order, the source paused while more than 64
 * frames or 1 MB of them wait and resumed once all are handled (unless it ended).
 */

import { describe, expect, it } from 'vitest';
import { OrderedQueue } from '../../src/proxy/ordered.js';

/** A source that counts its pauses and resumes. */
function source() {
  const calls: string[] = [];
  return { calls, pause: () => calls.push('pause'), resume: () => calls.push('resume') };
}

/** A handler that waits on each item until the test lets it go. */
function gated() {
  const handled: number[] = [];
  const gates: (() => void)[] = [];
  const handle = (item: number) => {
    handled.push(item);
    return new Promise<void>((resolve) => gates.push(resolve));
  };
  const release = async () => {
    for (let gate = gates.shift(); gate; gate = gates.shift()) {
      gate();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { handled, handle, release, waiting: () => gates.length };
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

describe('OrderedQueue', () => {
  it('handles items at once, in order, pausing the source only for a chunk of more than 64', async () => {
    const src = source();
    const handled: number[] = [];
    const queue = new OrderedQueue<number>(src, (item) => {
      handled.push(item);
      return undefined;
    });
    expect(queue.idle).toBe(true);
    queue.push(range(0, 64));
    expect(handled).toEqual(range(0, 64));
    expect(src.calls).toEqual([]);
    queue.push([]);
    expect(src.calls).toEqual([]);
    // 65 frames in one chunk wait while the first is handled.
    queue.push(range(64, 129));
    expect(handled).toEqual(range(0, 129));
    expect(src.calls).toEqual(['pause', 'resume']);
    expect(queue.idle).toBe(true);
    await queue.drained();
  });

  it('pauses the source past 64 waiting items and resumes it once all are handled', async () => {
    const src = source();
    const gate = gated();
    const queue = new OrderedQueue<number>(src, gate.handle);
    queue.push(range(0, 64));
    // The first is being handled; 63 wait behind it.
    expect(gate.handled).toEqual([0]);
    expect(src.calls).toEqual([]);
    queue.push([64]);
    expect(src.calls).toEqual([]);
    queue.push([65]);
    expect(src.calls).toEqual(['pause']);
    queue.push([66]);
    expect(src.calls).toEqual(['pause']);
    expect(queue.idle).toBe(false);
    let drained = false;
    void queue.drained().then(() => {
      drained = true;
    });
    await gate.release();
    expect(gate.handled).toEqual(range(0, 67));
    expect(src.calls).toEqual(['pause', 'resume']);
    expect(drained).toBe(true);
    expect(queue.idle).toBe(true);
  });

  it('pauses past 1 MB waiting, counting only the items not yet handled', async () => {
    const src = source();
    const gate = gated();
    const queue = new OrderedQueue<number>(src, gate.handle, (size) => size);
    queue.push([1 << 20]);
    expect(src.calls).toEqual([]);
    // The first item is being handled: its size no longer counts.
    queue.push([1]);
    expect(src.calls).toEqual([]);
    queue.push([(1 << 20) - 1]);
    expect(src.calls).toEqual([]);
    queue.push([1]);
    expect(src.calls).toEqual(['pause']);
    await gate.release();
    expect(src.calls).toEqual(['pause', 'resume']);
    // A new round starts from nothing waiting.
    queue.push([1 << 20]);
    queue.push([1 << 20]);
    expect(src.calls).toEqual(['pause', 'resume']);
    await gate.release();
  });

  it('does not resume a source that ended', async () => {
    const src = source();
    const gate = gated();
    const queue = new OrderedQueue<number>(src, gate.handle);
    queue.push(range(0, 70));
    queue.endOfSource();
    await gate.release();
    expect(src.calls).toEqual(['pause']);
    expect(gate.handled).toHaveLength(70);
  });

  it('goes on after a handler that throws or whose promise rejects, in order', async () => {
    const handled: number[] = [];
    const queue = new OrderedQueue<number>(source(), (item) => {
      handled.push(item);
      if (item === 1) throw new Error('bug');
      if (item === 2) return Promise.reject(new Error('bug'));
      return undefined;
    });
    queue.push([0, 1, 2, 3]);
    await queue.drained();
    expect(handled).toEqual([0, 1, 2, 3]);
  });
});
