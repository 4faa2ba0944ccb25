import { jsonPieces } from './json-chunks.js';
import { jsonTerminalSafe } from './terminal.js';
import type { Report } from './types.js';

/**
 * The JSON report: the Report document itself, as described by docs/report-schema.json, with the
 * characters a terminal would act on escaped (the same JSON value).
 */
export function renderJson(report: Report): string {
  return `${jsonTerminalSafe(JSON.stringify(report, null, 2))}\n`;
}

/** renderJson's text in pieces, for a report whose text may be longer than a string can be. */
export function* renderJsonPieces(report: Report): Generator<string> {
  // Two levels split (report, findings): each finding is written whole.
  for (const piece of jsonPieces(report, 2)) yield jsonTerminalSafe(piece);
  yield '\n';
}
