/**
 * The audit's JSON report: held to docs/report-schema.json, every call with the arguments it sent
 * and the response it got (cut at a limit, with its true size), every finding tied to its calls.
 */

import { describe, expect, it } from 'vitest';
import { type CallRecord, RESPONSE_KEEP_BYTES, runAudit } from '../../src/audit/run.js';
import { renderReport } from '../../src/report/index.js';
import type { Report } from '../../src/report/types.js';
import { runCli } from '../support/cli.js';
import { expectValidReport } from '../support/report-schema.js';
import { fixture, places } from './support.js';

const callsOf = (report: Report) => (report.details?.calls ?? []) as CallRecord[];

/** Every place of every finding that happened in a call names a call the report records. */
function expectLinkedToCalls(report: Report): void {
  const recorded = new Set(callsOf(report).map((c) => `${c.protocolVersion} ${c.call}`));
  const inCalls = places(report).filter((f) => f.location?.call !== undefined);
  expect(inCalls.length).toBeGreaterThan(0);
  for (const f of inCalls)
    expect(recorded, `${f.rule} at ${f.location?.call}`).toContain(
      `${f.location?.protocolVersion} ${f.location?.call}`,
    );
}

describe('the audit JSON report', { timeout: 120_000 }, () => {
  it('matches the report schema and records every call with its arguments and raw response', async () => {
    const run = await runCli([
      'audit',
      '--format',
      'json',
      '--',
      process.execPath,
      fixture('sdk-v1-broken.mjs'),
    ]);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as Report;
    expectValidReport(report);
    const calls = callsOf(report);
    expect(calls).toHaveLength(report.summary.checked);
    for (const call of calls) {
      expect(call.arguments).toBeTypeOf('object');
      expect(call.response?.bytes).toBeGreaterThan(0);
      // The raw frame, exactly as received: it parses to the message the findings judged.
      expect(JSON.parse(call.response?.text ?? '')).toMatchObject({ jsonrpc: '2.0' });
    }
    expect(calls.find((c) => c.tool === 'account_summary')).toMatchObject({
      arguments: { account: 'example' },
      argumentsFrom: 'synthesized',
      outcome: 'error',
    });
    expectLinkedToCalls(report);
    // A finding folded across versions lists every call in its occurrences.
    const rejected = report.findings.find((f) => f.rule === 'result-rejected-by-server');
    expect(rejected?.occurrences?.length).toBe(4);
  });

  it('cuts a large response at the limit on a character boundary and keeps its true size', async () => {
    const report = await runAudit({
      target: { kind: 'stdio', command: process.execPath, args: [fixture('chatty.mjs')] },
      versions: ['2025-06-18'],
      args: new Map([['big', [{}]]]),
    });
    expectValidReport(JSON.parse(JSON.stringify(report)));
    const [call] = callsOf(report);
    expect(call?.response?.truncated).toBe(true);
    expect(call?.response?.bytes).toBeGreaterThan(200_000);
    expect(Buffer.byteLength(call?.response?.text ?? '')).toBeLessThanOrEqual(RESPONSE_KEEP_BYTES);
    expect(Buffer.byteLength(call?.response?.text ?? '')).toBeGreaterThan(RESPONSE_KEEP_BYTES - 4);
    expect(call?.response?.text).not.toContain('\uFFFD');
    // People's formats show the call and the response's size, not 64 KiB of it: a pull-request
    // comment or job summary has a size limit.
    for (const format of ['markdown', 'html'] as const) {
      const rendered = renderReport(report, format);
      expect(rendered, format).not.toContain('éééé');
      expect(rendered.length, format).toBeLessThan(40_000);
      expect(rendered, format).toMatch(/&quot;bytes&quot;: \d{6}|"bytes": \d{6}/);
    }
  });

  it('records an answer over --max-response-size by its size alone, and a hang by how long it waited', async () => {
    const report = await runAudit({
      target: { kind: 'stdio', command: process.execPath, args: [fixture('hostile.mjs')] },
      versions: ['2025-06-18'],
      timeoutMs: 10_000,
    });
    expectValidReport(JSON.parse(JSON.stringify(report)));
    const byTool = Object.fromEntries(callsOf(report).map((c) => [c.tool, c]));
    expect(byTool.huge).toMatchObject({ outcome: 'oversize', response: { text: '', truncated: true } });
    expect(byTool.huge?.response?.bytes).toBeGreaterThan(16 * 1024 * 1024);
    expect(byTool.hang).toMatchObject({ outcome: 'timeout' });
    expect(byTool.hang?.latencyMs).toBeGreaterThanOrEqual(10_000);
    expect(byTool.crash).toMatchObject({ outcome: 'closed' });
    expectLinkedToCalls(report);
  });
});
