/**
 * Values nested deeper than JSON.stringify reaches (it recurses, and runs out of call stack a few
 * thousand levels down; JSON.parse does not, so a server's message can hold them): the repairs that
 * write such a value as text write it all the same, and the findings that offer those repairs keep their
 * word.
 */

import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/core/json.js';
import { repairParsedMessageSync, repairParsedSync } from '../../src/library/repair/index.js';
import { validateParsedToolResultSync } from '../../src/validate/index.js';

const DEPTH = 200_000;

/** The JSON text of `leaf` inside `depth` arrays or `{"a": …}` objects. */
function nestedText(depth: number, kind: 'array' | 'object', leaf = '1'): string {
  const [open, close] = kind === 'array' ? ['[', ']'] : ['{"a":', '}'];
  return `${open.repeat(depth)}${leaf}${close.repeat(depth)}`;
}

const V = { protocolVersion: '2025-06-18' } as const;

describe('a content item nested deeper than JSON.stringify reaches', () => {
  it('is repaired by block-not-object, as text holding its JSON, not dropped by the fallback', () => {
    const item = nestedText(DEPTH, 'array');
    expect(() => JSON.stringify(JSON.parse(item))).toThrow(RangeError);
    const result = JSON.parse(`{"content":[${item},{"type":"text","text":"ok"}]}`);
    const repaired = repairParsedSync(result, V);
    expect(repaired.abandoned).toBeUndefined();
    expect(repaired.fixes).toEqual([
      {
        rule: 'block-not-object',
        pointer: '/content/0',
        description: 'replaced the array with a text block holding its JSON',
      },
    ]);
    const content = repaired.result.content as JsonObject[];
    expect(content[0]).toEqual({ type: 'text', text: item });
    expect(content[1]).toEqual({ type: 'text', text: 'ok' });
  });

  it('does the same inside a response', () => {
    const item = nestedText(DEPTH, 'array');
    const message = JSON.parse(`{"jsonrpc":"2.0","id":1,"result":{"content":[${item}]}}`);
    const repaired = repairParsedMessageSync(message, V);
    expect(repaired.fixes.map((f) => [f.rule, f.pointer, f.description])).toEqual([
      ['block-not-object', '/result/content/0', 'replaced the array with a text block holding its JSON'],
    ]);
    expect(repaired.remaining).toEqual([]);
  });
});

describe('a structuredContent nested deeper than JSON.stringify reaches', () => {
  const structured = nestedText(DEPTH, 'object');
  const mirrorRule = 'structured-content-text-mirror-missing';

  it('gets the text mirror its finding offers: the repair writes it, and the finding is gone', () => {
    for (const content of ['[]', '[{"type":"text","text":"the data"}]']) {
      const result = JSON.parse(`{"content":${content},"structuredContent":${structured}}`);
      const before = validateParsedToolResultSync(result, V).filter((f) => f.rule === mirrorRule);
      expect(before.map((f) => [f.severity, f.fix?.automatic])).toEqual([['warning', true]]);
      const repaired = repairParsedSync(result, V);
      expect(repaired.abandoned).toBeUndefined();
      expect(repaired.fixes).toEqual([
        {
          rule: mirrorRule,
          pointer: '/content',
          description: 'added a text block carrying the JSON of structuredContent',
        },
      ]);
      const blocks = repaired.result.content as JsonObject[];
      expect(blocks.at(-1)).toEqual({ type: 'text', text: structured });
      const after = validateParsedToolResultSync(repaired.result, V);
      expect(after.filter((f) => f.rule.startsWith('structured-content'))).toEqual([]);
    }
  });

  it('is compared with its mirror at any depth: a mirror that agrees passes, one that differs is reported', () => {
    const mirrored = JSON.parse(
      `{"content":[{"type":"text","text":${JSON.stringify(structured)}}],"structuredContent":${structured}}`,
    );
    const said = (result: unknown) =>
      validateParsedToolResultSync(result, V)
        .filter((f) => f.rule.startsWith('structured-content'))
        .map((f) => [f.rule, f.severity, f.pointer]);
    expect(said(mirrored)).toEqual([]);
    const other = nestedText(DEPTH, 'object', '2');
    const differing = JSON.parse(
      `{"content":[{"type":"text","text":${JSON.stringify(other)}}],"structuredContent":${structured}}`,
    );
    expect(said(differing)).toEqual([['structured-content-text-mismatch', 'warning', '/content/0/text']]);
  });
});
