/**
 * The Markdown report, for pull-request comments and CI job summaries (GitHub's
 * $GITHUB_STEP_SUMMARY, GitLab notes). GitHub-flavoured Markdown: tables and <details>.
 *
 * Finding messages, pointers, fixes and locations quote server data, so they are escaped as plain
 * text: a `|` must not end a table cell, a backtick must not open a code span, `<` must not start
 * HTML, `[`/`*`/`_` must not turn into links or emphasis.
 */

import type { Finding, Severity } from '../core/finding.js';
import { getRule } from '../rules/catalog.js';
import { VERDICT_CHECK, type Verdict } from '../scan/verdict.js';
import { clientsText } from './clients.js';
import { codeFrameMarkdown } from './code-frame.js';
import { detailsForPeople } from './details.js';
import { placesText } from './fold.js';
import {
  type FindingLimit,
  leftOut,
  leftOutHeadline,
  leftOutLines,
  MARKDOWN_LIMIT,
  shownFindings,
} from './limit.js';
import { checkedNoun, groupFindings, plural, ruleDocsHref } from './outline.js';
import { runVerdict } from './run-verdict.js';
import { verdictOf } from './scan-verdict.js';
import { jsonTerminalSafe, longestRun, terminalSafe } from './terminal.js';
import { type Report, SEVERITY_ORDER } from './types.js';
import { failureReason, showMatrix, type VersionMatrix, versionVerdictOf } from './version-matrix.js';
import { toXmlChars } from './xml.js';

export interface MarkdownOptions {
  /** URL of the rule docs directory; default: from the package homepage, else no links. */
  readonly docsBaseUrl?: string;
  /** How many findings to show (default MARKDOWN_LIMIT); the rest are counted, rule by rule. */
  readonly limit?: FindingLimit;
}

/**
 * GitHub refuses a job summary over 1 MiB. The findings stop once they fill this many characters
 * (at most 4 bytes each in UTF-8) and the details once they would; the headline, counts and rules
 * table are always there.
 */
const FINDINGS_BUDGET = 160 * 1024;
const DETAILS_BUDGET = 48 * 1024;

const SEVERITY_LABEL: Record<Severity, string> = { error: '❌ error', warning: '⚠️ warning', info: 'ℹ️ info' };

export function renderMarkdown(report: Report, options: MarkdownOptions = {}): string {
  const out: string[] = [`## mcp-shape ${report.command}: ${verdict(report)}`, '', ...summaryTable(report)];
  const scanVerdict = report.command === 'scan' ? verdictOf(report.details) : undefined;
  if (scanVerdict) out.push('', ...verdictSection(scanVerdict));
  const versionVerdict = versionVerdictOf(report);
  if (versionVerdict) out.push('', `**Protocol versions:** ${escapeMarkdown(versionVerdict)}`);
  const matrix = showMatrix(report);
  if (matrix) out.push('', '### Protocol versions', '', ...matrixTable(matrix));
  if (report.findings.length > 0) {
    out.push('', '### Rules', '', ...rulesTable(report.findings, options), '', '### Findings');
    out.push(...findingsSection(report.findings, options));
  }
  // The version matrix has its own table above; the rest of the details are shown as JSON.
  const { versionMatrix: _shown, ...details } = report.details ?? {};
  if (Object.keys(details).length > 0) {
    const json = jsonTerminalSafe(JSON.stringify(detailsForPeople(details), null, 2));
    out.push(
      '',
      '<details><summary>Details</summary>',
      '',
      ...(json.length <= DETAILS_BUDGET
        ? codeBlock(json, 'json')
        : [`${json.length} characters of details are in the JSON report (--format json).`]),
      '',
      '</details>',
    );
  }
  return `${out.join('\n')}\n`;
}

/**
 * The findings by location, at most `limit` of them and FINDINGS_BUDGET characters, then what was
 * left out, rule by rule.
 */
function findingsSection(findings: readonly Finding[], options: MarkdownOptions): string[] {
  const out: string[] = [];
  const shown: Finding[] = [];
  let size = 0;
  outer: for (const group of groupFindings(shownFindings(findings, options.limit ?? MARKDOWN_LIMIT))) {
    const heading = ['', `#### ${group.label ? escapeMarkdown(group.label) : '(document)'}`, ''];
    for (const [i, finding] of group.findings.entries()) {
      const lines = [...(i === 0 ? heading : []), ...findingItem(finding, options)];
      const length = lines.reduce((n, line) => n + line.length + 1, 0);
      // The first finding is always shown, so the reader sees one of what the counts say.
      if (shown.length > 0 && size + length > FINDINGS_BUDGET) break outer;
      out.push(...lines);
      shown.push(finding);
      size += length;
    }
  }
  const cut = leftOut(findings, shown);
  if (!cut) return out;
  // Said before the findings, and rule by rule after them.
  const headline = `**${escapeMarkdown(leftOutHeadline(cut))}**`;
  return ['', headline, ...out, '', headline, '', ...leftOutLines(cut).map((l) => `- ${escapeMarkdown(l)}`)];
}

/** The scan's return-content-types check, stated before the findings as a reviewer reads it first. */
function verdictSection(scan: Verdict): string[] {
  const mark = scan.status === 'pass' ? '✅' : scan.status === 'fail' ? '❌' : '➖';
  const lines = [`### ${mark} ${codeSpan(VERDICT_CHECK)}: ${scan.status.toUpperCase()}`, ''];
  lines.push(escapeMarkdown(scan.detail.replace(/^\w+: /, '')));
  return lines;
}

function verdict(report: Report): string {
  const { errors, warnings, checked } = report.summary;
  const run = runVerdict(report);
  const mark = run.failed ? '❌' : run.nothingChecked ? '➖' : errors + warnings > 0 ? '⚠️' : '✅';
  const reason = run.why ?? run.nothingChecked;
  const why = reason ? `: ${escapeMarkdown(reason)}` : '';
  return `${mark} ${plural(errors, 'error')}, ${plural(warnings, 'warning')} in ${plural(checked, checkedNoun(report.command))}${why}`;
}

function summaryTable(report: Report): string[] {
  const { errors, warnings, infos, checked } = report.summary;
  const noun = checkedNoun(report.command);
  return [
    `| Errors | Warnings | Info | ${noun[0]?.toUpperCase()}${noun.slice(1)}s checked |`,
    '|---:|---:|---:|---:|',
    `| ${errors} | ${warnings} | ${infos} | ${checked} |`,
  ];
}

function matrixTable(matrix: VersionMatrix): string[] {
  return [
    '| Protocol version | Verdict | Errors | Warnings | Info | Fails because |',
    '|---|---|---:|---:|---:|---|',
    ...matrix.versions.map(
      (row) =>
        `| ${row.protocolVersion} | ${row.verdict === 'pass' ? '✅ pass' : '❌ fail'} | ${row.errors} | ${row.warnings} | ${row.infos} | ${escapeMarkdown(failureReason(row))} |`,
    ),
  ];
}

function rulesTable(findings: readonly Finding[], options: MarkdownOptions): string[] {
  const byRule = new Map<string, { severity: Severity; count: number }>();
  for (const f of findings) {
    const entry = byRule.get(f.rule);
    if (entry) entry.count++;
    else byRule.set(f.rule, { severity: f.severity, count: 1 });
  }
  const rows = [...byRule].sort(
    ([a, x], [b, y]) =>
      SEVERITY_ORDER[x.severity] - SEVERITY_ORDER[y.severity] || y.count - x.count || a.localeCompare(b),
  );
  return [
    '| Rule | Severity | Findings | Title |',
    '|---|---|---:|---|',
    ...rows.map(
      ([id, { severity, count }]) =>
        `| ${tableCell(ruleLink(id, options))} | ${SEVERITY_LABEL[severity]} | ${count} | ${escapeMarkdown(getRule(id)?.title ?? '')} |`,
    ),
  ];
}

function findingItem(finding: Finding, options: MarkdownOptions): string[] {
  const where = finding.pointer === '' ? '(root)' : codeSpan(finding.pointer);
  const lines = [
    `- **${SEVERITY_LABEL[finding.severity]}** ${ruleLink(finding.rule, options)} at ${where}: ${escapeMarkdown(finding.message)}`,
  ];
  if (finding.fix) {
    lines.push(
      `  - Fix: ${escapeMarkdown(finding.fix.description)}${finding.fix.automatic ? ' (automatic with `mcp-shape repair`)' : ''}`,
    );
  }
  const places = placesText(finding);
  if (places) lines.push(`  - Seen ${finding.occurrences?.length} times: ${escapeMarkdown(places)}`);
  const clients = clientsText(finding);
  if (clients && finding.severity !== 'info') lines.push(`  - Clients affected: ${escapeMarkdown(clients)}`);
  lines.push(...codeFrameMarkdown(finding.location));
  return lines;
}

/**
 * A rule id, linked to its docs when there is a page to link to (a catalog rule and a homepage);
 * otherwise plain, and the rules table and the finding carry its title, fix and clients.
 */
function ruleLink(ruleId: string, options: MarkdownOptions): string {
  const href = ruleDocsHref(ruleId, options.docsBaseUrl);
  return href ? `[${codeSpan(ruleId)}](${href})` : codeSpan(ruleId);
}

/**
 * Backslash-escapes every character that could start Markdown or HTML syntax inline (CommonMark
 * allows a backslash before any ASCII punctuation; `(`, `)` and `!` need none once `[` is escaped),
 * folds line breaks, which would end a table row or list item, and replaces control characters. What
 * GFM would turn into a link by itself (a bare `https://…`, `www.…` or e-mail address: a server's
 * "sign in again at https://…") goes in a code span, where no renderer makes a link.
 */
export function escapeMarkdown(text: string): string {
  let out = '';
  let from = 0;
  for (const match of text.matchAll(AUTOLINKED)) {
    // Trailing punctuation ends the sentence, not the address (GFM leaves it out of a link too).
    const address = match[0].replace(/[.,:;!?'")\]]+$/, '');
    if (address === '') continue;
    out += escapeInline(text.slice(from, match.index)) + codeSpan(address);
    from = match.index + address.length;
  }
  return out + escapeInline(text.slice(from));
}

/** What GFM's autolink extension links without any markup: URLs, `www.` names, e-mail addresses. */
const AUTOLINKED = /\b(?:(?:https?|ftp):\/\/|www\.)[^\s<]*|[\w.+-]+@[\w-]+(?:\.[\w-]+)+/gi;

function escapeInline(text: string): string {
  // terminalSafe shows a carriage return as `\x0d`, so only newlines are left to fold.
  return toXmlChars(terminalSafe(text))
    .replace(/\n/g, ' ')
    .replace(/[\\`*_[\]<>|~&#]/g, '\\$&');
}

/**
 * A code span that holds any text: the fence is one backtick longer than the longest run inside
 * (CommonMark §6.1). Inside a table cell a `|` still needs `tableCell`, because GFM splits cells
 * before it parses code spans.
 */
export function codeSpan(text: string): string {
  const flat = toXmlChars(terminalSafe(text.replace(/\r\n?|\n/g, ' ')));
  const fence = '`'.repeat(longestRun(flat, '`') + 1);
  // A padding space on each side is stripped by the parser; it keeps a backtick at either edge off
  // the fence and keeps spaces at both edges (which would otherwise lose one each).
  const edgeSpaces = flat.startsWith(' ') && flat.endsWith(' ');
  const pad = flat.startsWith('`') || flat.endsWith('`') || edgeSpaces ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/** GFM reads `\|` as a literal pipe in a cell, even inside a code span. */
function tableCell(markdown: string): string {
  return markdown.replace(/\|/g, '\\|');
}

function codeBlock(text: string, language: string): string[] {
  const fence = '`'.repeat(Math.max(3, longestRun(text, '`') + 1));
  return [`${fence}${language}`, text, fence];
}
