/**
 * The repair loop of src/library/repair/engine.ts, case by case: what file-type's answers reach, what
 * is repaired in place, which repairs are retried, where WebMCP blocks are converted, and when the
 * fallback takes its last resort. The guarantee over generated results is repair.property.test.ts's.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  repair,
  repairBuilt,
  repairMessage,
  repairMessageSync,
  repairSync,
} from '../../src/library/repair/index.js';
import { validateToolResultSync } from '../../src/validate/index.js';
import { PNG_1X1 } from './support/shapes.js';

const V = { protocolVersion: '2025-11-25' } as const;
const TIFF = readFileSync(join(import.meta.dirname, '../../fixtures/media/image.tiff')).toString('base64');

describe('file-type and the synchronous sniffer, together', () => {
  it('a payload file-type placed does not keep the others from the synchronous sniffer', async () => {
    const input = {
      content: [
        { type: 'image', data: TIFF },
        { type: 'image', data: PNG_1X1, mimeType: 'image/jpeg' },
      ],
    };
    expect(await repair(input, V)).toEqual({
      result: {
        content: [
          { type: 'image', data: TIFF, mimeType: 'image/tiff' },
          { type: 'image', data: PNG_1X1, mimeType: 'image/png' },
        ],
      },
      fixes: [
        {
          rule: 'block-mime-type-missing',
          pointer: '/content/0/mimeType',
          description: 'set mimeType to image/tiff, sniffed from the bytes',
        },
        {
          rule: 'block-mime-type-mismatch',
          pointer: '/content/1/mimeType',
          description: 'set mimeType to image/png, sniffed from the bytes',
        },
      ],
    });
  });

  it('a result repaired in place has its payloads asked about first; one a repair produced is not', async () => {
    // What toolResult() hands over when it built the result itself.
    const owned = { content: [{ type: 'image', data: TIFF }] };
    expect(await repairBuilt(owned, V, { owned: true })).toEqual({
      result: { content: [{ type: 'image', data: TIFF, mimeType: 'image/tiff' }] },
      fixes: [
        {
          rule: 'block-mime-type-missing',
          pointer: '/content/0/mimeType',
          description: 'set mimeType to image/tiff, sniffed from the bytes',
        },
      ],
    });
    expect(owned.content[0]).toEqual({ type: 'image', data: TIFF, mimeType: 'image/tiff' });

    // A payload a repair took out of a data: URI is asked about only when the input is still there to
    // repair again with the answer; in place, the input is gone, and the fallback has the block.
    const inUri = () => ({ content: [{ type: 'image', data: `data:;base64,${TIFF}` }] });
    const stripped = {
      rule: 'block-base64-data-uri',
      pointer: '/content/0/data',
      description: 'removed the data: URI prefix from data',
    };
    expect(await repairBuilt(inUri(), V, { owned: false })).toEqual({
      result: { content: [{ type: 'image', data: TIFF, mimeType: 'image/tiff' }] },
      fixes: [
        stripped,
        {
          rule: 'block-mime-type-missing',
          pointer: '/content/0/mimeType',
          description: 'set mimeType to image/tiff, sniffed from the bytes',
        },
      ],
    });
    const inPlace = await repairBuilt(inUri(), V, { owned: true });
    expect(inPlace.fixes).toEqual([
      stripped,
      {
        rule: 'block-mime-type-missing',
        pointer: '/content/0/mimeType',
        description:
          'replaced the "image" block with a text block saying what was dropped and why (image block has no mimeType)',
        lossy: true,
      },
    ]);
    expect(inPlace.result.content).toEqual([
      { type: 'text', text: expect.stringMatching(/^\[An "image" block was dropped/) },
    ]);
  });
});

describe('which repairs are tried again', () => {
  it('a repair that declined is tried again once another repair changed the result', () => {
    // The outputSchema asks for structuredContent, which can come only from JSON in a text block: the
    // repair declines until the unknown block has become a text block holding its JSON.
    const tool = { name: 't', inputSchema: { type: 'object' }, outputSchema: { type: 'object' } };
    expect(repairSync({ content: [{ type: 'widget', a: 1 }] }, { ...V, tool })).toEqual({
      result: {
        content: [{ type: 'text', text: '{"type":"widget","a":1}' }],
        structuredContent: { type: 'widget', a: 1 },
      },
      fixes: [
        {
          rule: 'block-type-unknown',
          pointer: '/content/0/type',
          description: 'replaced the "widget" block with a text block holding its JSON',
        },
        {
          rule: 'structured-content-missing-for-output-schema',
          pointer: '/structuredContent',
          description: 'set structuredContent from the JSON in text block 0, which matches the outputSchema',
        },
      ],
    });
  });

  it('a message it cannot repair comes back as the very object it was given', async () => {
    const both = { jsonrpc: '2.0', id: 1, error: { code: -1, message: 'm' }, result: { content: [] } };
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't' } };
    const repaired = await repairMessage(both, { ...V, request: call });
    expect(repaired.message).toBe(both);
    expect(repaired.fixes).toEqual([]);
    expect(repaired.remaining.map((f) => f.rule)).toEqual(['envelope-result-and-error']);
  });
});

describe('WebMCP blocks go through the WebMCP converters wherever the repair meets them', () => {
  it('among standard blocks, with fixes that point at the block', () => {
    const input = {
      content: [
        { type: 'text', text: 'a' },
        { type: 'html', html: '<b onclick=x>b</b>' },
      ],
    };
    expect(repairSync(input, V)).toEqual({
      result: {
        content: [
          { type: 'text', text: 'a' },
          {
            type: 'resource',
            resource: { uri: 'urn:mcp-shape:html:1', mimeType: 'text/html', text: '<b>b</b>' },
          },
        ],
      },
      fixes: [
        {
          rule: 'block-type-unknown',
          pointer: '/content/1',
          description: 'removed b[onclick] (event-handler)',
          lossy: true,
        },
        {
          rule: 'block-type-unknown',
          pointer: '/content/1',
          description: 'converted the html block to an embedded text/html resource',
        },
      ],
    });
  });

  it('when another repair makes them items of the content: sanitized, and no javascript: link', () => {
    const html = repairSync({ content: { type: 'html', html: '<img src=x onerror=alert(1)>' } }, V);
    expect(html).toEqual({
      result: {
        content: [
          {
            type: 'resource',
            resource: { uri: 'urn:mcp-shape:html:0', mimeType: 'text/html', text: '<img src="x">' },
          },
        ],
      },
      fixes: [
        {
          rule: 'result-content-not-array',
          pointer: '/content',
          description: 'put the single content block into an array',
        },
        {
          rule: 'block-type-unknown',
          pointer: '/content/0',
          description: 'removed img[onerror] (event-handler)',
          lossy: true,
        },
        {
          rule: 'block-type-unknown',
          pointer: '/content/0',
          description: 'converted the html block to an embedded text/html resource',
        },
      ],
    });
    const link = repairSync({ content: { type: 'link', url: 'javascript:alert(1)', title: 't' } }, V);
    expect(link.result).toEqual({
      content: [{ type: 'text', text: 't (not linked: only http and https URLs are allowed)' }],
    });
    expect(link.fixes.at(-1)).toEqual({
      rule: 'block-type-unknown',
      pointer: '/content/0',
      description: 'dropped the link to "javascript:alert(1)": only http and https URLs are allowed',
      lossy: true,
    });
  });

  it('only html and link blocks: WebMCP tables and errors beside them are the catalog’s to repair', () => {
    // The catalog's repairs set structuredContent for a table and isError for an error; the WebMCP
    // converters leave those to convertWebMcp(), which the repair does not run.
    const html = { type: 'html', html: '<b>b</b>' };
    const table = repairSync({ content: [html, { type: 'table', headers: ['a'], rows: [[1]] }] }, V);
    expect(table.result.structuredContent).toEqual({ headers: ['a'], rows: [[1]] });
    expect(table.result.content).toEqual([
      {
        type: 'resource',
        resource: { uri: 'urn:mcp-shape:html:0', mimeType: 'text/html', text: '<b>b</b>' },
      },
      { type: 'text', text: '| a |\n| --- |\n| 1 |' },
      { type: 'text', text: '{"headers":["a"],"rows":[[1]]}' },
    ]);
    const error = repairSync({ content: [html, { type: 'error', message: 'boom' }] }, V);
    expect(error.result.isError).toBe(true);
    expect(error.fixes.map((f) => f.description)).toEqual([
      'converted the html block to an embedded text/html resource',
      'replaced the "error" block with a text block and set isError: true',
    ]);
  });

  it('content that is a string, not an array, is no place to look for them', () => {
    expect(repairSync({ content: 'hi' }, V)).toEqual({
      result: { content: [{ type: 'text', text: 'hi' }] },
      fixes: [
        {
          rule: 'result-content-not-array',
          pointer: '/content',
          description: 'turned the content string into a text block',
        },
      ],
    });
  });
});

describe('the fallback’s broken blocks', () => {
  const broken = (n: number) => ({
    content: Array.from({ length: n }, () => ({ type: 'image', data: '!!!', mimeType: 'image/png' })),
  });

  it.each([1, 100, 120, 5_000])('replaces each of %i blocks no rule repairs, keeping the result', (n) => {
    const { result, fixes } = repairSync(broken(n), V);
    expect(fixes).toHaveLength(n);
    expect(fixes.map((f) => f.pointer)).toEqual(Array.from({ length: n }, (_, i) => `/content/${i}/data`));
    expect(new Set(fixes.map((f) => f.description))).toEqual(
      new Set([
        'replaced the "image" block with a text block saying what was dropped and why (data is not valid base64 ("!!!"))',
      ]),
    );
    expect(result.isError).toBeUndefined();
    expect(result.content).toHaveLength(n);
    expect((result.content as { type: string }[]).every((block) => block.type === 'text')).toBe(true);
    expect(validateToolResultSync(result, V).filter((f) => f.severity === 'error')).toEqual([]);
  });

  it('keeps the good blocks between them as they are, and says each broken one once', () => {
    const good = { type: 'text', text: 'fine' };
    // Two errors no rule repairs in one block (its bytes cannot be sniffed for a mimeType): one fix.
    const twice = { type: 'image', data: '!!!', mimeType: 5 };
    expect(validateToolResultSync({ content: [twice] }, V).map((f) => f.rule)).toEqual([
      'block-base64-invalid',
      'block-mime-type-missing',
    ]);
    const { result, fixes } = repairSync({ content: [good, broken(1).content[0], good, twice, good] }, V);
    expect(fixes.map((f) => f.pointer.split('/').slice(0, 3).join('/'))).toEqual([
      '/content/1',
      '/content/3',
    ]);
    expect(
      (result.content as unknown[]).filter((block) => JSON.stringify(block) === JSON.stringify(good)),
    ).toHaveLength(3);
  });
});

describe('one batch of repairs', () => {
  it('removes items of a list from the last one, so no removal moves another finding off its item', () => {
    const tool = (extra: object) => ({ name: 'a', inputSchema: { type: 'object' }, ...extra });
    const { message, fixes } = repairMessageSync(
      { jsonrpc: '2.0', id: 1, result: { tools: [1, tool({ title: 5 }), 2, tool({ title: 'ok' })] } },
      { protocolVersion: '2025-06-18', request: { jsonrpc: '2.0', id: 1, method: 'tools/list' } },
    );
    expect(message).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { tools: [tool({ title: '5' }), tool({ title: 'ok' })] },
    });
    // Each fix names its item as the input had it, in document order; nothing that was not there is
    // said to be removed (it said "removed the a JSON undefined" at /result/tools/2 before).
    expect(fixes).toEqual([
      {
        rule: 'tool-not-object',
        pointer: '/result/tools/0',
        description: 'removed a JSON integer from the tools list',
        lossy: true,
      },
      {
        rule: 'tool-field-invalid',
        pointer: '/result/tools/1/title',
        description: 'converted "title" to a string',
      },
      {
        rule: 'tool-not-object',
        pointer: '/result/tools/2',
        description: 'removed a JSON integer from the tools list',
        lossy: true,
      },
    ]);
  });
});
