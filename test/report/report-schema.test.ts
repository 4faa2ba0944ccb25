import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanPaths } from '../../src/scan/index.js';
import { REPO_ROOT, runCli } from '../support/cli.js';
import { expectValidReport, validateReport } from '../support/report-schema.js';

describe('docs/report-schema.json', () => {
  it('describes what `check --format json` prints, with findings and without', {
    timeout: 120_000,
  }, async () => {
    const broken = await runCli(['check', '-', '--format', 'json', '--protocol', '2025-06-18'], {
      input: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        extra: true,
        result: { content: [{ type: 'image', data: 'x' }] },
      }),
    });
    const report = JSON.parse(broken.stdout);
    expect(report.findings.length).toBeGreaterThan(1);
    expectValidReport(report);
    const clean = await runCli(['check', '-', '--format', 'json'], {
      input: JSON.stringify({ content: [], resultType: 'complete' }),
    });
    expectValidReport(JSON.parse(clean.stdout));
  });

  it('describes a scan report: code frames, branch conditions and the returns a defect reaches', async () => {
    const { report } = await scanPaths([join(REPO_ROOT, 'fixtures/scan')], { cwd: REPO_ROOT });
    const locations = report.findings.map((f) => f.location ?? {});
    expect(locations.some((l) => l.snippet && l.reaches && l.when && l.endLine)).toBe(true);
    expectValidReport(JSON.parse(JSON.stringify(report)));
  });

  it('rejects a report that breaks the finding shape', () => {
    expect(
      validateReport({
        schemaVersion: 1,
        command: 'check',
        findings: [{ rule: 'X', severity: 'fatal' }],
        summary: {},
      }),
    ).toBe(false);
  });
});
