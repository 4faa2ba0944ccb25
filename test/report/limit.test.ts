/**
 * Reports for people on a run of very many findings: 20,000 findings of distinct places made a 54 MB
 * HTML page and a 14 MB Markdown summary (GitHub refuses one over 1 MiB). Text, Markdown and HTML
 * show a bounded number of findings, say what they left out rule by rule, and keep every count.
 */

import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/core/finding.js';
import { buildReport } from '../../src/report/build.js';
import { renderReport } from '../../src/report/index.js';
import { leftOut, shownFindings } from '../../src/report/limit.js';
import type { Report, ReportFormat } from '../../src/report/types.js';
import { auditReport, checkReport } from './fixtures.js';

function unknownType(i: number, message = ''): Finding {
  return {
    rule: 'block-type-unknown',
    severity: 'error',
    message: `unknown content block type "kind${i}"${message}`,
    pointer: '/result/content/0/type',
    location: { file: 'many.ndjson', line: i + 1, protocolVersion: '2025-11-25', call: String(i) },
  };
}

function extraMember(i: number): Finding {
  return {
    rule: 'envelope-extra-member',
    severity: 'warning',
    message: `extra top-level member "x${i}" in a JSON-RPC message`,
    pointer: `/x${i}`,
    location: { file: 'many.ndjson', line: i + 1, protocolVersion: '2025-11-25' },
  };
}

/** 20,000 errors of one rule, 300 warnings of another, one info of a third. */
function manyReport(message = ''): Report {
  const findings = [
    ...Array.from({ length: 20_000 }, (_, i) => unknownType(i, message)),
    ...Array.from({ length: 300 }, (_, i) => extraMember(i)),
    {
      rule: 'result-meta-key-invalid',
      severity: 'info',
      message: 'a _meta key',
      pointer: '/result/_meta',
      location: { file: 'many.ndjson', line: 9 },
    } satisfies Finding,
  ];
  return buildReport('check', findings, 20_301);
}

const PEOPLE: readonly ReportFormat[] = ['text', 'markdown', 'html'];

describe('a report of very many findings', () => {
  it('shows a bounded number of each rule in text, Markdown and HTML, and says what it left out', () => {
    const report = manyReport();
    const sizes: Record<string, number> = {};
    for (const format of PEOPLE) {
      const out = renderReport(report, format, { color: false });
      sizes[format] = Buffer.byteLength(out);
      expect(out, format).toContain('of 20301 findings; the JSON report (--format json) has every one.');
      // Every rule some of whose findings are cut, with exact counts; the info's rule is whole.
      expect(out, format).toMatch(/block-type-unknown: 199\d\d of 20000 findings not shown/);
      expect(out, format).toMatch(/envelope-extra-member: 2\d\d of 300 findings not shown/);
      expect(out, format).not.toContain('result-meta-key-invalid: ');
      // Each rule keeps findings on the page.
      for (const shown of [/kind0\b/, /x0\b/, /a \\?_meta key/]) {
        expect(shown.test(out), `${format} ${shown}`).toBe(true);
      }
    }
    expect(sizes.markdown).toBeLessThan(1024 * 1024);
    expect(sizes.html).toBeLessThan(2 * 1024 * 1024);
    expect(sizes.text).toBeLessThan(1024 * 1024);
  });

  it('keeps the headline and every count exact', () => {
    const report = manyReport();
    expect(renderReport(report, 'text', { color: false })).toContain(
      '✖ 20000 errors, 300 warnings, 1 info in 20301 documents checked',
    );
    const markdown = renderReport(report, 'markdown');
    expect(markdown).toContain('## mcp-shape check: ❌ 20000 errors, 300 warnings in 20301 documents');
    expect(markdown).toContain('| 20000 | 300 | 1 | 20301 |');
    expect(markdown).toMatch(/`block-type-unknown`.* \| ❌ error \| 20000 \|/);
    const html = renderReport(report, 'html');
    expect(html).toContain('data-count="error"><span class="n">20000</span>');
    expect(html).toContain('Failed (--fail-on error): 20000 errors, 300 warnings, 1 info in 20301 documents');
    // The machine formats carry every finding.
    expect(JSON.parse(renderReport(report, 'json')).findings).toHaveLength(20_301);
    expect(JSON.parse(renderReport(report, 'sarif')).runs[0].results).toHaveLength(20_301);
  });

  it('keeps a Markdown summary under 1 MiB however long the messages are', () => {
    const long = ` ${'a long message quoting the server '.repeat(60)}`;
    const markdown = renderReport(manyReport(long), 'markdown');
    expect(Buffer.byteLength(markdown)).toBeLessThan(1024 * 1024);
    const shown = markdown.match(/^- \*\*/gm)?.length ?? 0;
    const notShown = [...markdown.matchAll(/: (\d+) of \d+ findings? not shown/g)].reduce(
      (n, m) => n + Number(m[1]),
      0,
    );
    // What is shown and what is said to be left out add up to every finding.
    expect(shown + notShown).toBe(20_301);
    expect(markdown).toContain(`Showing ${shown} of 20301 findings`);
  });

  it('keeps the details of a huge run out of the Markdown summary, and says where they are', () => {
    const report = buildReport('check', [unknownType(1)], 1, {
      details: { big: Array.from({ length: 20_000 }, (_, i) => `entry ${i}`) },
    });
    const markdown = renderReport(report, 'markdown');
    expect(markdown).toMatch(/\d+ characters of details are in the JSON report \(--format json\)\./);
    expect(Buffer.byteLength(markdown)).toBeLessThan(64 * 1024);
  });

  it('says the audit text report left findings out', () => {
    const base = auditReport();
    const findings = Array.from({ length: 120 }, (_, i) => ({
      ...extraMember(i),
      location: { protocolVersion: '2025-11-25', tool: 'search', call: `search#${i}` },
    }));
    const report = { ...base, findings, summary: { ...base.summary, errors: 0, warnings: 120 } };
    const out = renderReport(report, 'text', { color: false });
    expect(out).toContain('Showing 50 of 120 findings; the JSON report (--format json) has every one.');
    expect(out).toContain('envelope-extra-member: 70 of 120 findings not shown');
    expect(out.match(/extra top-level member/g)).toHaveLength(50);
  });

  it('changes nothing in a report within the limits', () => {
    for (const report of [checkReport(), auditReport()]) {
      for (const format of PEOPLE) {
        const out = renderReport(report, format, { color: false });
        expect(out, format).not.toContain('the JSON report (--format json) has every one');
        expect(renderReport(report, format, { color: false, limit: { perRule: 1000, total: 1000 } })).toBe(
          out,
        );
      }
    }
  });
});

describe('a baseline of very many stale entries', () => {
  it('lists 20 of them in text, Markdown and HTML, says how many more, and keeps the page small', () => {
    const stale = Array.from({ length: 20_000 }, (_, i) => ({
      fingerprint: `f${i}:1`,
      rule: 'block-type-unknown',
      file: 'many.ndjson',
      message: `unknown content block type "kind${i}"`,
    }));
    const report = buildReport('check', [], 1, {
      summary: { failOn: 'error', baseline: { hidden: 0, stale: stale.length } },
      details: { baseline: { file: 'baseline.json', hidden: 0, stale } },
    });
    for (const format of PEOPLE) {
      const out = renderReport(report, format, { color: false });
      expect(out, format).toContain('20000 entries no longer occur');
      expect(out, format).toContain(
        'and 19980 more stale entries; the JSON report lists every one (details.baseline.stale)',
      );
      expect(out.match(/stale: block-type-unknown/g), format).toHaveLength(20);
      expect(Buffer.byteLength(out), format).toBeLessThan(64 * 1024);
    }
    expect(renderReport(report, 'html')).toMatch(/\d+ characters of details are in the JSON report/);
    expect(JSON.parse(renderReport(report, 'json')).details.baseline.stale).toHaveLength(20_000);
  });
});

describe('shownFindings', () => {
  it('gives every rule the same share within the total, and each rule one at least', () => {
    const findings = [
      ...Array.from({ length: 100 }, (_, i) => unknownType(i)),
      ...Array.from({ length: 3 }, (_, i) => extraMember(i)),
    ];
    const count = (list: readonly Finding[], rule: string) => list.filter((f) => f.rule === rule).length;
    const shown = shownFindings(findings, { perRule: 50, total: 20 });
    expect(count(shown, 'block-type-unknown')).toBe(17);
    expect(count(shown, 'envelope-extra-member')).toBe(3);
    expect(shownFindings(findings, { perRule: 50, total: 1 })).toHaveLength(2);
    expect(leftOut(findings, shown)?.rules).toEqual([
      { rule: 'block-type-unknown', findings: 100, notShown: 83 },
    ]);
    expect(leftOut(findings, findings)).toBeUndefined();
  });
});
