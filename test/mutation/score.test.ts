/**
 * The scoring `npm run mutate` prints (scripts/mutation-score.ts): per folder, after the equivalent
 * mutants, and the equivalent-mutants file itself is well formed and short for each folder.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type EquivalentMutant,
  formatScores,
  type Mutant,
  type MutationReport,
  originalText,
  scoreByFolder,
} from '../../scripts/mutation-score.js';

const SOURCE = 'export function f(a: number) {\n  return a > 0 ? a : -a;\n}\n';

function mutant(
  id: string,
  status: string,
  mutatorName: string,
  replacement: string,
  column: number,
  endColumn: number,
): Mutant {
  return {
    id,
    status,
    mutatorName,
    replacement,
    location: { start: { line: 2, column }, end: { line: 2, column: endColumn } },
  };
}

const REPORT: MutationReport = {
  files: {
    'src/core/f.ts': {
      source: SOURCE,
      mutants: [
        mutant('1', 'Killed', 'EqualityOperator', 'a >= 0', 10, 15),
        mutant('2', 'Survived', 'EqualityOperator', 'a >= 0', 10, 15),
        mutant('3', 'Timeout', 'ConditionalExpression', 'true', 10, 15),
        mutant('4', 'NoCoverage', 'UnaryOperator', '+a', 22, 24),
        mutant('5', 'Ignored', 'BlockStatement', '{}', 1, 2),
      ],
    },
    'src/rules/g.ts': {
      source: SOURCE,
      mutants: [mutant('6', 'Survived', 'EqualityOperator', 'a < 0', 10, 15)],
    },
    'src/cli/h.ts': {
      source: SOURCE,
      mutants: [mutant('7', 'Survived', 'EqualityOperator', 'a < 0', 10, 15)],
    },
  },
};

const EQUIVALENT: EquivalentMutant = {
  file: 'src/core/f.ts',
  mutator: 'EqualityOperator',
  original: 'a > 0',
  replacement: 'a >= 0',
  why: 'at 0 both branches return 0',
};

describe('mutation scores per folder', () => {
  it('reads the replaced text from 1-based lines and columns, as the report schema defines them', () => {
    expect(originalText(SOURCE, mutant('1', 'Killed', 'x', 'y', 10, 15))).toBe('a > 0');
    expect(originalText(SOURCE, mutant('1', 'Killed', 'x', 'y', 3, 9))).toBe('return');
  });

  it('counts killed and timed-out as detected, survivors and uncovered as not, and leaves the rest out', () => {
    const { folders } = scoreByFolder(REPORT, ['src/core', 'src/rules'], []);
    expect(folders[0]).toMatchObject({
      killed: 1,
      timeout: 1,
      survived: 1,
      noCoverage: 1,
      excluded: 1,
      equivalent: 0,
    });
    expect(folders[0]?.score).toBe(50);
    expect(folders[1]).toMatchObject({ survived: 1, score: 0 });
    expect(folders[1]?.undetected).toEqual(['survived src/rules/g.ts:2:10 EqualityOperator → "a < 0"']);
  });

  it('takes equivalent mutants out of the score, matched on file, mutator and code', () => {
    const { folders, stale } = scoreByFolder(REPORT, ['src/core'], [EQUIVALENT]);
    expect(folders[0]).toMatchObject({ survived: 0, equivalent: 1, score: (100 * 2) / 3 });
    expect(stale).toEqual([]);
    // The same replacement of other code, or in another file, is not covered by the entry.
    const rules = scoreByFolder(REPORT, ['src/rules'], [{ ...EQUIVALENT, file: 'src/rules/g.ts' }]);
    expect(rules.folders[0]).toMatchObject({ survived: 1, equivalent: 0 });
    expect(rules.stale).toHaveLength(1);
  });

  it('names folders below the threshold', () => {
    const text = formatScores(scoreByFolder(REPORT, ['src/core', 'src/proxy'], []), 80);
    expect(text).toMatch(/^src\/core +50\.0% .*below 80%$/m);
    expect(text).toMatch(/^src\/proxy +n\/a/m);
  });

  it('the equivalent-mutants file is short for each folder and every entry says why', () => {
    const entries = JSON.parse(
      readFileSync(join(import.meta.dirname, 'equivalent-mutants.json'), 'utf8'),
    ) as EquivalentMutant[];
    // Short per folder (src/core, the first scored, has 25): a folder that needs more has code to
    // simplify rather than mutants to excuse.
    const perFolder = new Map<string, number>();
    for (const { file } of entries) {
      const folder = file.split('/').slice(0, 2).join('/');
      perFolder.set(folder, (perFolder.get(folder) ?? 0) + 1);
    }
    for (const [folder, count] of perFolder) expect(count, folder).toBeLessThanOrEqual(40);
    for (const entry of entries) {
      expect(Object.keys(entry).sort()).toEqual(['file', 'mutator', 'original', 'replacement', 'why']);
      expect(entry.why.length, JSON.stringify(entry)).toBeGreaterThan(20);
    }
  });
});
