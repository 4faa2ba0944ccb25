/** The terminal report: findings grouped by where they happened, with the clients each one breaks. */

import pc from 'picocolors';
import type { Finding, Location, Severity } from '../core/finding.js';
import { breaksLine } from './clients.js';
import { codeFrameText } from './code-frame.js';
import {
  type FindingLimit,
  leftOut,
  leftOutHeadline,
  leftOutLines,
  shownFindings,
  TEXT_LIMIT,
} from './limit.js';
import { type RunVerdict, runVerdict } from './run-verdict.js';
import { oneLine } from './terminal.js';
import { type Report, SEVERITY_ORDER } from './types.js';
import { matrixTextLines, versionMatrixOf, versionVerdictOf } from './version-matrix.js';

export interface TextOptions {
  /** Use ANSI colours; default: picocolors' detection (TTY, NO_COLOR, FORCE_COLOR). */
  readonly color?: boolean;
  /** How many findings to show (default TEXT_LIMIT); the rest are counted, rule by rule. */
  readonly limit?: FindingLimit;
}

export function groupLabel(location: Location | undefined): string {
  if (!location) return '';
  const parts: string[] = [];
  if (location.file) {
    parts.push(
      location.line
        ? `${location.file}:${location.line}${location.column ? `:${location.column}` : ''}`
        : location.file,
    );
  } else if (location.line) parts.push(`line ${location.line}`);
  if (location.protocolVersion) parts.push(location.protocolVersion);
  if (location.tool) parts.push(`tool ${location.tool}`);
  if (location.call) parts.push(`call ${location.call}`);
  return parts.join(' · ');
}

/** Compares as `a.localeCompare(b, 'en', { numeric: true })` does, without resolving the locale each time. */
const byLabel = new Intl.Collator('en', { numeric: true }).compare;
const byPointer = new Intl.Collator().compare;

export function sortFindings(findings: readonly Finding[]): Finding[] {
  // Each label made once, not twice for each of the n log n comparisons: 600,000 findings took seconds.
  const keyed = findings.map((finding) => ({ finding, label: groupLabel(finding.location) }));
  keyed.sort(
    (a, b) =>
      byLabel(a.label, b.label) ||
      SEVERITY_ORDER[a.finding.severity] - SEVERITY_ORDER[b.finding.severity] ||
      byPointer(a.finding.pointer, b.finding.pointer),
  );
  return keyed.map((k) => k.finding);
}

export function renderText(report: Report, options: TextOptions = {}): string {
  const color = pc.createColors(options.color ?? pc.isColorSupported);
  const paint: Record<Severity, (s: string) => string> = {
    error: (s) => color.red(s),
    warning: (s) => color.yellow(s),
    info: (s) => color.blue(s),
  };
  const out: string[] = [];
  let currentGroup: string | undefined;
  const shown = shownFindings(report.findings, options.limit ?? TEXT_LIMIT);
  for (const finding of shown) {
    const group = groupLabel(finding.location);
    if (group !== currentGroup) {
      if (currentGroup !== undefined) out.push('');
      // File names, tool names, pointers and messages quote the input: one line each, escaped.
      out.push(color.underline(oneLine(group || '(document)', { width: 200 })));
      currentGroup = group;
    }
    const where = finding.pointer === '' ? '(root)' : oneLine(finding.pointer, { width: 100 });
    out.push(
      `  ${paint[finding.severity](finding.severity.padEnd(7))} ${color.dim(where)}  ${oneLine(finding.message, { width: 240 })}  ${color.dim(finding.rule)}`,
    );
    if (finding.fix)
      out.push(
        `          ${color.dim('fix:')} ${oneLine(finding.fix.description, { width: 240 })}${finding.fix.automatic ? color.dim(' (repairable)') : ''}`,
      );
    const clients = breaksLine(finding);
    if (clients && finding.severity !== 'info') out.push(`          ${color.dim('breaks:')} ${clients}`);
    out.push(
      ...codeFrameText(finding.location, '          ', { dim: color.dim, mark: paint[finding.severity] }),
    );
  }
  if (out.length > 0) out.push('');
  out.push(...leftOutText(report.findings, shown));
  // check: the verdict under every version (--protocol all), and where it differs.
  const matrix = versionMatrixOf(report);
  if (matrix?.all) out.push(...matrixTextLines(matrix), '');
  const versionVerdict = versionVerdictOf(report);
  if (versionVerdict) out.push(oneLine(versionVerdict, { width: 1000 }));
  out.push(summaryLine(report, color));
  return `${out.join('\n')}\n`;
}

/** What a report that shows `shown` of `all` findings left out, as lines ending in a blank one; none when nothing. */
export function leftOutText(all: readonly Finding[], shown: readonly Finding[]): string[] {
  const cut = leftOut(all, shown);
  if (!cut) return [];
  return [leftOutHeadline(cut), ...leftOutLines(cut).map((line) => `  ${oneLine(line, { width: 200 })}`), ''];
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function summaryLine(report: Report, color: ReturnType<typeof pc.createColors>): string {
  const { errors, warnings, infos, checked } = report.summary;
  const what = report.command === 'scan' ? 'file' : report.command === 'audit' ? 'call' : 'document';
  const counts = `${plural(errors, 'error')}, ${plural(warnings, 'warning')}, ${plural(infos, 'info')}`;
  const run = runVerdict(report);
  const reason = run.why ?? run.nothingChecked;
  const line = `${counts} in ${plural(checked, what)} checked${reason ? `: ${reason}` : ''}`;
  return headlineMark(run, errors + warnings, color, line);
}

/**
 * ✖ for a run that fails (exit 1), ➖ for one that checked nothing it was meant to, ⚠ for one that
 * passes with findings, ✔ for none.
 */
export function headlineMark(
  run: RunVerdict,
  findings: number,
  color: ReturnType<typeof pc.createColors>,
  line: string,
): string {
  if (run.failed) return color.red(color.bold(`✖ ${line}`));
  if (run.nothingChecked) return color.yellow(`➖ ${line}`);
  if (findings > 0) return color.yellow(`⚠ ${line}`);
  return color.green(`✔ ${line}`);
}
