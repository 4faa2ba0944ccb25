/**
 * Benchmarks run compiled (see `npm run bench`): tsx's keep-names transform wraps every closure and
 * would slow the code under test. So paths are found from the repository root, not from this file.
 */

import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

function findRepoRoot(start: string): string {
  let dir = start;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${start}`);
    dir = parent;
  }
  return dir;
}

export const REPO_ROOT = findRepoRoot(import.meta.dirname);
export const SHARED_DIR = join(REPO_ROOT, '..', 'shared');
