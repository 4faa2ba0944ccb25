/**
 * The scanned project as the value analysis sees it: its source files (the ones named on the
 * command line, and the ones they import, loaded on demand), the frozen heap every interpretation
 * shares, and the budget of the function being analysed.
 */

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, relative, sep } from 'node:path';
import { Budget } from './abstract/budget.js';
import { FrozenHeap } from './abstract/heap.js';
import type { SourceFile } from './abstract/value.js';
import { decodeSource, LineMap } from './source.js';

export interface ProjectOptions {
  /** Paths in reports are relative to this directory. */
  readonly cwd: string;
  /** Imported files larger than this are not followed (bytes). */
  readonly maxFileSize: number;
}

/** Git's test for binary content: a NUL byte in the first 8000 bytes. */
const BINARY_PROBE = 8000;

export function displayPath(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  return (rel.startsWith('..') ? file : rel).split(sep).join('/');
}

export class Project {
  readonly frozen = new FrozenHeap();
  private readonly files = new Map<string, SourceFile>();
  private readonly missing = new Set<string>();
  private readonly budgets: Budget[] = [new Budget(Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY)];
  /** Files read only because a scanned file imports them. */
  readonly followed = new Set<SourceFile>();

  constructor(readonly options: ProjectOptions) {}

  /** Registers a source given as text (a scanned file, or the file ESLint is linting). */
  add(path: string, absolute: string | undefined, text: string): SourceFile {
    const known = absolute ? this.files.get(absolute) : undefined;
    if (known) return known;
    const file: SourceFile = {
      id: this.files.size + this.missing.size + 1,
      path,
      absolute,
      text,
      lines: new LineMap(text, /\.pyi?$/i.test(path) ? 'python' : 'js'),
    };
    this.files.set(absolute ?? `\u0000${path}`, file);
    if (absolute) this.enter(absolute);
    // A new file can be the answer to an import that found nothing before.
    this.resolutions.clear();
    this.resolutionsByFile.clear();
    return file;
  }

  /** Names in directories that sources given in memory occupy (their own, and their ancestors). */
  private readonly memoryEntries = new Map<string, Set<string>>();

  private enter(absolute: string): void {
    for (let path = absolute, dir = dirname(path); dir !== path; path = dir, dir = dirname(dir)) {
      const names = this.memoryEntries.get(dir);
      if (names?.has(basename(path))) return;
      if (names) names.add(basename(path));
      else this.memoryEntries.set(dir, new Set([basename(path)]));
    }
  }

  /**
   * Whether `dir` has an entry `name` (a file or a directory, on disk or given in memory): import
   * resolution asks this before it builds the paths of a package's candidates in `dir`.
   */
  hasEntry(dir: string, name: string): boolean {
    return this.memoryEntries.get(dir)?.has(name) === true || this.listing(dir).has(name);
  }

  /** Resolutions of imports by the importing directory, then by the import (see `resolution`). */
  private readonly resolutions = new Map<string, Map<string, string | null>>();
  /** The map of `resolutions` for each importing file's directory, by the file's absolute path. */
  private readonly resolutionsByFile = new Map<string, Map<string, string | null>>();

  /**
   * An import's resolution, computed once per importing directory and import (`key`): every file of
   * a package imports the same few modules, and each miss tries names in every ancestor. Found by the
   * importing file's path, a string the project holds (its hash computed once), then by the import.
   */
  resolution(from: string, key: string, resolve: (dir: string) => string | undefined): string | undefined {
    let known = this.resolutionsByFile.get(from);
    if (!known) {
      const dir = dirname(from);
      known = this.resolutions.get(dir);
      if (!known) {
        known = new Map();
        this.resolutions.set(dir, known);
      }
      this.resolutionsByFile.set(from, known);
    }
    const found = known.get(key);
    if (found !== undefined) return found ?? undefined;
    const resolved = resolve(dirname(from));
    known.set(key, resolved ?? null);
    return resolved;
  }

  /** A project file by absolute path, read from disk the first time; undefined when unreadable. */
  load(absolute: string): SourceFile | undefined {
    const known = this.files.get(absolute);
    if (known) return known;
    if (this.missing.has(absolute)) return undefined;
    try {
      const info = statSync(absolute);
      if (!info.isFile() || info.size > this.options.maxFileSize) throw new Error('not followed');
      const bytes = readFileSync(absolute);
      if (bytes.subarray(0, BINARY_PROBE).includes(0)) throw new Error('binary');
      const file = this.add(displayPath(absolute, this.options.cwd), absolute, decodeSource(bytes, absolute));
      this.followed.add(file);
      return file;
    } catch {
      this.missing.add(absolute);
      return undefined;
    }
  }

  private readonly existence = new Map<string, boolean>();
  private readonly listings = new Map<string, ReadonlySet<string>>();

  /**
   * Whether a file exists. Import resolution tries many names (every ancestor directory, for every
   * `import json`), nearly all absent: one directory listing answers them all, where a stat each
   * cost a system call apiece (a fifth of a Python scan's time).
   */
  exists(absolute: string): boolean {
    if (this.files.has(absolute)) return true;
    if (this.missing.has(absolute)) return false;
    let known = this.existence.get(absolute);
    if (known === undefined) {
      known = this.listing(dirname(absolute)).has(basename(absolute)) && isFile(absolute);
      this.existence.set(absolute, known);
    }
    return known;
  }

  /** The names in a directory; empty when it does not exist, known from its parent's listing. */
  private listing(dir: string): ReadonlySet<string> {
    let names = this.listings.get(dir);
    if (!names) {
      const parent = dirname(dir);
      if (parent !== dir && !this.listing(parent).has(basename(dir))) names = NO_NAMES;
      else {
        try {
          names = new Set(readdirSync(dir));
        } catch {
          names = NO_NAMES;
        }
      }
      this.listings.set(dir, names);
    }
    return names;
  }

  get budget(): Budget {
    return this.budgets[this.budgets.length - 1] as Budget;
  }

  /** Runs `work` under its own budget (one function's analysis). */
  withBudget<T>(budget: Budget, work: () => T): T {
    this.budgets.push(budget);
    try {
      return work();
    } finally {
      this.budgets.pop();
    }
  }
}

const NO_NAMES: ReadonlySet<string> = new Set();

function isFile(absolute: string): boolean {
  try {
    return statSync(absolute).isFile();
  } catch {
    return false;
  }
}
