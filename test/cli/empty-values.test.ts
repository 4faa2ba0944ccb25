/**
 * An option given an empty string, as `--write-baseline "$BASELINE"` with the variable unset gives it:
 * `--write-baseline ""` wrote no baseline and exited 0, `--tools ""` and `--baseline ""` were dropped
 * without a word, `--config ""` was read as the working directory. Each is one line and exit 2.
 */

import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_TEST_TIMEOUT, runCli } from '../support/cli.js';

describe('an option given an empty string', { timeout: CLI_TEST_TIMEOUT }, () => {
  it('is one line naming the option, and exit 2', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'mcp-shape-empty-'));
    writeFileSync(join(cwd, 'result.json'), JSON.stringify({ content: [{ type: 'text', text: 'hi' }] }));
    for (const [command, option] of [
      ['check', '--write-baseline'],
      ['check', '--baseline'],
      ['check', '--tools'],
      ['check', '--config'],
      ['repair', '--out'],
      ['scan', '--exclude'],
    ] as const) {
      const run = await runCli([command, 'result.json', option, ''], { cwd });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toBe(
        `mcp-shape: ${option} takes a value, not an empty string (see mcp-shape ${command} --help)\n`,
      );
      expect(run.stdout).toBe('');
    }
    expect(readdirSync(cwd)).toEqual(['result.json']);
  });
});
