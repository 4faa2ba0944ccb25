/** The version comparison: which clients a version-specific finding reaches, and how the report says it. */

import { describe, expect, it } from 'vitest';
import { compareVersions } from '../../src/audit/compare.js';
import type { VersionDetail } from '../../src/audit/run.js';
import type { Finding } from '../../src/core/finding.js';
import { renderAuditText } from '../../src/report/audit-text.js';
import { buildReport } from '../../src/report/build.js';
import { foldFindings } from '../../src/report/fold.js';

const finding = (rule: string, version: string, pointer: string, tool = 'get_data'): Finding => ({
  rule,
  severity: 'error',
  message: `${rule} message`,
  pointer,
  location: { protocolVersion: version, tool, call: `${tool}#1` },
});

const audited = (versions: readonly string[], tools = ['get_data']) =>
  versions.map((version) => ({ version, tools }));

describe('compareVersions', () => {
  it('says a defect of the older versions reaches only older clients, folding sibling items', () => {
    const differences = compareVersions(
      [
        finding('block-type-unsupported-in-version', '2024-11-05', '/result/content/1/type'),
        finding('block-type-unsupported-in-version', '2024-11-05', '/result/content/2/type'),
        finding('block-type-unsupported-in-version', '2025-03-26', '/result/content/1/type'),
      ],
      audited(['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']),
    );
    expect(differences).toEqual([
      {
        rule: 'block-type-unsupported-in-version',
        severity: 'error',
        tool: 'get_data',
        pointer: '/result/content/*/type',
        presentIn: ['2024-11-05', '2025-03-26'],
        absentIn: ['2025-06-18', '2025-11-25'],
        reaches: 'older',
      },
    ]);
  });

  it('tells newer from interleaved versions, and ignores findings every version has', () => {
    const differences = compareVersions(
      [
        finding('result-type-missing', '2026-07-28', '/result'),
        finding('text-mirror-missing', '2025-03-26', '/result'),
        finding('text-mirror-missing', '2026-07-28', '/result'),
        ...['2025-03-26', '2025-11-25', '2026-07-28'].map((v) => finding('everywhere', v, '/result')),
      ],
      audited(['2025-03-26', '2025-11-25', '2026-07-28']),
    );
    expect(differences.map((d) => [d.rule, d.reaches, d.absentIn])).toEqual([
      ['result-type-missing', 'newer', ['2025-03-26', '2025-11-25']],
      ['text-mirror-missing', 'some', ['2025-11-25']],
    ]);
  });

  it('does not count a version whose listing lacks the tool as one without the defect', () => {
    const differences = compareVersions(
      [finding('block-type-unknown', '2025-06-18', '/result/content/0/type', 'new_tool')],
      [
        { version: '2025-03-26', tools: ['old_tool'] },
        { version: '2025-06-18', tools: ['old_tool', 'new_tool'] },
      ],
    );
    expect(differences).toEqual([]);
  });
});

describe('the terminal report compares versions from the clients’ side', () => {
  const versions: VersionDetail[] = [
    { requested: '2024-11-05', status: 'audited', answered: '2024-11-05', tools: 1, calls: 1 },
    { requested: '2025-03-26', status: 'audited', answered: '2025-03-26', tools: 1, calls: 1 },
    { requested: '2025-06-18', status: 'same-as', answered: '2025-03-26', sameAs: '2025-03-26' },
    { requested: '2026-07-28', status: 'refused', detail: 'server/discover: -32601 Method not found' },
  ];
  const findings = [finding('block-type-unsupported-in-version', '2024-11-05', '/result/content/0/type')];
  const details = {
    target: 'node server.js',
    transport: 'stdio',
    versions,
    tools: [],
    comparison: compareVersions(findings, audited(['2024-11-05', '2025-03-26'])),
    stderrTail: [],
  };

  it('says which versions were answered with another, refused, and which clients a defect reaches', () => {
    const text = renderAuditText(buildReport('audit', findings, 2, { details }), { color: false });
    const [, versionsLine] = text.split('\n');
    expect(versionsLine).toBe(
      'versions    2024-11-05, 2025-03-26 audited (1 tool, 1 call each) · 2025-06-18 answered as 2025-03-26 (same audit) · 2026-07-28 not supported (server/discover: -32601 Method not found)',
    );
    expect(text).toContain(
      'at /result/content/0/type · in 2024-11-05 (older clients only), 1 call (get_data#1)',
    );
  });

  it('adds nothing about versions to a defect every version has', () => {
    const both = [
      finding('block-type-unknown', '2024-11-05', '/result/content/0/type'),
      finding('block-type-unknown', '2025-03-26', '/result/content/0/type'),
    ];
    const text = renderAuditText(buildReport('audit', foldFindings(both), 2, { details }), { color: false });
    expect(text).toContain('at /result/content/0/type · in 2024-11-05, 2025-03-26, 2 calls (get_data#1)\n');
  });
});
