/**
 * What changes between protocol versions: a finding that shows up in some audited versions but not
 * in others tells a server author which clients (older or newer) the defect reaches.
 */

import type { Finding, Severity } from '../core/finding.js';
import { pointerPattern } from '../report/fold.js';
import { PROTOCOL_VERSIONS } from '../spec/versions.js';

export { pointerPattern };

export interface VersionDifference {
  readonly rule: string;
  readonly severity: Severity;
  readonly tool?: string;
  /** Where, with array indexes as `*` (the same defect in sibling items is one difference). */
  readonly pointer: string;
  /** Audited versions with the finding, oldest first. */
  readonly presentIn: readonly string[];
  /** Audited versions (where the tool exists) without it. */
  readonly absentIn: readonly string[];
  /**
   * Which clients the defect reaches: `older` when every version with it predates every version
   * without it (the server gets an old version wrong, typically by sending something the version
   * lacks), `newer` the other way round (a newer version's stricter rules), `some` when they interleave.
   */
  readonly reaches: 'older' | 'newer' | 'some';
}

function rank(version: string): number {
  return PROTOCOL_VERSIONS.indexOf(version as never);
}

function reaches(presentIn: readonly string[], absentIn: readonly string[]): VersionDifference['reaches'] {
  const newestPresent = Math.max(...presentIn.map(rank));
  const oldestPresent = Math.min(...presentIn.map(rank));
  if (newestPresent < Math.min(...absentIn.map(rank))) return 'older';
  if (oldestPresent > Math.max(...absentIn.map(rank))) return 'newer';
  return 'some';
}

export interface AuditedVersion {
  readonly version: string;
  /** Tools listed in that version, so a tool that exists only in some versions is not a difference. */
  readonly tools: readonly string[];
}

function order(versions: Iterable<string>): string[] {
  return [...versions].sort((a, b) => rank(a) - rank(b));
}

export function compareVersions(
  findings: readonly Finding[],
  audited: readonly AuditedVersion[],
): VersionDifference[] {
  if (audited.length < 2) return [];
  const groups = new Map<string, { finding: Finding; versions: Set<string> }>();
  const auditedVersions = new Set(audited.map((a) => a.version));
  for (const finding of findings) {
    const version = finding.location?.protocolVersion;
    // Findings of versions that were refused or failed say so themselves; they are no difference.
    if (!version || !auditedVersions.has(version)) continue;
    const key = [finding.rule, finding.location?.tool ?? '', pointerPattern(finding.pointer)].join('\u0000');
    const group = groups.get(key) ?? { finding, versions: new Set<string>() };
    group.versions.add(version);
    groups.set(key, group);
  }
  const differences: VersionDifference[] = [];
  for (const { finding, versions } of groups.values()) {
    const tool = finding.location?.tool;
    const comparable = audited
      .filter((a) => tool === undefined || a.tools.includes(tool))
      .map((a) => a.version);
    const absentIn = comparable.filter((v) => !versions.has(v));
    if (absentIn.length === 0) continue;
    const presentIn = order(versions);
    differences.push({
      rule: finding.rule,
      severity: finding.severity,
      ...(tool ? { tool } : {}),
      pointer: pointerPattern(finding.pointer),
      presentIn,
      absentIn: order(absentIn),
      reaches: reaches(presentIn, absentIn),
    });
  }
  return differences.sort(
    (a, b) => a.rule.localeCompare(b.rule) || (a.tool ?? '').localeCompare(b.tool ?? ''),
  );
}
