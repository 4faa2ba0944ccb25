import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convertWebMcp, markdownTable, sanitizeHtml } from '../../src/library/webmcp/index.js';
import { validateToolResult } from '../../src/validate/index.js';
import { runs } from '../support/runs.js';
import { PNG_1X1 } from './support/shapes.js';

/** The payloads of shared/reference/deps.md §g, with what the safety pass must remove. */
const PAYLOADS: [string, string, string[]][] = [
  ['script tag', '<p>hi</p><script>alert(1)</script>', ['<script>']],
  ['leading script (parsed into head by browsers)', '<script>alert(1)</script><p>x</p>', ['<script>']],
  ['img onerror', '<img src=x onerror="alert(1)">', ['img[onerror]']],
  ['a href javascript:', '<a href="javascript:alert(1)">x</a>', ['a[href=javascript:alert(1)]']],
  ['entity-obfuscated js: url', '<a href="&#32;JaVa&#9;ScRiPt:alert(1)">x</a>', ['a[href=']],
  ['svg script', '<svg><script>alert(1)</script></svg>', ['<script>']],
  ['iframe srcdoc', '<iframe srcdoc="<script>alert(1)</script>"></iframe>', ['<iframe>']],
  ['form action js', '<form action="javascript:alert(1)"><button>go</button></form>', ['form[action=']],
  ['button formaction', '<button formaction="javascript:alert(1)">go</button>', ['button[formaction=']],
  ['meta refresh', '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">', ['<meta>']],
  ['object data: html', '<object data="data:text/html,<script>alert(1)</script>"></object>', ['<object>']],
  ['template script', '<template><script>alert(1)</script></template>', ['<script>']],
  [
    'noscript differential',
    '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
    ['img[onerror]'],
  ],
  // Inert to a scripting parser, a live image to DOMParser or a template: removed with its content.
  ['noscript content', '<noscript><img src=x onerror=alert(1)></noscript><p>x</p>', ['<noscript>']],
  // The fragment parse drops <body>, but a client rendering a document would run its handler.
  ['body onload', '<html><head></head><!-- c --><body onload="alert(1)"><p>x</p>', ['body[onload]']],
  // Only iframes honour srcdoc, and they go as a whole; on any other element it is still removed.
  ['srcdoc elsewhere', '<p srcdoc="<img src=x onerror=alert(1)>">x</p>', ['p[srcdoc]']],
  ['frameset', '<frameset onload=alert(1)><frame src="javascript:alert(1)"></frameset>', ['<frameset>']],
  [
    'svg use of a data: document',
    '<svg><use href="data:image/svg+xml,<svg id=\'x\'><image href=1 onerror=alert(1) /></svg>#x"/></svg>',
    ['use[href=data:'],
  ],
  [
    'svg animate values',
    '<svg><a><animate attributeName="href" values="javascript:alert(1)"/><text>x</text></a></svg>',
    ['animate[values='],
  ],
  [
    'base and link',
    '<base href="https://evil.example/"><link rel="stylesheet" href="x.css">',
    ['<base>', '<link>'],
  ],
  ['embed', '<embed src="x.swf">', ['<embed>']],
  ['vbscript', '<a href="vbscript:msgbox(1)">x</a>', ['a[href=vbscript:']],
  // Mutation XSS: inert as parsed, but its serialization parses into an <img onerror> (namespace confusion).
  [
    'math/mglyph/style mXSS',
    '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
    ['img[onerror]'],
  ],
  ['svg style mXSS', '<svg></p><style><a id="</style><img src=1 onerror=alert(1)>">', ['img[onerror]']],
  [
    'svg set of an event handler',
    '<svg><set attributeName="onmouseover" to="alert(1)"/></svg>',
    ['set[attributename=onmouseover]'],
  ],
];

/** Pieces of markup that change meaning with their surroundings, for the property below. */
const FRAGMENTS = [
  '<math>',
  '<mtext>',
  '<mglyph>',
  '<malignmark>',
  '<svg>',
  '</svg>',
  '<style>',
  '</style>',
  '<table>',
  '<noscript>',
  '</noscript>',
  '<template>',
  '<p title="',
  '">',
  '</p>',
  '<img src=x onerror=alert(1)>',
  '<a href="javascript:alert(1)">',
  '<script>alert(1)</script>',
  '<!--',
  '-->',
  '<select>',
  '<textarea>',
  '<xmp>',
  '<iframe>',
  'text',
];

describe('sanitizeHtml()', () => {
  it.each(PAYLOADS)('%s: removed and reported', (_name, html, expected) => {
    const { html: safe, removed } = sanitizeHtml(html);
    for (const what of expected) expect(removed.map((r) => r.what).join(' ')).toContain(what);
    expect(safe).not.toMatch(
      /<script|onerror|javascript:|vbscript:|<iframe|<meta|<object|<base|<link|<embed/i,
    );
    // The output is a fixed point: sanitizing it again finds nothing.
    expect(sanitizeHtml(safe).removed).toEqual([]);
  });

  it('property: whatever the markup, its output parses into a tree with nothing left to remove', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string()), { maxLength: 12 }),
        (parts) => {
          const { html } = sanitizeHtml(parts.join(''));
          expect(sanitizeHtml(html).removed).toEqual([]);
        },
      ),
      { numRuns: runs(2000) },
    );
  });

  it('keeps safe markup, including inert style attributes, unchanged', () => {
    const html =
      '<p class="x" style="color:red">Hello <a href="https://example.com/a?b=1">link</a> <img src="data:image/png;base64,AAAA" alt=""></p>';
    expect(sanitizeHtml(html)).toEqual({ html, removed: [] });
  });
});

describe('markdownTable()', () => {
  it('escapes pipes and newlines and pads short rows', () => {
    expect(markdownTable(['a', 'b|c'], [[1, 'x\ny'], [true]])).toBe(
      '| a | b\\|c |\n| --- | --- |\n| 1 | x<br>y |\n| true |  |',
    );
  });
});

describe('convertWebMcp()', () => {
  it('html → an embedded text/html resource, sanitized, removals reported', async () => {
    const { result, fixes } = await convertWebMcp(
      { content: [{ type: 'html', html: '<b onclick="x()">hi</b><script>x()</script>' }] },
      { protocolVersion: '2025-11-25' },
    );
    expect(result.content).toEqual([
      {
        type: 'resource',
        resource: { uri: 'urn:mcp-shape:html:0', mimeType: 'text/html', text: '<b>hi</b>' },
      },
    ]);
    expect(fixes.filter((f) => f.rule === 'webmcp-html-unsafe').map((f) => f.description)).toEqual([
      'removed b[onclick] (event-handler)',
      'removed <script> (unsafe-element)',
    ]);
  });

  it('link → resource_link for http(s), text for other schemes', async () => {
    const { result, fixes } = await convertWebMcp(
      [
        { type: 'link', url: 'https://example.com/docs', title: 'Docs' },
        { type: 'link', url: 'javascript:alert(1)', title: 'Click' },
      ],
      { protocolVersion: '2025-11-25' },
    );
    expect(result.content[0]).toEqual({
      type: 'resource_link',
      uri: 'https://example.com/docs',
      name: 'Docs',
      title: 'Docs',
    });
    expect(result.content[1]).toEqual({
      type: 'text',
      text: 'Click (not linked: only http and https URLs are allowed)',
    });
    expect(fixes.map((f) => f.rule)).toContain('webmcp-link-unsafe');
  });

  it('link becomes text where the version has no resource_link', async () => {
    const { result } = await convertWebMcp([{ type: 'link', url: 'https://example.com/', title: 'Home' }], {
      protocolVersion: '2025-03-26',
    });
    expect(result.content.map((b) => b.type)).toEqual(['text']);
    expect(JSON.stringify(result.content)).toContain('https://example.com/');
  });

  it('table → structuredContent {headers, rows} and a Markdown table', async () => {
    const { result } = await convertWebMcp(
      [{ type: 'table', headers: ['city', 'temp'], rows: [['Lyon', 21]] }],
      { protocolVersion: '2025-11-25' },
    );
    expect(result.structuredContent).toEqual({ headers: ['city', 'temp'], rows: [['Lyon', 21]] });
    expect(result.content[0]).toEqual({
      type: 'text',
      text: '| city | temp |\n| --- | --- |\n| Lyon | 21 |',
    });
    expect(await validateToolResult(result, { protocolVersion: '2025-11-25' })).toEqual([]);
  });

  it('error → isError with a text block', async () => {
    const { result } = await convertWebMcp([{ type: 'error', message: 'quota exceeded' }], {
      protocolVersion: '2026-07-28',
    });
    expect(result).toEqual({
      content: [{ type: 'text', text: 'quota exceeded' }],
      isError: true,
      resultType: 'complete',
    });
  });

  it('reports images over the size limit without changing them', async () => {
    const image = { type: 'image', data: PNG_1X1, mimeType: 'image/png' };
    const { result, warnings } = await convertWebMcp([image], {
      protocolVersion: '2025-11-25',
      maxImageBytes: 10,
    });
    expect(result.content).toEqual([image]);
    expect(warnings).toEqual([
      expect.objectContaining({ rule: 'webmcp-image-too-large', pointer: '/content/0' }),
    ]);
    expect((await convertWebMcp([image], { protocolVersion: '2025-11-25' })).warnings).toEqual([]);
  });
});
