/**
 * A listing of several tools/list pages, as the official TypeScript clients take it: the SDK v2
 * client's listTools() walks every page and keeps them all; the v1 client fetches one page a call and
 * keeps the outputSchemas of the page it fetched last. What the audit says a client does with the pages
 * is held here to what the real clients do with the same server.
 */

import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { runAudit } from '../../src/audit/run.js';
import type { Finding } from '../../src/core/finding.js';
import { affectedClients } from '../../src/report/clients.js';
import { loopServer, places, versionsOf } from './support.js';

interface Page {
  readonly tools: readonly object[];
  /** The cursor this page hands out: the number of the page it names (0 is the first). */
  readonly next?: number;
}

/** A stdio server of these pages; a page is asked for by its number. Every call answers `result`. */
function server(pages: readonly Page[], result: object): string {
  return loopServer(
    [`const PAGES = ${JSON.stringify(pages)};`, `const RESULT = ${JSON.stringify(result)};`],
    [
      "  if (m.method === 'tools/list') {",
      '    const page = PAGES[Number(m.params?.cursor ?? 0)];',
      '    return { tools: page.tools, ...(page.next === undefined ? {} : { nextCursor: String(page.next) }) };',
      '  }',
      "  if (m.method === 'tools/call') return RESULT;",
    ],
  );
}

const audit = (file: string) =>
  runAudit({
    target: { kind: 'stdio', command: process.execPath, args: [file] },
    versions: ['2025-06-18'],
    timeoutMs: 20_000,
  });

/** What the SDK v1 client's callTool does with each tool, after its caller walked every page. */
async function v1Calls(file: string, names: readonly string[]): Promise<Record<string, string>> {
  const client = new ClientV1({ name: 'pages', version: '1' });
  await client.connect(new StdioV1({ command: process.execPath, args: [file] }));
  try {
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return await outcomes(names, (name) => client.callTool({ name, arguments: {} }));
  } finally {
    await client.close();
  }
}

/** What the SDK v2 client's callTool does with each tool, after its listTools() walked the pages. */
async function v2Calls(file: string, names: readonly string[]): Promise<Record<string, string>> {
  const client = new ClientV2({ name: 'pages', version: '1' });
  await client.connect(new StdioV2({ command: process.execPath, args: [file] }));
  try {
    await client.listTools();
    return await outcomes(names, (name) => client.callTool({ name, arguments: {} }));
  } finally {
    await client.close();
  }
}

async function outcomes(
  names: readonly string[],
  call: (name: string) => Promise<unknown>,
): Promise<Record<string, string>> {
  const seen: Record<string, string> = {};
  for (const name of names) {
    seen[name] = await call(name).then(
      () => 'accepted',
      () => 'rejected',
    );
  }
  return seen;
}

const clientsOf = (finding: Finding | undefined) =>
  finding ? affectedClients(finding).map((c) => c.client) : undefined;

const READ_ONLY = { readOnlyHint: true };
const SCHEMA = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };
/** structuredContent the schema refuses. */
const BAD = { content: [{ type: 'text', text: '{"n":"x"}' }], structuredContent: { n: 'x' } };

describe('a tool listed on two pages', { timeout: 120_000 }, () => {
  it('is one duplicate finding naming both places, its defects and its call once', async () => {
    // The same definition, with an inputSchema that does not compile, on pages 1 and 3.
    const a = {
      name: 'a',
      inputSchema: { type: 'object', properties: { q: { type: 'strin' } } },
      annotations: READ_ONLY,
    };
    const file = server(
      [
        { tools: [a, { name: 'b', inputSchema: { type: 'object' } }], next: 1 },
        { tools: [{ name: 'c', inputSchema: { type: 'object' } }], next: 2 },
        { tools: [a] },
      ],
      { content: [{ type: 'text', text: 'ok' }] },
    );
    const report = await audit(file);
    expect(
      places(report)
        .filter((f) => f.location?.tool === 'a')
        .map((f) => [f.rule, f.pointer, f.message]),
    ).toEqual([
      ['tool-schema-not-compilable', '/result/tools/0/inputSchema', expect.any(String)],
      [
        'audit-tool-name-duplicate',
        '/result/tools/0/name',
        'tool name "a" on tools/list page 3 (tool 0) is already listed on page 1 (tool 0); no definition of it has an outputSchema',
      ],
    ]);
    expect(report.findings.find((f) => f.rule === 'tool-schema-not-compilable')?.occurrences).toBeUndefined();
    expect(versionsOf(report)).toMatchObject([{ tools: 3, calls: 1 }]);
  });

  it('is one finding a tool when every page lists the same tools, counting the pages', async () => {
    const tools = ['x', 'y', 'z'].map((name) => ({ name, inputSchema: { type: 'object' } }));
    const pages = Array.from({ length: 50 }, (_, i) => ({ tools, ...(i < 49 ? { next: i + 1 } : {}) }));
    const report = await audit(server(pages, { content: [] }));
    expect(
      places(report)
        .filter((f) => f.rule === 'audit-tool-name-duplicate')
        .map((f) => f.message),
    ).toEqual(
      ['x', 'y', 'z'].map(
        (name, i) =>
          `tool name "${name}" on tools/list page 2 (tool ${i}) and 48 more pages is already listed on page 1 (tool ${i}); no definition of it has an outputSchema`,
      ),
    );
    expect(versionsOf(report)).toMatchObject([{ tools: 3 }]);
  });

  it('says which definition each SDK client checks results by, as the clients do', async () => {
    // Page 1 gives "a" an outputSchema, page 2 lists it again without: the v2 client checks results
    // against page 1's, the v1 client (its cache holding page 2) checks none.
    const file = server(
      [
        {
          tools: [
            { name: 'a', inputSchema: { type: 'object' }, annotations: READ_ONLY, outputSchema: SCHEMA },
          ],
          next: 1,
        },
        { tools: [{ name: 'a', inputSchema: { type: 'object' }, annotations: READ_ONLY }] },
      ],
      BAD,
    );
    expect(await v1Calls(file, ['a'])).toEqual({ a: 'accepted' });
    expect(await v2Calls(file, ['a'])).toEqual({ a: 'rejected' });
    const report = await audit(file);
    const found = places(report);
    expect(found.find((f) => f.rule === 'audit-tool-name-duplicate')?.message).toBe(
      'tool name "a" on tools/list page 2 (tool 0) is already listed on page 1 (tool 0); the TypeScript SDK v2 client checks its results against the outputSchema of the one on page 1 (tool 0); the v1 client, which keeps the outputSchemas of the last page it lists (page 2), checks none',
    );
    const mismatch = found.find((f) => f.rule === 'structured-content-schema-mismatch');
    expect(clientsOf(mismatch)).toContain('ts-sdk-v2');
    expect(clientsOf(mismatch)).not.toContain('ts-sdk-v1');
  });
});

describe('an outputSchema on an earlier page than the last', { timeout: 120_000 }, () => {
  it('is not said to make the SDK v1 client reject the call, which checks only the last page', async () => {
    const tool = (name: string) => ({
      name,
      inputSchema: { type: 'object' },
      annotations: READ_ONLY,
      outputSchema: SCHEMA,
    });
    const file = server([{ tools: [tool('early')], next: 1 }, { tools: [tool('late')] }], BAD);
    expect(await v1Calls(file, ['early', 'late'])).toEqual({ early: 'accepted', late: 'rejected' });
    expect(await v2Calls(file, ['early', 'late'])).toEqual({ early: 'rejected', late: 'rejected' });
    const report = await audit(file);
    const mismatch = (tool: string) =>
      places(report).find(
        (f) => f.rule === 'structured-content-schema-mismatch' && f.location?.tool === tool,
      );
    expect(clientsOf(mismatch('early'))).toContain('ts-sdk-v2');
    expect(clientsOf(mismatch('early'))).not.toContain('ts-sdk-v1');
    expect(clientsOf(mismatch('late'))).toEqual(expect.arrayContaining(['ts-sdk-v1', 'ts-sdk-v2']));
    // Still an error: the v2 client rejects it.
    expect(mismatch('early')?.severity).toBe('error');
  });
});

describe('a cursor given a second time', { timeout: 120_000 }, () => {
  const tool = (name: string) => ({ name, inputSchema: { type: 'object' } });

  it('names the SDK v2 client when it leads back to an earlier page: its listTools() throws after 64 pages', async () => {
    const file = server(
      [
        { tools: [tool('a')], next: 1 },
        { tools: [tool('b')], next: 2 },
        { tools: [tool('c')], next: 1 },
      ],
      { content: [] },
    );
    const client = new ClientV2({ name: 'pages', version: '1' });
    await client.connect(new StdioV2({ command: process.execPath, args: [file] }));
    await expect(client.listTools()).rejects.toThrow(/exceeded listMaxPages \(64\)/);
    await client.close();
    const loop = places(await audit(file)).find((f) => f.rule === 'audit-pagination-loop');
    expect(loop?.message).toBe('tools/list returned cursor "1" a second time; stopped paging');
    expect(clientsOf(loop)).toEqual(['ts-sdk-v2']);
  });

  it('names no client when it is the cursor the page was asked with: the SDK v2 client takes the page once and ends', async () => {
    const file = server(
      [
        { tools: [tool('a')], next: 1 },
        { tools: [tool('b')], next: 1 },
      ],
      { content: [] },
    );
    const client = new ClientV2({ name: 'pages', version: '1' });
    await client.connect(new StdioV2({ command: process.execPath, args: [file] }));
    const { tools } = await client.listTools();
    await client.close();
    expect(tools.map((t) => t.name)).toEqual(['a', 'b']);
    const report = await audit(file);
    const loop = places(report).find((f) => f.rule === 'audit-pagination-loop');
    expect(loop?.message).toMatch(/for the page it was asked with/);
    expect(clientsOf(loop)).toEqual([]);
    expect(versionsOf(report)).toMatchObject([{ tools: 2 }]);
  });
});

describe('tools listed without the tools capability', { timeout: 120_000 }, () => {
  it('names the SDK v2 client, whose listTools() then asks for none and answers an empty list', async () => {
    const file = loopServer(
      [],
      [
        "  if (m.method === 'tools/list') return { tools: [{ name: 'a', inputSchema: { type: 'object' } }] };",
      ],
      '{}',
    );
    const client = new ClientV2({ name: 'pages', version: '1' });
    await client.connect(new StdioV2({ command: process.execPath, args: [file] }));
    const { tools } = await client.listTools();
    await client.close();
    expect(tools).toEqual([]);
    const missing = places(await audit(file)).find((f) => f.rule === 'audit-tools-capability-missing');
    expect(clientsOf(missing)).toContain('ts-sdk-v2');
  });
});
