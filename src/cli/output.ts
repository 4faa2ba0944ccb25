/** Writes a rendered report to stdout or to `--out FILE`. */

import { closeSync, fstatSync, openSync, realpathSync, unlinkSync, writeSync } from 'node:fs';
import { systemErrorWords } from '../core/system-error.js';
import { type Report, type ReportFormat, renderReportPieces } from '../report/index.js';
import { UsageError, UserError } from './errors.js';

export function emitReport(report: Report, format: ReportFormat, out: string | undefined): void {
  const color = toStdout(out) && format === 'text' ? undefined : false;
  writeOutput(out, renderReportPieces(report, format, color === undefined ? {} : { color }));
}

/** No file, or `-`: standard output, as `-` for the input is standard input. */
function toStdout(file: string | undefined): file is undefined | '-' {
  return file === undefined || file === '-';
}

/** Characters gathered from a report's pieces before each write. */
const BATCH = 1 << 20;

/**
 * The text as a few large strings: a report in pieces (renderReportPieces) may be longer than one
 * string can be, and a write per piece would be a system call per finding member.
 */
function* batches(text: string | Iterable<string>): Generator<string> {
  if (typeof text === 'string') {
    yield text;
    return;
  }
  let held: string[] = [];
  let size = 0;
  for (const piece of text) {
    held.push(piece);
    size += piece.length;
    if (size >= BATCH) {
      yield held.join('');
      held = [];
      size = 0;
    }
  }
  if (size > 0) yield held.join('');
}

/**
 * Writes to standard output, or to `file` with a one-line error when it cannot be written. `text` may
 * come in pieces (renderReportPieces), written as they come.
 */
export function writeOutput(file: string | undefined, text: string | Iterable<string>): void {
  if (toStdout(file)) {
    try {
      // Standard output is written synchronously to files, pipes and terminals on Linux; elsewhere
      // Node queues what a pipe has not taken, as it did for the one string.
      for (const batch of batches(text)) process.stdout.write(batch);
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
    for (const batch of batches(text)) writeAll(fd, batch);
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

/** Writes all of `text` to `fd` (writeSync may write less than it is given). */
function writeAll(fd: number, text: string): void {
  let bytes = Buffer.from(text, 'utf8');
  while (bytes.length > 0) {
    const written = writeSync(fd, bytes);
    bytes = bytes.subarray(written);
  }
}
