/**
 * The ESLint plugin shares the scan's value analysis: on every TS pattern fixture of issue 8 (branches,
 * reassignments, mutation, maps, helpers in other files, re-exports…) it reports what `scan` reports
 * for that file (at the literal when the fix is in the file, at the return it reaches when the fix is
 * in an imported helper) and nothing on the clean twin. A bad server whose defect is a value the
 * analysis cannot see (an `unresolved:` return) has no finding in either: unknown is not invalid, and
 * the plugin, which has no verdict, reports nothing there.
 */

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import plugin from '../../src/eslint/index.js';
import { scanPaths } from '../../src/scan/index.js';
import { REPO_ROOT } from '../support/cli.js';

const root = join(REPO_ROOT, 'fixtures/scan/patterns');
const patterns = readdirSync(root)
  .filter((p) => existsSync(join(root, p, 'bad.ts')))
  .sort();

const eslint = new ESLint({
  cwd: REPO_ROOT,
  overrideConfigFile: true,
  overrideConfig: [
    plugin.configs.recommended ?? {},
    { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } },
  ],
});

async function linted(file: string): Promise<string[]> {
  const [result] = await eslint.lintFiles([file]);
  return (result?.messages ?? [])
    .map((m) => `${m.ruleId?.replace('mcp-shape/', '') ?? m.message}@${m.line}`)
    .sort();
}

describe('ESLint plugin on the value-analysis patterns', () => {
  it('has TS patterns to lint', () => {
    expect(patterns.length).toBeGreaterThanOrEqual(20);
  });

  it.each(patterns)('%s: the scan findings of bad.ts; nothing on clean.ts', async (pattern) => {
    const dir = join(root, pattern);
    const bad = relative(REPO_ROOT, join(dir, 'bad.ts'));
    const { report } = await scanPaths([dir], { cwd: REPO_ROOT });
    const expected = report.findings
      // The recommended config turns errors and warnings on, info off.
      .filter((f) => f.severity !== 'info')
      .flatMap((f) => {
        if (f.location?.file === bad) return [`${f.rule}@${f.location.line}`];
        // Fixed in another file: reported at each return of bad.ts it reaches.
        return (f.location?.reaches ?? []).filter((r) => r.file === bad).map((r) => `${f.rule}@${r.line}`);
      })
      .sort();
    const unresolved = /(?:\/\/|#) unresolved: /.test(readFileSync(join(dir, 'bad.ts'), 'utf8'));
    if (unresolved) expect(expected, bad).toEqual([]);
    else expect(expected.length, `${bad} has a defect`).toBeGreaterThan(0);
    const lintedBad = await linted(join(dir, 'bad.ts'));
    expect(lintedBad, bad).toEqual(expected);
    expect(await linted(join(dir, 'clean.ts'))).toEqual([]);
  });
});
