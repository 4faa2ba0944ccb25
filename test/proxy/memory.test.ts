/**
 * The collections the relay asks for after a large frame free what the frame left behind.
 */

import { describe, expect, it } from 'vitest';
import { LARGE_FRAME_CHARS, releasedBytes } from '../../src/proxy/memory.js';

/**
 * Matches a regular expression on a slice of a flat 16 MB text, as the validator does on a text block
 * cut from a decoded frame, and lets go of both: only RegExp's last match still holds the text.
 */
function matchOnSlice(): boolean {
  const text = Buffer.alloc(LARGE_FRAME_CHARS, 'x').toString('utf8');
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
