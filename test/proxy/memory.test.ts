/**
 * The collections the relay asks for after a large frame free what the frame left behind.
 */

/** A young text of `length` characters, built in V8's heap and let go of at once; true when it was. */
function youngGarbage(length: number): boolean {
  return /^x/.test('x'.repeat(length).slice(1));
}

import { describe, expect, it } from 'vitest';
import { afterFrame, LARGE_FRAME_CHARS, MEDIUM_FRAME_CHARS, releasedBytes } from '../../src/proxy/memory.js';

/**
 * Matches a regular expression on a slice of a 16 MB text, as the validator does on a text block cut
 * from a decoded frame, and lets go of both: only RegExp's last match still holds the text. The text
 * is built in V8's heap (the slice flattens the repeat), where heapUsed sees it: a decoded buffer may
 * be an external string, which Node 24 makes of long ASCII text.
 */
function matchOnSlice(): boolean {
  const text = 'x'.repeat(LARGE_FRAME_CHARS);
  // No loop in the pattern: `x+` over 16 MB needs a backtrack stack past V8's limit once the pattern is
  // compiled to native code, which a test file sharing the worker may already have done.
  return /^x/.test(text.slice(1));
}

describe('releasedBytes', () => {
  it('frees a large text that a regular expression last matched a slice of', () => {
    expect(matchOnSlice()).toBe(true);
    const before = process.memoryUsage().heapUsed;
    releasedBytes(LARGE_FRAME_CHARS);
    expect(process.memoryUsage().heapUsed).toBeLessThan(before - LARGE_FRAME_CHARS / 2);
  });
});

describe('afterFrame', () => {
  it('follows a frame of a megabyte or more with a young-generation collection on the next turn', async () => {
    const length = 4 * MEDIUM_FRAME_CHARS;
    expect(youngGarbage(length)).toBe(true);
    const before = process.memoryUsage().heapUsed;
    afterFrame(length);
    // Not at once: the relay still holds the frame while it calls afterFrame.
    expect(process.memoryUsage().heapUsed).toBeGreaterThan(before - length / 2);
    await new Promise((resolve) => setImmediate(resolve));
    expect(process.memoryUsage().heapUsed).toBeLessThan(before - length / 2);
  });

  it('asks for nothing after a smaller frame', async () => {
    const length = MEDIUM_FRAME_CHARS;
    expect(youngGarbage(length * 3)).toBe(true);
    const before = process.memoryUsage().heapUsed;
    afterFrame(length - 1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(process.memoryUsage().heapUsed).toBeGreaterThan(before - length);
  });
});

describe('afterFrame after a frame of 16 MB or more', () => {
  it('frees on the next turn a large text that a regular expression last matched a slice of', async () => {
    expect(matchOnSlice()).toBe(true);
    const before = process.memoryUsage().heapUsed;
    afterFrame(LARGE_FRAME_CHARS);
    await new Promise((resolve) => setImmediate(resolve));
    expect(process.memoryUsage().heapUsed).toBeLessThan(before - LARGE_FRAME_CHARS / 2);
  });
});
