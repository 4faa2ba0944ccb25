/**
 * Merging incremental reports of part runs (scripts/mutation-merge.ts): a result is carried over only
 * where its source and the files of its tests are unchanged, newer reports win, and one test keeps one id.
 */

import { describe, expect, it } from 'vitest';
import { type IncrementalReport, mergeIncremental } from '../../scripts/mutation-merge.js';

const CHECKOUT: Record<string, string> = {
  'src/a.ts': 'a v2',
  'src/b.ts': 'b v1',
  'src/c.ts': 'c v1',
  'test/a.test.ts': 'tests of a v1',
  'test/b.test.ts': 'tests of b v2',
};
const current = (path: string) => CHECKOUT[path];

const older: IncrementalReport = {
  schemaVersion: '2',
  files: {
    'src/a.ts': {
      source: 'a v1',
      mutants: [{ id: '1', status: 'Killed', killedBy: ['0'], coveredBy: ['0'] }],
    },
    'src/c.ts': { source: 'c v1', mutants: [{ id: '2', status: 'Survived', coveredBy: ['0'] }] },
  },
  testFiles: { 'test/a.test.ts': { source: 'tests of a v1', tests: [{ id: '0', name: 'a works' }] } },
};

const newer: IncrementalReport = {
  schemaVersion: '2',
  files: {
    'src/b.ts': {
      source: 'b v1',
      mutants: [
        { id: '1', status: 'Killed', killedBy: ['5'], coveredBy: ['5', '6'] },
        { id: '2', status: 'Killed', killedBy: ['7'], coveredBy: ['7'] },
        { id: '3', status: 'NoCoverage' },
      ],
    },
    'src/c.ts': {
      source: 'c v1',
      mutants: [{ id: '4', status: 'Killed', killedBy: ['6'], coveredBy: ['6'] }],
    },
  },
  testFiles: {
    'test/a.test.ts': {
      source: 'tests of a v1',
      tests: [
        { id: '5', name: 'a works' },
        { id: '6', name: 'c too' },
      ],
    },
    'test/b.test.ts': { source: 'tests of b v1', tests: [{ id: '7', name: 'b works' }] },
  },
};

describe('mergeIncremental', () => {
  const merged = mergeIncremental([older, newer], current);

  it('keeps results whose source and tests are unchanged, the newer report winning', () => {
    expect(Object.keys(merged.report.files).sort()).toEqual(['src/b.ts', 'src/c.ts']);
    // src/a.ts changed since; b's second mutant was killed by a test whose file changed.
    expect(merged.report.files['src/b.ts']?.mutants.map((m) => m.status)).toEqual(['Killed', 'NoCoverage']);
    expect(merged.report.files['src/c.ts']?.mutants.map((m) => m.status)).toEqual(['Killed']);
    expect(merged.kept).toBe(3);
    // a's mutant, b's second, and c's older result are not carried: 1 + 1 + 0 (c was replaced, not dropped).
    expect(merged.dropped).toBe(2);
  });

  it('gives one test one id across reports, and lists only tests of unchanged files', () => {
    const tests = merged.report.testFiles ?? {};
    expect(Object.keys(tests)).toEqual(['test/a.test.ts']);
    const byName = new Map(tests['test/a.test.ts']?.tests.map((t) => [t.name, t.id]));
    const b = merged.report.files['src/b.ts']?.mutants[0];
    expect(b?.killedBy).toEqual([byName.get('a works')]);
    expect(b?.coveredBy).toEqual([byName.get('a works'), byName.get('c too')]);
    expect(merged.report.files['src/c.ts']?.mutants[0]?.killedBy).toEqual([byName.get('c too')]);
    expect(tests['test/a.test.ts']?.source).toBe('tests of a v1');
  });

  it('takes a report without a test file text as changed, and keeps the top-level members of the newest', () => {
    const noSource: IncrementalReport = {
      files: { 'src/c.ts': { source: 'c v1', mutants: [{ id: '1', status: 'Killed', killedBy: ['0'] }] } },
      testFiles: { 'test/a.test.ts': { tests: [{ id: '0', name: 'a works' }] } },
    };
    const result = mergeIncremental([newer, noSource], current);
    expect(result.report.files['src/c.ts']?.mutants).toEqual([]);
    expect(mergeIncremental([older, newer], current).report.schemaVersion).toBe('2');
  });
});
