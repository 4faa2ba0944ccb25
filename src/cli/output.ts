/** Writes a rendered report to stdout or to `--out FILE`. */

import { writeFileSync } from 'node:fs';
import { systemErrorWords } from '../core/system-error.js';
import { type Report, type ReportFormat, renderReport } from '../report/index.js';
import { UsageError, UserError } from './errors.js';

export function emitReport(report: Report, format: ReportFormat, out: string | undefined): void {
  const color = toStdout(out) && format === 'text' ? undefined : false;
  const rendered = renderReport(report, format, color === undefined ? {} : { color });
  writeOutput(out, rendered);
}

/** No file, or `-`: standard output, as `-` for the input is standard input. */
function toStdout(file: string | undefined): file is undefined | '-' {
  return file === undefined || file === '-';
}

/** Writes to standard output, or to `file` with a one-line error when it cannot be written. */
export function writeOutput(file: string | undefined, text: string): void {
  if (toStdout(file)) {
    try {
      process.stdout.write(text);
    } catch (error) {
      // Standard output redirected to a file is written synchronously: a full disk throws here.
      throw new UserError(`cannot write standard output: ${systemErrorWords(error)}`);
    }
    return;
  }
  try {
    writeFileSync(file, text);
  } catch (error) {
    // ENOENT on a write means the directory is missing; the file itself is about to be created.
    throw new UserError(`${systemErrorWords(error, { ENOENT: 'no such directory' })}: ${file}`);
  }
}

/**
 * A file option that has no standard-output form (`--record`, the proxy's `--report`): standard output
 * carries the report, or the client's messages, so `-` is a mistake, not a file to create named `-`.
 */
export function fileOnly(option: string, file: string, stdoutCarries: string): void {
  if (file === '-') throw new UsageError(`${option} takes a file: standard output carries ${stdoutCarries}`);
}
