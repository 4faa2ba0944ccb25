/**
 * Fingerprints for a finished report: the I/O half of fingerprint.ts (reading source lines for scan
 * snippets). Paths are made relative to the repository root, so a run from any directory agrees.
 */

import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { rootRelative } from '../config/repository.js';
import type { Finding } from '../core/finding.js';
import type { Report } from '../report/types.js';
import { type FingerprintContext, fingerprintFindings, fingerprintUnits } from './fingerprint.js';

export interface RepositoryPaths {
  /** Repository root (git top level or `--root`). */
  readonly root: string;
  /** Directory relative finding paths are relative to. */
  readonly cwd: string;
}

/** The report with a fingerprint on every finding (unchanged when every finding has one). */
export function fingerprintReport(report: Report, paths: RepositoryPaths): Report {
  if (report.findings.every((f) => f.fingerprint !== undefined)) return report;
  return { ...report, findings: fingerprintFindings(report.findings, context(report, paths)) };
}

/** Each finding's units, fingerprinted (src/policy/fingerprint.ts): what a baseline matches. */
export function fingerprintReportUnits(report: Report, paths: RepositoryPaths): Finding[][] {
  return fingerprintUnits(report.findings, context(report, paths));
}

function context(report: Report, paths: RepositoryPaths): FingerprintContext {
  const lines = new Map<string, readonly string[] | undefined>();
  // Every finding of a checked file names it: its path is made relative once.
  const repoPaths = new Map<string, string>();
  return {
    kind: report.command === 'scan' ? 'source' : report.command === 'audit' ? 'live' : 'document',
    repoPath(file) {
      let path = repoPaths.get(file);
      if (path === undefined) {
        path = rootRelative(file, paths.root, paths.cwd);
        repoPaths.set(file, path);
      }
      return path;
    },
    sourceLines(file) {
      const full = isAbsolute(file) ? file : resolve(paths.cwd, file);
      if (!lines.has(full)) lines.set(full, readLines(full));
      return lines.get(full);
    },
  };
}

function readLines(file: string): readonly string[] | undefined {
  try {
    return readFileSync(file, 'utf8').split(/\r?\n/);
  } catch {
    // A file gone since the scan gets no snippet; its fingerprint still has rule, path and scope.
    return undefined;
  }
}
