import { jsonTerminalSafe } from './terminal.js';
import type { Report } from './types.js';

/**
 * The JSON report: the Report document itself, as described by docs/report-schema.json, with the
 * characters a terminal would act on escaped (the same JSON value).
 */
export function renderJson(report: Report): string {
  return `${jsonTerminalSafe(JSON.stringify(report, null, 2))}\n`;
}
