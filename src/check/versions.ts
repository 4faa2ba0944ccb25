/**
 * The version matrix of a check: the verdict of the same input under every protocol version, and the
 * one line that says where it changes (`valid for 2024-11-05 … 2025-11-25; fails 2026-07-28: …`).
 * A document that passes the assumed version may still fail clients that negotiate another one; this
 * is how the report says so without the user having to ask. Pure data; reporters render it.
 */

import type { Finding, Severity } from '../core/finding.js';
import { type FailOn, fails } from '../policy/severity.js';
import { PROTOCOL_VERSIONS, type ProtocolVersion } from '../spec/versions.js';

export interface VersionVerdict {
  readonly protocolVersion: ProtocolVersion;
  /**
   * `fail` when a finding under this version fails the run (the exit code's rule: --fail-on, error by
   * default), after the configuration's rule settings and the baseline.
   */
  readonly verdict: 'pass' | 'fail';
  /** How many of the findings fail the run. */
  readonly failing: number;
  readonly errors: number;
  readonly warnings: number;
  readonly infos: number;
  /** The distinct messages of the findings that fail it, at most MAX_REASONS of them. */
  readonly reasons: readonly string[];
}

export interface VersionMatrix {
  /** Whether the user asked for every version (`--protocol all`) rather than one. */
  readonly all: boolean;
  readonly versions: readonly VersionVerdict[];
}

const MAX_REASONS = 3;

export function versionVerdict(
  protocolVersion: ProtocolVersion,
  findings: readonly Finding[],
  failOn: FailOn = 'error',
): VersionVerdict {
  const tally = new VerdictTally(protocolVersion, failOn);
  for (const finding of findings) tally.add(finding);
  return tally.verdict();
}

/** A version's verdict made as its findings come, one at a time, without holding them. */
export class VerdictTally {
  private readonly counts = { error: 0, warning: 0, info: 0 };
  private failing = 0;
  /** The first MAX_REASONS distinct messages of findings that fail the run, with their lines. */
  private readonly reasons: { readonly message: string; readonly line: number }[] = [];
  /** Whether a finding of each severity fails the run. */
  private readonly failsRun: Readonly<Record<Severity, boolean>>;

  constructor(
    private readonly protocolVersion: ProtocolVersion,
    failOn: FailOn = 'error',
  ) {
    this.failsRun = {
      error: fails(['error'], failOn),
      warning: fails(['warning'], failOn),
      info: fails(['info'], failOn),
    };
  }

  readonly add = (finding: Finding): void => {
    this.counts[finding.severity]++;
    if (!this.failsRun[finding.severity]) return;
    this.failing++;
    if (this.reasons.length < MAX_REASONS && !this.reasons.some((r) => r.message === finding.message))
      this.reasons.push({ message: finding.message, line: finding.location?.line ?? 0 });
  };

  /**
   * The verdict; with `earlier`, on its findings and these together, each of its findings coming before
   * these at the same line (both tallies in line order, as a session's findings are).
   */
  verdict(earlier?: VerdictTally): VersionVerdict {
    const counts = (severity: Severity) => this.counts[severity] + (earlier?.counts[severity] ?? 0);
    const failing = this.failing + (earlier?.failing ?? 0);
    // The first MAX_REASONS distinct messages of the two in order lie among the first MAX_REASONS
    // distinct ones of each: a later one of either comes after that many distinct ones of its own.
    const ordered = earlier ? [...earlier.reasons, ...this.reasons] : this.reasons;
    const byLine = earlier ? [...ordered].sort((a, b) => a.line - b.line) : ordered;
    return {
      protocolVersion: this.protocolVersion,
      verdict: failing > 0 ? 'fail' : 'pass',
      failing,
      errors: counts('error'),
      warnings: counts('warning'),
      infos: counts('info'),
      reasons: [...new Set(byLine.map((r) => r.message))].slice(0, MAX_REASONS),
    };
  }
}

/**
 * `valid for 2024-11-05 … 2025-11-25; fails 2026-07-28: the result has no resultType; …`, or undefined
 * when every version gives the same verdict. Failing versions that fail for the same first reason are
 * named together; `(+N more)` counts the other findings of that version that fail the run.
 */
export function versionVerdictLine(matrix: readonly VersionVerdict[]): string | undefined {
  const passing = matrix.filter((v) => v.verdict === 'pass');
  if (passing.length === 0 || passing.length === matrix.length) return undefined;
  const groups = new Map<string, ProtocolVersion[]>();
  for (const row of matrix) {
    if (row.verdict === 'pass') continue;
    const reason = `${row.reasons[0] ?? 'error findings'}${row.failing > 1 ? ` (+${row.failing - 1} more)` : ''}`;
    groups.set(reason, [...(groups.get(reason) ?? []), row.protocolVersion]);
  }
  const fails = [...groups].map(([reason, versions]) => `fails ${versionList(versions)}: ${reason}`);
  return [`valid for ${versionList(passing.map((v) => v.protocolVersion))}`, ...fails].join('; ');
}

/** Versions in release order, runs of three or more consecutive ones written `first … last`. */
export function versionList(versions: readonly ProtocolVersion[]): string {
  const indexes = [...new Set(versions.map((v) => PROTOCOL_VERSIONS.indexOf(v)))].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < indexes.length; ) {
    let j = i;
    while (j + 1 < indexes.length && indexes[j + 1] === (indexes[j] as number) + 1) j++;
    const run = indexes.slice(i, j + 1).map((k) => PROTOCOL_VERSIONS[k] as ProtocolVersion);
    parts.push(run.length >= 3 ? `${run[0]} … ${run[run.length - 1]}` : run.join(', '));
    i = j + 1;
  }
  return parts.join(', ');
}
