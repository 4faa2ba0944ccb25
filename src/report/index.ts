/** Turns a Report into the requested output format. */

import type { Finding } from '../core/finding.js';
import { renderAuditText } from './audit-text.js';
import { renderHtml } from './html.js';
import { renderJson, renderJsonPieces } from './json.js';
import { renderJunit, renderJunitPieces } from './junit.js';
import type { FindingLimit } from './limit.js';
import { escapeMarkdown, renderMarkdown } from './markdown.js';
import { policyNotesMarkdown, policyNotesText } from './policy-notes.js';
import { renderSarif, renderSarifPieces } from './sarif.js';
import { renderVerdict, verdictOf } from './scan-verdict.js';
import { renderText } from './text.js';
import type { Report, ReportFormat } from './types.js';

export type { Report, ReportFormat } from './types.js';

export const REPORT_FORMATS: readonly ReportFormat[] = ['text', 'json', 'sarif', 'junit', 'markdown', 'html'];

type Renderer = (report: Report, options: RenderOptions) => string;

export interface RenderOptions {
  readonly color?: boolean;
  /**
   * Text, Markdown and HTML: how many findings to show (by default limit.ts's for each format); they
   * say what they left out. JSON, SARIF and JUnit carry every finding.
   */
  readonly limit?: FindingLimit;
  /**
   * URL of the rule docs directory reports link rule ids to; default: from the package's homepage.
   * Without one, reports carry each rule's title, fix and clients inline instead of a link.
   */
  readonly docsBaseUrl?: string;
  /** SARIF: repository root that artifact URIs are relative to (default: the git top level). */
  readonly root?: string;
  /** SARIF: directory relative finding paths are relative to (default: the process's). */
  readonly cwd?: string;
  /**
   * SARIF: findings a baseline hid, written as results with an external suppression; the other formats
   * only count them (summary.baseline).
   */
  readonly suppressed?: { readonly findings: readonly Finding[]; readonly baseline: string };
}

const RENDERERS: Record<ReportFormat, Renderer> = {
  text: (report, options) => {
    // Audit groups by version and tool; scan opens with its verdict; check uses the plain grouping.
    if (report.command === 'audit') return renderAuditText(report, options);
    const verdict = report.command === 'scan' ? verdictOf(report.details) : undefined;
    if (!verdict) return renderText(report, options);
    return `${renderVerdict(verdict)}\n${renderText(report, options)}`;
  },
  json: (report) => renderJson(report),
  junit: (report, options) => renderJunit(report, options),
  markdown: (report, options) => renderMarkdown(report, options),
  html: (report, options) => renderHtml(report, options),
  sarif: (report, options) => renderSarif(report, options),
};

/** What the baseline and --min-severity left out, after the text and Markdown reports. */
const NOTES: Partial<Record<ReportFormat, (report: Report) => string>> = {
  text: policyNotesText,
  markdown: (report) => policyNotesMarkdown(report, escapeMarkdown),
};

/** Every format has a renderer (RENDERERS is typed to hold one for each). */
export function supportedFormats(): ReportFormat[] {
  return [...REPORT_FORMATS];
}

export function renderReport(report: Report, format: ReportFormat, options: RenderOptions = {}): string {
  // A caller outside TypeScript may still pass any string.
  const renderer = RENDERERS[format] as Renderer | undefined;
  if (!renderer) throw new Error(`no renderer for format ${format}`);
  const notes = NOTES[format]?.(report) ?? '';
  return `${renderer(report, options)}${notes}`;
}

/**
 * What renderReport writes, in pieces that join to it. JSON, SARIF and JUnit carry every finding, and a
 * run of millions of findings writes more text than a string can hold (a RangeError in the one string);
 * these three come in pieces, the others (which show a limited number of findings) whole.
 */
export function renderReportPieces(
  report: Report,
  format: ReportFormat,
  options: RenderOptions = {},
): Iterable<string> {
  if (format === 'json') return renderJsonPieces(report);
  if (format === 'sarif') return renderSarifPieces(report, options);
  if (format === 'junit') return renderJunitPieces(report, options);
  return [renderReport(report, format, options)];
}
