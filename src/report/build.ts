/** Assembles a Report from findings, so every command counts the same way. */

import { countBySeverity, type Finding } from '../core/finding.js';
import type { Report } from './types.js';

export function buildReport(
  command: Report['command'],
  findings: readonly Finding[],
  checked: number,
  extra: { summary?: Record<string, unknown>; details?: Record<string, unknown> } = {},
): Report {
  const counts = countBySeverity(findings);
  return {
    schemaVersion: 1,
    command,
    findings,
    summary: {
      errors: counts.error,
      warnings: counts.warning,
      infos: counts.info,
      checked,
      ...extra.summary,
    },
    ...(extra.details ? { details: extra.details } : {}),
  };
}
