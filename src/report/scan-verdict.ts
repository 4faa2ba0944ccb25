/**
 * The scan verdict (the return-content-types check) as the text and HTML reports open with it:
 * the status with the counts, then what is wrong and what is not proven, one item a line, then the
 * tally per tool. Tool names, reasons and source excerpts come from the scanned files, so they are
 * escaped for the terminal (text) or for HTML.
 */

import { VERDICT_CHECK, type Verdict } from '../scan/verdict.js';
import { inlineSafe } from './terminal.js';
import type { Report } from './types.js';
import { escapeHtml } from './xml.js';

/** `4 of 5 return statements in 3 tool handlers …` without the leading `fail: `. */
function tally(verdict: Verdict): string {
  return verdict.detail.replace(/^\w+: /, '').split('; ')[0] ?? '';
}

function toolLine(tool: Verdict['tools'][number]): string {
  const parts = [`${tool.typed}/${tool.returns} typed`];
  if (tool.typedByDeclaration) parts.push(`${tool.typedByDeclaration} by declaration`);
  if (tool.invalid) parts.push(`${tool.invalid} wrong`);
  if (tool.unresolved) parts.push(`${tool.unresolved} unresolved`);
  return `${tool.tool} (${tool.file}:${tool.line}): ${parts.join(', ')}`;
}

/** The verdict as text lines, for the top of the text report. */
export function renderVerdict(verdict: Verdict): string {
  const lines = [`${VERDICT_CHECK}: ${verdict.status.toUpperCase()}`, `  ${inlineSafe(tally(verdict))}`];
  if (verdict.problems.length > 0) {
    lines.push(`  wrong (${verdict.invalid}):`);
    for (const p of verdict.problems) lines.push(`    ${inlineSafe(p)}`);
  }
  if (verdict.unproven.length > 0) {
    lines.push(`  not proven (${verdict.unresolved}; check these at run time with \`mcp-shape audit\`):`);
    for (const u of verdict.unproven) lines.push(`    ${inlineSafe(u)}`);
  }
  if (verdict.unscanned?.length) {
    lines.push(`  not scanned (${verdict.unscanned.length}; their tool handlers are not proven):`);
    for (const u of verdict.unscanned) lines.push(`    ${inlineSafe(u)}`);
  }
  for (const tool of verdict.tools) lines.push(`  ${inlineSafe(toolLine(tool))}`);
  return `${lines.join('\n')}\n`;
}

/** The verdict as an HTML section, for the top of the HTML report. */
export function scanVerdictHtml(report: Report): string {
  const verdict = report.command === 'scan' ? verdictOf(report.details) : undefined;
  if (!verdict) return '';
  const list = (items: readonly string[]) =>
    `<ul>${items.map((i) => `<li>${escapeHtml(i)}</li>`).join('')}</ul>`;
  const parts = [
    `<section class="scan-verdict ${verdict.status}" aria-label="Verdict">`,
    `<h2>${escapeHtml(VERDICT_CHECK)}: <span class="status">${verdict.status.toUpperCase()}</span></h2>`,
    `<p>${escapeHtml(tally(verdict))}</p>`,
  ];
  if (verdict.problems.length > 0) parts.push(`<h3>Wrong (${verdict.invalid})</h3>`, list(verdict.problems));
  if (verdict.unproven.length > 0) {
    parts.push(
      `<h3>Not proven (${verdict.unresolved})</h3>`,
      '<p>The value is not known statically; check these at run time with <code>mcp-shape audit</code>.</p>',
      list(verdict.unproven),
    );
  }
  if (verdict.unscanned?.length) {
    parts.push(
      `<h3>Not scanned (${verdict.unscanned.length})</h3>`,
      '<p>Their tool handlers are not proven.</p>',
      list(verdict.unscanned),
    );
  }
  if (verdict.tools.length > 0) parts.push('<h3>Tools</h3>', list(verdict.tools.map(toolLine)));
  parts.push('</section>');
  return parts.join('\n');
}

/** Reports carry their details as plain JSON; this recognises a scan verdict among them. */
export function verdictOf(details: Readonly<Record<string, unknown>> | undefined): Verdict | undefined {
  const verdict = details?.verdict as Partial<Verdict> | undefined;
  return verdict && typeof verdict.status === 'string' && Array.isArray(verdict.tools)
    ? (verdict as Verdict)
    : undefined;
}
