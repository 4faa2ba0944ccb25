/**
 * `audit --record FILE`: every frame of every connection, both ways, with direction, time and
 * connection, in the recording format `check` reads; a clean audit's recording checks clean.
 */

import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CallRecord, runAudit } from '../../src/audit/run.js';
import { isRecordedFrame, type RecordedFrame } from '../../src/core/recording.js';
import { runCli } from '../support/cli.js';
import { fixture } from './support.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'mcp-shape-record-'));

function readRecording(file: string): RecordedFrame[] {
  return readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as unknown)
    .map((entry) => {
      expect(isRecordedFrame(entry), JSON.stringify(entry)).toBe(true);
      return entry as RecordedFrame;
    });
}

const method = (f: RecordedFrame) => (f.message as { method?: string } | undefined)?.method;

describe('audit --record', { timeout: 120_000 }, () => {
  it('writes every frame both ways, which check then finds clean as the audit did', async () => {
    const file = join(tmp(), 'session.jsonl');
    const audit = await runCli([
      'audit',
      '--protocol',
      '2025-06-18',
      '--record',
      file,
      '--format',
      'json',
      '--',
      process.execPath,
      fixture('conformant.mjs'),
    ]);
    expect(audit.code).toBe(0);
    const report = JSON.parse(audit.stdout) as { findings: unknown[]; details: { calls: CallRecord[] } };
    expect(report.findings).toEqual([]);
    const frames = readRecording(file);
    expect(new Set(frames.map((f) => f.connection))).toEqual(new Set(['2025-06-18#1']));
    for (const f of frames) expect(Date.parse(f.time)).not.toBeNaN();
    // Times are in the order the frames were seen.
    expect(frames.map((f) => f.time)).toEqual([...frames.map((f) => f.time)].sort());
    expect(frames.slice(0, 3).map((f) => [f.from, method(f)])).toEqual([
      ['client', 'initialize'],
      ['server', undefined],
      ['client', 'notifications/initialized'],
    ]);
    // Each call: the request as sent and the response as received.
    const calls = frames.filter((f) => method(f) === 'tools/call');
    expect(calls).toHaveLength(report.details.calls.length);
    const ids = new Set(calls.map((f) => (f.message as { id: number }).id));
    expect(
      frames.filter((f) => f.from === 'server' && ids.has((f.message as { id: number }).id)),
    ).toHaveLength(calls.length);

    const check = await runCli(['check', file, '--format', 'json']);
    expect(check.stderr).toBe('');
    expect(check.code).toBe(0);
    expect(JSON.parse(check.stdout)).toMatchObject({
      summary: { errors: 0, warnings: 0, checked: frames.length },
    });
  });

  it('labels each version’s connection, and check pairs requests with responses per connection', async () => {
    const file = join(tmp(), 'all-versions.jsonl');
    const audit = await runCli([
      'audit',
      '--record',
      file,
      '--',
      process.execPath,
      fixture('conformant.mjs'),
    ]);
    expect(audit.code).toBe(0);
    const frames = readRecording(file);
    // Every version runs at once on its own connection, so their frames interleave, ids and all.
    expect([...new Set(frames.map((f) => f.connection))].sort()).toEqual([
      '2024-11-05#1',
      '2025-03-26#1',
      '2025-06-18#1',
      '2025-11-25#1',
      '2026-07-28#1',
    ]);
    const check = await runCli(['check', file, '--format', 'json']);
    expect(check.stderr).toBe('');
    expect(check.code).toBe(0);
    expect(JSON.parse(check.stdout)).toMatchObject({ summary: { errors: 0, warnings: 0 } });
  });

  it('lets check find in the recording the same defects of the messages as the audit did', async () => {
    const file = join(tmp(), 'gateway.jsonl');
    const audit = await runCli([
      'audit',
      '--protocol',
      '2025-06-18',
      '--record',
      file,
      '--format',
      'json',
      '--',
      process.execPath,
      fixture('error-gateway.mjs'),
    ]);
    const check = await runCli(['check', file, '--format', 'json']);
    expect([audit.code, check.code]).toEqual([1, 1]);
    const rules = (run: { stdout: string }) =>
      [...new Set((JSON.parse(run.stdout) as { findings: { rule: string }[] }).findings.map((f) => f.rule))]
        .filter((rule) => !rule.startsWith('audit-'))
        .sort();
    expect(rules(check)).toEqual(rules(audit));
    expect(rules(check)).toEqual(['block-type-unknown', 'result-error-without-is-error']);
  });

  it('keeps frames that are not JSON as raw text, and labels each restart of the server as a connection', async () => {
    const frames: RecordedFrame[] = [];
    await runAudit({
      target: { kind: 'stdio', command: process.execPath, args: [fixture('hostile.mjs')] },
      versions: ['2025-06-18'],
      timeoutMs: 10_000,
      record: (entry) => frames.push(entry),
    });
    const raw = frames.filter((f) => f.frame !== undefined);
    expect(raw.map((f) => [f.from, f.connection, f.frame?.slice(0, 22)])).toContainEqual([
      'server',
      '2025-06-18#1',
      'hostile server v0 star',
    ]);
    // The half-written response of the call that crashed the server.
    expect(raw.some((f) => f.frame?.startsWith('{"jsonrpc":"2.0","id":'))).toBe(true);
    // The crash, the hang and the oversized answer each cost a connection: the calls after them
    // went to fresh servers.
    const connections = [...new Set(frames.map((f) => f.connection))];
    expect(connections).toEqual(['2025-06-18#1', '2025-06-18#2', '2025-06-18#3', '2025-06-18#4']);
    // The audit told the hanging server it gave up.
    expect(frames.some((f) => f.from === 'client' && method(f) === 'notifications/cancelled')).toBe(true);
  });
});
