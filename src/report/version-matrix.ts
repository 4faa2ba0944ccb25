/**
 * `check`'s version matrix (details.versionMatrix) and its one-line verdict (summary.versionVerdict),
 * read back from a Report for the reporters. Reports are plain JSON, so the shape is checked here
 * rather than trusted.
 */

import type { VersionMatrix, VersionVerdict } from '../check/versions.js';
import { oneLine } from './terminal.js';
import type { Report } from './types.js';

export type { VersionMatrix, VersionVerdict } from '../check/versions.js';

export function versionMatrixOf(report: Report): VersionMatrix | undefined {
  const matrix = report.details?.versionMatrix as Partial<VersionMatrix> | undefined;
  if (typeof matrix !== 'object' || matrix === null || !Array.isArray(matrix.versions)) return undefined;
  return { all: matrix.all === true, versions: matrix.versions };
}

/** The "valid for …; fails …" line, when the verdict differs between versions. */
export function versionVerdictOf(report: Report): string | undefined {
  const line = report.summary.versionVerdict;
  return typeof line === 'string' && line !== '' ? line : undefined;
}

/** Whether a reporter should show the matrix table: asked for, or something differs. */
export function showMatrix(report: Report): VersionMatrix | undefined {
  const matrix = versionMatrixOf(report);
  return matrix && (matrix.all || versionVerdictOf(report)) ? matrix : undefined;
}

/** The first reason a version fails, for a table cell. */
export function failureReason(row: VersionVerdict): string {
  if (row.verdict === 'pass') return '';
  const first = row.reasons[0] ?? 'error findings';
  // A report made before the matrix counted them (a saved JSON report): its errors were what failed.
  const failing = (row as Partial<VersionVerdict>).failing ?? row.errors;
  return failing > 1 ? `${first} (+${failing - 1} more)` : first;
}

/** The plain-text table of the matrix, one row per version, for the terminal. */
export function matrixTextLines(matrix: VersionMatrix): string[] {
  const lines = ['protocol    verdict  errors  warnings  infos'];
  for (const row of matrix.versions) {
    const counts = `${String(row.errors).padStart(6)}  ${String(row.warnings).padStart(8)}  ${String(row.infos).padStart(5)}`;
    const reason = failureReason(row);
    lines.push(
      `${row.protocolVersion}  ${row.verdict.padEnd(7)}  ${counts}${reason ? `  ${oneLine(reason, { width: 120 })}` : ''}`,
    );
  }
  return lines;
}
