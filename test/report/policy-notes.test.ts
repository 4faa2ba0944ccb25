/**
 * What the policy left out or changed is said where people read it: the configuration's rule settings
 * (details.rules), the baseline and --min-severity, in the text, Markdown and HTML reports.
 */

import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/core/finding.js';
import { applyPolicy } from '../../src/policy/apply.js';
import { createBaseline } from '../../src/policy/baseline.js';
import { buildReport } from '../../src/report/build.js';
import { renderReport } from '../../src/report/index.js';

const finding = (rule: string, severity: Finding['severity'], n: number): Finding => ({
  rule,
  severity,
  message: `${rule} ${n}`,
  pointer: `/content/${n}`,
  location: { file: 'result.json' },
  fingerprint: `${rule}-${n}`,
});

const FINDINGS = [
  finding('block-text-invalid', 'error', 0),
  finding('block-text-invalid', 'error', 1),
  finding('block-mime-type-mismatch', 'warning', 2),
];

const RULES_LINE =
  'rules set in the configuration: block-mime-type-mismatch set to info (1 finding), block-text-invalid off (2 findings not shown or counted)';

describe('policy notes', () => {
  it('say the rule settings that dropped or changed findings, in text, Markdown and HTML', () => {
    const { report } = applyPolicy(buildReport('check', FINDINGS, 1), {
      failOn: 'error',
      minSeverity: 'info',
      rules: { 'block-text-invalid': 'off', 'block-mime-type-mismatch': 'info', 'tool-name-format': 'off' },
    });
    expect(renderReport(report, 'text', { color: false })).toContain(`\n${RULES_LINE}\n`);
    expect(renderReport(report, 'markdown')).toContain(`\n- ${RULES_LINE}\n`);
    expect(renderReport(report, 'html')).toContain(`<li>${RULES_LINE}</li>`);
  });

  it('say nothing of settings that acted on no finding', () => {
    const { report } = applyPolicy(buildReport('check', FINDINGS, 1), {
      failOn: 'error',
      minSeverity: 'info',
      rules: { 'tool-name-format': 'off', 'block-text-invalid': 'error' },
    });
    for (const format of ['text', 'markdown', 'html'] as const) {
      expect(renderReport(report, format, { color: false })).not.toContain('rules set in');
    }
  });

  it('the HTML report says what the baseline and --min-severity left out, as text and Markdown do', () => {
    const { report } = applyPolicy(buildReport('check', FINDINGS, 1), {
      failOn: 'error',
      minSeverity: 'error',
      baseline: { file: 'b.json', baseline: createBaseline('check', [FINDINGS[0] as Finding]) },
    });
    const html = renderReport(report, 'html');
    expect(html).toContain('<li>baseline b.json: 1 known finding hidden</li>');
    expect(html).toContain(
      '<li>1 finding below --min-severity error not shown (--fail-on error still counts them)</li>',
    );
  });
});
