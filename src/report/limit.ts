/**
 * How many findings a report for people shows. 20,000 findings of distinct places made a 54 MB HTML
 * page that a browser tab could not open, and a Markdown report far over the 1 MiB GitHub allows a
 * job summary. Text, Markdown and HTML therefore show at most `perRule` findings of each rule and
 * `total` in all (every rule keeps as many as the others, at least one), in the report's order, and
 * say what they left out, rule by rule. Nothing else changes: the headline, the counts and the rules
 * table count every finding, and JSON, SARIF and JUnit (read by programs) carry all of them.
 */

import type { Finding } from '../core/finding.js';
import { plural } from './outline.js';
import { sortFindings } from './text.js';

export interface FindingLimit {
  /** At most this many findings of one rule. */
  readonly perRule: number;
  /** At most this many findings in all, though every rule keeps one. */
  readonly total: number;
}

/** The limits of each format for people; a caller may pass its own (`RenderOptions.limit`). */
export const TEXT_LIMIT: FindingLimit = { perRule: 50, total: 500 };
export const MARKDOWN_LIMIT: FindingLimit = { perRule: 20, total: 200 };
export const HTML_LIMIT: FindingLimit = { perRule: 50, total: 500 };

/**
 * The findings a report shows, in the terminal report's order (sortFindings): the first of each rule,
 * as many of each as the limits allow.
 */
export function shownFindings(findings: readonly Finding[], limit: FindingLimit): Finding[] {
  const sorted = sortFindings(findings);
  const perRule = Math.max(1, Math.floor(limit.perRule));
  const counts = countByRule(sorted);
  // The largest share every rule may keep (at most perRule) that keeps the sum within total.
  const sum = (share: number) => [...counts.values()].reduce((n, c) => n + Math.min(c, share), 0);
  let share = perRule;
  while (share > 1 && sum(share) > limit.total) share--;
  const taken = new Map<string, number>();
  return sorted.filter((f) => {
    const n = taken.get(f.rule) ?? 0;
    if (n >= share) return false;
    taken.set(f.rule, n + 1);
    return true;
  });
}

export function countByRule(findings: readonly Finding[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const f of findings) counts.set(f.rule, (counts.get(f.rule) ?? 0) + 1);
  return counts;
}

export interface LeftOut {
  /** The findings of the report, and how many of them the report shows. */
  readonly total: number;
  readonly shown: number;
  /** Each rule some of whose findings are not shown: how many it has and how many are not shown. */
  readonly rules: readonly { readonly rule: string; readonly findings: number; readonly notShown: number }[];
}

/** What a report that shows `shown` of `all` left out; undefined when it shows every finding. */
export function leftOut(all: readonly Finding[], shown: readonly Finding[]): LeftOut | undefined {
  if (shown.length >= all.length) return undefined;
  const shownCounts = countByRule(shown);
  const rules = [...countByRule(all)]
    .map(([rule, findings]) => ({ rule, findings, notShown: findings - (shownCounts.get(rule) ?? 0) }))
    .filter((r) => r.notShown > 0);
  return { total: all.length, shown: shown.length, rules };
}

/** `Showing 200 of 20000 findings; the JSON report (--format json) has every one.` */
export function leftOutHeadline(cut: LeftOut): string {
  return `Showing ${cut.shown} of ${plural(cut.total, 'finding')}; the JSON report (--format json) has every one.`;
}

/** `block-type-unknown: 19980 of 20000 findings not shown` for each rule cut. */
export function leftOutLines(cut: LeftOut): string[] {
  return cut.rules.map((r) => `${r.rule}: ${r.notShown} of ${plural(r.findings, 'finding')} not shown`);
}
