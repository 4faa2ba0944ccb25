/**
 * A server that talks too much: progress that keeps a slow answer alive, a flood that never ends,
 * and requests to the client that the audit client does not serve.
 */

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { liveChildren } from '../../src/audit/children.js';
import { type CallRecord, runAudit } from '../../src/audit/run.js';
import type { JsonObject } from '../../src/core/json.js';
import { fixture, places } from './support.js';

async function audit(tool: string, args: JsonObject, timeoutMs: number, log?: string) {
  return runAudit({
    target: {
      kind: 'stdio',
      command: process.execPath,
      args: [fixture('chatty.mjs')],
      env: { ...process.env, ...(log ? { MCP_SHAPE_FIXTURE_CALL_LOG: log } : {}) },
    },
    versions: ['2025-06-18'],
    // The fixture's tools are not read-only: only the one given arguments is called.
    args: new Map([[tool, [args]]]),
    timeoutMs,
  });
}

const callsOf = (report: Awaited<ReturnType<typeof audit>>, tool: string) =>
  ((report.details?.calls ?? []) as CallRecord[]).filter((c) => c.tool === tool);

describe('a server that floods notifications', { timeout: 90_000 }, () => {
  it('does not eat the timeout: the wait runs from the last byte, so a slow answer with progress arrives', async () => {
    // 4 s to answer, a byte every 50 ms, and 1.5 s allowed between bytes (ample on a loaded machine).
    const report = await audit('slow_with_progress', { ms: 4000 }, 1500);
    const [call] = callsOf(report, 'slow_with_progress');
    expect(call).toMatchObject({ outcome: 'result' });
    expect(call?.latencyMs).toBeGreaterThanOrEqual(4000);
    expect(places(report).filter((f) => f.location?.tool === 'slow_with_progress')).toEqual([]);
  });

  it('ends the wait at the hard cap when the flood never stops, and says how long it waited', async () => {
    const report = await audit('flood', {}, 1500);
    const [call] = callsOf(report, 'flood');
    expect(call).toMatchObject({ outcome: 'timeout' });
    // Four times the timeout, not forever.
    expect(call?.latencyMs).toBeGreaterThanOrEqual(6000);
    expect(call?.latencyMs).toBeLessThan(30_000);
    const timeout = places(report).find((f) => f.rule === 'audit-timeout' && f.location?.tool === 'flood');
    expect(timeout?.message).toMatch(/^no response to tools\/call flood in the \d+(\.\d)? s/);
    expect(liveChildren()).toBe(0);
  });
});

describe('a server that sends requests to the client', { timeout: 90_000 }, () => {
  it('gets a JSON-RPC error for each request the audit client does not serve, and a result for ping', async () => {
    const log = join(mkdtempSync(join(tmpdir(), 'mcp-shape-chatty-')), 'answers.jsonl');
    writeFileSync(log, '');
    const report = await audit('asks_back', {}, 10_000, log);
    const answers = readFileSync(log, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as JsonObject);
    expect(answers).toHaveLength(5);
    const [sampling, roots, elicitation, vendor, ping] = answers;
    for (const [answer, method] of [
      [sampling, 'sampling/createMessage'],
      [roots, 'roots/list'],
      [elicitation, 'elicitation/create'],
      [vendor, 'x-vendor/whatever'],
    ] as const) {
      expect(answer).toMatchObject({
        jsonrpc: '2.0',
        error: { code: -32601, message: `Method not found: the audit client serves no ${method}` },
      });
    }
    expect(ping).toMatchObject({ jsonrpc: '2.0', result: {} });
    expect(callsOf(report, 'asks_back')[0]).toMatchObject({ outcome: 'result' });
  });
});
