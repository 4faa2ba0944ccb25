/**
 * The suite's file order (test/support/slow-first-sequencer.ts): slowest first, by the durations vitest
 * cached, else by those recorded in test/support/durations.json (scripts/test-durations.ts writes them
 * from a JSON report), else as a one-second file; and the recorded table names files that exist.
 */

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestSpecification, Vitest } from 'vitest/node';
import { REPO_ROOT } from '../support/cli.js';
import { SlowFirstSequencer } from '../support/slow-first-sequencer.js';

const RECORDED: Record<string, number> = JSON.parse(
  readFileSync(join(REPO_ROOT, 'test/support/durations.json'), 'utf8'),
);

function sequencer(cached: Record<string, number>): SlowFirstSequencer {
  const ctx = {
    config: { root: REPO_ROOT },
    cache: {
      getFileTestResults: (key: string) => {
        const duration = cached[key.slice(key.indexOf(':') + 1)];
        return duration === undefined ? undefined : { duration, failed: false };
      },
    },
  };
  return new SlowFirstSequencer(ctx as unknown as Vitest);
}

const spec = (path: string) =>
  ({ moduleId: join(REPO_ROOT, path), project: { name: '' } }) as unknown as TestSpecification;
const order = async (s: SlowFirstSequencer, paths: string[]) =>
  (await s.sort(paths.map(spec))).map((x) => x.moduleId.slice(REPO_ROOT.length + 1));

describe('the order test files start in', () => {
  const [slowest, second] = Object.keys(RECORDED);
  const unrecorded = 'test/core/json.test.ts';

  it('puts the slowest recorded files first without a cache, and an unrecorded file after them', async () => {
    expect(RECORDED[unrecorded]).toBeUndefined();
    expect(await order(sequencer({}), [unrecorded, second as string, slowest as string])).toEqual([
      slowest,
      second,
      unrecorded,
    ]);
  });

  it('prefers the durations vitest cached', async () => {
    const cached = { [unrecorded]: 999_000 };
    expect(await order(sequencer(cached), [slowest as string, unrecorded])).toEqual([unrecorded, slowest]);
  });

  it('records only files that exist, the slowest first', () => {
    const seconds = Object.values(RECORDED);
    expect(seconds.length).toBeGreaterThan(10);
    expect(seconds).toEqual([...seconds].sort((a, b) => b - a));
    for (const path of Object.keys(RECORDED)) expect(existsSync(join(REPO_ROOT, path)), path).toBe(true);
  });

  it('is recorded by test:durations from a JSON report, files under two seconds left out', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-shape-durations-'));
    const report = join(dir, 'report.json');
    const out = join(dir, 'durations.json');
    writeFileSync(
      report,
      JSON.stringify({
        testResults: [
          { name: join(REPO_ROOT, 'test/a.test.ts'), startTime: 0, endTime: 1_400 },
          { name: join(REPO_ROOT, 'test/b.test.ts'), startTime: 0, endTime: 7_600 },
          { name: join(REPO_ROOT, 'test/c.test.ts'), startTime: 0, endTime: 2_000 },
        ],
      }),
    );
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(REPO_ROOT, 'scripts/test-durations.ts'), report, out],
      { encoding: 'utf8' },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({ 'test/b.test.ts': 8, 'test/c.test.ts': 2 });
    expect(Object.keys(JSON.parse(readFileSync(out, 'utf8')))).toEqual(['test/b.test.ts', 'test/c.test.ts']);
  });
});
