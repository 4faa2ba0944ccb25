/**
 * A configuration that turns a rule off or changes its severity changes what fails the build. The run
 * says so: one line on standard error naming the file and each setting that acted, and `summary.rules`
 * and `details.rules` in the JSON report, as a baseline's hidden findings are said.
 */

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_TEST_TIMEOUT, REPO_ROOT, runCli } from '../support/cli.js';
import { expectValidReport } from '../support/report-schema.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-shape-rule-settings-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('rule settings of the configuration', () => {
  it(
    'are said when they drop or change findings, and not when they act on none',
    async () => {
      // Two text blocks without text (errors), an image whose bytes are no PNG (a warning).
      const result = {
        content: [
          { type: 'text' },
          { type: 'text' },
          { type: 'image', data: 'aGVsbG8=', mimeType: 'image/png' },
        ],
      };
      writeFileSync(join(dir, 'result.json'), JSON.stringify(result));
      const config = join(dir, 'mcp-shape.config.json');
      writeFileSync(
        config,
        JSON.stringify({
          rules: {
            'block-text-invalid': 'off',
            'block-mime-type-mismatch': 'info',
            'tool-name-format': 'off',
          },
        }),
      );
      const run = await runCli(['check', 'result.json', '--format', 'json'], { cwd: dir });
      expect(run.code).toBe(0);
      expect(run.stderr).toBe(
        `mcp-shape: rules set in ${config}: block-mime-type-mismatch info (1 finding), block-text-invalid off (2 findings)\n`,
      );
      const report = JSON.parse(run.stdout);
      // docs/report-schema.json describes both members (its summary and details allow undescribed ones).
      expectValidReport(report);
      const schema = JSON.parse(readFileSync(join(REPO_ROOT, 'docs/report-schema.json'), 'utf8'));
      expect(schema.properties.summary.properties).toHaveProperty('rules');
      expect(schema.properties.details.properties).toHaveProperty('rules');
      expect(report.summary).toMatchObject({
        errors: 0,
        warnings: 0,
        infos: 1,
        rules: { off: 2, changed: 1 },
      });
      expect(report.details.rules).toEqual([
        { rule: 'block-mime-type-mismatch', setting: 'info', findings: 1 },
        { rule: 'block-text-invalid', setting: 'off', findings: 2 },
      ]);

      // Settings that meet no finding of theirs (or set the severity it has) say nothing.
      writeFileSync(
        config,
        JSON.stringify({ rules: { 'tool-name-format': 'off', 'block-text-invalid': 'error' } }),
      );
      const quiet = await runCli(['check', 'result.json', '--format', 'json'], { cwd: dir });
      expect([quiet.code, quiet.stderr]).toEqual([1, '']);
      expect(JSON.parse(quiet.stdout).summary.rules).toBeUndefined();
    },
    CLI_TEST_TIMEOUT,
  );
});
