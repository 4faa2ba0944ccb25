/** The three fixture servers, audited in-process over real pipes and sockets. */

import { describe, expect, it } from 'vitest';
import { startLegacyGateway } from '../../fixtures/servers/legacy-gateway.mjs';
import { liveChildren } from '../../src/audit/children.js';
import { runAudit } from '../../src/audit/run.js';
import { errors, fixture, keys, places, toolsOf, versionsOf } from './support.js';

describe('conformant fixture (stdio, every version)', () => {
  it('negotiates every version, lists every page, calls the read-only tools, and finds nothing', async () => {
    const report = await runAudit({
      target: { kind: 'stdio', command: process.execPath, args: [fixture('conformant.mjs')] },
    });
    expect(report.findings).toEqual([]);
    expect(versionsOf(report).map((v) => [v.requested, v.status, v.answered, v.tools])).toEqual([
      ['2024-11-05', 'audited', '2024-11-05', 4],
      ['2025-03-26', 'audited', '2025-03-26', 4],
      ['2025-06-18', 'audited', '2025-06-18', 4],
      ['2025-11-25', 'audited', '2025-11-25', 4],
      ['2026-07-28', 'audited', '2026-07-28', 4],
    ]);
    const tools = Object.fromEntries(toolsOf(report).map((t) => [t.name, t]));
    // One call per tool and version: nothing is explored without --explore.
    expect(tools.get_weather).toMatchObject({ called: true, because: 'readOnlyHint', calls: 5 });
    expect(tools.echo).toMatchObject({ called: true, calls: 5 });
    expect(tools.all_blocks).toMatchObject({ called: true, calls: 5 });
    expect(tools.reset_counter?.called).toBe(false);
    expect(tools.reset_counter?.reason).toMatch(/destructiveHint: true; use --call reset_counter/);
    expect(report.summary).toMatchObject({ errors: 0, warnings: 0, checked: 15, versionsAudited: 5 });
    expect(liveChildren()).toBe(0);
  });

  it('explores enum and boolean parameters with --explore', async () => {
    const report = await runAudit({
      target: { kind: 'stdio', command: process.execPath, args: [fixture('conformant.mjs')] },
      versions: ['2025-06-18'],
      explore: true,
    });
    const tools = Object.fromEntries(toolsOf(report).map((t) => [t.name, t]));
    // get_weather's units enum and echo's boolean: two values each.
    expect(tools.get_weather).toMatchObject({ calls: 2 });
    expect(tools.echo).toMatchObject({ calls: 2 });
    expect(report.findings).toEqual([]);
  });

  it('calls a destructive tool only when asked, with --args arguments', async () => {
    const report = await runAudit({
      target: { kind: 'stdio', command: process.execPath, args: [fixture('conformant.mjs')] },
      versions: ['2025-06-18'],
      args: new Map([['reset_counter', [{}]]]),
    });
    expect(toolsOf(report).find((t) => t.name === 'reset_counter')).toMatchObject({
      called: true,
      because: '--args',
      calls: 1,
    });
  });
});

describe('hostile fixture (stdio)', () => {
  it('turns garbage, a hang, a crash and a 50 MB result into findings, and reaps every process', async () => {
    const report = await runAudit({
      target: { kind: 'stdio', command: process.execPath, args: [fixture('hostile.mjs')] },
      versions: ['2025-06-18'],
      // Long enough for the 50 MB answer to pass the size cap on a loaded machine before it times out.
      timeoutMs: 10_000,
    });
    expect(keys(report.findings)).toEqual([
      'audit-response-too-large@2025-06-18/huge',
      'audit-server-exited@2025-06-18/crash',
      'audit-timeout@2025-06-18/hang',
      // The banner printed at start-up, before any tool is called.
      'frame-not-json@2025-06-18/-',
      // The half-written response the server left behind when it crashed.
      'frame-not-json@2025-06-18/crash',
      'frame-not-json@2025-06-18/noisy',
      'frame-not-jsonrpc@2025-06-18/bare_value',
    ]);
    // The tools that misbehaved before answering still answered: their results were validated.
    expect(toolsOf(report).every((t) => t.called && t.calls === 1)).toBe(true);
    expect(liveChildren()).toBe(0);
  }, 60_000);
});

describe('misaddressed fixture (stdio, answers with the wrong id)', () => {
  it('fails a wrong id however short the wait, and tells a converted id and a second answer apart', async () => {
    const report = await runAudit({
      target: { kind: 'stdio', command: process.execPath, args: [fixture('misaddressed.mjs')] },
      versions: ['2025-11-25'],
      // Shorter than any client's default: the waits themselves are not judged (audit-timeout says so).
      timeoutMs: 1_500,
    });
    const found = report.findings.flatMap((f) => f.occurrences ?? [f]).length;
    expect(found).toBeGreaterThan(0);
    const byRule = (rule: string) =>
      report.findings
        .filter((f) => f.rule === rule)
        .map((f) => [f.location?.tool, f.severity, f.message])
        .sort();
    // Ids are the audit's own, counted from 1 across the session: read back from each finding.
    expect(byRule('audit-response-unmatched')).toEqual([
      [
        'array_id',
        'error',
        expect.stringMatching(
          /^a response with id \[(\d+)\] answers no request the audit sent, while tools\/call array_id \(id \1\) waited: clients drop it, and the request it was meant for waits until they give up$/,
        ),
      ],
      [
        'twice',
        'warning',
        expect.stringMatching(
          /^a second response with id \d+: its request was answered already, and clients drop this one$/,
        ),
      ],
      [
        'wrong_id',
        'error',
        expect.stringMatching(
          /^a response with id \d+ answers no request the audit sent, while tools\/call wrong_id \(id \d+\) waited/,
        ),
      ],
    ]);
    const wrong = report.findings.find((f) => f.location?.tool === 'wrong_id' && f.severity === 'error');
    const [, sent, asked] = /id (\d+) answers .*\(id (\d+)\)/.exec(wrong?.message ?? '') ?? [];
    expect(Number(sent) - Number(asked)).toBe(1000);
    expect(byRule('audit-response-id-converted')).toEqual([
      [
        'string_id',
        'error',
        expect.stringMatching(
          /^the response to tools\/call string_id \(id (\d+)\) carries the id "\1": the same value, but a string$/,
        ),
      ],
    ]);
    // The converted answer still reached the audit, and its result was judged.
    const tools = Object.fromEntries(toolsOf(report).map((t) => [t.name, t]));
    expect(tools.string_id).toMatchObject({ called: true, calls: 1 });
    expect(report.summary.errors).toBeGreaterThanOrEqual(3);
    expect(keys(report.findings)).toEqual([
      'audit-response-id-converted@2025-11-25/string_id',
      'audit-response-unmatched@2025-11-25/array_id',
      'audit-response-unmatched@2025-11-25/twice',
      'audit-response-unmatched@2025-11-25/wrong_id',
      'audit-timeout@2025-11-25/array_id',
      'audit-timeout@2025-11-25/wrong_id',
      'envelope-id-invalid@2025-11-25/array_id',
    ]);
    expect(liveChildren()).toBe(0);
  }, 60_000);
});

describe('deep fixture (stdio, 50,000 levels of nesting)', () => {
  it('checks schemas and results nested deeper than the call stack, and no rule fails on them', async () => {
    const report = await runAudit({
      target: { kind: 'stdio', command: process.execPath, args: [fixture('deep.mjs')] },
      versions: ['2025-06-18'],
    });
    expect(
      report.findings.filter((f) => f.message.includes('failed internally')).map((f) => f.message),
    ).toEqual([]);
    expect(keys(report.findings)).toEqual([
      'result-over-client-limits@2025-06-18/deep',
      'structured-content-schema-mismatch@2025-06-18/deep',
      'structured-content-text-mirror-missing@2025-06-18/deep',
      'tool-schema-not-compilable@2025-06-18/deep',
    ]);
    expect(toolsOf(report).map((t) => [t.name, t.called])).toEqual([['deep', true]]);
    expect(liveChildren()).toBe(0);
  }, 60_000);
});

describe('legacy JSON-RPC gateway (HTTP, Qortal defects)', () => {
  it('reports the wrapped blocks, the error payloads without isError and requestId on every response', async () => {
    const gateway = await startLegacyGateway();
    try {
      const report = await runAudit({ target: { kind: 'http', url: gateway.url } });
      expect(report.details?.transport).toBe('streamable-http');
      expect(keys(errors(report))).toEqual([
        'block-type-unknown@2024-11-05/get_balance',
        'block-type-unknown@2024-11-05/search_names',
        // Every response carries requestId: initialize and tools/list (no tool), then each call.
        'envelope-extra-member@2024-11-05/-',
        'envelope-extra-member@2024-11-05/get_balance',
        'envelope-extra-member@2024-11-05/get_transaction',
        'envelope-extra-member@2024-11-05/search_names',
      ]);
      // The same defect in two tools is one finding that lists both calls.
      const [unknownType, ...more] = report.findings.filter((f) => f.rule === 'block-type-unknown');
      expect(more).toEqual([]);
      expect(unknownType?.occurrences?.map((o) => [o.pointer, o.location?.call])).toEqual([
        ['/result/content/0/type', 'get_balance#1'],
        ['/result/content/0/type', 'search_names#1'],
      ]);
      expect(keys(report.findings.filter((f) => f.rule === 'result-error-without-is-error'))).toEqual([
        'result-error-without-is-error@2024-11-05/get_transaction',
      ]);
      // It always answers 2024-11-05, so the other initialize versions add nothing; 2026 is refused.
      expect(versionsOf(report).map((v) => [v.requested, v.status, v.sameAs])).toEqual([
        ['2024-11-05', 'audited', undefined],
        ['2025-03-26', 'same-as', '2024-11-05'],
        ['2025-06-18', 'same-as', '2024-11-05'],
        ['2025-11-25', 'same-as', '2024-11-05'],
        ['2026-07-28', 'refused', undefined],
      ]);
      expect(toolsOf(report).find((t) => t.name === 'send_coin')).toMatchObject({ called: false });
      for (const f of places(report).filter((f) => f.location?.tool)) {
        expect(f.location?.call).toMatch(new RegExp(`^${f.location?.tool}#\\d+$`));
      }
    } finally {
      await gateway.close();
    }
  });
});
