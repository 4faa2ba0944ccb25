import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/core/json.js';
import type { RepairOutcome } from '../../src/rules/types.js';
import { PROTOCOL_VERSIONS, type ProtocolVersion } from '../../src/spec/versions.js';
import {
  blockOf,
  check,
  errorsOf,
  LATEST,
  PNG,
  repairAll,
  repairOnce,
  resultOf,
  ruleFindings,
  WAV,
} from './support.js';

describe('block-not-object', () => {
  it.each([['a string'], [42], [null], [[{ type: 'text', text: 'x' }]]])('reports %j', async (item) => {
    const [f] = await ruleFindings('block-not-object', resultOf([item]));
    expect(f).toMatchObject({ severity: 'error', pointer: '/content/0' });
  });

  it('wraps a string in a text block and serializes anything else', async () => {
    const strings = await repairOnce('block-not-object', resultOf(['hello']));
    expect(blockOf(strings.document)).toEqual({ type: 'text', text: 'hello' });
    const numbers = await repairOnce('block-not-object', resultOf([[1, 2]]));
    expect(blockOf(numbers.document)).toEqual({ type: 'text', text: '[1,2]' });
    expect(errorsOf(await check(numbers.document))).toEqual([]);
  });
});

describe('block-type-unknown', () => {
  const cases: [unknown, string][] = [
    [{ type: 'object', object: { a: 1 } }, 'structured'],
    [{ type: 'json', json: { a: 1 } }, 'structured'],
    [{ type: 'error', error: 'boom' }, 'error'],
    [{ type: 'blob', data: PNG, mimeType: 'image/png' }, 'binary'],
    [{ type: 'file', data: PNG }, 'binary'],
    [{ type: 'binary', data: PNG }, 'binary'],
    [{ type: 'html', html: '<p>x</p>' }, 'html'],
    [{ type: 'table', headers: ['a'], rows: [[1]] }, 'table'],
    [{ type: 'link', url: 'https://example.com/a' }, 'link'],
    [{ type: 'url', url: 'https://example.com/a' }, 'link'],
    [{ type: 'markdown', text: '# hi' }, 'textLike'],
    [{ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } }, 'imageUrl'],
    [{ type: 'application/json', text: '{}' }, 'mimeType'],
    [{ type: 'tool_use', id: '1', name: 'x', input: {} }, 'sampling'],
    [{ type: 'tool_result', toolUseId: '1', content: [] }, 'sampling'],
    [{ type: 'Text', text: 'x' }, 'case'],
    [{ type: 'video', data: 'AAAA' }, 'default'],
    [{ text: 'no type' }, 'missing'],
    [{ type: 7, text: 'x' }, 'notString'],
  ];

  it.each(cases)('reports %j with its own hint', async (block, messageId) => {
    const [f] = await ruleFindings('block-type-unknown', resultOf([block]));
    expect(f).toMatchObject({ severity: 'error', pointer: '/content/0/type', messageId });
  });

  const UNKNOWN = (type: string, hint: string) => `unknown content block type "${type}"${hint}`;
  const said: [unknown, string, string][] = [
    [
      { type: 'object', object: { a: 1 } },
      UNKNOWN('object', ': return JSON as structuredContent and mirror it in a text block'),
      'replaced the "object" block with a text block holding its JSON and set structuredContent to it',
    ],
    [
      { type: 'error', error: 'boom' },
      UNKNOWN('error', ': set `isError: true` on the result and explain the error in a text block'),
      'replaced the "error" block with a text block and set isError: true',
    ],
    [
      { type: 'file', data: PNG },
      UNKNOWN('file', ': send bytes as an image or audio block, or as an embedded resource with `blob`'),
      'replaced the "file" block with an image block',
    ],
    [
      { type: 'html', html: '<p>x</p>' },
      UNKNOWN('html', ': send HTML as an embedded resource with mimeType text/html'),
      'replaced the "html" block with an embedded text/html resource (the HTML was not sanitized)',
    ],
    [
      { type: 'table', headers: ['a'], rows: [[1]] },
      UNKNOWN('table', ': put the rows in structuredContent and a Markdown table in a text block'),
      'replaced the "table" block with a Markdown table in a text block and set structuredContent to { headers, rows }',
    ],
    [
      { type: 'url', url: 'https://example.com/a' },
      UNKNOWN('url', ': use a resource_link block (2025-06-18 on) or a text block with the URL'),
      'replaced the "url" block with a resource_link block',
    ],
    [
      { type: 'markdown', text: '# hi' },
      UNKNOWN('markdown', ': use a text block; Markdown goes in `text`'),
      'replaced the "markdown" block with a text block keeping its text',
    ],
    [
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
      UNKNOWN('image_url', ': send an image block with base64 data, or a resource_link to the URL'),
      'replaced the "image_url" block with an image block',
    ],
    [
      { type: 'image_url', image_url: 'https://example.com/a.png' },
      UNKNOWN('image_url', ': send an image block with base64 data, or a resource_link to the URL'),
      'replaced the "image_url" block with a resource_link block',
    ],
    [
      { type: 'application/json', text: '{}' },
      'content block type "application/json" is a MIME type: use a standard block type and put the media type in `mimeType`',
      'replaced the "application/json" block with a text block holding its JSON and set structuredContent to it',
    ],
    [
      { type: 'audio/wav', data: 'UklGRiQAAABXQVZF' },
      'content block type "audio/wav" is a MIME type: use a standard block type and put the media type in `mimeType`',
      'replaced the "audio/wav" block with an audio block',
    ],
    [
      { type: 'tool_use', id: '1', name: 'x', input: {} },
      'content block type "tool_use" exists only in sampling messages, not in tool results; send its content as text',
      'replaced the "tool_use" block with a text block holding its JSON',
    ],
    [
      { type: 'Text', text: 'x' },
      'content block type "Text" must be lower case "text"',
      'changed type "Text" to "text"',
    ],
    [
      { type: 'video', data: 'AAAA' },
      UNKNOWN('video', '; the standard types are text, image, audio, resource_link and resource'),
      'replaced the "video" block with a text block holding its JSON',
    ],
    [
      { text: 'no type' },
      'content block has no "type"',
      'replaced the untyped block with a text block keeping its text',
    ],
    [
      { type: 7, text: 'x' },
      'content block "type" must be a string, got integer',
      'replaced the untyped block with a text block keeping its text',
    ],
  ];

  it.each(said)('says what is wrong with %j and what its repair did', async (block, message, description) => {
    const [f] = await ruleFindings('block-type-unknown', resultOf([block]));
    expect(f?.message).toBe(message);
    expect((await repairOnce('block-type-unknown', resultOf([block]))).outcome?.description).toBe(
      description,
    );
  });

  it('does not report the standard types', async () => {
    const findings = await ruleFindings(
      'block-type-unknown',
      resultOf([
        { type: 'text', text: 'x' },
        { type: 'image', data: PNG, mimeType: 'image/png' },
      ]),
    );
    expect(findings).toEqual([]);
  });

  it('turns a json block into text and adopts it as structuredContent', async () => {
    const { document, outcome } = await repairOnce(
      'block-type-unknown',
      resultOf([{ type: 'json', json: { a: 1 } }]),
    );
    expect(blockOf(document)).toEqual({ type: 'text', text: '{"a":1}' });
    expect(document.structuredContent).toEqual({ a: 1 });
    expect(outcome?.description).toContain('structuredContent');
  });

  it('does not adopt structuredContent where the version has none; wraps an array before 2026-07-28', async () => {
    const old = await repairOnce(
      'block-type-unknown',
      resultOf([{ type: 'object', object: { a: 1 } }], '2025-03-26'),
      '2025-03-26',
    );
    expect(old.document.structuredContent).toBeUndefined();
    const arr = await repairOnce(
      'block-type-unknown',
      resultOf([{ type: 'json', json: [1] }], '2025-06-18'),
      '2025-06-18',
    );
    expect(arr.document.structuredContent).toEqual({ result: [1] });
    expect(blockOf(arr.document)).toEqual({ type: 'text', text: '{"result":[1]}' });
    const latest = await repairOnce('block-type-unknown', resultOf([{ type: 'json', json: [1] }]));
    expect(latest.document.structuredContent).toEqual([1]);
  });

  it('keeps existing structuredContent', async () => {
    const input = resultOf([{ type: 'json', json: { a: 1 } }], LATEST, { structuredContent: { b: 2 } });
    const { document } = await repairOnce('block-type-unknown', input);
    expect(document.structuredContent).toEqual({ b: 2 });
  });

  it('turns an error block into isError with its message', async () => {
    const { document } = await repairOnce(
      'block-type-unknown',
      resultOf([{ type: 'error', error: { message: 'boom' } }]),
    );
    expect(document.isError).toBe(true);
    expect(blockOf(document)).toEqual({ type: 'text', text: 'boom' });
  });

  it('turns blob/file blocks into image, audio or embedded resources by type', async () => {
    const image = await repairOnce(
      'block-type-unknown',
      resultOf([{ type: 'file', data: PNG, mimeType: 'image/png' }]),
    );
    expect(blockOf(image.document)).toEqual({ type: 'image', data: PNG, mimeType: 'image/png' });
    const pdf = await repairOnce(
      'block-type-unknown',
      resultOf([{ type: 'blob', blob: 'JVBERi0xLjQK', mimeType: 'application/pdf' }]),
    );
    expect(blockOf(pdf.document)).toMatchObject({
      type: 'resource',
      resource: { blob: 'JVBERi0xLjQK', mimeType: 'application/pdf' },
    });
    const dataUrl = await repairOnce(
      'block-type-unknown',
      resultOf([{ type: 'binary', data: `data:image/png;base64,${PNG}` }]),
    );
    expect(blockOf(dataUrl.document)).toEqual({ type: 'image', data: PNG, mimeType: 'image/png' });
    const textFile = await repairOnce(
      'block-type-unknown',
      resultOf([{ type: 'file', content: 'plain words here', uri: 'file:///a.txt' }]),
    );
    expect(blockOf(textFile.document)).toEqual({
      type: 'resource',
      resource: { uri: 'file:///a.txt', text: 'plain words here' },
    });
    for (const step of [image, pdf, dataUrl, textFile])
      expect(errorsOf(await check(step.document))).toEqual([]);
  });

  it('turns html into an embedded text/html resource', async () => {
    const { document } = await repairOnce(
      'block-type-unknown',
      resultOf([{ type: 'html', html: '<b>x</b>' }]),
    );
    expect(blockOf(document)).toEqual({
      type: 'resource',
      resource: { uri: 'urn:mcp-shape:html:0', mimeType: 'text/html', text: '<b>x</b>' },
    });
    expect(errorsOf(await check(document))).toEqual([]);
  });

  it('turns links into resource_link where the version has it, else text', async () => {
    const block = { type: 'link', url: 'https://example.com/docs/guide.html', title: 'Guide' };
    const latest = await repairOnce('block-type-unknown', resultOf([block]));
    expect(blockOf(latest.document)).toEqual({
      type: 'resource_link',
      uri: 'https://example.com/docs/guide.html',
      name: 'Guide',
    });
    const old = await repairOnce('block-type-unknown', resultOf([block], '2025-03-26'), '2025-03-26');
    expect(blockOf(old.document)).toEqual({
      type: 'text',
      text: 'Link: Guide <https://example.com/docs/guide.html>',
    });
    expect(errorsOf(await check(old.document, '2025-03-26'))).toEqual([]);
  });

  it('turns a table into Markdown plus structuredContent', async () => {
    const { document } = await repairOnce(
      'block-type-unknown',
      resultOf([{ type: 'table', headers: ['a', 'b'], rows: [[1, 'x|y']] }]),
    );
    expect(blockOf(document)).toEqual({ type: 'text', text: '| a | b |\n| --- | --- |\n| 1 | x\\|y |' });
    expect(document.structuredContent).toEqual({ headers: ['a', 'b'], rows: [[1, 'x|y']] });
  });

  it('lower-cases a mis-cased standard type', async () => {
    const { document } = await repairOnce('block-type-unknown', resultOf([{ type: 'TEXT', text: 'x' }]));
    expect(blockOf(document)).toEqual({ type: 'text', text: 'x' });
  });

  it('keeps the text of other blocks, saying what it dropped, or serializes the whole block', async () => {
    const kept = await repairOnce(
      'block-type-unknown',
      resultOf([{ type: 'markdown', text: '# hi', extra: 1 }]),
    );
    expect(blockOf(kept.document)).toEqual({ type: 'text', text: '# hi' });
    expect(kept.outcome).toMatchObject({ lossy: true });
    expect(kept.outcome?.description).toContain('extra');
    const whole = await repairOnce('block-type-unknown', resultOf([{ type: 'video', frames: 3 }]));
    expect(blockOf(whole.document)).toEqual({ type: 'text', text: '{"type":"video","frames":3}' });
    expect(whole.outcome?.lossy).toBeFalsy();
  });

  it('keeps annotations when converting', async () => {
    const { document } = await repairOnce(
      'block-type-unknown',
      resultOf([{ type: 'markdown', text: 'x', annotations: { priority: 1 } }]),
    );
    expect(blockOf(document)).toEqual({ type: 'text', text: 'x', annotations: { priority: 1 } });
  });

  it.each(PROTOCOL_VERSIONS)('leaves no error of its own after repair in %s', async (version) => {
    const blocks = cases.map(([b]) => b);
    const { document, stuck } = await repairAll('block-type-unknown', resultOf(blocks, version), version);
    expect(stuck).toBeUndefined();
    expect(await ruleFindings('block-type-unknown', document, version)).toEqual([]);
  });
});

describe('block-type-unsupported-in-version', () => {
  const link = { type: 'resource_link', uri: 'file:///tmp/a.txt', name: 'a.txt' };
  const audio = { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' };

  it('reports resource_link before 2025-06-18 and audio in 2024-11-05 only', async () => {
    expect(
      await ruleFindings('block-type-unsupported-in-version', resultOf([link], '2025-03-26'), '2025-03-26'),
    ).toHaveLength(1);
    expect(
      await ruleFindings('block-type-unsupported-in-version', resultOf([link], '2025-06-18'), '2025-06-18'),
    ).toEqual([]);
    expect(
      await ruleFindings('block-type-unsupported-in-version', resultOf([audio], '2024-11-05'), '2024-11-05'),
    ).toHaveLength(1);
    expect(
      await ruleFindings('block-type-unsupported-in-version', resultOf([audio], '2025-03-26'), '2025-03-26'),
    ).toEqual([]);
  });

  it('downgrades a resource_link to text and audio to an embedded blob resource', async () => {
    const l = await repairOnce(
      'block-type-unsupported-in-version',
      resultOf([link], '2024-11-05'),
      '2024-11-05',
    );
    expect(blockOf(l.document)).toEqual({ type: 'text', text: 'Link: a.txt <file:///tmp/a.txt>' });
    const a = await repairOnce(
      'block-type-unsupported-in-version',
      resultOf([audio], '2024-11-05'),
      '2024-11-05',
    );
    expect(blockOf(a.document)).toEqual({
      type: 'resource',
      resource: { uri: 'urn:mcp-shape:audio:0', blob: 'UklGRg==', mimeType: 'audio/wav' },
    });
    expect(errorsOf(await check(a.document, '2024-11-05'))).toEqual([]);
  });
});

describe('block-type-unknown: what each conversion makes of a block, and says', () => {
  /** Block, version, the whole result after one repair, the repair's outcome. */
  const CONVERSIONS: [JsonObject, ProtocolVersion, JsonObject, RepairOutcome][] = [
    [
      { type: 'json', json: '{"a":1}' },
      LATEST,
      { content: [{ type: 'text', text: '{"a":1}' }], resultType: 'complete', structuredContent: { a: 1 } },
      {
        description:
          'replaced the "json" block with a text block holding its JSON and set structuredContent to it',
        lossy: false,
      },
    ],
    [
      { type: 'json', json: 'not json' },
      LATEST,
      { content: [{ type: 'text', text: 'not json' }], resultType: 'complete' },
      { description: 'replaced the "json" block with a text block holding its JSON', lossy: false },
    ],
    [
      { type: 'data', a: 1, b: [2] },
      LATEST,
      {
        content: [{ type: 'text', text: '{"a":1,"b":[2]}' }],
        resultType: 'complete',
        structuredContent: { a: 1, b: [2] },
      },
      {
        description:
          'replaced the "data" block with a text block holding its JSON and set structuredContent to it',
        lossy: false,
      },
    ],
    [
      { type: 'object', value: 7 },
      '2025-06-18',
      { content: [{ type: 'text', text: '{"result":7}' }], structuredContent: { result: 7 } },
      {
        description:
          'replaced the "object" block with a text block holding its JSON and set structuredContent to it',
        lossy: false,
      },
    ],
    [
      { type: 'structured', result: { a: 1 }, note: 'x' },
      LATEST,
      { content: [{ type: 'text', text: '{"a":1}' }], resultType: 'complete', structuredContent: { a: 1 } },
      {
        description:
          'replaced the "structured" block with a text block holding its JSON and set structuredContent to it',
        lossy: true,
      },
    ],
    [
      { type: 'application/json', data: { a: 1 } },
      LATEST,
      { content: [{ type: 'text', text: '{"a":1}' }], resultType: 'complete', structuredContent: { a: 1 } },
      {
        description:
          'replaced the "application/json" block with a text block holding its JSON and set structuredContent to it',
        lossy: false,
      },
    ],
    [
      { type: 'json', json: { a: 1 }, annotations: { priority: 1 }, _meta: { k: 1 } },
      '2025-03-26',
      { content: [{ type: 'text', text: '{"a":1}', annotations: { priority: 1 } }] },
      { description: 'replaced the "json" block with a text block holding its JSON', lossy: false },
    ],
    [
      { type: 'json', json: { a: 1 }, _meta: { k: 1 } },
      LATEST,
      {
        content: [{ type: 'text', text: '{"a":1}', _meta: { k: 1 } }],
        resultType: 'complete',
        structuredContent: { a: 1 },
      },
      {
        description:
          'replaced the "json" block with a text block holding its JSON and set structuredContent to it',
        lossy: false,
      },
    ],
    [
      { type: 'error', error: 'boom', code: 3 },
      LATEST,
      { content: [{ type: 'text', text: 'boom' }], resultType: 'complete', isError: true },
      { description: 'replaced the "error" block with a text block and set isError: true', lossy: true },
    ],
    [
      { type: 'error', message: 'bad' },
      LATEST,
      { content: [{ type: 'text', text: 'bad' }], resultType: 'complete', isError: true },
      { description: 'replaced the "error" block with a text block and set isError: true', lossy: false },
    ],
    [
      { type: 'error', error: { detail: 'deep' } },
      LATEST,
      { content: [{ type: 'text', text: 'deep' }], resultType: 'complete', isError: true },
      { description: 'replaced the "error" block with a text block and set isError: true', lossy: false },
    ],
    [
      { type: 'error', code: 5 },
      LATEST,
      {
        content: [{ type: 'text', text: '{"type":"error","code":5}' }],
        resultType: 'complete',
        isError: true,
      },
      { description: 'replaced the "error" block with a text block and set isError: true', lossy: false },
    ],
    [
      { type: 'blob', nothing: 1 },
      LATEST,
      { content: [{ type: 'text', text: '{"type":"blob","nothing":1}' }], resultType: 'complete' },
      { description: 'replaced the "blob" block with a text block holding its JSON' },
    ],
    [
      { type: 'audio_clip', data: WAV },
      LATEST,
      {
        content: [
          {
            type: 'text',
            text: '{"type":"audio_clip","data":"UklGRiQAAABXQVZFZm10IBAAAAABAAEARKwAAIhYAQACABAAZGF0YQAAAAA="}',
          },
        ],
        resultType: 'complete',
      },
      { description: 'replaced the "audio_clip" block with a text block holding its JSON' },
    ],
    [
      { type: 'file', data: WAV, mime_type: 'audio/wav', url: 'https://x.test/a.wav' },
      LATEST,
      { content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }], resultType: 'complete' },
      { description: 'replaced the "file" block with an audio block' },
    ],
    [
      { type: 'file', data: WAV, mimeType: 'audio/wav' },
      '2024-11-05',
      {
        content: [
          { type: 'resource', resource: { uri: 'urn:mcp-shape:file:0', blob: WAV, mimeType: 'audio/wav' } },
        ],
      },
      { description: 'replaced the "file" block with an embedded resource' },
    ],
    [
      { type: 'html', content: '<p>x</p>', url: 'https://x.test/p.html' },
      LATEST,
      {
        content: [
          {
            type: 'resource',
            resource: { uri: 'https://x.test/p.html', mimeType: 'text/html', text: '<p>x</p>' },
          },
        ],
        resultType: 'complete',
      },
      {
        description:
          'replaced the "html" block with an embedded text/html resource (the HTML was not sanitized)',
      },
    ],
    [
      { type: 'html', markup: 1 },
      LATEST,
      { content: [{ type: 'text', text: '{"type":"html","markup":1}' }], resultType: 'complete' },
      { description: 'replaced the "html" block with a text block holding its JSON' },
    ],
    [
      { type: 'url', href: 'https://x.test/docs/', description: 'Docs' },
      LATEST,
      {
        content: [{ type: 'resource_link', uri: 'https://x.test/docs/', name: 'docs', description: 'Docs' }],
        resultType: 'complete',
      },
      { description: 'replaced the "url" block with a resource_link block' },
    ],
    [
      { type: 'link', uri: 'relative/path', name: 'R' },
      LATEST,
      { content: [{ type: 'text', text: 'Link: R <relative/path>' }], resultType: 'complete' },
      { description: 'replaced the "link" block with a text block' },
    ],
    [
      { type: 'link', text: 'no url' },
      LATEST,
      { content: [{ type: 'text', text: 'no url' }], resultType: 'complete' },
      { description: 'replaced the "link" block with a text block keeping its text', lossy: false },
    ],
    [
      { type: 'image_url', image_url: { url: 'https://x.test/cat.png' } },
      LATEST,
      {
        content: [{ type: 'resource_link', uri: 'https://x.test/cat.png', name: 'cat.png' }],
        resultType: 'complete',
      },
      { description: 'replaced the "image_url" block with a resource_link block' },
    ],
    [
      { type: 'image_url', image_url: `data:image/png;base64,${PNG}` },
      LATEST,
      { content: [{ type: 'image', data: PNG, mimeType: 'image/png' }], resultType: 'complete' },
      { description: 'replaced the "image_url" block with an image block' },
    ],
    [
      { type: 'image_url', url: 'https://x.test/dog.jpg' },
      LATEST,
      {
        content: [{ type: 'resource_link', uri: 'https://x.test/dog.jpg', name: 'dog.jpg' }],
        resultType: 'complete',
      },
      { description: 'replaced the "image_url" block with a resource_link block' },
    ],
    [
      { type: 'image_url', image_url: 5 },
      LATEST,
      { content: [{ type: 'text', text: '{"type":"image_url","image_url":5}' }], resultType: 'complete' },
      { description: 'replaced the "image_url" block with a text block holding its JSON' },
    ],
    [
      { type: 'table', columns: ['a'], rows: [[1]] },
      '2025-03-26',
      { content: [{ type: 'text', text: '| a |\n| --- |\n| 1 |' }] },
      { description: 'replaced the "table" block with a Markdown table in a text block' },
    ],
    [
      { type: 'table', headers: ['a'], rows: [1] },
      LATEST,
      {
        content: [{ type: 'text', text: '{"type":"table","headers":["a"],"rows":[1]}' }],
        resultType: 'complete',
      },
      { description: 'replaced the "table" block with a text block holding its JSON' },
    ],
    [
      { type: 'text/plain', content: 'hello' },
      LATEST,
      { content: [{ type: 'text', text: 'hello' }], resultType: 'complete' },
      { description: 'replaced the "text/plain" block with a text block' },
    ],
    [
      { type: 'text/html', value: 1 },
      LATEST,
      { content: [{ type: 'text', text: '{"type":"text/html","value":1}' }], resultType: 'complete' },
      { description: 'replaced the "text/html" block with a text block holding its JSON' },
    ],
    [
      { type: 'application/pdf', bytes: 'JVBERi0xLjQK', uri: 'https://x.test/a.pdf' },
      LATEST,
      {
        content: [
          {
            type: 'resource',
            resource: { uri: 'https://x.test/a.pdf', blob: 'JVBERi0xLjQK', mimeType: 'application/pdf' },
          },
        ],
        resultType: 'complete',
      },
      { description: 'replaced the "application/pdf" block with an embedded resource' },
    ],
    [
      { type: 'image/png', base64: PNG },
      LATEST,
      { content: [{ type: 'image', data: PNG, mimeType: 'image/png' }], resultType: 'complete' },
      { description: 'replaced the "image/png" block with an image block' },
    ],
    [
      { type: 'video/mp4', frames: 3 },
      LATEST,
      { content: [{ type: 'text', text: '{"type":"video/mp4","frames":3}' }], resultType: 'complete' },
      { description: 'replaced the "video/mp4" block with a text block holding its JSON' },
    ],
    [
      { type: 'Image', data: PNG, mimeType: 'image/png' },
      LATEST,
      { content: [{ type: 'image', data: PNG, mimeType: 'image/png' }], resultType: 'complete' },
      { description: 'changed type "Image" to "image"' },
    ],
    [
      { type: 'tool_use', id: 'x', input: {} },
      LATEST,
      {
        content: [{ type: 'text', text: '{"type":"tool_use","id":"x","input":{}}' }],
        resultType: 'complete',
      },
      { description: 'replaced the "tool_use" block with a text block holding its JSON' },
    ],
    [
      { type: 'tool_result', text: 'r' },
      LATEST,
      { content: [{ type: 'text', text: 'r' }], resultType: 'complete' },
      { description: 'replaced the "tool_result" block with a text block keeping its text', lossy: false },
    ],
    [
      { text: 'untyped' },
      LATEST,
      { content: [{ type: 'text', text: 'untyped' }], resultType: 'complete' },
      { description: 'replaced the untyped block with a text block keeping its text', lossy: false },
    ],
    [
      { type: 5, text: 'num' },
      LATEST,
      { content: [{ type: 'text', text: 'num' }], resultType: 'complete' },
      { description: 'replaced the untyped block with a text block keeping its text', lossy: false },
    ],
    [
      { type: '', x: 1 },
      LATEST,
      { content: [{ type: 'text', text: '{"type":"","x":1}' }], resultType: 'complete' },
      { description: 'replaced the "" block with a text block holding its JSON' },
    ],
    [
      { type: 'input_text', text: 'hi' },
      LATEST,
      { content: [{ type: 'text', text: 'hi' }], resultType: 'complete' },
      { description: 'replaced the "input_text" block with a text block keeping its text', lossy: false },
    ],
  ];

  it.each(
    CONVERSIONS.map(([block, ...rest]) => [JSON.stringify(block).slice(0, 70), block, ...rest] as const),
  )('%s', async (_shown, block, version, after, outcome) => {
    const step = await repairOnce('block-type-unknown', resultOf([block], version), version);
    expect(step.document).toEqual(after);
    expect(step.outcome).toEqual(outcome);
  });
});
