/**
 * Applies the whole policy to a finished report: rule settings, the baseline, what fails the run and
 * what is shown. Pure; every command's report goes through it (src/cli/policy.ts).
 */

import type { Finding, Severity } from '../core/finding.js';
import { buildReport } from '../report/build.js';
import { foldFindings, unfold } from '../report/fold.js';
import type { Report } from '../report/types.js';
import { applyBaseline, type Baseline, type BaselineEntry } from './baseline.js';
import { applyRuleSettings, atLeast, type FailOn, fails, type RuleSetting } from './severity.js';

export interface Policy {
  readonly rules?: Readonly<Record<string, RuleSetting>>;
  readonly failOn: FailOn;
  readonly minSeverity: Severity;
  readonly baseline?: { readonly file: string; readonly baseline: Baseline };
  /**
   * Inputs the command could not check (files a scan could not parse). They count as warnings for
   * `failOn`: a scan that left files out is not proven clean, but one broken vendored file must not
   * fail every build that only asks to fail on errors.
   */
  readonly incomplete?: number;
}

export interface PolicyOutcome {
  /** The report as shown: findings filtered, counts recomputed, what was hidden said in summary/details. */
  readonly report: Report;
  /** The run fails (exit 1) under `failOn`. */
  readonly failed: boolean;
  /** Findings after rule settings, before the baseline: what `--write-baseline` records. */
  readonly effective: readonly Finding[];
  /** What the rule settings did, as carried in `details.rules`: rules that dropped or changed findings. */
  readonly ruleSettings: readonly RuleSettingDetails[];
  /**
   * The places the baseline hid (fingerprinted units), for reports that show them as suppressed rather
   * than leave them out: SARIF, where a result that vanishes reads as fixed to code scanning.
   */
  readonly suppressed: readonly Finding[];
}

/** One rule setting that acted on this run's findings. */
export interface RuleSettingDetails {
  readonly rule: string;
  readonly setting: RuleSetting;
  /** Findings it dropped (`off`) or gave another severity. */
  readonly findings: number;
}

/** What the policy hid, as carried in `details.baseline` and the summary. */
export interface BaselineDetails {
  readonly file: string;
  readonly hidden: number;
  readonly stale: readonly BaselineEntry[];
}

/**
 * `units`: each finding's units (src/policy/fingerprint.ts fingerprintUnits), what the baseline
 * matches; by default each finding is its own. A finding some of whose units the baseline records is
 * shown with the others' places only.
 */
export function applyPolicy(
  report: Report,
  policy: Policy,
  units: readonly (readonly Finding[])[] = report.findings.map((f) => [f]),
): PolicyOutcome {
  const groups = report.findings
    .map((finding, i) => ({
      finding: applyRuleSettings([finding], policy.rules)[0],
      units: applyRuleSettings(units[i] ?? [finding], policy.rules),
    }))
    .filter(
      (g): g is { finding: Finding; units: Finding[] } => g.finding !== undefined && g.units.length > 0,
    );
  const effective = groups.flatMap((g) => g.units);
  const ruleSettings = settingsActed(report.findings, policy.rules);
  const outcome = policy.baseline ? applyBaseline(effective, policy.baseline.baseline) : undefined;
  const hidden = new Set(outcome?.hidden);
  const current = groups.flatMap(({ finding, units: all }): Finding[] => {
    const kept = all.filter((u) => !hidden.has(u));
    if (kept.length === 0) return [];
    if (kept.length === all.length) {
      return [all.length === 1 ? (kept[0] as Finding) : { ...finding, fingerprint: kept[0]?.fingerprint }];
    }
    // Only the places the baseline does not record, under the first of them.
    const refolded = foldFindings(kept.flatMap(unfold));
    return [{ ...(refolded[0] as Finding), fingerprint: kept[0]?.fingerprint }];
  });
  const failingSeverities: Severity[] = current.map((f) => f.severity);
  if ((policy.incomplete ?? 0) > 0) failingSeverities.push('warning');
  const failed = fails(failingSeverities, policy.failOn);

  const shown = current.filter((f) => atLeast(f.severity, policy.minSeverity));
  const belowMinSeverity = current.length - shown.length;
  const { errors: _e, warnings: _w, infos: _i, checked, ...extraSummary } = report.summary;
  const summary: Record<string, unknown> = { ...extraSummary, failOn: policy.failOn };
  if (belowMinSeverity > 0) {
    summary.minSeverity = policy.minSeverity;
    summary.belowMinSeverity = belowMinSeverity;
    // Which of them fail the run, so that a report can say why it failed on findings it does not show
    // (and not claim so when they are all below --fail-on too).
    summary.belowMinSeverityFailing = current.filter(
      (f) => !atLeast(f.severity, policy.minSeverity) && fails([f.severity], policy.failOn),
    ).length;
  }
  const details: Record<string, unknown> = { ...report.details };
  if (ruleSettings.length > 0) {
    // A rule turned off or lowered by the configuration is said, as a baseline's hidden findings are.
    const count = (off: boolean) =>
      ruleSettings.filter((r) => (r.setting === 'off') === off).reduce((n, r) => n + r.findings, 0);
    summary.rules = { off: count(true), changed: count(false) };
    details.rules = ruleSettings;
  }
  if (outcome && policy.baseline) {
    summary.baseline = { hidden: outcome.hidden.length, stale: outcome.stale.length };
    const baselineDetails: BaselineDetails = {
      file: policy.baseline.file,
      hidden: outcome.hidden.length,
      stale: outcome.stale,
    };
    details.baseline = baselineDetails;
  }
  return {
    report: buildReport(report.command, shown, checked, {
      summary,
      ...(Object.keys(details).length > 0 ? { details } : {}),
    }),
    failed,
    effective,
    ruleSettings,
    suppressed: effective.filter((u) => hidden.has(u) && atLeast(u.severity, policy.minSeverity)),
  };
}

function settingsActed(
  findings: readonly Finding[],
  rules: Readonly<Record<string, RuleSetting>> = {},
): RuleSettingDetails[] {
  const acted = new Map<string, number>();
  for (const finding of findings) {
    const setting = Object.hasOwn(rules, finding.rule) ? rules[finding.rule] : undefined;
    if (setting !== undefined && setting !== finding.severity) {
      acted.set(finding.rule, (acted.get(finding.rule) ?? 0) + 1);
    }
  }
  return [...acted]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([rule, n]) => ({ rule, setting: rules[rule] as RuleSetting, findings: n }));
}
