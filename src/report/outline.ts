/**
 * What the document-style reporters (Markdown, HTML, JUnit) share: findings in groups, the noun for
 * what a command checks, and where a rule's documentation lives.
 */

import type { Finding } from '../core/finding.js';
import { getRule } from '../rules/catalog.js';
import { ruleDocsUrl } from './rule-links.js';
import { groupLabel, sortFindings } from './text.js';
import type { Report } from './types.js';

export interface FindingGroup {
  /** `groupLabel` of the findings' location; `''` when they have none. */
  readonly label: string;
  readonly findings: readonly Finding[];
}

/** Findings in the terminal report's order, cut into runs that share a location label. */
export function groupFindings(findings: readonly Finding[]): FindingGroup[] {
  const groups: { label: string; findings: Finding[] }[] = [];
  for (const finding of sortFindings(findings)) {
    const label = groupLabel(finding.location);
    const last = groups[groups.length - 1];
    if (last && last.label === label) last.findings.push(finding);
    else groups.push({ label, findings: [finding] });
  }
  return groups;
}

/** What `summary.checked` counts for a command. */
export function checkedNoun(command: Report['command']): 'call' | 'file' | 'document' {
  return command === 'audit' ? 'call' : command === 'scan' ? 'file' : 'document';
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * Where reporters link a catalog rule to: `docsBase` when given, else the package homepage's docs
 * (rule-links.ts). Undefined for ids outside the catalog and when there is nothing to link to; then
 * the reporter shows the rule's title, fix and clients inline.
 */
export function ruleDocsHref(ruleId: string, docsBase?: string): string | undefined {
  if (!getRule(ruleId)) return undefined;
  // An undefined docsBase takes ruleDocsUrl's default, the package homepage's docs.
  return ruleDocsUrl(ruleId, docsBase);
}
