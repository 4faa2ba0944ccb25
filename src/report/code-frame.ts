/**
 * Code frames for scan findings, as ESLint's and TypeScript's reporters show them: the offending
 * line with two lines of context, a caret under the expression, the branch conditions under which
 * the value arises, and the tool returns the defect reaches (with the return's own line when it is
 * elsewhere, in a helper's caller). The lines come from `location.snippet`; they are the scanned
 * file's text, so every line goes through `terminalSafe` (text) or is escaped (HTML) here.
 */

import type { Location, SourceSnippet } from '../core/finding.js';
import { inlineSafe, longestRun, terminalSafe } from './terminal.js';
import { escapeHtml } from './xml.js';

export interface FrameLine {
  /** The line number, or undefined for the caret line. */
  readonly number: number | undefined;
  readonly text: string;
  /** A line of the offending expression (or the return it reaches); never the caret line. */
  readonly marked: boolean;
}

export interface Frame {
  readonly lines: readonly FrameLine[];
  /** `\`isinstance(result, str)\` is false`: when the offending value is produced. */
  readonly when: readonly string[];
  /** `tool "stock" at server.ts:31`, and the return's line when it is not in the frame. */
  readonly reaches: readonly { readonly label: string; readonly line?: FrameLine }[];
}

/** Tabs as spaces, so the caret lines up whatever the terminal's tab width. */
const TAB = '  ';

function shown(text: string): string {
  return terminalSafe(text.replace(/\t/g, TAB));
}

/**
 * The lines of a snippet, those from the location's line to its end line marked, with a caret line
 * under the expression after its first line.
 */
function snippetLines(snippet: SourceSnippet, location: Location): FrameLine[] {
  const first = snippet.firstColumn ?? 1;
  const line = location.line ?? snippet.startLine;
  const column = location.column ?? 1;
  const endLine = location.endLine ?? line;
  const endColumn = location.endColumn;
  const out: FrameLine[] = [];
  snippet.lines.forEach((text, i) => {
    const number = snippet.startLine + i;
    const marked = number >= line && number <= endLine;
    const prefix = first > 1 ? '…' : '';
    out.push({ number, text: prefix + shown(text), marked });
    if (number !== line) return;
    // The caret spans the expression on its first line (to the end of the line if it goes on), and
    // at least the character at the column.
    const start = Math.max(0, column - first);
    const stop = endLine === line && endColumn !== undefined ? endColumn - first : text.length;
    const pad = prefix + shown(text.slice(0, start)).replace(/[^ ]/g, ' ');
    const width = Math.max(1, shown(text.slice(start, Math.max(start + 1, stop))).length);
    out.push({ number: undefined, text: `${pad}${'^'.repeat(width)}`, marked: false });
  });
  return out;
}

/** The frame of a scan finding, or undefined when the finding carries no source lines. */
export function codeFrame(location: Location | undefined): Frame | undefined {
  if (!location?.snippet) return undefined;
  const lines = snippetLines(location.snippet, location);
  const reaches = (location.reaches ?? []).map((r) => {
    const label = `tool "${inlineSafe(r.tool)}" at ${inlineSafe(r.file)}:${r.line}`;
    const returnLine = r.snippet?.lines[0];
    return returnLine === undefined
      ? { label }
      : { label, line: { number: r.line, text: shown(returnLine).trimStart(), marked: true } };
  });
  return { lines, when: (location.when ?? []).map(inlineSafe), reaches };
}

function gutterWidth(frame: Frame): number {
  const numbers = [
    ...frame.lines.map((l) => l.number ?? 0),
    ...frame.reaches.map((r) => r.line?.number ?? 0),
  ];
  let widest = 0;
  for (const number of numbers) if (number > widest) widest = number;
  return String(widest).length;
}

export interface FrameColors {
  readonly dim: (s: string) => string;
  readonly mark: (s: string) => string;
}

const PLAIN: FrameColors = { dim: (s) => s, mark: (s) => s };

/** The frame as text lines, indented by `indent`. */
export function codeFrameText(location: Location | undefined, indent: string, colors = PLAIN): string[] {
  const frame = codeFrame(location);
  if (!frame) return [];
  const width = gutterWidth(frame);
  const row = (l: FrameLine) => {
    const gutter = `${l.marked ? '>' : ' '} ${l.number === undefined ? ' '.repeat(width) : String(l.number).padStart(width)} |`;
    const body = l.number === undefined ? colors.mark(l.text) : l.text;
    return `${indent}${colors.dim(gutter)}${body ? ` ${body}` : ''}`;
  };
  const out = frame.lines.map(row);
  if (frame.when.length > 0) out.push(`${indent}${colors.dim('when:')} ${frame.when.join(' and ')}`);
  for (const reach of frame.reaches) {
    out.push(`${indent}${colors.dim('reaches:')} the return of ${reach.label}`);
    if (reach.line) out.push(row(reach.line));
  }
  return out;
}

/** The frame as HTML (every line escaped), for the HTML report. */
export function codeFrameHtml(location: Location | undefined): string {
  const frame = codeFrame(location);
  if (!frame) return '';
  const width = gutterWidth(frame);
  const row = (l: FrameLine) => {
    const number = l.number === undefined ? ' '.repeat(width) : String(l.number).padStart(width);
    const cls = l.number === undefined ? 'caret' : l.marked ? 'mark' : 'ctx';
    return `<span class="${cls}">${escapeHtml(`${number} | ${l.text}`)}</span>`;
  };
  const parts = [`<pre class="frame">${frame.lines.map(row).join('\n')}</pre>`];
  if (frame.when.length > 0) parts.push(`<p class="when">When ${escapeHtml(frame.when.join(' and '))}</p>`);
  if (frame.reaches.length > 0) {
    const items = frame.reaches.map(
      (r) =>
        `<li>the return of ${escapeHtml(r.label)}${r.line ? `<pre class="frame">${row(r.line)}</pre>` : ''}</li>`,
    );
    parts.push(`<p class="reaches">Reaches</p><ul class="reaches">${items.join('')}</ul>`);
  }
  return parts.join('\n');
}

/** The frame as a Markdown code block (a fence longer than any backtick run inside). */
export function codeFrameMarkdown(location: Location | undefined): string[] {
  const lines = codeFrameText(location, '');
  if (lines.length === 0) return [];
  let longest = 0;
  for (const line of lines) longest = Math.max(longest, longestRun(line, '`'));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [`  ${fence}`, ...lines.map((l) => `  ${l}`), `  ${fence}`];
}
