/**
 * A result of more blocks than a call can take arguments: past about 120,000 of them, V8 throws a
 * RangeError for `push(...items)`, which the repair engine, toolResult and the WebMCP converter each
 * once did with one item per block. And choosing which fixes of a validation go together once compared
 * each with every one chosen, which at this size would have taken minutes. A file of its own: the
 * repair of 150,000 blocks takes seconds, and here it runs beside the other files, not after them.
 */

import { describe, expect, it } from 'vitest';
import { repair } from '../../src/library/repair/index.js';
import { toolResult } from '../../src/library/tool-result.js';
import { convertWebMcp } from '../../src/library/webmcp/index.js';
import { sdkV1Parse } from './support/oracles.js';

const COUNT = 150_000;
const broken = () => ({ content: Array.from({ length: COUNT }, (_, i) => `line ${i}`) });

describe('a result of 150,000 broken blocks', () => {
  it('is repaired with a fix for each, into a result the SDK client accepts', {
    timeout: 120_000,
  }, async () => {
    const { result, fixes } = await repair(broken(), { protocolVersion: '2025-11-25' });
    expect(fixes).toHaveLength(COUNT);
    expect(new Set(fixes.map((f) => f.rule))).toEqual(new Set(['block-not-object']));
    expect((result.content as unknown[])[COUNT - 1]).toEqual({ type: 'text', text: `line ${COUNT - 1}` });
    expect(sdkV1Parse(result)).toEqual({ ok: true });
  });

  it('is shaped by toolResult and converted by convertWebMcp', { timeout: 120_000 }, async () => {
    const shaped = await toolResult(broken(), { protocolVersion: '2025-11-25' });
    expect(shaped.content).toHaveLength(COUNT);
    const converted = await convertWebMcp(broken().content);
    expect(converted.result.content).toHaveLength(COUNT);
  });
});
