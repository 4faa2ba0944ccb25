/**
 * The severity policy: per-rule overrides (`"off"` drops a rule), what fails the run (`--fail-on`)
 * and what is shown (`--min-severity`). Pure.
 */

import { type Finding, SEVERITIES, type Severity } from '../core/finding.js';

export type FailOn = Severity | 'never';
export const FAIL_ON_VALUES: readonly FailOn[] = [...SEVERITIES, 'never'];

export type RuleSetting = Severity | 'off';
export const RULE_SETTINGS: readonly RuleSetting[] = [...SEVERITIES, 'off'];

const RANK: Record<Severity, number> = { error: 3, warning: 2, info: 1 };

/** `severity` is `threshold` or more severe. */
export function atLeast(severity: Severity, threshold: Severity): boolean {
  return RANK[severity] >= RANK[threshold];
}

/** Findings with their rule's overridden severity; rules set to `"off"` are dropped. */
export function applyRuleSettings(
  findings: readonly Finding[],
  rules: Readonly<Record<string, RuleSetting>> = {},
): Finding[] {
  const out: Finding[] = [];
  for (const finding of findings) {
    const setting = Object.hasOwn(rules, finding.rule) ? rules[finding.rule] : undefined;
    if (setting === 'off') continue;
    out.push(setting && setting !== finding.severity ? { ...finding, severity: setting } : finding);
  }
  return out;
}

/** Whether findings of these severities fail the run. */
export function fails(severities: Iterable<Severity>, failOn: FailOn): boolean {
  if (failOn === 'never') return false;
  for (const severity of severities) if (atLeast(severity, failOn)) return true;
  return false;
}
