/**
 * Repair in one pass (issue 11): the fixes of one validation are applied together, so the number of
 * validation passes does not grow with the number of broken blocks. The work budget (a cap on passes,
 * issue 10) makes that countable: a per-fix re-validation would need a pass per block and run out.
 */

import { describe, expect, it, vi } from 'vitest';
import { validateToolResultSync } from '../../src/index.js';
import {
  repair,
  repairParsedMessage,
  repairParsedMessageSync,
  repairSync,
} from '../../src/library/repair/index.js';
import { PNG_1X1 } from './support/shapes.js';

const BLOCKS = 60;
/**
 * Passes a repair of independent block fixes needs beyond the free first one, which finds them (all
 * fixed together): the one that confirms nothing is left, which the fallback reuses rather than
 * validating the unchanged result again. Per-fix re-validation would take one per block.
 */
const FEW = 1;
const V = { protocolVersion: '2025-11-25' } as const;

/** Many blocks, each with its own independent defect (an image without a mimeType, a raw string). */
function manyBroken(): Record<string, unknown> {
  return {
    content: Array.from({ length: BLOCKS }, (_, i) =>
      i % 2 === 0 ? { type: 'image', data: PNG_1X1 } : { type: 'text', text: `t${i}`, annotations: 'x' },
    ),
  };
}

describe('repair applies the fixes of a validation together', () => {
  it(`fixes ${BLOCKS} broken blocks within ${FEW} validation passes, sync and async`, async () => {
    const message = () => ({ jsonrpc: '2.0', id: 1, result: manyBroken() });
    const options = { ...V, request: { method: 'tools/call' } };
    for (const run of [
      repairParsedMessageSync(message(), options, { budget: FEW }),
      await repairParsedMessage(message(), options, { budget: FEW }),
    ]) {
      expect(run.abandoned).toBeUndefined();
      expect(run.fixes.length).toBeGreaterThanOrEqual(BLOCKS);
      expect(run.remaining).toEqual([]);
      const result = (run.message as { result: unknown }).result;
      expect(validateToolResultSync(result, V).filter((f) => f.severity === 'error')).toEqual([]);
    }
    // The budget does count passes: none is not enough.
    expect(repairParsedMessageSync(message(), options, { budget: 0 }).abandoned).toBe(
      'repair needed more than 0 validation passes',
    );
  });

  it('repairSync and repair give the same result and fixes', async () => {
    const sync = repairSync(manyBroken(), V);
    const async = await repair(manyBroken(), V);
    expect(sync.result).toEqual(async.result);
    expect(sync.fixes).toEqual(async.fixes);
    // Nothing to repair: the very same object back, without a copy.
    const clean = sync.result;
    expect(repairSync(clean, V).result).toBe(clean);
  });
});

describe('the fallback replaces the blocks no rule repairs together', () => {
  it('within one validation pass, however many there are among good blocks', async () => {
    // Bad base64 has no rule repair: the fallback replaces those blocks. One at a time (a validation of
    // the whole result each), 100 among 80,000 good blocks took 5.7 s.
    const message = () => ({
      jsonrpc: '2.0',
      id: 1,
      result: {
        content: Array.from({ length: 2_000 }, (_, i) =>
          i % 10 === 3
            ? { type: 'image', data: '!!!', mimeType: 'image/png' }
            : { type: 'text', text: `t${i}` },
        ),
      },
    });
    const options = { ...V, request: { method: 'tools/call' } };
    for (const run of [
      repairParsedMessageSync(message(), options, { budget: FEW }),
      await repairParsedMessage(message(), options, { budget: FEW }),
    ]) {
      expect(run.abandoned).toBeUndefined();
      expect(run.fixes).toHaveLength(200);
      expect(run.fixes.every((f) => f.lossy === true)).toBe(true);
      expect(run.remaining).toEqual([]);
      const result = (run.message as { result: { content: { text: string }[]; isError?: boolean } }).result;
      expect(result.isError).toBeUndefined();
      expect(result.content[4]).toEqual({ type: 'text', text: 't4' });
      expect(result.content[3]?.text).toMatch(/^\[An "image" block was dropped/);
    }
  });
});

describe('repair reuses what the first validation found about payloads', () => {
  it('decodes each payload the repair leaves alone once, though it repairs a copy', async () => {
    const png = Buffer.from(PNG_1X1, 'base64');
    const data = Buffer.concat([png, Buffer.alloc(3000, 7)]).toString('base64');
    const inputs = () => [
      // A mimeType the bytes contradict (fixed in the block), and a broken result member (the block is
      // left alone): the copy's payload is the input's string either way.
      { content: [{ type: 'image', data, mimeType: 'image/jpeg' }] },
      { content: [{ type: 'image', data, mimeType: 'image/png' }], _meta: 3 },
    ];
    const spy = vi.spyOn(globalThis, 'atob');
    try {
      for (const repairs of [(r: unknown) => repairSync(r, V), (r: unknown) => repair(r, V)]) {
        for (const input of inputs()) {
          spy.mockClear();
          const { result, fixes } = await repairs(input);
          expect(fixes).toHaveLength(1);
          expect(result).not.toBe(input);
          expect(spy.mock.calls.filter(([value]) => value === data)).toHaveLength(1);
        }
      }
    } finally {
      spy.mockRestore();
    }
  });
});
