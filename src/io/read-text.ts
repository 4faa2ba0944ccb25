/**
 * Text read from a file or a stream, with a limit: the longest string V8 holds (about 512 MB on 64-bit
 * Node). A document is parsed from one string, so a longer input could never be checked, and an endless
 * one (`/dev/zero`, a pipe that is never closed) was read until memory ran out (8 GB in 30 s): past the
 * limit, reading stops with an error that says why.
 */

import { constants } from 'node:buffer';
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';

export const MAX_INPUT_BYTES = constants.MAX_STRING_LENGTH;

/** An input longer than MAX_INPUT_BYTES (or the limit given); its message says so in words. */
export class InputTooLargeError extends Error {
  constructor(limit: number) {
    super(`larger than ${megabytes(limit)}, the most mcp-shape reads from one input`);
  }
}

function megabytes(bytes: number): string {
  return `${Math.floor(bytes / 2 ** 20)} MB`;
}

/** Pieces a file that is no regular file (a FIFO, a device) is read in. */
const PIECE_BYTES = 1 << 20;

/**
 * A file's text as UTF-8; throws Node's system errors (ENOENT, EISDIR…) as readFileSync does, and
 * InputTooLargeError.
 */
export function readTextFile(path: string, limit = MAX_INPUT_BYTES): string {
  return readBytesFile(path, limit).toString('utf8');
}

/**
 * A file's bytes, for readTextFile and for a reader that must see bytes that are not UTF-8. A regular
 * file's size is known before a byte is read; any other file is read a piece at a time, counting.
 */
export function readBytesFile(path: string, limit = MAX_INPUT_BYTES): Buffer {
  const fd = openSync(path, 'r');
  try {
    const info = fstatSync(fd);
    if (info.isFile()) {
      if (info.size > limit) throw new InputTooLargeError(limit);
      return readFileSync(fd);
    }
    const pieces: Buffer[] = [];
    let total = 0;
    for (;;) {
      const piece = Buffer.allocUnsafe(PIECE_BYTES);
      const read = readSync(fd, piece, 0, PIECE_BYTES, null);
      if (read === 0) break;
      total += read;
      if (total > limit) throw new InputTooLargeError(limit);
      pieces.push(read === PIECE_BYTES ? piece : piece.subarray(0, read));
    }
    return Buffer.concat(pieces, total);
  } finally {
    closeSync(fd);
  }
}

/** A stream's text as UTF-8 (standard input); stops reading past the limit with InputTooLargeError. */
export async function readTextStream(
  stream: AsyncIterable<unknown> & { destroy(): unknown },
  limit = MAX_INPUT_BYTES,
): Promise<string> {
  return (await readBytesStream(stream, limit)).toString('utf8');
}

/** A stream's bytes, as readBytesFile reads a file's. */
export async function readBytesStream(
  stream: AsyncIterable<unknown> & { destroy(): unknown },
  limit = MAX_INPUT_BYTES,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const bytes = chunk as Buffer;
    total += bytes.length;
    if (total > limit) {
      stream.destroy();
      throw new InputTooLargeError(limit);
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, total);
}
