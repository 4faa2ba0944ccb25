/** The repository a path belongs to, and paths relative to it (SARIF URIs, fingerprints, baselines). */

import { existsSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/**
 * The git top level of `path`: the nearest directory upward holding `.git` (a directory, or a file in
 * worktrees and submodules). Read from the file system rather than `git rev-parse`, so it works
 * where git is not installed and costs no process.
 */
export function repositoryRoot(path: string): string | undefined {
  let dir = resolve(path);
  if (existsSync(dir) && !statSync(dir).isDirectory()) dir = dirname(dir);
  for (;;) {
    if (existsSync(join(dir, '.git'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * `file` (absolute, or relative to `cwd`) relative to `root` with `/` separators; `..` when outside. A
 * label that names no file (`<stdin>`, `-`) is kept as it is: made relative, it named a file in the
 * working directory, so its fingerprints changed with the directory the command ran from.
 */
export function rootRelative(file: string, root: string, cwd: string): string {
  if (file === '' || file === '-' || /^<.*>$/.test(file)) return file;
  const absolute = isAbsolute(file) ? file : resolve(cwd, file);
  return relative(root, absolute).split(sep).join('/');
}
