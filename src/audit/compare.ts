/**
 * What changes between protocol versions: a finding that shows up in some audited versions but not
 * in others tells a server author which clients (older or newer) the defect reaches.
 */

import type { Finding, Severity } from '../core/finding.js';
import { PROTOCOL_VERSIONS } from '../spec/versions.js';

export interface VersionDifference {
  readonly rule: string;
  readonly severity: Severity;
  readonly tool?: string;
  readonly pointer: string;
  /** Audited versions with the finding, oldest first. */
  readonly presentIn: readonly string[];
  /** Audited versions (where the tool exists) without it. */
  readonly absentIn: readonly string[];
}

export interface AuditedVersion {
  readonly version: string;
  /** Tools listed in that version, so a tool that exists only in some versions is not a difference. */
  readonly tools: readonly string[];
}

function order(versions: Iterable<string>): string[] {
  return [...versions].sort(
    (a, b) => PROTOCOL_VERSIONS.indexOf(a as never) - PROTOCOL_VERSIONS.indexOf(b as never),
  );
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
    const key = [finding.rule, finding.location?.tool ?? '', finding.pointer].join('\u0000');
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
    differences.push({
      rule: finding.rule,
      severity: finding.severity,
      ...(tool ? { tool } : {}),
      pointer: finding.pointer,
      presentIn: order(versions),
      absentIn: order(absentIn),
    });
  }
  return differences.sort(
    (a, b) => a.rule.localeCompare(b.rule) || (a.tool ?? '').localeCompare(b.tool ?? ''),
  );
}
