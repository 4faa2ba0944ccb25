/**
 * Which project file a Python import names: package-relative imports (`from .helpers import x`,
 * `from .. import util`) from the importing file's package, absolute ones (`from app.tools import
 * x`) from the directories a project is run from (the importing file's ancestors, and `src/` in
 * each). Installed packages (virtualenvs, site-packages) are not the project's code.
 */

import { dirname, join, sep } from 'node:path';
import type { Project } from '../project.js';

/** How far up from the importing file an absolute import's root may be. */
const MAX_ANCESTORS = 8;

const NOT_PROJECT = new Set(['site-packages', 'dist-packages', '.venv', 'venv', 'node_modules', '.tox']);

function isProjectPath(path: string): boolean {
  return !path.split(sep).some((part) => NOT_PROJECT.has(part));
}

function candidates(base: string, parts: readonly string[]): string[] {
  if (parts.length === 0) return [join(base, '__init__.py')];
  const path = join(base, ...parts);
  return [`${path}.py`, join(path, '__init__.py')];
}

export function resolvePythonImport(
  project: Project,
  from: string,
  dotted: string,
  level: number,
): string | undefined {
  return project.resolution(from, level === 0 ? dotted : `${level}\u0000${dotted}`, (dir) =>
    resolveFrom(project, dir, dotted, level),
  );
}

function resolveFrom(project: Project, fromDir: string, dotted: string, level: number): string | undefined {
  const parts = dotted === '' ? [] : dotted.split('.');
  if (parts.some((p) => !/^\w+$/.test(p))) return undefined;
  if (level > 0) {
    let base = fromDir;
    for (let i = 1; i < level; i++) base = dirname(base);
    return candidates(base, parts).find((c) => project.exists(c) && isProjectPath(c));
  }
  if (parts.length === 0) return undefined;
  const top = parts[0] as string;
  let dir = fromDir;
  for (let i = 0; i < MAX_ANCESTORS; i++) {
    const roots = project.hasEntry(dir, 'src') ? [dir, join(dir, 'src')] : [dir];
    for (const root of roots) {
      // Most imports name installed packages: nothing in `root` is called like them.
      if (!project.hasEntry(root, top) && !project.hasEntry(root, `${top}.py`)) continue;
      const found = candidates(root, parts).find((c) => project.exists(c) && isProjectPath(c));
      if (found) return found;
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return undefined;
}
