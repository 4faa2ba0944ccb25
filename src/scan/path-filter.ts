/**
 * Which files a directory walk leaves out: `--exclude` / `--include` globs and `.gitignore`.
 *
 * Globs are matched with picomatch against paths relative to a base directory (the working directory
 * for flags, the configuration file's directory for its keys) and relative to each directory being
 * walked, so `--exclude 'fixtures/**'` works for `scan .` and for `scan ../server` alike; a glob
 * without `/` matches a name at any depth (`*.test.ts`, `vendor`), and an excluded directory is not
 * walked at all. `.gitignore`
 * files from the repository root down to each directory apply as git applies them (with the `ignore`
 * package, the matcher ESLint uses), and so does `.git/info/exclude`. Paths named on the command line
 * are scanned whatever these say, like the directories the walk skips by name.
 */

import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import picomatch from 'picomatch';

export interface GlobList {
  readonly patterns: readonly string[];
  /** Directory the patterns are relative to. */
  readonly base: string;
}

export interface PathFilterOptions {
  /** Directory relative paths are resolved against. */
  readonly cwd: string;
  /** The directories being walked (the scan's paths); globs also match relative to each. */
  readonly roots?: readonly string[];
  readonly include?: GlobList;
  readonly exclude?: GlobList;
  /** Repository root; `.gitignore` files are read from here down. Undefined: none are read. */
  readonly gitignoreRoot?: string;
}

export interface PathFilter {
  skipDirectory(path: string): boolean;
  skipFile(path: string): boolean;
}

/**
 * A directory named on the command line that a filter leaves out (`scan node_modules/pkg/dist` under a
 * `.gitignore` of `node_modules/`, `scan fixtures/x --exclude 'fixtures/**'`) was asked for by name: the
 * filter does not apply inside it, or naming it would find nothing.
 */
function exceptInsideNamed(
  matches: ((absolute: string, isDirectory: boolean) => boolean) | undefined,
  roots: readonly string[],
): ((absolute: string, isDirectory: boolean) => boolean) | undefined {
  if (!matches) return undefined;
  const named = roots.filter((root) => matches(root, true));
  if (named.length === 0) return matches;
  return (absolute, isDirectory) =>
    !named.some((root) => absolute === root || absolute.startsWith(root + sep)) &&
    matches(absolute, isDirectory);
}

function toPosix(path: string): string {
  return path.split(sep).join('/');
}

/** `absolute` relative to `dir` with `/` separators, or undefined when it is not inside `dir`. */
function inside(dir: string, absolute: string): string | undefined {
  const rel = relative(dir, absolute);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? undefined : toPosix(rel);
}

function globMatcher(
  list: GlobList | undefined,
  roots: readonly string[],
): ((absolute: string) => boolean) | undefined {
  if (!list || list.patterns.length === 0) return undefined;
  const matchers = list.patterns.map((pattern) => {
    const clean = pattern.replace(/^\.\//, '').replace(/\/$/, '');
    return picomatch(clean, { dot: true, basename: !clean.includes('/') });
  });
  const bases = [...new Set([list.base, ...roots])];
  return (absolute) =>
    bases.some((base) => {
      const rel = inside(base, absolute);
      return rel !== undefined && matchers.some((match) => match(rel));
    });
}

/** `.gitignore` rules, read once per directory. */
function gitignoreMatcher(root: string): (absolute: string, isDirectory: boolean) => boolean {
  const cache = new Map<string, Ignore | null>();
  const rulesOf = (dir: string): Ignore | null => {
    let rules = cache.get(dir);
    if (rules !== undefined) return rules;
    const files = [join(dir, '.gitignore')];
    if (dir === root) files.unshift(join(root, '.git', 'info', 'exclude'));
    const texts = files.filter((f) => existsSync(f)).map((f) => safeRead(f));
    rules = texts.length > 0 ? ignore().add(texts.join('\n')) : null;
    cache.set(dir, rules);
    return rules;
  };
  return (absolute, isDirectory) => {
    if (inside(root, absolute) === undefined) return false;
    // From the root down: a deeper .gitignore can re-include (`!name`) what a shallower one ignored.
    const dirs = [root];
    for (let dir = dirname(absolute); dir !== root && dir.startsWith(root); dir = dirname(dir))
      dirs.splice(1, 0, dir);
    let ignored = false;
    for (const dir of dirs) {
      const rules = rulesOf(dir);
      if (!rules) continue;
      const rel = toPosix(relative(dir, absolute)) + (isDirectory ? '/' : '');
      const verdict = rules.test(rel);
      if (verdict.ignored) ignored = true;
      else if (verdict.unignored) ignored = false;
    }
    return ignored;
  };
}

function safeRead(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    // An unreadable .gitignore ignores nothing, as in git.
    return '';
  }
}

export function createPathFilter(options: PathFilterOptions): PathFilter {
  const roots = (options.roots ?? []).map((r) => resolve(options.cwd, r));
  const excluded = exceptInsideNamed(globMatcher(options.exclude, roots), roots);
  const included = globMatcher(options.include, roots);
  const gitignored = exceptInsideNamed(
    options.gitignoreRoot ? gitignoreMatcher(resolve(options.gitignoreRoot)) : undefined,
    roots,
  );
  const absolute = (path: string) => resolve(options.cwd, path);
  return {
    skipDirectory(path) {
      const full = absolute(path);
      return (excluded?.(full, true) ?? false) || (gitignored?.(full, true) ?? false);
    },
    skipFile(path) {
      const full = absolute(path);
      if (excluded?.(full, false) || gitignored?.(full, false)) return true;
      return included ? !included(full) : false;
    },
  };
}
