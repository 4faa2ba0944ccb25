import type { Report } from './types.js';

/** The JSON report: the Report document itself, as described by docs/report-schema.json. */
export function renderJson(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
