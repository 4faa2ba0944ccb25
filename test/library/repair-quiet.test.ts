/**
 * repair(), repairSync(), toolResult()'s repair and the proxy's repairParsedMessageSync() hand a result
 * with nothing to repair straight back, without setting up a repair, when the validator's quiet
 * shortcuts (isQuietPlainText, isQuietMessage) say so. This holds each shortcut to what the repair
 * engine itself does with the same input: same document, same fixes, same remaining findings.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runRepairSync } from '../../src/library/repair/engine.js';
import { repair, repairParsedMessageSync, repairSync } from '../../src/library/repair/index.js';
import { PROTOCOL_VERSIONS } from '../../src/spec/versions.js';
import { runMessage, runToolResult, sniffSync } from '../../src/validate/engine.js';
import { countingAtob } from '../support/count-atob.js';
import { runs } from '../support/runs.js';

const text = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('{"error":"x"}', 'y'.repeat(9_000)));
const block = fc.oneof(
  { weight: 6, arbitrary: text.map((t) => ({ type: 'text', text: t })) },
  fc.constantFrom<unknown>({ type: 'text', text: 1 }, { type: 'object' }, 'raw', {
    type: 'text',
    text: 'a',
    x: 1,
  }),
);
const result = fc
  .record(
    {
      content: fc.oneof({ weight: 8, arbitrary: fc.array(block, { maxLength: 3 }) }, fc.constant('raw')),
      isError: fc.constantFrom<unknown>(undefined, undefined, true, 'yes'),
      resultType: fc.constantFrom<unknown>(undefined, undefined, 'complete'),
    },
    { requiredKeys: ['content'] },
  )
  .map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)));
const version = fc.constantFrom(...PROTOCOL_VERSIONS);

describe('repair of a result with nothing to repair', () => {
  it('repairSync and repair return what the repair engine returns', async () => {
    let untouched = 0;
    await fc.assert(
      fc.asyncProperty(result, version, async (input, v) => {
        const engine = runRepairSync(structuredClone(input), {
          version: v,
          resultPath: () => [],
          validate: (document, run) => runToolResult(document, { version: v, ...run }),
        });
        const sync = repairSync(input, { protocolVersion: v });
        const async_ = await repair(input, { protocolVersion: v });
        expect(sync.result).toEqual(engine.document);
        expect(async_.result).toEqual(engine.document);
        expect(sync.fixes.map((f) => f.rule)).toEqual(engine.fixes.map((f) => f.rule));
        if (engine.fixes.length === 0) {
          untouched++;
          // Nothing to repair: the very same object comes back.
          expect(sync.result).toBe(input);
          expect(async_.result).toBe(input);
        }
      }),
      { numRuns: runs(1500) },
    );
    // A fifth of the draws at least, however many run (runs() takes fewer in a mutation run or the matrix).
    expect(untouched).toBeGreaterThan(runs(1500) / 5);
  });

  it('repairParsedMessageSync leaves a clean response as it is', () => {
    let clean = 0;
    fc.assert(
      fc.property(result, version, fc.boolean(), (input, v, withId) => {
        const message = { jsonrpc: '2.0', ...(withId ? { id: 1 } : {}), result: input };
        const request = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't' } };
        const findings = runMessage(message, { version: v, request, sniff: sniffSync });
        const run = repairParsedMessageSync(structuredClone(message), { protocolVersion: v, request });
        if (findings.length > 0) return;
        clean++;
        expect(run.fixes).toEqual([]);
        expect(run.remaining).toEqual([]);
        expect(run.message).toEqual(message);
      }),
      { numRuns: runs(1500) },
    );
    expect(clean).toBeGreaterThan(runs(1500) / 5);
  });

  it('repairParsedMessageSync decodes each payload once, quiet or not', () => {
    const png = Buffer.alloc(120_000);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).copy(png);
    png.write('IHDR', 12, 'latin1');
    png.writeUInt32BE(64, 16);
    png.writeUInt32BE(64, 20);
    const data = png.toString('base64');
    const request = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't' } };
    const decodes = (image: unknown, extra: unknown[] = []) => {
      const message = { jsonrpc: '2.0', id: 1, result: { content: [image, ...extra] } };
      const { value: run, count } = countingAtob(() =>
        repairParsedMessageSync(message, { protocolVersion: '2025-11-25', request }),
      );
      return { count, fixes: run.fixes.map((f) => f.rule), remaining: run.remaining.length };
    };
    const chunks = Math.ceil(data.length / 65_536);
    // Past the 25,000 tokens result-over-client-limits estimates: a warning, no repair.
    expect(decodes({ type: 'image', data, mimeType: 'image/png' })).toEqual({
      count: chunks,
      fixes: [],
      remaining: 0,
    });
    // Labelled JPEG: repaired, the payload still decoded once.
    const relabelled = decodes({ type: 'image', data, mimeType: 'image/jpeg' });
    expect(relabelled.fixes).toContain('block-mime-type-mismatch');
    expect(relabelled.count).toBe(chunks);
  });
});
