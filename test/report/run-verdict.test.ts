/**
 * Every format's headline agrees with the exit code: a run that fails (exit 1) never reads as a pass,
 * whatever --fail-on, --min-severity and the baseline left in the report.
 */

import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import type { Finding, Severity } from '../../src/core/finding.js';
import { applyPolicy, type Policy } from '../../src/policy/apply.js';
import { createBaseline } from '../../src/policy/baseline.js';
import type { FailOn } from '../../src/policy/severity.js';
import { buildReport } from '../../src/report/build.js';
import { renderReport } from '../../src/report/index.js';
import type { Report } from '../../src/report/types.js';

const finding = (severity: Severity, n: number): Finding => ({
  rule: `rule-${severity}`,
  severity,
  message: `${severity} ${n}`,
  pointer: `/${severity}/${n}`,
  location: { file: 'result.json' },
  fingerprint: `${severity}-${n}`,
});

/** What each format says of the run: failed or not. */
function saysFailed(report: Report): Record<string, boolean> {
  const text = renderReport(report, 'text', { color: false });
  const headline = text.split('\n').find((l) => /^[✖⚠✔] /.test(l)) ?? '';
  const markdown = renderReport(report, 'markdown').split('\n')[0] ?? '';
  const html = renderReport(report, 'html');
  const junit = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(
    renderReport(report, 'junit'),
  ) as { testsuites: { failures: string } };
  return {
    text: headline.startsWith('✖'),
    markdown: markdown.includes('❌'),
    html: html.includes('data-run="failed"'),
    junit: Number(junit.testsuites.failures) > 0,
  };
}

const SETS: Record<string, Severity[]> = {
  none: [],
  info: ['info'],
  warning: ['warning'],
  'warning+info': ['warning', 'info'],
  error: ['error'],
  all: ['error', 'warning', 'info'],
};
const FAIL_ON: FailOn[] = ['error', 'warning', 'info', 'never'];
const MIN: Severity[] = ['error', 'warning', 'info'];

describe('the headline of every format follows the exit code', () => {
  for (const [name, severities] of Object.entries(SETS)) {
    for (const failOn of FAIL_ON) {
      for (const minSeverity of MIN) {
        for (const baseline of [false, true]) {
          it(`${name} findings, --fail-on ${failOn} --min-severity ${minSeverity}${baseline ? ', one hidden by a baseline' : ''}`, () => {
            const findings = severities.map((s, i) => finding(s, i));
            const report = buildReport('check', findings, 1);
            const policy: Policy = {
              failOn,
              minSeverity,
              ...(baseline && findings[0]
                ? {
                    baseline: {
                      file: 'b.json',
                      baseline: createBaseline('check', [findings[0]], (f) => f),
                    },
                  }
                : {}),
            };
            const outcome = applyPolicy(report, policy);
            const said = saysFailed(outcome.report);
            if (outcome.failed) {
              expect(said).toEqual({ text: true, markdown: true, html: true, junit: true });
              return;
            }
            // The policy counts which hidden findings fail the run, so hidden info under --fail-on
            // warning reads as passed: every format agrees with the exit code.
            expect({ text: said.text, markdown: said.markdown, html: said.html }).toEqual({
              text: false,
              markdown: false,
              html: false,
            });
          });
        }
      }
    }
  }

  it('says why when what fails the run is not shown', () => {
    const outcome = applyPolicy(buildReport('check', [finding('warning', 0)], 1), {
      failOn: 'warning',
      minSeverity: 'error',
    });
    expect(outcome.failed).toBe(true);
    const why = 'fails --fail-on warning on 1 finding below --min-severity error, not shown';
    for (const format of ['text', 'markdown', 'html', 'junit'] as const) {
      expect(renderReport(outcome.report, format, { color: false })).toContain(why);
    }
  });

  it('a scan that left files unscanned fails --fail-on warning, and says so', () => {
    const report = buildReport('scan', [], 2, { summary: { unscanned: 1 } });
    const outcome = applyPolicy(report, { failOn: 'warning', minSeverity: 'info', incomplete: 1 });
    expect(outcome.failed).toBe(true);
    expect(saysFailed(outcome.report)).toEqual({ text: true, markdown: true, html: true, junit: true });
    expect(renderReport(outcome.report, 'text', { color: false })).toContain('1 file not scanned');
  });
});
