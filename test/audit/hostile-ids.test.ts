/** What a hostile stdio server sends besides its answers (stray responses, floods), as the audit reports it. */

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CallRecord, runAudit } from '../../src/audit/run.js';
import { FINDINGS_PER_PLACE } from '../../src/audit/session.js';
import { places } from './support.js';

const server = join(import.meta.dirname, '../fixtures/stdio-server.mjs');

async function audit(mode: string) {
  return runAudit({
    target: {
      kind: 'stdio',
      command: process.execPath,
      args: [server],
      env: { ...process.env, MCP_SHAPE_FIXTURE_MODE: mode },
    },
    versions: ['2025-06-18'],
    timeoutMs: 10_000,
  });
}

describe('a server that floods its stdout with lines that are no JSON', { timeout: 60_000 }, () => {
  it('is reported at most FINDINGS_PER_PLACE times at one place, and its answer still judged', async () => {
    const report = await audit('garbage');
    const garbage = places(report).filter((f) => f.rule === 'frame-not-json');
    expect(garbage).toHaveLength(FINDINGS_PER_PLACE);
    expect(garbage[0]?.message).toBe('stdout line is not JSON: "garbage line 0"');
    expect(((report.details?.calls ?? []) as CallRecord[]).map((c) => c.outcome)).toEqual(['result']);
  });
});

describe('a second response to a call', { timeout: 60_000 }, () => {
  it('is reported as dropped by the clients, and what it holds is not judged: it breaks no call', async () => {
    const report = await audit('twice');
    expect(places(report).map((f) => [f.rule, f.severity])).toEqual([
      ['audit-response-unmatched', 'warning'],
    ]);
  });
});

describe('a response id past the largest double', { timeout: 60_000 }, () => {
  it('is named as the server sent it, not as the null JSON.stringify makes of Infinity', async () => {
    const report = await audit('infinite-id');
    const unmatched = places(report).filter((f) => f.rule === 'audit-response-unmatched');
    expect(unmatched.map((f) => f.message)).toEqual([
      'a response with id Infinity (a number past the largest double) answers no request the audit sent, while tools/call t (id 2) waited: clients drop it, and the request it was meant for waits until they give up',
    ]);
  });
});

describe('a server that writes its answer in Latin-1', { timeout: 60_000 }, () => {
  it('is reported by frame-not-utf8 at the bad byte, and its answer is still judged', async () => {
    const report = await audit('latin1');
    const bad = places(report).filter((f) => f.rule === 'frame-not-utf8');
    expect(bad).toHaveLength(1);
    expect(bad[0]?.severity).toBe('error');
    expect(bad[0]?.message).toMatch(
      /^stdout line is not valid UTF-8: byte \d+ \(0xE9\) begins no valid UTF-8 sequence$/,
    );
    // The answer itself, decoded as the TypeScript SDK decodes it, is judged and valid.
    expect(((report.details?.calls ?? []) as CallRecord[]).map((c) => c.outcome)).toEqual(['result']);
    expect(places(report).map((f) => f.rule)).toEqual(['frame-not-utf8']);
  });
});
