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
import type { Finding } from '../../src/core/finding.js';
import { codeFrameText } from '../../src/report/code-frame.js';
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
    expect(codeFrameText({ file: 'x.ts', line: 1 })).toEqual([]);
    const frame = codeFrameText(
      { file: 'x.ts', line: 1, column: 3, snippet: { startLine: 1, lines: ['a\u001b[2Jb\u202ec'] } },
      '',
    );
    expect(frame[0]).toBe('> 1 | a\\x1b[2Jb\\u202ec');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: asserting the control bytes are gone.
    expect(frame.join('\n')).not.toMatch(/\u001b|\u202e/);
  });
});
