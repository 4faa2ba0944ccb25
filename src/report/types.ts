/**
 * The report every command produces and every reporter formats. Its JSON form is documented in
 * docs/report-schema.json; `--format json` prints exactly this object.
 */

import type { Finding, Severity } from '../core/finding.js';

export interface ReportSummary {
  readonly errors: number;
  readonly warnings: number;
  readonly infos: number;
  /** `check`: documents checked; `audit`: calls made; `scan`: files scanned. */
  readonly checked: number;
  /** Extra counts a command adds (handlers, tools called, versions negotiated, …). */
  readonly [key: string]: unknown;
}

export interface Report {
  /** Report schema version, bumped on breaking changes. */
  readonly schemaVersion: 1;
  readonly command: 'check' | 'audit' | 'scan' | 'repair';
  readonly findings: readonly Finding[];
  readonly summary: ReportSummary;
  /** Command-specific details (audit: versions and tools; scan: the verdict). */
  readonly details?: Readonly<Record<string, unknown>>;
}

export type ReportFormat = 'text' | 'json' | 'sarif' | 'junit' | 'markdown' | 'html';

export const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };
