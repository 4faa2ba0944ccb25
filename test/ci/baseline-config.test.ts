/**
 * The README's configuration names the baseline (`"scan": { "baseline": "mcp-shape.baseline.json" }`)
 * and its Baselines section records it with `--write-baseline`. The first recording has no file to read
 * yet: it must record it, not stop at the missing file the configuration names.
 */

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_TEST_TIMEOUT, runCli } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-shape-baseline-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a baseline named by the configuration', () => {
  it(
    'is recorded by the first --write-baseline, then hides what it records; without it, a missing one is an error',
    async () => {
      writeFileSync(join(dir, 'result.json'), JSON.stringify({ content: [{ type: 'text' }] }));
      writeFileSync(join(dir, 'mcp-shape.config.json'), JSON.stringify({ check: { baseline: 'base.json' } }));
      const baseline = join(dir, 'base.json');

      const missing = await runCli(['check', 'result.json'], { cwd: dir });
      expect([missing.code, missing.stderr]).toEqual([
        2,
        `mcp-shape: no such file: ${baseline} (--baseline; record one with --write-baseline FILE)\n`,
      ]);

      const written = await runCli(['check', 'result.json', '--write-baseline', 'base.json'], { cwd: dir });
      expect([written.code, written.stderr]).toEqual([0, 'mcp-shape: recorded 1 finding in base.json\n']);
      expect(existsSync(baseline)).toBe(true);
      expect(JSON.parse(readFileSync(baseline, 'utf8')).findings).toMatchObject([
        { rule: 'block-text-invalid' },
      ]);

      const hidden = await runCli(['check', 'result.json', '--format', 'json'], { cwd: dir });
      expect(hidden.code).toBe(0);
      expect(JSON.parse(hidden.stdout).summary.baseline).toEqual({ hidden: 1, stale: 0 });
    },
    CLI_TEST_TIMEOUT,
  );

  it(
    'of standard input matches from any working directory',
    async () => {
      const input = JSON.stringify({ content: [{ type: 'text' }] });
      // In a repository, whose root fingerprints are relative to, and one of its subdirectories.
      mkdirSync(join(dir, '.git'), { recursive: true });
      mkdirSync(join(dir, 'sub'), { recursive: true });
      const baseline = join(dir, 'stdin.json');
      const written = await runCli(['check', '-', '--write-baseline', baseline], { cwd: dir, input });
      expect(written.code).toBe(0);
      expect(JSON.parse(readFileSync(baseline, 'utf8')).findings).toMatchObject([{ file: '<stdin>' }]);
      for (const cwd of [dir, join(dir, 'sub')]) {
        const run = await runCli(['check', '-', '--baseline', baseline, '--format', 'json'], { cwd, input });
        expect([run.code, JSON.parse(run.stdout).summary.baseline]).toEqual([0, { hidden: 1, stale: 0 }]);
      }
    },
    CLI_TEST_TIMEOUT,
  );
});
