import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { repair } from '../../src/library/repair/index.js';
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

describe('sanitizeHtml() output and report, exactly', () => {
  /** Foreign content whose serialization parses into a different tree (mutation XSS). */
  const MXSS = '<math><mtext><table><mglyph><style>';
  const removal = (what: string, reason: string) => ({ what, reason });
  it.each<[string, string, string, { what: string; reason: string }[]]>([
    [
      'a prefixed SVG attribute by its full name',
      '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>',
      '<svg><a><text>x</text></a></svg>',
      [removal('a[xlink:href=javascript:alert(1)]', 'script-url')],
    ],
    [
      'svg use of a data: document through xlink:href',
      '<svg><use xlink:href="data:image/svg+xml,x#a"/></svg>',
      '<svg><use></use></svg>',
      [removal('use[xlink:href=data:image/svg+xml,x#a]', 'script-url')],
    ],
    [
      'a data: URL that is no document, on an element that loads none',
      '<svg><a href="data:image/png,x"><text>x</text></a></svg>',
      '<svg><a href="data:image/png,x"><text>x</text></a></svg>',
      [],
    ],
    [
      'an animated event handler, whatever its case and spaces',
      '<svg><animate attributeName=" OnClick" to="x"/></svg>',
      '<svg><animate to="x"></animate></svg>',
      [removal('animate[attributename= OnClick]', 'event-handler')],
    ],
    [
      'a script URL in any item of an SVG values list',
      '<svg><animate attributeName="href" values="https://a;javascript:alert(1)"/></svg>',
      '<svg><animate attributeName="href"></animate></svg>',
      [removal('animate[values=https://a;javascript:alert(1)]', 'script-url')],
    ],
    [
      'a script URL in any candidate of a srcset, shown to 30 characters',
      '<img srcset="a.png 1x, javascript:alert(1) 2x">',
      '<img>',
      [removal('img[srcset=a.png 1x, javascript:alert(1) …]', 'script-url')],
    ],
    [
      'a script URL in upper case, shown as written',
      '<a href="JAVASCRIPT:x">x</a>',
      '<a>x</a>',
      [removal('a[href=JAVASCRIPT:x]', 'script-url')],
    ],
    [
      'a data: URL of an HTML document',
      '<a href="data:text/html,x">x</a>',
      '<a>x</a>',
      [removal('a[href=data:text/html,x]', 'script-url')],
    ],
    [
      'a data: URL of plain text, and script-like text in an attribute that is no URL',
      '<a href="data:text/plain,x" title="javascript:x">x</a>',
      '<a href="data:text/plain,x" title="javascript:x">x</a>',
      [],
    ],
    [
      'handlers on the html and body elements a fragment parse drops',
      '<html onload="x()"><body onclick="y()"><p>a</p></body></html>',
      '<p>a</p>',
      [removal('html[onload]', 'event-handler'), removal('body[onclick]', 'event-handler')],
    ],
    [
      'a frameset, whatever the case of the html tag before it',
      '<HTML><frameset><frame></frameset>',
      '',
      [removal('<frameset>', 'unsafe-element')],
    ],
    ['a body tag closed by a slash', '<body/onload=x()>', '', [removal('body[onload]', 'event-handler')]],
    [
      'an element merely starting with html, handled as any other',
      '<htmlx onload=1>',
      '<htmlx></htmlx>',
      [removal('htmlx[onload]', 'event-handler')],
    ],
    [
      'handlers at every depth, in document order, and template contents',
      '<div><p onclick=x><span onmouseover=y>t</span></p></div><template><img src=x onerror=alert(1)></template>',
      '<div><p><span>t</span></p></div><template><img src="x"></template>',
      [
        removal('p[onclick]', 'event-handler'),
        removal('span[onmouseover]', 'event-handler'),
        removal('img[onerror]', 'event-handler'),
      ],
    ],
    ['comments and text, kept', '<p>a<!--c-->b</p>', '<p>a<!--c-->b</p>', []],
    [
      'a use element referring inside the document',
      '<svg><use href="#icon"/></svg>',
      '<svg><use href="#icon"></use></svg>',
      [],
    ],
    [
      'a data: URL on a use attribute it does not follow',
      '<svg><use src="data:image/png,x"/></svg>',
      '<svg><use src="data:image/png,x"></use></svg>',
      [],
    ],
    [
      'an attribute whose value merely starts with on',
      '<p title="on the way">x</p>',
      '<p title="on the way">x</p>',
      [],
    ],
    [
      'a comma in a URL that is no srcset',
      '<a href="https://a.example/?q=1,javascript:x">x</a>',
      '<a href="https://a.example/?q=1,javascript:x">x</a>',
      [],
    ],
    [
      'a script URL of exactly 30 characters, shown whole',
      `<a href="javascript:${'x'.repeat(19)}">x</a>`,
      '<a>x</a>',
      [removal(`a[href=javascript:${'x'.repeat(19)}]`, 'script-url')],
    ],
    [
      'harmless attributes of the html and body elements',
      '<html lang="en"><body class="a"><p>x</p></body></html>',
      '<p>x</p>',
      [],
    ],
    [
      'a handler on the head element',
      '<head onclick="x()"><p>a</p>',
      '<p>a</p>',
      [removal('head[onclick]', 'event-handler')],
    ],
    [
      'an html element after a doctype and a comment',
      '<!doctype html><!--c--><html onload=x><p>a',
      '<!--c--><p>a</p>',
      [removal('html[onload]', 'event-handler')],
    ],
    [
      'markup that still parses into something new after four rounds: all of it',
      `${MXSS}<img src=x onerror=alert(1)><a href="javascript:alert(1)">${MXSS}<form></svg><a href="javascript:alert(1)">${MXSS}<form><img src=x onerror=alert(1)></form>">`,
      '',
      [
        removal('img[onerror]', 'event-handler'),
        removal('a[href=javascript:alert(1)]', 'script-url'),
        removal('a[href=javascript:alert(1)]', 'script-url'),
        removal('img[onerror]', 'event-handler'),
        removal('all markup', 'unstable-markup'),
      ],
    ],
  ])('%s', (_name, input, html, removed) => {
    expect(sanitizeHtml(input)).toEqual({ html, removed });
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

describe('convertWebMcp() on every spelling the proposal has used', () => {
  const V = { protocolVersion: '2025-11-25' } as const;
  const converted = (rule: string, pointer: string, what: string) => ({
    rule,
    pointer,
    description: `converted the ${what}`,
  });

  it('html from html, content or text (the first string), links from url, href or uri with their labels', async () => {
    const { result, fixes } = await convertWebMcp(
      [
        { type: 'html', content: '<i>a</i>' },
        { type: 'html', html: 5, text: '<b>b</b>' },
        { type: 'html' },
        { type: 'link', href: 'https://a.example/x', text: 'A' },
        { type: 'link', uri: 'http://b.example', name: 'B' },
        { type: 'link', url: 'https://c.example/' },
        { type: 'text', text: 'plain' },
      ],
      V,
    );
    const html = (index: number, text: string) => ({
      type: 'resource',
      resource: { uri: `urn:mcp-shape:html:${index}`, mimeType: 'text/html', text },
    });
    expect(result).toEqual({
      content: [
        html(0, '<i>a</i>'),
        html(1, '<b>b</b>'),
        html(2, ''),
        { type: 'resource_link', uri: 'https://a.example/x', name: 'A', title: 'A' },
        // The URL as the URL parser writes it; without a label, named by it and given no title.
        { type: 'resource_link', uri: 'http://b.example/', name: 'B', title: 'B' },
        { type: 'resource_link', uri: 'https://c.example/', name: 'https://c.example/' },
        { type: 'text', text: 'plain' },
      ],
    });
    const toResource = 'html block to an embedded text/html resource';
    const toLink = 'link block to a resource_link';
    expect(fixes).toEqual([
      converted('webmcp-html', '/content/0', toResource),
      converted('webmcp-html', '/content/1', toResource),
      converted('webmcp-html', '/content/2', toResource),
      converted('webmcp-link', '/content/3', toLink),
      converted('webmcp-link', '/content/4', toLink),
      converted('webmcp-link', '/content/5', toLink),
    ]);
  });

  it('a link that is no http(s) URL becomes its label as text, and the fix quotes at most 60 characters of it', async () => {
    const long = `javascript:${'x'.repeat(80)}`;
    const { result, fixes } = await convertWebMcp(
      [
        { type: 'link', url: 'not a url' },
        { type: 'link', url: long, name: 'N' },
        { type: 'link', url: 'ftp://files.example/a' },
      ],
      V,
    );
    const notLinked = (label: string) => ({
      type: 'text',
      text: `${label} (not linked: only http and https URLs are allowed)`,
    });
    expect(result).toEqual({ content: [notLinked('Link'), notLinked('N'), notLinked('Link')] });
    const dropped = (pointer: string, url: string) => ({
      rule: 'webmcp-link-unsafe',
      pointer,
      description: `dropped the link to "${url}": only http and https URLs are allowed`,
      lossy: true,
    });
    expect(fixes).toEqual([
      dropped('/content/0', 'not a url'),
      dropped('/content/1', long.slice(0, 60)),
      dropped('/content/2', 'ftp://files.example/a'),
    ]);
  });

  it('errors from message, error or text, else a default sentence; any one error block makes the result an error', async () => {
    const { result, fixes } = await convertWebMcp(
      [
        { type: 'text', text: 'partial' },
        { type: 'error', error: 'e1' },
        { type: 'error', text: 'e2' },
        { type: 'error' },
      ],
      V,
    );
    expect(result).toEqual({
      content: [
        { type: 'text', text: 'partial' },
        { type: 'text', text: 'e1' },
        { type: 'text', text: 'e2' },
        { type: 'text', text: 'The tool reported an error.' },
      ],
      isError: true,
    });
    const toError = 'error block to isError with a text block';
    expect(fixes).toEqual([
      converted('webmcp-error', '/content/1', toError),
      converted('webmcp-error', '/content/2', toError),
      converted('webmcp-error', '/content/3', toError),
    ]);
  });

  it('tables: headers or columns, a row that is no array is one cell, and the first table is the structuredContent', async () => {
    const { result, fixes } = await convertWebMcp(
      [
        { type: 'table', columns: ['a'], rows: [[1], 'x', { k: 1 }] },
        { type: 'table', headers: ['z'], rows: [[2]] },
      ],
      V,
    );
    const structuredContent = { headers: ['a'], rows: [[1], ['x'], [{ k: 1 }]] };
    expect(result).toEqual({
      content: [
        { type: 'text', text: '| a |\n| --- |\n| 1 |\n| x |\n| {"k":1} |' },
        { type: 'text', text: '| z |\n| --- |\n| 2 |' },
        { type: 'text', text: JSON.stringify(structuredContent) },
      ],
      structuredContent,
    });
    // Only the first table is structuredContent, and only its fix says so.
    const toTable = 'table block to a Markdown table';
    expect(fixes).toEqual([
      converted('webmcp-table', '/content/0', `${toTable}, with { headers, rows } as structuredContent`),
      converted('webmcp-table', '/content/1', toTable),
      {
        rule: 'structured-content-text-mirror-missing',
        pointer: '/content',
        description: 'added a text block carrying the JSON of structuredContent',
      },
    ]);
    // Neither headers nor rows: an empty table.
    expect((await convertWebMcp([{ type: 'table' }], V)).result.structuredContent).toEqual({
      headers: [],
      rows: [],
    });
  });

  it("a table keeps the result's own structuredContent, and gives none before 2025-06-18", async () => {
    const table = { type: 'table', headers: ['a'], rows: [[1]] };
    const own = await convertWebMcp({ content: [table], structuredContent: { mine: 1 } }, V);
    expect(own.result).toEqual({
      content: [
        { type: 'text', text: '| a |\n| --- |\n| 1 |' },
        { type: 'text', text: '{"mine":1}' },
      ],
      structuredContent: { mine: 1 },
    });
    const old = await convertWebMcp([table], { protocolVersion: '2025-03-26' });
    expect(old.result).toEqual({ content: [{ type: 'text', text: '| a |\n| --- |\n| 1 |' }] });
    // Neither fix claims the structuredContent the table did not become.
    const plain = converted('webmcp-table', '/content/0', 'table block to a Markdown table');
    expect(old.fixes).toEqual([plain]);
    expect(own.fixes[0]).toEqual(plain);
  });

  it('a value that is neither a result nor an array is the one item of the content, then repaired', async () => {
    expect(await convertWebMcp('hi', V)).toEqual({
      result: { content: [{ type: 'text', text: 'hi' }] },
      fixes: [
        {
          rule: 'block-not-object',
          pointer: '/content/0',
          description: 'wrapped the string in a text block',
        },
      ],
      warnings: [],
    });
    // A result whose content is no array: no block to convert, and repair() makes it one.
    expect((await convertWebMcp({ content: 'x' }, V)).result).toEqual({
      content: [{ type: 'text', text: 'x' }],
    });
    // The input is not changed.
    const input = { content: [{ type: 'error', message: 'm' }] };
    await convertWebMcp(input, V);
    expect(input).toEqual({ content: [{ type: 'error', message: 'm' }] });
  });

  it('reports each removal of the safety pass as a lossy fix before the conversion', async () => {
    expect(await convertWebMcp([{ type: 'html', html: '<i onclick=x>a</i>' }], V)).toEqual({
      result: {
        content: [
          {
            type: 'resource',
            resource: { uri: 'urn:mcp-shape:html:0', mimeType: 'text/html', text: '<i>a</i>' },
          },
        ],
      },
      fixes: [
        {
          rule: 'webmcp-html-unsafe',
          pointer: '/content/0',
          description: 'removed i[onclick] (event-handler)',
          lossy: true,
        },
        converted('webmcp-html', '/content/0', 'html block to an embedded text/html resource'),
      ],
      warnings: [],
    });
  });

  it('a link with no URL at all is its label as text', async () => {
    expect(await convertWebMcp([{ type: 'link', title: 'T' }], V)).toEqual({
      result: { content: [{ type: 'text', text: 'T (not linked: only http and https URLs are allowed)' }] },
      fixes: [
        {
          rule: 'webmcp-link-unsafe',
          pointer: '/content/0',
          description: 'dropped the link to "": only http and https URLs are allowed',
          lossy: true,
        },
      ],
      warnings: [],
    });
  });

  it('items that are no objects are left to repair; content that is no array has no images to weigh', async () => {
    expect(await convertWebMcp([null, 'x'], V)).toEqual({
      result: {
        content: [
          { type: 'text', text: 'null' },
          { type: 'text', text: 'x' },
        ],
      },
      fixes: [
        {
          rule: 'block-not-object',
          pointer: '/content/0',
          description: 'replaced the null with a text block holding its JSON',
        },
        {
          rule: 'block-not-object',
          pointer: '/content/1',
          description: 'wrapped the string in a text block',
        },
      ],
      warnings: [],
    });
    expect((await convertWebMcp({ content: 'x' }, V)).warnings).toEqual([]);
    // An image whose data is no string has no size to weigh: repair drops it.
    const numeric = await convertWebMcp([{ type: 'image', data: 5, mimeType: 'image/png' }], {
      ...V,
      maxImageBytes: 0,
    });
    expect(numeric.warnings).toEqual([]);
    expect(numeric.fixes.map((f) => f.rule)).toEqual(['block-data-invalid']);
  });

  it('in 2026-07-28 marks a result complete unless it says otherwise, which repair then judges', async () => {
    const V2026 = { protocolVersion: '2026-07-28' } as const;
    expect(await convertWebMcp({ content: [] }, V2026)).toEqual({
      result: { content: [], resultType: 'complete' },
      fixes: [],
      warnings: [],
    });
    expect(await convertWebMcp([{ type: 'error', message: 'm' }], V2026)).toEqual({
      result: { content: [{ type: 'text', text: 'm' }], isError: true, resultType: 'complete' },
      fixes: [converted('webmcp-error', '/content/0', 'error block to isError with a text block')],
      warnings: [],
    });
    expect(await convertWebMcp({ content: [], resultType: 5 }, V2026)).toEqual({
      result: { content: [], resultType: 'complete' },
      fixes: [
        {
          rule: 'result-type-invalid',
          pointer: '/resultType',
          description: 'replaced "resultType" 5 with "complete"',
        },
      ],
      warnings: [],
    });
  });

  it('repair() converts a link without a label into a resource_link with no title member', async () => {
    const { result } = await repair({ content: [{ type: 'link', url: 'https://a.example' }] }, V);
    expect(result.content).toEqual([
      { type: 'resource_link', uri: 'https://a.example/', name: 'https://a.example/' },
    ]);
    expect(Object.keys(result.content[0] ?? {})).toEqual(['type', 'uri', 'name']);
  });

  it('warns of each image whose decoded size is over the limit, by its place, and of nothing at the limit', async () => {
    const size = Buffer.from(PNG_1X1, 'base64').length;
    const image = { type: 'image', data: PNG_1X1, mimeType: 'image/png' };
    const content = [
      { type: 'text', text: 'x' },
      image,
      { type: 'audio', data: PNG_1X1, mimeType: 'audio/wav' },
    ];
    const over = await convertWebMcp(content, { ...V, maxImageBytes: size - 1 });
    expect(over.warnings).toEqual([
      {
        rule: 'webmcp-image-too-large',
        pointer: '/content/1',
        description: `image of ${size} bytes is over the ${size - 1}-byte limit`,
      },
    ]);
    expect((await convertWebMcp([image], { ...V, maxImageBytes: size })).warnings).toEqual([]);
  });
});
