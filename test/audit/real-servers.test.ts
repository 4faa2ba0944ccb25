/**
 * Real servers from npm, audited over real pipes and sockets: every tool listed, the read-only ones
 * called, and no error finding that is not a real defect (each real one is explained where asserted).
 */

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveChildren } from '../../src/audit/children.js';
import { runAudit } from '../../src/audit/run.js';
import type { JsonObject } from '../../src/core/json.js';
import { renderReport } from '../../src/report/index.js';
import type { Report } from '../../src/report/types.js';
import {
  errors,
  keys,
  type RunningServer,
  serverBin,
  startHttpServer,
  toolsOf,
  versionsOf,
} from './support.js';

const LEGACY = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];

/**
 * Lines of the text report of each audit below before reports were folded (measured on these same
 * setups at commit e58ed8b): every finding repeated per version and call, every tool on a line.
 * The report must now take at most a third of that.
 */
const LINES_BEFORE = { everything: 50, filesystem: 151, memory: 33 } as const;

function textLines(report: Report): number {
  return renderReport(report, 'text', { color: false }).trimEnd().split('\n').length;
}
/** Its default run takes 10 s; a short one exercises the same code (progress notifications). */
const EVERYTHING_ARGS = new Map<string, JsonObject[]>([
  ['trigger-long-running-operation', [{ duration: 0.2, steps: 2 }]],
]);

/** What server-everything 2026.8.31 annotates readOnlyHint: true (checked against its listing below). */
const EVERYTHING_READ_ONLY = [
  'echo',
  'get-annotated-message',
  'get-env',
  'get-resource-links',
  'get-resource-reference',
  'get-structured-content',
  'get-sum',
  'get-tiny-image',
  'trigger-long-running-operation',
];

function expectEverythingAudit(report: Report): void {
  const versions = versionsOf(report);
  expect(versions.filter((v) => v.status === 'audited').map((v) => v.requested)).toEqual(LEGACY);
  // SDK v1 servers have no server/discover.
  expect(versions.find((v) => v.requested === '2026-07-28')?.status).toBe('refused');
  const tools = toolsOf(report);
  expect(tools.length).toBeGreaterThanOrEqual(13);
  for (const tool of tools) expect(tool.versions).toEqual(LEGACY);
  expect(tools.filter((t) => t.called).map((t) => t.name)).toEqual(EVERYTHING_READ_ONLY);
  for (const tool of tools.filter((t) => !t.called)) expect(tool.reason).toMatch(/readOnlyHint: false/);
  // Real defect: the SDK v1 McpServer sends get-resource-links' resource_link blocks whatever version
  // was negotiated, and resource_link exists only from 2025-06-18; a 2024-11-05 or 2025-03-26 client
  // with a closed block union (rmcp, Zed, older Goose) rejects the whole result.
  expect(keys(errors(report))).toEqual([
    'block-type-unsupported-in-version@2024-11-05/get-resource-links',
    'block-type-unsupported-in-version@2025-03-26/get-resource-links',
  ]);
  expect(liveChildren()).toBe(0);
}

describe('@modelcontextprotocol/server-everything', () => {
  it('over stdio, every version', async () => {
    const report = await runAudit({
      target: { kind: 'stdio', command: process.execPath, args: [serverBin('server-everything'), 'stdio'] },
      args: EVERYTHING_ARGS,
    });
    expectEverythingAudit(report);
    expect(report.details?.transport).toBe('stdio');
    expect(textLines(report)).toBeLessThanOrEqual(LINES_BEFORE.everything / 3);
  }, 90_000);

  describe('over HTTP', () => {
    let streamable: RunningServer;
    let sse: RunningServer;
    beforeAll(async () => {
      [streamable, sse] = await Promise.all([
        startHttpServer(serverBin('server-everything'), ['streamableHttp'], '/mcp'),
        startHttpServer(serverBin('server-everything'), ['sse'], '/sse'),
      ]);
    });
    afterAll(async () => {
      await Promise.all([streamable?.stop(), sse?.stop()]);
    });

    it('over Streamable HTTP, every version', async () => {
      const report = await runAudit({ target: { kind: 'http', url: streamable.url }, args: EVERYTHING_ARGS });
      expectEverythingAudit(report);
      expect(report.details?.transport).toBe('streamable-http');
    }, 90_000);

    it('falls back to the 2024-11-05 HTTP+SSE transport when a POST is rejected', async () => {
      const report = await runAudit({
        target: { kind: 'http', url: sse.url },
        versions: ['2024-11-05'],
        args: EVERYTHING_ARGS,
      });
      expect(report.details?.transport).toBe('http+sse');
      expect(versionsOf(report)[0]).toMatchObject({ status: 'audited', answered: '2024-11-05', tools: 13 });
      expect(
        toolsOf(report)
          .filter((t) => t.called)
          .map((t) => t.name),
      ).toEqual(EVERYTHING_READ_ONLY);
      // The same real defect as over stdio (see above).
      expect(keys(errors(report))).toEqual([
        'block-type-unsupported-in-version@2024-11-05/get-resource-links',
      ]);
    }, 90_000);
  });
});

describe('@modelcontextprotocol/server-filesystem on a temp dir', () => {
  it('lists every tool, calls the read-only ones, and finds no error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-shape-fs-'));
    writeFileSync(join(dir, 'notes.txt'), 'hello\n');
    writeFileSync(
      join(dir, 'pixel.png'),
      Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
        'base64',
      ),
    );
    const report = await runAudit({
      target: { kind: 'stdio', command: process.execPath, args: [serverBin('server-filesystem'), dir] },
      // Real paths for the tools whose synthesized arguments ("example") would only reach "access denied".
      args: new Map<string, JsonObject[]>([
        ['read_text_file', [{ path: join(dir, 'notes.txt') }, { path: join(dir, 'notes.txt'), head: 1 }]],
        ['read_media_file', [{ path: join(dir, 'pixel.png') }]],
        ['list_directory', [{ path: dir }]],
        ['directory_tree', [{ path: dir }]],
      ]),
    });
    const tools = toolsOf(report);
    expect(tools.length).toBeGreaterThanOrEqual(13);
    for (const tool of tools.filter((t) => !t.called)) expect(tool.reason).toMatch(/readOnlyHint/);
    expect(tools.find((t) => t.name === 'write_file')?.called).toBe(false);
    expect(tools.find((t) => t.name === 'read_media_file')).toMatchObject({ called: true, calls: 4 });
    expect(tools.filter((t) => t.called).length).toBeGreaterThanOrEqual(9);
    expect(errors(report)).toEqual([]);
    expect(textLines(report)).toBeLessThanOrEqual(LINES_BEFORE.filesystem / 3);
    expect(liveChildren()).toBe(0);
  }, 90_000);
});

describe('@modelcontextprotocol/server-memory', () => {
  it('lists every tool, calls the read-only ones, and finds nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-shape-memory-'));
    const report = await runAudit({
      target: {
        kind: 'stdio',
        command: process.execPath,
        args: [serverBin('server-memory')],
        env: { ...process.env, MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
      },
    });
    const tools = toolsOf(report);
    expect(tools.map((t) => t.name)).toContain('create_entities');
    expect(tools.filter((t) => t.called).map((t) => t.name)).toEqual([
      'open_nodes',
      'read_graph',
      'search_nodes',
    ]);
    expect(report.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    expect(keys(report.findings)).toEqual(['audit-discover-unsupported@2026-07-28/-']);
    expect(textLines(report)).toBeLessThanOrEqual(LINES_BEFORE.memory / 3);
    expect(liveChildren()).toBe(0);
  }, 90_000);
});
