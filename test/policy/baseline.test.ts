import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/core/finding.js';
import { applyPolicy } from '../../src/policy/apply.js';
import {
  applyBaseline,
  BaselineError,
  createBaseline,
  parseBaseline,
  serializeBaseline,
} from '../../src/policy/baseline.js';
import { applyRuleSettings, fails } from '../../src/policy/severity.js';
import { buildReport } from '../../src/report/build.js';

function finding(
  rule: string,
  severity: Finding['severity'],
  fingerprint: string,
  file = 'src/a.ts',
): Finding {
  return {
    rule,
    severity,
    message: `${rule} here`,
    pointer: '/x',
    location: { file, tool: 't' },
    fingerprint,
  };
}

const findings = [
  finding('block-mime-type-missing', 'error', 'b:1', 'src/b.ts'),
  finding('result-error-without-is-error', 'warning', 'a:1'),
  finding('block-text-base64-image', 'info', 'c:1'),
];

describe('baseline files', () => {
  it('are sorted, stable JSON: the same findings in any order give the same bytes', () => {
    const one = serializeBaseline(createBaseline('scan', findings));
    const two = serializeBaseline(createBaseline('scan', [...findings].reverse()));
    expect(two).toBe(one);
    const parsed = JSON.parse(one);
    expect(Object.keys(parsed)).toEqual(['version', 'fingerprints', 'command', 'findings']);
    expect(parsed.findings.map((e: { file: string }) => e.file)).toEqual([
      'src/a.ts',
      'src/a.ts',
      'src/b.ts',
    ]);
    expect(Object.keys(parsed.findings[0])).toEqual(['fingerprint', 'rule', 'file', 'tool', 'message']);
    expect(one.endsWith('}\n')).toBe(true);
    expect(parseBaseline(one, 'b.json')).toEqual(createBaseline('scan', findings));
  });

  it('hide recorded findings and list entries no finding matched', () => {
    const baseline = createBaseline('scan', findings.slice(0, 2));
    const now = [findings[1] as Finding, findings[2] as Finding];
    const outcome = applyBaseline(now, baseline);
    expect(outcome.kept).toEqual([findings[2]]);
    expect(outcome.hidden).toEqual([findings[1]]);
    expect(outcome.stale.map((e) => e.fingerprint)).toEqual(['b:1']);
  });

  it('are read after a byte order mark, which an editor may add to the committed file', () => {
    const text = serializeBaseline(createBaseline('scan', findings));
    expect(parseBaseline(`\uFEFF${text}`, 'b.json')).toEqual(parseBaseline(text, 'b.json'));
  });

  it('are rejected with one line naming what is wrong', () => {
    const cases: [string, string][] = [
      ['not json', 'b.json is not JSON'],
      ['[]', 'b.json: a baseline is a JSON object'],
      ['{"version":2}', 'b.json: version: expected 1'],
      ['{"version":1,"fingerprints":"other/v9"}', 'b.json: fingerprints: expected "mcpShape/v1"'],
      ['{"version":1,"fingerprints":"mcpShape/v1","command":"lint"}', 'b.json: command: expected one of'],
      [
        '{"version":1,"fingerprints":"mcpShape/v1","command":"scan","findings":[{"rule":"x"}]}',
        'b.json: findings[0].fingerprint',
      ],
    ];
    for (const [text, message] of cases) {
      expect(() => parseBaseline(text, 'b.json')).toThrow(BaselineError);
      expect(() => parseBaseline(text, 'b.json')).toThrow(message);
    }
  });
});

describe('severity policy', () => {
  it('--fail-on: each threshold fails on findings at or above it; never never fails', () => {
    expect(fails(['warning'], 'error')).toBe(false);
    expect(fails(['warning'], 'warning')).toBe(true);
    expect(fails(['warning'], 'info')).toBe(true);
    expect(fails(['info'], 'warning')).toBe(false);
    expect(fails(['info'], 'info')).toBe(true);
    expect(fails(['error'], 'never')).toBe(false);
    expect(fails([], 'info')).toBe(false);
  });

  it('rule settings change severities and "off" drops a rule', () => {
    const out = applyRuleSettings(findings, {
      'block-mime-type-missing': 'off',
      'block-text-base64-image': 'error',
    });
    expect(out.map((f) => [f.rule, f.severity])).toEqual([
      ['result-error-without-is-error', 'warning'],
      ['block-text-base64-image', 'error'],
    ]);
  });

  it('applyPolicy recounts what is shown, keeps failing on what is hidden by --min-severity, and counts incomplete input as a warning', () => {
    const report = buildReport('scan', findings, 3);
    const shown = applyPolicy(report, { failOn: 'info', minSeverity: 'error' });
    expect(shown.failed).toBe(true);
    expect(shown.report.findings).toEqual([findings[0]]);
    expect(shown.report.summary).toMatchObject({
      errors: 1,
      warnings: 0,
      infos: 0,
      checked: 3,
      belowMinSeverity: 2,
    });
    const clean = applyPolicy(buildReport('scan', [], 1), {
      failOn: 'warning',
      minSeverity: 'info',
      incomplete: 1,
    });
    expect(clean.failed).toBe(true);
    expect(
      applyPolicy(buildReport('scan', [], 1), { failOn: 'error', minSeverity: 'info', incomplete: 1 }).failed,
    ).toBe(false);
    const baselined = applyPolicy(report, {
      failOn: 'error',
      minSeverity: 'info',
      baseline: { file: 'b.json', baseline: createBaseline('scan', [findings[0] as Finding]) },
    });
    expect(baselined.failed).toBe(false);
    expect(baselined.report.summary.baseline).toEqual({ hidden: 1, stale: 0 });
    expect(baselined.effective).toHaveLength(3);
  });
});
