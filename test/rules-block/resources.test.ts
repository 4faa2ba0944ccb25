import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { JsonObject } from '../../src/core/json.js';
import { repair } from '../../src/library/index.js';
import { isIsoDateTimeWithOffset } from '../../src/rules/block/support/datetime.js';
import { blockOf, check, errorsOf, PNG, repairAll, repairOnce, resultOf, ruleFindings } from './support.js';

describe('block-resource-link-invalid', () => {
  it('reports a missing name (Decenza PR #981) and a missing uri', async () => {
    const [f] = await ruleFindings(
      'block-resource-link-invalid',
      resultOf([{ type: 'resource_link', uri: 'file:///a/b.txt' }]),
    );
    expect(f).toMatchObject({
      severity: 'error',
      pointer: '/content/0/name',
      message: 'resource_link has no "name"',
    });
    const [u] = await ruleFindings(
      'block-resource-link-invalid',
      resultOf([{ type: 'resource_link', name: 'x' }]),
    );
    expect(u?.messageId).toBe('missingUri');
  });

  it('reports ill-typed optional members and icons', async () => {
    const block = {
      type: 'resource_link',
      uri: 'file:///a',
      name: 'a',
      title: 5,
      size: 1.5,
      icons: [{ src: 'https://x/i.png' }, { src: 'https://x/j.png', theme: 'blue' }, 'icon'],
    };
    const ids = (await ruleFindings('block-resource-link-invalid', resultOf([block]))).map(
      (f) => `${f.messageId} ${f.pointer}`,
    );
    expect(ids).toEqual([
      'notString /content/0/title',
      'size /content/0/size',
      'icon /content/0/icons/1',
      'icon /content/0/icons/2',
    ]);
  });

  it('names a link after the last path segment of its uri, or its title', async () => {
    const fromUri = await repairOnce(
      'block-resource-link-invalid',
      resultOf([{ type: 'resource_link', uri: 'file:///tmp/my%20report.pdf' }]),
    );
    expect(blockOf(fromUri.document).name).toBe('my report.pdf');
    const fromTitle = await repairOnce(
      'block-resource-link-invalid',
      resultOf([{ type: 'resource_link', uri: 'https://x.org/', title: 'Home' }]),
    );
    expect(blockOf(fromTitle.document).name).toBe('Home');
  });

  it('repairs optional members until the block is clean', async () => {
    const block = {
      type: 'resource_link',
      uri: 'file:///a',
      name: 'a',
      description: {},
      size: 2.4,
      icons: [{ src: 1 }, { src: 'https://x/i.png' }],
    };
    const { document, stuck } = await repairAll('block-resource-link-invalid', resultOf([block]));
    expect(stuck).toBeUndefined();
    expect(blockOf(document)).toEqual({
      type: 'resource_link',
      uri: 'file:///a',
      name: 'a',
      size: 2,
      icons: [{ src: 'https://x/i.png' }],
    });
  });
});

describe('block-resource-invalid', () => {
  it.each([
    [{ type: 'resource' }, 'default', '/content/0/resource'],
    [{ type: 'resource', resource: 'file:///a' }, 'notObject', '/content/0/resource'],
    [{ type: 'resource', resource: { text: 'x' } }, 'missingUri', '/content/0/resource/uri'],
    [{ type: 'resource', resource: { uri: 'file:///a' } }, 'noContent', '/content/0/resource/text'],
    [{ type: 'resource', resource: { uri: 'file:///a', text: 3 } }, 'notString', '/content/0/resource/text'],
  ])('reports %j', async (block, messageId, pointer) => {
    const [f] = await ruleFindings('block-resource-invalid', resultOf([block]));
    expect(f).toMatchObject({ severity: 'error', messageId, pointer });
  });

  it('gives contents without a uri a synthetic one (claude-code #8239)', async () => {
    const { document } = await repairOnce(
      'block-resource-invalid',
      resultOf([{ type: 'resource', resource: { text: 'x' } }]),
    );
    expect(blockOf(document)).toEqual({
      type: 'resource',
      resource: { uri: 'urn:mcp-shape:resource:0', text: 'x' },
    });
    expect(errorsOf(await check(document))).toEqual([]);
  });
});

describe('block-resource-text-and-blob', () => {
  it('warns and keeps the text, or the blob for binary media', async () => {
    const text = resultOf([{ type: 'resource', resource: { uri: 'file:///a', text: 'hi', blob: 'aGk=' } }]);
    expect((await ruleFindings('block-resource-text-and-blob', text))[0]?.severity).toBe('warning');
    expect(blockOf((await repairOnce('block-resource-text-and-blob', text)).document)).toEqual({
      type: 'resource',
      resource: { uri: 'file:///a', text: 'hi' },
    });
    const image = resultOf([
      { type: 'resource', resource: { uri: 'file:///a.png', mimeType: 'image/png', text: 'x', blob: PNG } },
    ]);
    expect(blockOf((await repairOnce('block-resource-text-and-blob', image)).document)).toEqual({
      type: 'resource',
      resource: { uri: 'file:///a.png', mimeType: 'image/png', blob: PNG },
    });
  });
});

describe('block-uri-invalid', () => {
  it('reports relative references on links, resources and icons (2025-11-25 on)', async () => {
    const blocks = [
      { type: 'resource_link', uri: 'report.pdf', name: 'r' },
      { type: 'resource', resource: { uri: '/tmp/a.txt', text: 'x' } },
      { type: 'resource_link', uri: 'file:///a', name: 'a', icons: [{ src: 'icon.png' }] },
    ];
    const pointers = (await ruleFindings('block-uri-invalid', resultOf(blocks))).map((f) => f.pointer);
    expect(pointers).toEqual(['/content/0/uri', '/content/1/resource/uri', '/content/2/icons/0/src']);
    const old = await ruleFindings('block-uri-invalid', resultOf([blocks[2]], '2025-06-18'), '2025-06-18');
    expect(old).toEqual([]);
  });

  it('accepts absolute URIs of any scheme', async () => {
    const uris = [
      'file:///tmp/a.txt',
      'https://example.com/a?b=c#d',
      'ui://widget/1',
      'urn:isbn:0451450523',
      'data:text/plain,hi',
    ];
    const blocks = uris.map((uri) => ({ type: 'resource', resource: { uri, text: 'x' } }));
    expect(await ruleFindings('block-uri-invalid', resultOf(blocks))).toEqual([]);
  });

  it('rewrites absolute file paths as file: URIs and escapes spaces, but leaves bare names', async () => {
    const path = await repairOnce(
      'block-uri-invalid',
      resultOf([{ type: 'resource', resource: { uri: '/tmp/my file.txt', text: 'x' } }]),
    );
    expect(blockOf(path.document)).toEqual({
      type: 'resource',
      resource: { uri: 'file:///tmp/my%20file.txt', text: 'x' },
    });
    const win = await repairOnce(
      'block-uri-invalid',
      resultOf([{ type: 'resource', resource: { uri: 'C:\\data\\a.txt', text: 'x' } }]),
    );
    expect((blockOf(win.document).resource as { uri: string }).uri).toBe('file:///C:/data/a.txt');
    const spaced = await repairOnce(
      'block-uri-invalid',
      resultOf([{ type: 'resource_link', uri: 'https://x.org/a b', name: 'a' }]),
    );
    expect(blockOf(spaced.document).uri).toBe('https://x.org/a%20b');
    const bare = await repairOnce(
      'block-uri-invalid',
      resultOf([{ type: 'resource_link', uri: 'report.pdf', name: 'r' }]),
    );
    expect(bare.outcome).toBeUndefined();
  });
});

describe('block-uri-script', () => {
  it('reports script URLs on links, resources and icons (2025-11-25 on) as a browser reads them', async () => {
    const blocks = [
      { type: 'resource_link', uri: 'javascript:alert(1)', name: 'r' },
      { type: 'resource', resource: { uri: 'data:text/html,%3Cscript%3Ealert(1)%3C/script%3E', text: 'x' } },
      { type: 'resource_link', uri: 'file:///a', name: 'a', icons: [{ src: 'VBScript:msgbox(1)' }] },
      { type: 'resource_link', uri: 'JaVa\tScript:alert(1)', name: 'r' },
    ];
    const findings = await ruleFindings('block-uri-script', resultOf(blocks));
    expect(findings.map((f) => [f.pointer, f.severity, f.data?.kind])).toEqual([
      ['/content/0/uri', 'warning', 'javascript:'],
      ['/content/1/resource/uri', 'warning', 'data:text/html'],
      ['/content/2/icons/0/src', 'warning', 'vbscript:'],
      ['/content/3/uri', 'warning', 'javascript:'],
    ]);
    expect(findings[0]?.message).toBe(
      'uri "javascript:alert(1)" is a javascript: URL, which runs script where a client renders it',
    );
    // Icons exist from 2025-11-25; the link itself is reported wherever the block is.
    const old = await ruleFindings('block-uri-script', resultOf([blocks[2]], '2025-06-18'), '2025-06-18');
    expect(old).toEqual([]);
  });

  it('accepts URLs that run no script, whatever their words', async () => {
    const uris = [
      'https://javascript.example/vbscript:',
      'file:///tmp/javascript:x',
      'data:text/plain,javascript:alert(1)',
      'data:image/png;base64,iVBORw0KGgo=',
      'urn:javascript:x',
    ];
    const blocks = uris.map((uri) => ({ type: 'resource_link', uri, name: 'x' }));
    expect(await ruleFindings('block-uri-script', resultOf(blocks))).toEqual([]);
  });

  it('replaces a link by text naming it, renames embedded contents, and drops an icon', async () => {
    const link = await repairOnce(
      'block-uri-script',
      resultOf([
        { type: 'resource_link', uri: 'javascript:alert(1)', name: 'report', annotations: { priority: 1 } },
      ]),
    );
    expect(blockOf(link.document)).toEqual({
      type: 'text',
      text: 'Link "report" removed: its javascript: URL runs script.',
      annotations: { priority: 1 },
    });
    expect(link.outcome).toEqual({
      description:
        'replaced the resource_link, whose javascript: URL runs script, with a text block naming it',
      lossy: true,
    });
    const resource = await repairOnce(
      'block-uri-script',
      resultOf([{ type: 'resource', resource: { uri: 'data:text/html,hi', text: 'hello' } }]),
    );
    expect(blockOf(resource.document)).toEqual({
      type: 'resource',
      resource: { uri: 'urn:mcp-shape:resource:0', text: 'hello' },
    });
    const icon = await repairOnce(
      'block-uri-script',
      resultOf([{ type: 'resource_link', uri: 'file:///a', name: 'a', icons: [{ src: 'javascript:x' }] }]),
    );
    expect(blockOf(icon.document)).toEqual({ type: 'resource_link', uri: 'file:///a', name: 'a' });
  });

  it('repair() leaves no script URL in a result of any version, nor a Markdown autolink to one', async () => {
    const result = {
      content: [
        { type: 'resource_link', uri: 'javascript:alert(1)', name: 'x' },
        { type: 'resource', resource: { uri: 'javascript:alert(2)', text: 'y' } },
        { type: 'url', url: 'javascript:alert(3)' },
      ],
    };
    for (const protocolVersion of ['2024-11-05', '2025-03-26', '2025-11-25'] as const) {
      const { result: repaired } = await repair(result, { protocolVersion });
      expect(JSON.stringify(repaired), protocolVersion).not.toMatch(/javascript:alert/);
      expect((await check(repaired, protocolVersion)).filter((f) => f.severity !== 'info')).toEqual([]);
    }
  });
});

describe('block-annotations-invalid', () => {
  it.each([
    [[], 'default', '/content/0/annotations'],
    [{ audience: 'user' }, 'audienceNotArray', '/content/0/annotations/audience'],
    [{ audience: ['user', 'model'] }, 'audience', '/content/0/annotations/audience/1'],
    [{ priority: 2 }, 'priority', '/content/0/annotations/priority'],
    [{ priority: '0.5' }, 'priority', '/content/0/annotations/priority'],
    [{ lastModified: '2025-01-12' }, 'lastModified', '/content/0/annotations/lastModified'],
    [{ lastModified: 'yesterday' }, 'lastModified', '/content/0/annotations/lastModified'],
  ])('reports %j', async (annotations, messageId, pointer) => {
    const [f] = await ruleFindings(
      'block-annotations-invalid',
      resultOf([{ type: 'text', text: 'x', annotations }]),
    );
    expect(f).toMatchObject({ severity: 'error', messageId, pointer });
  });

  it('accepts the official example annotations and a fractional priority', async () => {
    const annotations = {
      audience: ['user', 'assistant'],
      priority: 0.6,
      lastModified: '2025-05-03T14:30:00Z',
    };
    expect(
      await ruleFindings('block-annotations-invalid', resultOf([{ type: 'text', text: 'x', annotations }])),
    ).toEqual([]);
  });

  it('clamps, filters and rewrites bad values, and says when data is dropped', async () => {
    const annotations = { audience: ['User', 'model'], priority: 7, lastModified: '2025-01-12' };
    const { document, outcomes } = await repairAll(
      'block-annotations-invalid',
      resultOf([{ type: 'text', text: 'x', annotations }]),
    );
    expect(blockOf(document).annotations).toEqual({
      audience: ['user'],
      priority: 1,
      lastModified: '2025-01-12T00:00:00.000Z',
    });
    expect(outcomes.map((o) => o.lossy ?? false)).toEqual([true, true, false]);
    const gone = await repairAll(
      'block-annotations-invalid',
      resultOf([{ type: 'text', text: 'x', annotations: { lastModified: 'soon', priority: 'high' } }]),
    );
    expect(blockOf(gone.document).annotations).toEqual({});
  });

  it('isIsoDateTimeWithOffset follows RFC 3339 with seconds and a zone', () => {
    expect(isIsoDateTimeWithOffset('2024-02-29T23:59:59.123+05:30')).toBe(true);
    expect(isIsoDateTimeWithOffset('2023-02-29T00:00:00Z')).toBe(false);
    expect(isIsoDateTimeWithOffset('2025-01-12T15:00Z')).toBe(false);
    expect(isIsoDateTimeWithOffset('2025-01-12T15:00:00')).toBe(false);
    expect(isIsoDateTimeWithOffset('2025-01-12t15:00:00z')).toBe(false);
  });
});

describe('block-annotations-invalid at the edges', () => {
  const findings = (annotations: unknown) =>
    ruleFindings('block-annotations-invalid', resultOf([{ type: 'text', text: 'x', annotations }]));

  it('names a value nested too deeply to write by its brackets, instead of failing on it', async () => {
    const depth = 200_000;
    const deepArray = JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`) as unknown;
    const deepObject = JSON.parse(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`) as unknown;
    const result = resultOf([
      { type: 'text', text: 'x', annotations: { audience: [deepArray], priority: deepObject } },
    ]);
    expect((await check(result)).filter((f) => f.message.includes('failed internally'))).toEqual([]);
    expect((await ruleFindings('block-annotations-invalid', result)).map((f) => f.message)).toEqual([
      'annotations.audience contains […]; only "user" and "assistant" are roles',
      'annotations.priority must be a number from 0 to 1, got {…}',
    ]);
  });

  it('takes priority from 0 to 1, both ends included, and nothing past them', async () => {
    for (const priority of [0, 1, 0.5]) expect(await findings({ priority }), String(priority)).toEqual([]);
    for (const priority of [-0.001, 1.001, true, null]) {
      expect(
        (await findings({ priority })).map((f) => f.messageId),
        String(priority),
      ).toEqual(['priority']);
    }
  });

  it('takes an empty audience and each role once or more, in any order', async () => {
    for (const audience of [[], ['assistant'], ['assistant', 'user', 'user']]) {
      expect(await findings({ audience }), JSON.stringify(audience)).toEqual([]);
    }
  });

  it('dates lastModified as the official SDK does (zod z.iso.datetime with an offset)', () => {
    const sdk = z.iso.datetime({ offset: true });
    const dates = [
      '2000-02-29T00:00:00Z',
      '1900-02-29T00:00:00Z',
      '2024-02-29T00:00:00Z',
      '2025-04-30T00:00:00Z',
      '2025-04-31T00:00:00Z',
      '2025-06-31T00:00:00Z',
      '2025-11-31T00:00:00Z',
      '2025-12-31T00:00:00Z',
      '2025-01-32T00:00:00Z',
      '2025-13-01T00:00:00Z',
      '2025-00-10T00:00:00Z',
      '2025-01-00T00:00:00Z',
      '2025-12-31T23:59:59-23:59',
      '2025-01-12T24:00:00Z',
      '2025-01-12T15:00:60Z',
      '2025-01-12T15:00:00+24:00',
      '2025-01-12T15:00:00+0530',
      '2025-01-12T15:00:00.5Z',
    ];
    const verdicts = dates.map((d) => [d, isIsoDateTimeWithOffset(d)]);
    expect(verdicts).toEqual(dates.map((d) => [d, sdk.safeParse(d).success]));
    // Both verdicts occur, so the agreement is not that of two functions that accept everything.
    expect(new Set(verdicts.map(([, ok]) => ok))).toEqual(new Set([true, false]));
  });
});

describe('block-annotations-in-resource', () => {
  it('moves annotations from the contents to the block', async () => {
    const block = {
      type: 'resource',
      resource: { uri: 'file:///a', text: 'x', annotations: { priority: 0.5 } },
    };
    const [f] = await ruleFindings('block-annotations-in-resource', resultOf([block]));
    expect(f).toMatchObject({ severity: 'warning', pointer: '/content/0/resource/annotations' });
    const { document } = await repairOnce('block-annotations-in-resource', resultOf([block]));
    expect(blockOf(document)).toEqual({
      type: 'resource',
      resource: { uri: 'file:///a', text: 'x' },
      annotations: { priority: 0.5 },
    });
  });

  it('lets the block annotations win when both exist', async () => {
    const block = {
      type: 'resource',
      resource: { uri: 'file:///a', text: 'x', annotations: { priority: 0.5, audience: ['user'] } },
      annotations: { priority: 1 },
    };
    const { document } = await repairOnce('block-annotations-in-resource', resultOf([block]));
    expect(blockOf(document).annotations).toEqual({ priority: 1, audience: ['user'] });
  });

  it("puts them in place of the block's annotations that are no object, and the repair keeps them", async () => {
    const block = {
      type: 'resource',
      resource: { uri: 'file:///a', text: 'x', annotations: { priority: 0.5 } },
      annotations: 5,
    };
    const { document, outcome } = await repairOnce('block-annotations-in-resource', resultOf([block]));
    expect(blockOf(document)).toEqual({
      type: 'resource',
      resource: { uri: 'file:///a', text: 'x' },
      annotations: { priority: 0.5 },
    });
    expect(outcome).toEqual({
      description:
        'moved resource.annotations to the block, in place of its annotations that were not an object',
      lossy: true,
    });
    // The whole repair, whichever rule's repair it runs first.
    const repaired = await repair(resultOf([block], '2025-06-18'), { protocolVersion: '2025-06-18' });
    expect(blockOf(repaired.result as JsonObject).annotations).toEqual({ priority: 0.5 });
  });
});

describe('block-meta-not-object', () => {
  it('reports non-object _meta on blocks and resource contents, in every version', async () => {
    const blocks = [
      { type: 'text', text: 'x', _meta: 'trace' },
      { type: 'resource', resource: { uri: 'file:///a', text: 'x', _meta: [1] } },
    ];
    for (const version of ['2024-11-05', '2026-07-28'] as const) {
      const pointers = (await ruleFindings('block-meta-not-object', resultOf(blocks, version), version)).map(
        (f) => f.pointer,
      );
      expect(pointers).toEqual(['/content/0/_meta', '/content/1/resource/_meta']);
    }
  });

  it('removes it', async () => {
    const { document, outcome } = await repairOnce(
      'block-meta-not-object',
      resultOf([{ type: 'text', text: 'x', _meta: null }]),
    );
    expect(blockOf(document)).toEqual({ type: 'text', text: 'x' });
    expect(outcome?.lossy).toBe(false);
  });
});

describe('block-text-base64-image', () => {
  it('notes data URLs and bare image base64 in text (LibreChat #9960)', async () => {
    const inJson = JSON.stringify({ plot: `data:image/png;base64,${PNG}` });
    const [f] = await ruleFindings('block-text-base64-image', resultOf([{ type: 'text', text: inJson }]));
    expect(f).toMatchObject({ severity: 'info', data: { how: 'a data: URL' } });
    const bare = `iVBORw0KGgo${'A'.repeat(400)}`;
    expect(
      (await ruleFindings('block-text-base64-image', resultOf([{ type: 'text', text: bare }])))[0]?.data.how,
    ).toBe('bare base64');
    expect(
      await ruleFindings('block-text-base64-image', resultOf([{ type: 'text', text: 'A'.repeat(400) }])),
    ).toEqual([]);
  });

  it('turns a text that is exactly one image data URL into an image block', async () => {
    const { document } = await repairOnce(
      'block-text-base64-image',
      resultOf([{ type: 'text', text: `data:image/png;base64,${PNG}` }]),
    );
    expect(blockOf(document)).toEqual({ type: 'image', data: PNG, mimeType: 'image/png' });
    const mixed = await repairOnce(
      'block-text-base64-image',
      resultOf([{ type: 'text', text: `see data:image/png;base64,${PNG}` }]),
    );
    expect(mixed.outcome).toBeUndefined();
  });
});
