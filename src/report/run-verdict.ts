/**
 * Whether the run a report describes failed (exit 1) and why, so that no format's headline looks
 * green when the exit code is 1. The policy (src/policy/apply.ts) records `summary.failOn`, and, when
 * it left findings out of the report, `summary.minSeverity` and `summary.belowMinSeverityFailing`: findings
 * below --min-severity still count for --fail-on, so a run can fail on findings the report does not
 * show; and a scan's files that could not be scanned count as a warning. A report made without the policy (the library) fails on errors, as the command line does by
 * default.
 */

import { type Finding, SEVERITIES, type Severity } from '../core/finding.js';
import { plural } from './outline.js';
import type { Report } from './types.js';

export interface RunVerdict {
  readonly failed: boolean;
  /** When the findings shown do not fail the run on their own: what does, in words. */
  readonly why?: string;
  readonly failOn: Severity | 'never';
  /** Set when the run passed without checking anything it was meant to: what was not checked. */
  readonly nothingChecked?: string;
}

/** check of a capture (or a document) holding only a client's requests: no server message at all. */
export const NO_SERVER_MESSAGE = 'nothing a server sent was checked: the input holds only client requests';

const RANK: Record<Severity, number> = { error: 3, warning: 2, info: 1 };

function severityOf(value: unknown): Severity | undefined {
  return (SEVERITIES as readonly unknown[]).includes(value) ? (value as Severity) : undefined;
}

export function runVerdict(report: Report): RunVerdict {
  const failOn = report.summary.failOn === 'never' ? 'never' : (severityOf(report.summary.failOn) ?? 'error');
  if (failOn === 'never') return passed(report, failOn);
  const counts = (f: Finding) => RANK[f.severity] >= RANK[failOn];
  if (report.findings.some(counts)) return { failed: true, failOn };
  // The policy counts the findings it left out below --min-severity that fail the run.
  const minSeverity = severityOf(report.summary.minSeverity);
  const below = report.summary.belowMinSeverityFailing;
  if (typeof below === 'number' && below > 0 && minSeverity) {
    return {
      failed: true,
      failOn,
      why: `fails --fail-on ${failOn} on ${plural(below, 'finding')} below --min-severity ${minSeverity}, not shown`,
    };
  }
  // A scan's files that could not be scanned count as a warning (Policy.incomplete).
  const unscanned = report.command === 'scan' ? report.summary.unscanned : undefined;
  if (typeof unscanned === 'number' && unscanned > 0 && RANK[failOn] <= RANK.warning) {
    return {
      failed: true,
      failOn,
      why: `fails --fail-on ${failOn}: ${plural(unscanned, 'file')} not scanned`,
    };
  }
  return passed(report, failOn);
}

function passed(report: Report, failOn: RunVerdict['failOn']): RunVerdict {
  return report.summary.noServerMessage === true
    ? { failed: false, failOn, nothingChecked: NO_SERVER_MESSAGE }
    : { failed: false, failOn };
}
