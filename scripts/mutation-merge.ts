/**
 * `npm run mutate:merge -- <out.json> <in.json>…` (oldest first): merges StrykerJS incremental reports of
 * runs over parts of a folder into one, for `npm run mutate` on the whole folder to start from.
 *
 * Why: on 2 cores a whole-folder run of src/library takes hours, and Stryker writes nothing until a run
 * ends. Runs over a few files each end in minutes; merged, their results let the folder's run re-test
 * only what changed since, so its score is one complete run's. A result is kept only where it would
 * still hold: its source file, and every test file holding a test that covered or killed it, are
 * byte-identical to the checkout's. A newer report's results for a file replace an older one's.
 *
 * Stryker names tests by an id of its own run; the same test (file and name) gets one id here.
 */

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The parts of Stryker's incremental report (mutation-testing-report-schema) this reads and writes. */
export interface IncrementalReport {
  readonly files: Record<string, { readonly source: string; readonly mutants: readonly ReportMutant[] }>;
  readonly testFiles?: Record<string, { readonly source?: string; readonly tests: readonly ReportTest[] }>;
  readonly [other: string]: unknown;
}

export interface ReportMutant {
  readonly id: string;
  readonly coveredBy?: readonly string[];
  readonly killedBy?: readonly string[];
  readonly [other: string]: unknown;
}

export interface ReportTest {
  readonly id: string;
  readonly name: string;
  readonly [other: string]: unknown;
}

export interface Merged {
  readonly report: IncrementalReport;
  /**
   * Mutants kept (a newer report's for a file replacing an older one's), and left out because their file
   * or one of their tests' files changed.
   */
  readonly kept: number;
  readonly dropped: number;
}

/** `current(path)`: the checkout's text of a file (source or test), or undefined when it is gone. */
export function mergeIncremental(
  reports: readonly IncrementalReport[],
  current: (path: string) => string | undefined,
): Merged {
  const files: Record<string, { source: string; mutants: ReportMutant[] }> = {};
  const testFiles: Record<string, { source?: string; tests: ReportTest[] }> = {};
  const ids = new Map<string, string>();
  let dropped = 0;
  const unified = (file: string, test: ReportTest): string => {
    const key = JSON.stringify([file, test.name]);
    let id = ids.get(key);
    if (id === undefined) {
      id = String(ids.size);
      ids.set(key, id);
      const entry = testFiles[file] ?? { source: current(file), tests: [] };
      testFiles[file] = entry;
      entry.tests.push({ ...test, id });
    }
    return id;
  };
  for (const report of reports) {
    // This report's tests: id → [file, test], only those whose file is unchanged.
    const tests = new Map<string, [string, ReportTest]>();
    const changedTests = new Set<string>();
    for (const [file, { source, tests: list }] of Object.entries(report.testFiles ?? {})) {
      // A report without the test file's text cannot show it unchanged.
      const same = source !== undefined && source === current(file);
      for (const test of list) {
        if (same) tests.set(test.id, [file, test]);
        else changedTests.add(test.id);
      }
    }
    for (const [file, { source, mutants }] of Object.entries(report.files)) {
      if (current(file) !== source) {
        dropped += mutants.length;
        continue;
      }
      const out: ReportMutant[] = [];
      for (const mutant of mutants) {
        const named = [...(mutant.coveredBy ?? []), ...(mutant.killedBy ?? [])];
        if (named.some((id) => changedTests.has(id) || !tests.has(id))) {
          dropped++;
          continue;
        }
        const map = (list: readonly string[] | undefined) =>
          list?.map((id) => {
            const [testFile, test] = tests.get(id) as [string, ReportTest];
            return unified(testFile, test);
          });
        out.push({
          ...mutant,
          ...(mutant.coveredBy ? { coveredBy: map(mutant.coveredBy) } : {}),
          ...(mutant.killedBy ? { killedBy: map(mutant.killedBy) } : {}),
        });
      }
      files[file] = { ...report.files[file], source, mutants: out };
    }
  }
  const kept = Object.values(files).reduce((n, f) => n + f.mutants.length, 0);
  const newest = reports.at(-1) ?? { files: {} };
  return { report: { ...newest, files, testFiles }, kept, dropped };
}

async function main(): Promise<void> {
  const [out, ...inputs] = process.argv.slice(2);
  if (out === undefined || inputs.length === 0) {
    console.error('usage: npm run mutate:merge -- <out.json> <in.json>… (oldest first)');
    process.exit(2);
  }
  const root = join(import.meta.dirname, '..');
  const reports = inputs.map((file) => JSON.parse(readFileSync(file, 'utf8')) as IncrementalReport);
  const current = (path: string) => {
    try {
      return readFileSync(join(root, path), 'utf8');
    } catch {
      return undefined;
    }
  };
  const merged = mergeIncremental(reports, current);
  writeFileSync(out, JSON.stringify(merged.report));
  console.log(
    `${out}: kept ${merged.kept} mutants, left out ${merged.dropped} (their file or tests changed)`,
  );
}

if (process.argv[1] && import.meta.filename === process.argv[1]) await main();
