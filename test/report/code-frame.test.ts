/**
 * Scan findings in the text, HTML and Markdown reports show the code: the offending line with two
 * lines of context and a caret under the expression, the branch it arises in, and, for a helper in
 * another file, the tool return it reaches with that return's line. The text and HTML reports open
 * with the verdict.
 */

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Finding, Location } from '../../src/core/finding.js';
import { codeFrameHtml, codeFrameMarkdown, codeFrameText } from '../../src/report/code-frame.js';
import { renderReport } from '../../src/report/index.js';
import type { Report } from '../../src/report/types.js';
import { scanPaths, scanSources } from '../../src/scan/index.js';

const SERVER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { asBlock } from './helper.js';

const server = new McpServer({ name: 'shop', version: '1' });

server.registerTool('stock', {}, async ({ sku }) => {
  const found = lookup(sku);
  return { content: [asBlock(found)] };
});
`;

const HELPER = `export function asBlock(value: unknown) {
  if (typeof value === 'string') {
    return { type: 'text', text: value };
  }
  return { type: 'object', object: value };
}
`;

describe('code frames in scan reports', () => {
  let dir: string;
  let report: Report;
  let finding: Finding;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-shape-frame-'));
    writeFileSync(join(dir, 'server.ts'), SERVER);
    writeFileSync(join(dir, 'helper.ts'), HELPER);
    ({ report } = await scanPaths([dir], { cwd: dir }));
    const found = report.findings.find((f) => f.rule === 'block-type-unknown');
    if (!found) throw new Error(`no block-type-unknown finding: ${JSON.stringify(report.findings)}`);
    finding = found;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('points at the literal in the helper and names the return it reaches', () => {
    expect(finding.location).toMatchObject({ file: 'helper.ts', line: 5, column: 18 });
    expect(finding.location?.reaches).toEqual([
      { tool: 'stock', file: 'server.ts', line: 8, column: 3, snippet: expect.anything() },
    ]);
    // The message is the catalog's alone: lines moving elsewhere do not change it (baselines keep it).
    expect(finding.message).not.toMatch(/server\.ts|reaches/);
  });

  it('text: the line with two lines of context, a caret under the expression, and the return it reaches', () => {
    const frame = codeFrameText(finding.location, '');
    expect(frame).toEqual([
      "  3 |     return { type: 'text', text: value };",
      '  4 |   }',
      "> 5 |   return { type: 'object', object: value };",
      `    |                  ${'^'.repeat("'object'".length)}`,
      '  6 | }',
      '  7 |',
      // The early return of the string case leaves this condition false for the rest.
      "when: `typeof value === 'string'` is false",
      'reaches: the return of tool "stock" at server.ts:8',
      '> 8 | return { content: [asBlock(found)] };',
    ]);
  });

  it('text report: opens with the verdict and its counts, then the findings with their frames', () => {
    const text = renderReport(report, 'text', { color: false });
    expect(text.startsWith('mcp-server.tool-definitions.return-content-types: FAIL\n')).toBe(true);
    expect(text).toContain('0 of 1 return statements in 1 tool handler');
    expect(text.indexOf('FAIL')).toBeLessThan(text.indexOf('helper.ts:5:18'));
    expect(text).toContain("        > 5 |   return { type: 'object', object: value };");
  });

  it('html report: opens with the verdict, and each finding shows its frame escaped', () => {
    const html = renderReport(report, 'html');
    const verdictAt = html.indexOf('<section class="scan-verdict fail"');
    expect(verdictAt).toBeGreaterThan(-1);
    expect(verdictAt).toBeLessThan(html.indexOf('<details class="finding'));
    expect(html).toContain('<span class="status">FAIL</span>');
    expect(html).toContain(
      '<span class="mark">5 |   return { type: &#39;object&#39;, object: value };</span>',
    );
    expect(html).toMatch(/<span class="caret">\s+\|\s+\^+<\/span>/);
    expect(html).toContain('the return of tool &quot;stock&quot; at server.ts:8');
  });

  it('markdown report: the frame in a fenced block', () => {
    const md = renderReport(report, 'markdown');
    expect(md).toContain("  > 5 |   return { type: 'object', object: value };");
    expect(md).toMatch(/ {2}```\n {2} {2}3 \|/);
  });

  it('text: the branch condition under which the offending value arises', async () => {
    const source = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 'shop', version: '1' });
server.registerTool('stock', {}, async ({ sku }) => {
  let block;
  if (typeof sku === 'string') block = { type: 'text', text: sku };
  else block = { type: 'object', object: sku };
  return { content: [block] };
});
`;
    const { findings } = await scanSources([
      { path: 'server.ts', absolute: '/virtual/server.ts', text: source },
    ]);
    const frame = codeFrameText(findings[0]?.location, '');
    expect(frame).toContain("when: `typeof sku === 'string'` is false");
    expect(frame).toContain('reaches: the return of tool "stock" at server.ts:7');
  });

  it('a finding without source lines has no frame; control characters in source are shown escaped', () => {
    expect(codeFrameText({ file: 'x.ts', line: 1 }, '')).toEqual([]);
    const frame = codeFrameText(
      { file: 'x.ts', line: 1, column: 3, snippet: { startLine: 1, lines: ['a\u001b[2Jb\u202ec'] } },
      '',
    );
    expect(frame[0]).toBe('> 1 | a\\x1b[2Jb\\u202ec');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: asserting the control bytes are gone.
    expect(frame.join('\n')).not.toMatch(/\u001b|\u202e/);
  });
});

describe('code frames from a location alone', () => {
  const at = (location: Omit<Location, 'file'>): Location => ({ file: 'a.ts', ...location });

  it('marks every line of a multi-line expression, with the caret to the end of its first line', () => {
    const frame = codeFrameText(
      at({
        line: 2,
        column: 5,
        endLine: 3,
        endColumn: 2,
        snippet: { startLine: 1, lines: ['one', 'x = {a', '};', 'four'] },
      }),
      '',
    );
    expect(frame).toEqual(['  1 | one', '> 2 | x = {a', '    |     ^^', '> 3 | };', '  4 | four']);
  });

  it('spans the caret from column to end column on one line, one caret at least', () => {
    const lines = ['return value;'];
    const caret = (column: number, endColumn?: number) =>
      codeFrameText(
        at({ line: 1, column, ...(endColumn ? { endColumn } : {}), snippet: { startLine: 1, lines } }),
        '',
      )[1];
    expect(caret(8, 13)).toBe(`    | ${' '.repeat(7)}^^^^^`);
    expect(caret(8, 13)?.indexOf('^')).toBe('> 1 | return '.length);
    expect(caret(8, 8)).toBe(`    | ${' '.repeat(7)}^`);
    expect(caret(8, 3)).toBe(`    | ${' '.repeat(7)}^`);
    // Without an end, to the end of the line.
    expect(caret(8)).toBe(`    | ${' '.repeat(7)}${'^'.repeat('value;'.length)}`);
    // Without a column, from the first.
    expect(codeFrameText(at({ line: 1, snippet: { startLine: 1, lines } }), '')[1]).toBe(
      `    | ${'^'.repeat(lines[0]?.length ?? 0)}`,
    );
    // Without a line, the snippet's first line is the offending one.
    expect(codeFrameText(at({ snippet: { startLine: 7, lines: ['ab', 'cd'] } }), '')).toEqual([
      '> 7 | ab',
      '    | ^^',
      '  8 | cd',
    ]);
  });

  it('gives a caret on a tab, of an expression ending where it starts, as wide as the tab', () => {
    const caret = (endColumn: number) =>
      codeFrameText(at({ line: 1, column: 2, endColumn, snippet: { startLine: 1, lines: ['a\tb'] } }), '')[1];
    expect(caret(2)).toBe('    |  ^^');
    expect(caret(1)).toBe('    |  ^^');
    expect(caret(4)).toBe('    |  ^^^');
  });

  it('shows tabs as two spaces and keeps the caret under the expression', () => {
    const frame = codeFrameText(
      at({ line: 1, column: 3, endColumn: 4, snippet: { startLine: 1, lines: ['\t\tx'] } }),
      '',
    );
    expect(frame).toEqual(['> 1 |     x', '    |     ^']);
  });

  it('marks lines cut from a long line with an ellipsis and counts columns from the cut', () => {
    const frame = codeFrameText(
      at({
        line: 9,
        column: 105,
        endColumn: 108,
        snippet: { startLine: 9, lines: ['abcdefghij'], firstColumn: 101 },
      }),
      '',
    );
    expect(frame).toEqual(['> 9 | …abcdefghij', '    | …    ^^^']);
  });

  it('widens the gutter for the largest line number, that of a reached return too', () => {
    const frame = codeFrameText(
      at({
        line: 9,
        column: 1,
        snippet: { startLine: 8, lines: ['a', '', 'c'] },
        when: ['`x` is true', '`y` is false'],
        reaches: [
          {
            tool: 't\u001b',
            file: 'b.ts',
            line: 120,
            column: 3,
            snippet: { startLine: 120, lines: ['\t  return r;'] },
          },
          { tool: 'u', file: 'c.ts', line: 4, column: 1 },
        ],
      }),
      '-',
      { dim: (s) => `(${s})`, mark: (s) => `[${s}]` },
    );
    expect(frame).toEqual([
      '-(    8 |) a',
      '-(>   9 |)',
      '-(      |) [^]',
      '-(   10 |) c',
      '-(when:) `x` is true and `y` is false',
      '-(reaches:) the return of tool "t\\x1b" at b.ts:120',
      '-(> 120 |) return r;',
      '-(reaches:) the return of tool "u" at c.ts:4',
    ]);
  });

  it('as HTML: escaped lines classed as context, mark and caret; the branch; the returns reached', () => {
    const html = codeFrameHtml(
      at({
        line: 2,
        column: 1,
        endColumn: 2,
        snippet: { startLine: 1, lines: ['<a>', 'b&'] },
        when: ['`a < b` is true'],
        reaches: [
          {
            tool: 'x"',
            file: 'r.ts',
            line: 30,
            column: 1,
            snippet: { startLine: 30, lines: ['  return <i>;'] },
          },
        ],
      }),
    );
    expect(html).toBe(
      [
        '<pre class="frame"><span class="ctx"> 1 | &lt;a&gt;</span>',
        '<span class="mark"> 2 | b&amp;</span>',
        '<span class="caret">   | ^</span></pre>',
        '<p class="when">When `a &lt; b` is true</p>',
        '<p class="reaches">Reaches</p><ul class="reaches"><li>the return of tool &quot;x&quot;&quot; at r.ts:30<pre class="frame"><span class="mark">30 | return &lt;i&gt;;</span></pre></li></ul>',
      ].join('\n'),
    );
    expect(codeFrameHtml(at({ line: 1, snippet: { startLine: 1, lines: ['a'] } }))).toBe(
      '<pre class="frame"><span class="mark">1 | a</span>\n<span class="caret">  | ^</span></pre>',
    );
    // Several branch conditions, and a return reached that carries no line of its own.
    expect(
      codeFrameHtml(
        at({
          line: 1,
          snippet: { startLine: 1, lines: ['a'] },
          when: ['`x` is true', '`y` is false'],
          reaches: [{ tool: 't', file: 'r.ts', line: 4, column: 1 }],
        }),
      ),
    ).toBe(
      [
        '<pre class="frame"><span class="mark">1 | a</span>',
        '<span class="caret">  | ^</span></pre>',
        '<p class="when">When `x` is true and `y` is false</p>',
        '<p class="reaches">Reaches</p><ul class="reaches"><li>the return of tool &quot;t&quot; at r.ts:4</li></ul>',
      ].join('\n'),
    );
    expect(codeFrameHtml(undefined)).toBe('');
    expect(codeFrameHtml(at({ line: 1 }))).toBe('');
  });

  it('as Markdown: fenced by more backticks than any run inside', () => {
    expect(codeFrameMarkdown(at({ line: 1, snippet: { startLine: 1, lines: ['a ```` b'] } }))).toEqual([
      '  `````',
      '  > 1 | a ```` b',
      `      | ${'^'.repeat('a ```` b'.length)}`,
      '  `````',
    ]);
    expect(codeFrameMarkdown(at({ line: 1, snippet: { startLine: 1, lines: ['a `` b'] } }))[0]).toBe('  ```');
    expect(codeFrameMarkdown(at({ line: 1 }))).toEqual([]);
  });
});
