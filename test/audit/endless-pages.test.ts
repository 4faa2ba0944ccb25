/**
 * A server whose tools/list hands out a new cursor on every page never ends its list: the SDK v2
 * client's listTools() throws after 64 pages and a client that walks every page waits for ever. The
 * audit follows MAX_TOOLS_LIST_PAGES pages; it used to stop there without a word and pass the run.
 */

import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { MAX_TOOLS_LIST_PAGES, runAudit } from '../../src/audit/run.js';
import { loopServer, places } from './support.js';

/**
 * `stuck`: the page asked for with a cursor gives that cursor back with the tools of the page before
 * (one read-only tool, `t`, whose inputSchema does not compile).
 */
function server(pages: 'endless' | number | 'stuck'): string {
  return loopServer(
    [`const PAGES = ${JSON.stringify(pages)};`],
    [
      "  if (m.method === 'tools/list') {",
      "    if (PAGES === 'stuck') return { tools: [{ name: 't', inputSchema: { type: 'object', properties: { q: { type: 'strin' } } }, annotations: { readOnlyHint: true } }], nextCursor: '1' };",
      '    const page = Number(m.params?.cursor ?? 0) + 1;',
      "    const more = PAGES === 'endless' || page < PAGES;",
      '    return { tools: [], ...(more ? { nextCursor: String(page) } : {}) };',
      '  }',
      "  if (m.method === 'tools/call') return { content: [{ type: 'text', text: 'ok' }] };",
    ],
  );
}

const audit = (file: string) =>
  runAudit({
    target: { kind: 'stdio', command: process.execPath, args: [file] },
    versions: ['2025-06-18'],
    timeoutMs: 20_000,
  });

describe('a tools/list that never ends', { timeout: 120_000 }, () => {
  it('is an error, not a pass, once the audit stops paging', async () => {
    const report = await audit(server('endless'));
    const failed = places(report).filter((f) => f.rule === 'audit-tools-list-failed');
    expect(failed.map((f) => f.message)).toEqual([
      `tools/list failed: it did not end: ${MAX_TOOLS_LIST_PAGES} pages, each with a new nextCursor (the audit stopped paging)`,
    ]);
    expect(report.summary.errors).toBeGreaterThan(0);
  });

  it('is not reported for a list that ends on its last page', async () => {
    const report = await audit(server(5));
    expect(places(report).filter((f) => f.rule === 'audit-tools-list-failed')).toEqual([]);
  });

  it('takes a page that repeats its cursor and the page before as the SDK v2 client does: nothing of it', async () => {
    const file = server('stuck');
    const client = new Client({ name: 'pages', version: '1' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [file] }));
    const { tools } = await client.listTools();
    await client.close();
    expect(tools.map((t) => t.name)).toEqual(['t']);
    const report = await audit(file);
    // The tool's defect once, not again for the repeated page; the loop said; the tool called once.
    expect(places(report).map((f) => f.rule)).toEqual([
      'tool-schema-not-compilable',
      'audit-pagination-loop',
    ]);
    expect(report.details?.versions).toMatchObject([{ tools: 1, calls: 1 }]);
  });
});
