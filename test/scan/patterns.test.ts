/**
 * One fixture directory per pattern the value analysis must follow (issue 8, items 1 and 2), each
 * with a server with exactly one defect in one branch (`bad.*`) and its clean twin (`clean.*`), in
 * TS and in Python. The directory is scanned as one project (imports followed); every finding must
 * match an `expect: <rule>` comment on its line, possibly in a helper file; the bad server's
 * verdict fails (when its defect is an error: a warning such as an error payload without isError
 * leaves every block typed), and the clean twin has no finding and passes.
 *
 * A bad server whose defect is a value the analysis cannot see marks its return with
 * `unresolved: <start of the reason>` instead: it has no finding (unknown is not invalid), that
 * return is the one unresolved entry, with that reason, and the verdict is not a pass.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getRule } from '../../src/rules/catalog.js';
import { scanPaths } from '../../src/scan/index.js';
import { computeVerdict } from '../../src/scan/verdict.js';
import { REPO_ROOT } from '../support/cli.js';

const root = join(REPO_ROOT, 'fixtures/scan/patterns');
const patterns = readdirSync(root).sort();

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)],
  );
}

/** `rule@file:line` for every `expect:` comment under `dir`. */
function expectations(dir: string): string[] {
  const found: string[] = [];
  for (const file of filesUnder(dir)) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        const match = line.match(/(?:\/\/|#) expect: ([a-z0-9 -]+)$/);
        for (const rule of match?.[1]?.trim().split(/\s+/) ?? []) {
          found.push(`${rule}@${relative(REPO_ROOT, file)}:${i + 1}`);
        }
      });
  }
  return found.sort();
}

/** `file:line reason` for every `unresolved:` comment in `file`. */
function unresolvedMarks(file: string): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line, i) => {
      const match = line.match(/(?:\/\/|#) unresolved: (.+)$/);
      return match ? [`${relative(REPO_ROOT, file)}:${i + 1} ${match[1]?.trim()}`] : [];
    });
}

describe('value-analysis patterns', () => {
  it('cover every pattern in TS and Python, a bad server and a clean twin each', () => {
    expect(patterns.length).toBeGreaterThanOrEqual(24);
    for (const pattern of patterns) {
      const names = filesUnder(join(root, pattern)).map((f) => f.replace(/^.*\//, ''));
      const languages = ['ts', 'py'].filter((ext) => names.includes(`bad.${ext}`));
      expect(languages.length, pattern).toBeGreaterThan(0);
      for (const ext of languages) expect(names, pattern).toContain(`clean.${ext}`);
    }
    const both = patterns.filter((p) => {
      const names = filesUnder(join(root, p)).map((f) => f.replace(/^.*\//, ''));
      return names.includes('bad.ts') && names.includes('bad.py');
    });
    expect(both.length).toBeGreaterThanOrEqual(20);
  });

  it.each(patterns)(
    '%s: one defect in the bad server, where the fix goes; nothing in the clean twin',
    async (pattern) => {
      const dir = join(root, pattern);
      const { report, files } = await scanPaths([dir], { cwd: REPO_ROOT });
      expect(report.details?.unscanned, JSON.stringify(report.details?.unscanned)).toBeUndefined();
      const reported = report.findings
        .filter((f) => f.severity !== 'info')
        .map((f) => `${f.rule}@${f.location?.file}:${f.location?.line}`)
        .sort();
      expect(reported).toEqual(expectations(dir));

      for (const scanned of files) {
        const name = scanned.file.replace(/^.*\//, '');
        if (!/^(bad|clean)\./.test(name)) continue;
        expect(scanned.handlers.length, `${scanned.file} has a handler`).toBeGreaterThan(0);
        const verdict = computeVerdict(scanned.handlers);
        // Findings whose defect reaches a return of this file.
        const reaching = report.findings.filter(
          (f) => f.severity !== 'info' && f.location?.reaches?.some((r) => r.file === scanned.file),
        );
        const standalone = report.findings.filter(
          (f) => f.severity !== 'info' && !f.location?.reaches && f.location?.file === scanned.file,
        );
        const defects = [...reaching, ...standalone];
        if (name.startsWith('clean.')) {
          expect(defects, scanned.file).toEqual([]);
          expect(verdict.status, `${scanned.file}: ${verdict.detail}`).toBe('pass');
        } else if (unresolvedMarks(join(REPO_ROOT, scanned.file)).length > 0) {
          expect(defects, scanned.file).toEqual([]);
          const entries = scanned.handlers.flatMap((h) =>
            h.returns
              .filter((r) => r.status === 'unresolved')
              .map((r) => ({ at: `${r.file}:${r.line}`, reason: r.reason ?? '' })),
          );
          const marks = unresolvedMarks(join(REPO_ROOT, scanned.file));
          expect(entries.map((e) => e.at)).toEqual(marks.map((m) => m.slice(0, m.indexOf(' '))));
          entries.forEach((entry, i) => {
            expect(entry.reason).toContain(marks[i]?.slice(marks[i].indexOf(' ') + 1));
          });
          expect(verdict).toMatchObject({ status: 'fail', invalid: 0, unresolved: marks.length });
          expect(verdict.typed).toBeLessThan(verdict.returns);
        } else {
          expect(defects.length, `${scanned.file}: ${defects.map((d) => d.message).join('; ')}`).toBe(1);
          const [defect] = defects;
          if (getRule(defect?.rule ?? '')?.severity === 'error') {
            expect(verdict.status, `${scanned.file}: ${verdict.detail}`).toBe('fail');
            expect(verdict.invalid).toBeGreaterThan(0);
          }
        }
      }
    },
  );
});
