/**
 * Which project file a relative import names, as TypeScript and Node resolve it: the exact file,
 * the TypeScript source of an emitted `.js` name (`./helpers.js` → `./helpers.ts`), the name with an
 * extension added, or a directory's index. Package imports are not followed: they are not the
 * project's code, and their values stay unknown.
 */

import { dirname, extname, join, resolve } from 'node:path';
import type { Project } from '../project.js';

const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];

const SOURCE_OF: Record<string, readonly string[]> = {
  '.js': ['.ts', '.tsx', '.js', '.jsx'],
  '.jsx': ['.tsx', '.jsx'],
  '.mjs': ['.mts', '.mjs'],
  '.cjs': ['.cts', '.cjs'],
};

function isProjectPath(path: string): boolean {
  return !/\.d\.[mc]?ts$/.test(path);
}

export function resolveJsImport(project: Project, from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('./') && !specifier.startsWith('../') && specifier !== '.' && specifier !== '..')
    return undefined;
  const base = resolve(dirname(from), specifier);
  const ext = extname(base);
  const candidates: string[] = [];
  const sources = SOURCE_OF[ext];
  if (sources) candidates.push(...sources.map((e) => base.slice(0, -ext.length) + e));
  else if (EXTENSIONS.includes(ext)) candidates.push(base);
  candidates.push(...EXTENSIONS.map((e) => base + e), ...EXTENSIONS.map((e) => join(base, `index${e}`)));
  return candidates.find((c) => isProjectPath(c) && project.exists(c));
}
