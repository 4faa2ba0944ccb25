/**
 * GitHub code scanning closes an alert as fixed when its result stops appearing. A finding a baseline
 * accepts is not fixed: the SARIF report keeps it as a result with an external suppression, which code
 * scanning shows as dismissed, while the exit code and the other reports leave it out as before.
 */

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_TEST_TIMEOUT, runCli } from '../support/cli.js';
import { expectValidSarif, HAS_SARIF_SCHEMA } from '../support/sarif-schema.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-shape-baseline-sarif-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface SarifResult {
  ruleId: string;
  level: string;
  suppressions?: { kind: string; status?: string; justification?: string }[];
  partialFingerprints: Record<string, string>;
}

describe('a baseline in a SARIF report', () => {
  it(
    'keeps each finding it hides as a suppressed result, apart from the new ones',
    async () => {
      writeFileSync(join(dir, 'result.json'), JSON.stringify({ content: [{ type: 'text' }] }));
      const written = await runCli(['check', 'result.json', '--write-baseline', 'base.json'], { cwd: dir });
      expect(written.code).toBe(0);

      const accepted = await runCli(
        ['check', 'result.json', '--baseline', 'base.json', '--format', 'sarif'],
        {
          cwd: dir,
        },
      );
      expect(accepted.code).toBe(0);
      const sarif = JSON.parse(accepted.stdout);
      if (HAS_SARIF_SCHEMA) expectValidSarif(sarif);
      const [only, ...none] = sarif.runs[0].results as SarifResult[];
      expect(none).toEqual([]);
      expect(only).toMatchObject({
        ruleId: 'block-text-invalid',
        level: 'error',
        suppressions: [
          { kind: 'external', status: 'accepted', justification: 'recorded in the baseline base.json' },
        ],
      });

      // A new defect beside it is a result without suppression, and fails the run.
      writeFileSync(
        join(dir, 'result.json'),
        JSON.stringify({ content: [{ type: 'text' }, { type: 'image', data: 'aGVsbG8=' }] }),
      );
      const grown = await runCli(['check', 'result.json', '--baseline', 'base.json', '--format', 'sarif'], {
        cwd: dir,
      });
      expect(grown.code).toBe(1);
      const results = JSON.parse(grown.stdout).runs[0].results as SarifResult[];
      expect(results.filter((r) => r.suppressions === undefined).length).toBeGreaterThan(0);
      expect(results.filter((r) => r.suppressions !== undefined).map((r) => r.ruleId)).toEqual([
        'block-text-invalid',
      ]);
      const fingerprints = results.map((r) => Object.values(r.partialFingerprints)[0]);
      expect(new Set(fingerprints).size).toBe(results.length);

      // The JSON report still only counts what the baseline hid.
      const json = await runCli(['check', 'result.json', '--baseline', 'base.json', '--format', 'json'], {
        cwd: dir,
      });
      const report = JSON.parse(json.stdout);
      expect(report.summary.baseline).toEqual({ hidden: 1, stale: 0 });
      expect(report.findings.map((f: { rule: string }) => f.rule)).not.toContain('block-text-invalid');
    },
    CLI_TEST_TIMEOUT,
  );
});
