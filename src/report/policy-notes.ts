/**
 * What the policy (src/policy/apply.ts) left out of a report, said where people read it: the count
 * of findings a baseline hid, the baseline entries that no longer occur (stale: fixed, or changed
 * beyond recognition, and worth removing with --write-baseline), and findings below --min-severity
 * that still count for --fail-on, and the configuration's rule settings that dropped or changed
 * findings (`details.rules`). JSON carries the same in `summary`, `details.rules` and `details.baseline`.
 */

import type { BaselineDetails, RuleSettingDetails } from '../policy/apply.js';
import type { BaselineEntry } from '../policy/baseline.js';
import { oneLine } from './terminal.js';
import type { Report } from './types.js';

interface Notes {
  readonly rules?: readonly RuleSettingDetails[];
  readonly baseline?: BaselineDetails;
  readonly belowMinSeverity?: {
    readonly count: number;
    readonly minSeverity: string;
    readonly failOn: string;
  };
}

function notesOf(report: Report): Notes | undefined {
  const baseline = report.details?.baseline as BaselineDetails | undefined;
  const below = report.summary.belowMinSeverity;
  const rules = report.details?.rules;
  const notes: Notes = {
    ...(Array.isArray(rules) && rules.length > 0 ? { rules: rules as RuleSettingDetails[] } : {}),
    ...(baseline && typeof baseline.hidden === 'number' && Array.isArray(baseline.stale) ? { baseline } : {}),
    ...(typeof below === 'number' && below > 0
      ? {
          belowMinSeverity: {
            count: below,
            minSeverity: String(report.summary.minSeverity),
            failOn: String(report.summary.failOn),
          },
        }
      : {}),
  };
  return notes.rules || notes.baseline || notes.belowMinSeverity ? notes : undefined;
}

function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

function entryWhere(entry: BaselineEntry): string {
  return (
    [entry.file, entry.tool ? `tool ${entry.tool}` : undefined].filter(Boolean).join(' · ') || '(document)'
  );
}

function baselineHeadline(baseline: BaselineDetails): string {
  const stale = baseline.stale.length;
  const staleNote =
    stale > 0
      ? `; ${plural(stale, 'entry no longer occurs', 'entries no longer occur')} (update it with --write-baseline)`
      : '';
  return `baseline ${baseline.file}: ${plural(baseline.hidden, 'known finding')} hidden${staleNote}`;
}

/** The configuration's rule settings that dropped or changed findings of this run. */
function rulesLine(rules: readonly RuleSettingDetails[]): string {
  const each = rules.map((r) =>
    r.setting === 'off'
      ? `${r.rule} off (${plural(r.findings, 'finding')} not shown or counted)`
      : `${r.rule} set to ${r.setting} (${plural(r.findings, 'finding')})`,
  );
  return `rules set in the configuration: ${each.join(', ')}`;
}

/**
 * Stale baseline entries listed under the baseline's line: a baseline of 20,000 fixed findings made a
 * 3 MB Markdown summary (GitHub takes 1 MiB) and a 10 MB HTML page. The rest are counted.
 */
export const MAX_STALE_SHOWN = 20;

/**
 * Every note, one line each: what to say, and stale baseline entries under the baseline's line (at
 * most MAX_STALE_SHOWN, then a line saying how many more the JSON report lists).
 */
function noteLines(notes: Notes): { line: string; stale?: readonly BaselineEntry[]; more?: string }[] {
  const stale = notes.baseline?.stale ?? [];
  const more =
    stale.length > MAX_STALE_SHOWN
      ? `and ${stale.length - MAX_STALE_SHOWN} more stale entries; the JSON report lists every one (details.baseline.stale)`
      : undefined;
  const baseline = notes.baseline
    ? [
        {
          line: baselineHeadline(notes.baseline),
          stale: stale.slice(0, MAX_STALE_SHOWN),
          ...(more ? { more } : {}),
        },
      ]
    : [];
  return [
    ...(notes.rules ? [{ line: rulesLine(notes.rules) }] : []),
    ...baseline,
    ...(notes.belowMinSeverity ? [{ line: belowLine(notes.belowMinSeverity) }] : []),
  ];
}

function belowLine(below: NonNullable<Notes['belowMinSeverity']>): string {
  return `${plural(below.count, 'finding')} below --min-severity ${below.minSeverity} not shown (--fail-on ${below.failOn} still counts them)`;
}

export function policyNotesText(report: Report): string {
  const notes = notesOf(report);
  if (!notes) return '';
  const lines: string[] = [];
  for (const note of noteLines(notes)) {
    lines.push(oneLine(note.line, { width: 400 }));
    for (const entry of note.stale ?? []) {
      lines.push(`  stale: ${oneLine(entry.rule)}  ${oneLine(entryWhere(entry))}: ${oneLine(entry.message)}`);
    }
    if (note.more) lines.push(`  ${note.more}`);
  }
  return `${lines.join('\n')}\n`;
}

export function policyNotesMarkdown(report: Report, escapeText: (text: string) => string): string {
  const notes = notesOf(report);
  if (!notes) return '';
  const lines: string[] = ['', '### Baseline and filters', ''];
  for (const note of noteLines(notes)) {
    lines.push(`- ${escapeText(note.line)}`);
    for (const entry of note.stale ?? []) {
      lines.push(`  - stale: ${escapeText(`${entry.rule} ${entryWhere(entry)}: ${entry.message}`)}`);
    }
    if (note.more) lines.push(`  - ${escapeText(note.more)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The same notes as an HTML section; `escapeHtml` makes text safe for HTML. */
export function policyNotesHtml(report: Report, escapeHtml: (text: string) => string): string {
  const notes = notesOf(report);
  if (!notes) return '';
  const items = noteLines(notes).map((note) => {
    const stale = (note.stale ?? []).map(
      (entry) => `<li>stale: ${escapeHtml(`${entry.rule} ${entryWhere(entry)}: ${entry.message}`)}</li>`,
    );
    if (note.more) stale.push(`<li>${escapeHtml(note.more)}</li>`);
    return `<li>${escapeHtml(note.line)}${stale.length > 0 ? `<ul>${stale.join('')}</ul>` : ''}</li>`;
  });
  return `<section class="policy-notes" aria-label="Baseline and filters">\n<h2>Baseline and filters</h2>\n<ul>\n${items.join('\n')}\n</ul>\n</section>`;
}
