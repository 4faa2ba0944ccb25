/** Writes a rendered report to stdout or to `--out FILE`. */

import { writeFileSync } from 'node:fs';
import { type Report, type ReportFormat, renderReport } from '../report/index.js';
import { UserError } from './errors.js';

export function emitReport(report: Report, format: ReportFormat, out: string | undefined): void {
  const color = out === undefined && format === 'text' ? undefined : false;
  const rendered = renderReport(report, format, color === undefined ? {} : { color });
  if (out === undefined) {
    process.stdout.write(rendered);
    return;
  }
  try {
    writeFileSync(out, rendered);
  } catch (error) {
    throw new UserError(`cannot write ${out}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}
