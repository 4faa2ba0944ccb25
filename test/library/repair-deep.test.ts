/**
 * Values nested deeper than JSON.stringify reaches (it recurses, and runs out of call stack a few
 * thousand levels down; JSON.parse does not, so a server's message can hold them): the repairs that
 * write such a value as text write it all the same, the findings that offer those repairs keep their
 * word, and the fallback, should it meet an item that is no typed block, names it by its place.
 */

import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/core/json.js';
import type { RepairTarget } from '../../src/library/repair/engine.js';
import { applyFallback } from '../../src/library/repair/fallback.js';
import { repairParsedMessageSync, repairParsedSync } from '../../src/library/repair/index.js';
import type { EngineFinding } from '../../src/validate/engine.js';
import { validateParsedToolResultSync } from '../../src/validate/index.js';

const DEPTH = 200_000;

/** Each test walks values 200,000 deep several times: seconds alone, more on a machine busy with other work. */
const DEEP = { timeout: 120_000 };

/** The JSON text of `leaf` inside `depth` arrays or `{"a": …}` objects. */
function nestedText(depth: number, kind: 'array' | 'object', leaf = '1'): string {
  const [open, close] = kind === 'array' ? ['[', ']'] : ['{"a":', '}'];
  return `${open.repeat(depth)}${leaf}${close.repeat(depth)}`;
}

const V = { protocolVersion: '2025-06-18' } as const;

describe('a content item nested deeper than JSON.stringify reaches', DEEP, () => {
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

describe('a block of an unknown type whose payload is nested as deep', DEEP, () => {
  it('becomes text and structuredContent by block-type-unknown, not a dropped block', () => {
    const payload = nestedText(DEPTH, 'object');
    const result = JSON.parse(`{"content":[{"type":"json","json":${payload}}]}`);
    const repaired = repairParsedSync(result, V);
    expect(repaired.fixes).toEqual([
      {
        rule: 'block-type-unknown',
        pointer: '/content/0/type',
        description:
          'replaced the "json" block with a text block holding its JSON and set structuredContent to it',
      },
    ]);
    expect(repaired.result.content).toEqual([{ type: 'text', text: payload }]);
    expect(validateParsedToolResultSync(repaired.result, V).filter((f) => f.severity !== 'warning')).toEqual(
      [],
    );
  });
});

describe('a text or resource text that is a JSON value nested as deep', DEEP, () => {
  it('is serialized to its string by its rule, not dropped with its block', () => {
    const value = nestedText(DEPTH, 'object');
    const text = repairParsedSync(JSON.parse(`{"content":[{"type":"text","text":${value}}]}`), V);
    expect(text.fixes).toEqual([
      {
        rule: 'block-text-invalid',
        pointer: '/content/0/text',
        description: 'serialized the object in "text" to a string',
      },
    ]);
    expect(text.result.content).toEqual([{ type: 'text', text: value }]);
    const embedded = `{"type":"resource","resource":{"uri":"file:///a","text":${value}}}`;
    const resource = repairParsedSync(JSON.parse(`{"content":[${embedded}]}`), V);
    expect(resource.fixes).toEqual([
      {
        rule: 'block-resource-invalid',
        pointer: '/content/0/resource/text',
        description: 'serialized resource.text to a string',
      },
    ]);
    expect(resource.result.content).toEqual([
      { type: 'resource', resource: { uri: 'file:///a', text: value } },
    ]);
  });
});

describe('the fallback names the item it drops', () => {
  const target: RepairTarget = { version: '2025-06-18', resultPath: () => [], validate: () => [] };
  const finding = (index: number, message: string): EngineFinding => ({
    rule: 'block-not-object',
    severity: 'error',
    message,
    pointer: `/content/${index}`,
    data: {},
    messageId: 'default',
    path: ['content', index],
    subjectPath: ['content', index],
    resultPath: [],
  });

  it('by its place and JSON type when it is no typed block, never as an "undefined" block', () => {
    const items: [unknown, string][] = [
      [['a'], 'content item 0 (a JSON array)'],
      [null, 'content item 1 (null)'],
      [7, 'content item 2 (a JSON integer)'],
      [{ text: 'x' }, 'content item 3 (a block without a type)'],
      [{ type: 5 }, 'content item 4 (a block without a type)'],
    ];
    items.forEach(([, name], index) => {
      const document = { content: items.map(([value]) => value) };
      const step = applyFallback(document, finding(index, 'it is broken'), target, false);
      expect(step?.description).toBe(
        `replaced ${name} with a text block saying what was dropped and why (it is broken)`,
      );
      const text = (document.content[index] as JsonObject).text as string;
      expect(
        text.startsWith(`[C${name.slice(1)} was dropped from this tool result: it is broken. It was: `),
      ).toBe(true);
      expect(`${step?.description} ${text}`).not.toContain('undefined');
    });
  });

  it('by its type, with the article that type reads with, when it has one', () => {
    const document = {
      content: [
        { type: 'image', data: '!' },
        { type: 'text', text: 5 },
      ],
    };
    expect(applyFallback(document, finding(0, 'bad'), target, false)?.description).toBe(
      'replaced the "image" block with a text block saying what was dropped and why (bad)',
    );
    expect(applyFallback(document, finding(1, 'bad'), target, false)?.description).toBe(
      'replaced the "text" block with a text block saying what was dropped and why (bad)',
    );
    expect(document.content.map((b) => String(b.text).slice(0, 16))).toEqual([
      '[An "image" bloc',
      '[A "text" block ',
    ]);
  });
});

describe('a structuredContent nested deeper than JSON.stringify reaches', DEEP, () => {
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
