/**
 * Sections of the HTML report beyond the findings: a per-rule summary for every command, and for an
 * audit the header facts (server, target, transport, date) and its versions, tools and version
 * comparison as tables. Every string is escaped with `esc`; server strings are also shown with
 * their control characters visible (`\x1b`), as in the terminal.
 */

import type { VersionDifference } from '../audit/compare.js';
import type { CallRecord, ToolDetail, VersionDetail } from '../audit/run.js';
import type { Finding, Severity } from '../core/finding.js';
import { isObject } from '../core/json.js';
import { getRule } from '../rules/catalog.js';
import { ruleDocsHref } from './outline.js';
import { jsonTerminalSafe, terminalSafe } from './terminal.js';
import { type Report, SEVERITY_ORDER } from './types.js';
import { escapeHtml } from './xml.js';

/** Escaped for HTML, with control characters shown as `\x1b` (the page is often read as text too). */
export const esc = (text: string) => escapeHtml(terminalSafe(text));

/**
 * Rule rationales and client details are catalog Markdown that uses only paragraphs and code spans,
 * so this small converter (escape first, then `code`) is enough; a Markdown library would be a
 * runtime dependency for it.
 */
export function rationaleHtml(markdown: string): string {
  return markdown
    .split(/\n\s*\n/)
    .map((paragraph) => `<p>${inlineMarkdown(paragraph.replace(/\s*\n\s*/g, ' '))}</p>`)
    .join('\n');
}

export function inlineMarkdown(markdown: string): string {
  return esc(markdown).replace(/`([^`]+)`/g, '<code>$1</code>');
}

function table(
  caption: string,
  className: string,
  head: readonly string[],
  rows: readonly string[][],
): string {
  const th = head.map((h) => `<th scope="col">${esc(h)}</th>`).join('');
  const body = rows.map((cells) => `<tr>${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('\n');
  return `<table class="${className}">\n<caption>${esc(caption)}</caption>\n<thead><tr>${th}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
}

/** A rule id, linked to its doc when there is a page to link to (rule-links.ts), else as code. */
function ruleLink(ruleId: string, docsBaseUrl: string | undefined): string {
  const href = ruleDocsHref(ruleId, docsBaseUrl);
  return href
    ? `<a href="${esc(href)}" rel="noopener noreferrer"><code>${esc(ruleId)}</code></a>`
    : `<code>${esc(ruleId)}</code>`;
}

/** One row per rule: its severity, how many findings, and its title, worst first (like the Markdown). */
export function rulesSummaryHtml(findings: readonly Finding[], docsBaseUrl?: string): string {
  if (findings.length === 0) return '';
  const byRule = new Map<string, { severity: Severity; count: number }>();
  for (const f of findings) {
    const entry = byRule.get(f.rule);
    if (entry) entry.count++;
    else byRule.set(f.rule, { severity: f.severity, count: 1 });
  }
  const rows = [...byRule]
    .sort(
      ([a, x], [b, y]) =>
        SEVERITY_ORDER[x.severity] - SEVERITY_ORDER[y.severity] || y.count - x.count || a.localeCompare(b),
    )
    .map(([id, { severity, count }]) => [
      ruleLink(id, docsBaseUrl),
      `<span class="sev ${severity}">${severity}</span>`,
      String(count),
      esc(getRule(id)?.title ?? ''),
    ]);
  return `<section class="rules" aria-label="Rules">\n${table('Rules', 'rules', ['Rule', 'Severity', 'Findings', 'Title'], rows)}\n</section>`;
}

interface AuditDetails {
  readonly target?: string;
  readonly transport?: string;
  readonly server?: { readonly name?: unknown; readonly version?: unknown };
  readonly startedAt?: string;
  readonly versions: readonly VersionDetail[];
  readonly tools: readonly ToolDetail[];
  readonly calls: readonly CallRecord[];
  readonly comparison: readonly VersionDifference[];
}

function auditDetails(report: Report): AuditDetails | undefined {
  if (report.command !== 'audit' || !report.details) return undefined;
  const d = report.details as Record<string, unknown>;
  const list = <T>(value: unknown) => (Array.isArray(value) ? (value as T[]) : []);
  return {
    ...(typeof d.target === 'string' ? { target: d.target } : {}),
    ...(typeof d.transport === 'string' ? { transport: d.transport } : {}),
    ...(isObject(d.server) ? { server: d.server as AuditDetails['server'] } : {}),
    ...(typeof d.startedAt === 'string' ? { startedAt: d.startedAt } : {}),
    versions: list<VersionDetail>(d.versions),
    tools: list<ToolDetail>(d.tools),
    calls: list<CallRecord>(d.calls),
    comparison: list<VersionDifference>(d.comparison),
  };
}

/** The audit's header: what server, where, over what, and when. */
export function auditHeaderHtml(report: Report): string {
  const details = auditDetails(report);
  if (!details) return '';
  const facts: [string, string][] = [];
  if (details.server)
    facts.push([
      'Server',
      `${String(details.server.name ?? '?')} ${String(details.server.version ?? '')}`.trim(),
    ]);
  if (details.target) facts.push(['Target', details.target]);
  if (details.transport) facts.push(['Transport', details.transport]);
  if (details.startedAt) facts.push(['Date', details.startedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')]);
  const items = facts.map(
    ([k, v]) => `<div><dt>${esc(k)}</dt><dd data-fact="${esc(k.toLowerCase())}">${esc(v)}</dd></div>`,
  );
  return `<dl class="facts">${items.join('')}</dl>`;
}

function statusText(v: VersionDetail): string {
  switch (v.status) {
    case 'audited':
      return 'audited';
    case 'same-as':
      return `same as ${v.sameAs ?? '?'}`;
    case 'refused':
      return 'not supported';
    case 'failed':
      return 'failed';
  }
}

const REACHES: Record<VersionDifference['reaches'], string> = {
  older: 'older clients only',
  newer: 'newer clients only',
  some: 'some clients',
};

/** The audit's versions, tools and version comparison, as tables. */
export function auditSectionsHtml(report: Report, docsBaseUrl?: string): string {
  const details = auditDetails(report);
  if (!details) return '';
  const out: string[] = [];
  const count = (n: number | undefined) => (n === undefined ? '' : String(n));
  out.push(
    table(
      'Protocol versions',
      'audit-versions',
      ['Requested', 'Status', 'Answered', 'Tools', 'Calls', 'Detail'],
      details.versions.map((v) => [
        `<code>${esc(v.requested)}</code>`,
        `<span class="status ${esc(v.status)}">${esc(statusText(v))}</span>`,
        v.answered ? `<code>${esc(v.answered)}</code>` : '',
        count(v.tools),
        count(v.calls),
        esc(v.detail ?? ''),
      ]),
    ),
  );
  const called = details.tools.filter((t) => t.called);
  const notCalled = details.tools.filter((t) => !t.called);
  if (called.length > 0) {
    out.push(
      table(
        'Tools called',
        'tools-called',
        ['Tool', 'Calls', 'Why', 'Skipped'],
        called.map((t) => [
          `<code>${esc(t.name)}</code>`,
          String(t.calls),
          esc(t.because ?? ''),
          esc((t.skipped ?? []).join('; ')),
        ]),
      ),
    );
  }
  if (notCalled.length > 0) {
    out.push(
      table(
        'Tools not called',
        'tools-not-called',
        ['Tool', 'Why not'],
        notCalled.map((t) => [`<code>${esc(t.name)}</code>`, esc(t.reason ?? (t.skipped ?? []).join('; '))]),
      ),
    );
  }
  if (details.comparison.length > 0) {
    out.push(
      table(
        'Version comparison: findings some versions have and others do not',
        'comparison',
        ['Rule', 'Tool', 'Where', 'Present in', 'Absent in', 'Reaches'],
        details.comparison.map((d) => [
          ruleLink(d.rule, docsBaseUrl),
          d.tool ? `<code>${esc(d.tool)}</code>` : '',
          d.pointer ? `<code>${esc(d.pointer)}</code>` : '',
          esc(d.presentIn.join(', ')),
          esc(d.absentIn.join(', ')),
          esc(REACHES[d.reaches]),
        ]),
      ),
    );
  }
  return `<section class="audit" aria-label="Audit">\n${out.join('\n')}\n</section>`;
}

/** For an audit finding in a call: the call and the arguments it sent, so it can be reproduced. */
export function callFactHtml(finding: Finding, report: Report): string {
  const location = finding.location;
  if (!location?.call) return '';
  const call = auditDetails(report)?.calls.find(
    (c) => c.call === location.call && c.protocolVersion === location.protocolVersion,
  );
  if (!call) return '';
  const args = jsonTerminalSafe(JSON.stringify(call.arguments));
  return `<dt>Call</dt><dd><code>${esc(call.call)}</code> in ${esc(call.protocolVersion)}, arguments <code>${esc(args)}</code> (${esc(call.argumentsFrom)})</dd>`;
}
