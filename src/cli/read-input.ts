/** Reads a file argument or standard input, turning I/O failures into one-line user errors. */

import { readFileSync } from 'node:fs';
import { UserError } from './errors.js';

export async function readTextInput(file: string | undefined): Promise<{ text: string; label: string }> {
  if (file === undefined || file === '-') {
    if (process.stdin.isTTY) throw new UserError('no input: give a FILE, or pipe JSON to standard input');
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return { text: Buffer.concat(chunks).toString('utf8'), label: '<stdin>' };
  }
  try {
    return { text: readFileSync(file, 'utf8'), label: file };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (code ?? String(error));
    throw new UserError(`cannot read ${file}: ${reason}`);
  }
}
