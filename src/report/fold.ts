/**
 * Folding: the same defect seen in several places is one finding. An audit meets a server's defect in
 * every version it speaks and every call that returns the same shape; a report that repeats it for
 * each says less, not more. Findings fold when rule, severity, pointer (with array indexes as `*`) and
 * message are the same, the message compared with its own protocol version blanked out (messages
 * often name it). The folded finding keeps the first one's fields and lists every place in
 * `occurrences`, so nothing is lost: the JSON report has every location, reporters show them folded.
 */

import type { Finding, Occurrence } from '../core/finding.js';

/** A pointer with its array indexes wildcarded: the same defect in sibling items (content/1, content/2). */
export function pointerPattern(pointer: string): string {
  return pointer.replace(/\/\d+(?=\/|$)/g, '/*');
}

function foldKey(finding: Finding): string {
  const version = finding.location?.protocolVersion;
  const message = version ? finding.message.split(version).join('\u0000v') : finding.message;
  // The clients a finding breaks are part of what it says: a result judged by a tools/list that came
  // after the call breaks fewer clients than the same defect after a listing (check/session.ts).
  const affected = (finding as Finding & { data?: { affected?: unknown } }).data?.affected;
  return [
    finding.rule,
    finding.severity,
    pointerPattern(finding.pointer),
    message,
    typeof affected === 'string' ? `=${affected}` : '',
  ].join('\u0000');
}

/** Findings folded by defect, in first-seen order; a finding seen once is returned as it was. */
export function foldFindings(findings: readonly Finding[]): Finding[] {
  const groups = new Map<string, Finding[]>();
  for (const finding of findings) {
    // Already folded findings unfold first, so folding twice changes nothing.
    for (const one of unfold(finding)) {
      const key = foldKey(one);
      const group = groups.get(key);
      if (group) group.push(one);
      else groups.set(key, [one]);
    }
  }
  return [...groups.values()].map((group) => {
    const [first, ...rest] = group as [Finding, ...Finding[]];
    if (rest.length === 0) return first;
    const occurrences: Occurrence[] = group.map((f) => ({
      pointer: f.pointer,
      ...(f.location ? { location: f.location } : {}),
      ...(f.message !== first.message ? { message: f.message } : {}),
    }));
    return { ...first, occurrences };
  });
}

/** Every place of a finding as a finding of its own (one, when it was not folded). */
export function unfold(finding: Finding): Finding[] {
  if (!finding.occurrences || finding.occurrences.length === 0) return [finding];
  const { occurrences, ...one } = finding;
  return occurrences.map((o) => {
    const { location: _location, ...rest } = one;
    return {
      ...rest,
      pointer: o.pointer,
      ...(o.location ? { location: o.location } : {}),
      ...(o.message !== undefined ? { message: o.message } : {}),
    };
  });
}

/**
 * The places of a folded finding as a line of text, `2024-11-05 get#1 /result/content/0`, at most
 * `max` of them and `+N more`; undefined for a finding seen once.
 */
export function placesText(finding: Finding, max = 10): string | undefined {
  if (!finding.occurrences || finding.occurrences.length < 2) return undefined;
  const shown = finding.occurrences
    .slice(0, max)
    .map((o) =>
      [
        o.location?.protocolVersion,
        o.location?.tool && !o.location.call ? `tool ${o.location.tool}` : undefined,
        o.location?.call,
        o.pointer || undefined,
      ]
        .filter(Boolean)
        .join(' '),
    );
  const more = finding.occurrences.length - shown.length;
  return `${shown.join('; ')}${more > 0 ? `; +${more} more` : ''}`;
}
