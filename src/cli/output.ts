/** Writes a rendered report to stdout or to `--out FILE`. */

import { closeSync, fstatSync, openSync, realpathSync, unlinkSync, writeFileSync } from 'node:fs';
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
  const failed = (error: unknown) =>
    // ENOENT on a write means the directory is missing; the file itself is about to be created.
    new UserError(
      `${systemErrorWords(error, { ENOENT: 'no such directory', EFBIG: 'file too large' })}: ${file}`,
    );
  let fd: number;
  try {
    fd = openSync(file, 'w');
  } catch (error) {
    throw failed(error);
  }
  try {
    writeFileSync(fd, text);
  } catch (error) {
    // A full disk or a file size limit left part of it, which CI would read as the run's JUnit or
    // SARIF: it goes (a regular file only, never a device or a pipe).
    try {
      if (fstatSync(fd).isFile()) unlinkSync(realpathSync(file));
    } catch {
      // Gone already, or not ours to remove: the error below says the write failed.
    }
    throw failed(error);
  } finally {
    closeSync(fd);
  }
}

/**
 * A file option that has no standard-output form (`--record`, the proxy's `--report`): standard output
 * carries the report, or the client's messages, so `-` is a mistake, not a file to create named `-`.
 */
export function fileOnly(option: string, file: string, stdoutCarries: string): void {
  if (file === '-') throw new UsageError(`${option} takes a file: standard output carries ${stdoutCarries}`);
}
