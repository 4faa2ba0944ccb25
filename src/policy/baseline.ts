/**
 * Baselines: the findings a team has accepted, so CI fails only on new ones. The file is meant to be
 * committed, so it is stable: sorted entries, fixed key order, no line numbers, dates or counts that
 * change when nothing new was found. Pure: reading and writing the file is the command line's job.
 */

import type { Finding } from '../core/finding.js';
import { isObject } from '../core/json.js';
import type { Report } from '../report/types.js';
import { FINGERPRINT_KEY } from './fingerprint.js';

export const BASELINE_VERSION = 1;

export interface BaselineEntry {
  readonly fingerprint: string;
  readonly rule: string;
  /** For people reading the file and for the stale list; matching uses the fingerprint only. */
  readonly file?: string;
  readonly tool?: string;
  readonly message: string;
}

export interface Baseline {
  readonly version: typeof BASELINE_VERSION;
  /** The recipe the fingerprints follow (`mcpShape/v1`). */
  readonly fingerprints: string;
  readonly command: Report['command'];
  readonly findings: readonly BaselineEntry[];
}

/** A baseline file that cannot be used; the message is one line naming what is wrong. */
export class BaselineError extends Error {}

function compareEntries(a: BaselineEntry, b: BaselineEntry): number {
  return (
    (a.file ?? '').localeCompare(b.file ?? '') ||
    (a.tool ?? '').localeCompare(b.tool ?? '') ||
    a.rule.localeCompare(b.rule) ||
    a.fingerprint.localeCompare(b.fingerprint)
  );
}

/** A baseline recording `findings`, which must carry fingerprints. */
export function createBaseline(
  command: Report['command'],
  findings: readonly Finding[],
  repoPath: (file: string) => string = (file) => file,
): Baseline {
  const entries = findings.map((f): BaselineEntry => {
    if (!f.fingerprint) throw new Error(`finding of ${f.rule} has no fingerprint`);
    return {
      fingerprint: f.fingerprint,
      rule: f.rule,
      ...(f.location?.file ? { file: repoPath(f.location.file) } : {}),
      ...(f.location?.tool ? { tool: f.location.tool } : {}),
      message: f.message,
    };
  });
  // One entry per fingerprint: numbering makes them unique, but a caller may pass a finding twice.
  const unique = [...new Map(entries.map((e) => [e.fingerprint, e])).values()];
  return {
    version: BASELINE_VERSION,
    fingerprints: FINGERPRINT_KEY,
    command,
    findings: unique.sort(compareEntries),
  };
}

export function serializeBaseline(baseline: Baseline): string {
  const ordered = {
    version: baseline.version,
    fingerprints: baseline.fingerprints,
    command: baseline.command,
    findings: [...baseline.findings].sort(compareEntries).map((e) => ({
      fingerprint: e.fingerprint,
      rule: e.rule,
      ...(e.file !== undefined ? { file: e.file } : {}),
      ...(e.tool !== undefined ? { tool: e.tool } : {}),
      message: e.message,
    })),
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

const COMMANDS: readonly string[] = ['check', 'audit', 'scan', 'repair'];

/** Parses and checks a baseline file's text; `label` names it in errors. */
export function parseBaseline(text: string, label: string): Baseline {
  let value: unknown;
  try {
    // A byte order mark is an editor's (the file is meant to be committed and may be edited by hand).
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    throw new BaselineError(`${label} is not JSON (write one with --write-baseline FILE)`);
  }
  if (!isObject(value)) throw new BaselineError(`${label}: a baseline is a JSON object`);
  if (value.version !== BASELINE_VERSION) {
    throw new BaselineError(`${label}: version: expected ${BASELINE_VERSION}`);
  }
  if (value.fingerprints !== FINGERPRINT_KEY) {
    throw new BaselineError(
      `${label}: fingerprints: expected "${FINGERPRINT_KEY}" (rewrite it with --write-baseline)`,
    );
  }
  if (typeof value.command !== 'string' || !COMMANDS.includes(value.command)) {
    throw new BaselineError(`${label}: command: expected one of ${COMMANDS.join(', ')}`);
  }
  if (!Array.isArray(value.findings)) throw new BaselineError(`${label}: findings: expected an array`);
  const findings = value.findings.map((entry, i): BaselineEntry => {
    const at = `${label}: findings[${i}]`;
    if (!isObject(entry)) throw new BaselineError(`${at}: expected an object`);
    for (const key of ['fingerprint', 'rule', 'message'] as const) {
      if (typeof entry[key] !== 'string') throw new BaselineError(`${at}.${key}: expected a string`);
    }
    for (const key of ['file', 'tool'] as const) {
      if (entry[key] !== undefined && typeof entry[key] !== 'string') {
        throw new BaselineError(`${at}.${key}: expected a string`);
      }
    }
    return entry as unknown as BaselineEntry;
  });
  return {
    version: BASELINE_VERSION,
    fingerprints: FINGERPRINT_KEY,
    command: value.command as Report['command'],
    findings,
  };
}

export interface BaselineOutcome {
  /** Findings not in the baseline: the new ones. */
  readonly kept: Finding[];
  /** Findings the baseline records. */
  readonly hidden: Finding[];
  /** Baseline entries no finding matched: fixed, or changed beyond recognition. */
  readonly stale: BaselineEntry[];
}

export function applyBaseline(findings: readonly Finding[], baseline: Baseline): BaselineOutcome {
  const recorded = new Map(baseline.findings.map((e) => [e.fingerprint, e]));
  const matched = new Set<string>();
  const kept: Finding[] = [];
  const hidden: Finding[] = [];
  for (const finding of findings) {
    if (finding.fingerprint !== undefined && recorded.has(finding.fingerprint)) {
      hidden.push(finding);
      matched.add(finding.fingerprint);
    } else kept.push(finding);
  }
  const stale = baseline.findings.filter((e) => !matched.has(e.fingerprint));
  return { kept, hidden, stale };
}
