/**
 * What the policy (src/policy/apply.ts) left out of a report, said where people read it: the count
 * of findings a baseline hid, the baseline entries that no longer occur (stale: fixed, or changed
 * beyond recognition, and worth removing with --write-baseline), and findings below --min-severity
 * that still count for --fail-on. JSON carries the same in `summary` and `details.baseline`; HTML
 * shows `details`.
 */

import type { BaselineDetails } from '../policy/apply.js';
import type { BaselineEntry } from '../policy/baseline.js';
import { oneLine } from './terminal.js';
import type { Report } from './types.js';

interface Notes {
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
  const notes: Notes = {
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
  return notes.baseline || notes.belowMinSeverity ? notes : undefined;
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

function belowLine(below: NonNullable<Notes['belowMinSeverity']>): string {
  return `${plural(below.count, 'finding')} below --min-severity ${below.minSeverity} not shown (--fail-on ${below.failOn} still counts them)`;
}

export function policyNotesText(report: Report): string {
  const notes = notesOf(report);
  if (!notes) return '';
  const lines: string[] = [];
  if (notes.baseline) {
    lines.push(oneLine(baselineHeadline(notes.baseline), { width: 400 }));
    for (const entry of notes.baseline.stale) {
      lines.push(`  stale: ${oneLine(entry.rule)}  ${oneLine(entryWhere(entry))}: ${oneLine(entry.message)}`);
    }
  }
  if (notes.belowMinSeverity) lines.push(belowLine(notes.belowMinSeverity));
  return `${lines.join('\n')}\n`;
}

export function policyNotesMarkdown(report: Report, escapeText: (text: string) => string): string {
  const notes = notesOf(report);
  if (!notes) return '';
  const lines: string[] = ['', '### Baseline and filters', ''];
  if (notes.baseline) {
    lines.push(`- ${escapeText(baselineHeadline(notes.baseline))}`);
    for (const entry of notes.baseline.stale) {
      lines.push(`  - stale: ${escapeText(`${entry.rule} ${entryWhere(entry)}: ${entry.message}`)}`);
    }
  }
  if (notes.belowMinSeverity) lines.push(`- ${escapeText(belowLine(notes.belowMinSeverity))}`);
  return `${lines.join('\n')}\n`;
}
