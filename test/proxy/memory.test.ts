/**
 * The collections the relay asks for after a large frame free what the frame left behind.
 */

import { describe, expect, it } from 'vitest';
import { LARGE_FRAME_CHARS, releasedBytes } from '../../src/proxy/memory.js';

/**
 * Matches a regular expression on a slice of a 16 MB text, as the validator does on a text block cut
 * from a decoded frame, and lets go of both: only RegExp's last match still holds the text. The text
 * is built in V8's heap (the slice flattens the repeat), where heapUsed sees it: a decoded buffer may
 * be an external string, which Node 24 makes of long ASCII text.
 */
function matchOnSlice(): boolean {
  const text = 'x'.repeat(LARGE_FRAME_CHARS);
  return /^x+$/.test(text.slice(1));
}

describe('releasedBytes', () => {
  it('frees a large text that a regular expression last matched a slice of', () => {
    expect(matchOnSlice()).toBe(true);
    const before = process.memoryUsage().heapUsed;
    releasedBytes(LARGE_FRAME_CHARS);
    expect(process.memoryUsage().heapUsed).toBeLessThan(before - LARGE_FRAME_CHARS / 2);
  });
});
