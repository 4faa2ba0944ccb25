/**
 * Two outputs of one run sent to one place. The one written last used to replace the other without a
 * word (`--out r.json --write-baseline r.json` left the baseline where the report was asked for), and
 * two on standard output came one after the other as one document no reader parses (`--report json:-`
 * after the text report, `repair --report -` after the repaired document). Each is now a usage error,
 * before the run: nothing is written, and an audit does not start its server.
 */

import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_TEST_TIMEOUT, runCli } from '../support/cli.js';

function workDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-shape-outputs-'));
  writeFileSync(join(dir, 'result.json'), JSON.stringify({ content: 'a string' }));
  return dir;
}

describe('outputs of one run sent to one place', { timeout: CLI_TEST_TIMEOUT }, () => {
  it('is one line and exit 2, naming both options, and nothing is written', async () => {
    const cases: [string[], string][] = [
      [
        ['check', 'result.json', '--out', 'r.json', '--write-baseline', './r.json'],
        'mcp-shape: --out and --write-baseline both write ./r.json: give each its own file (see mcp-shape check --help)',
      ],
      [
        ['check', 'result.json', '--out', 'r.json', '--report', 'sarif:r.json'],
        'mcp-shape: --out and --report sarif:r.json both write r.json: give each its own file (see mcp-shape check --help)',
      ],
      [
        ['check', 'result.json', '--report', 'json:-'],
        'mcp-shape: the report and --report json:- both write standard output: give each its own file (see mcp-shape check --help)',
      ],
      [
        ['repair', 'result.json', '--report', '-'],
        'mcp-shape: the repaired document and --report both write standard output: give each its own file (see mcp-shape repair --help)',
      ],
      [
        // Refused before the server is started: not "command not found" (exit 3).
        ['audit', '--out', 'r.json', '--record', 'r.json', '--', 'no-such-mcp-server-command'],
        'mcp-shape: --out and --record both write r.json: give each its own file (see mcp-shape audit --help)',
      ],
    ];
    for (const [args, line] of cases) {
      const cwd = workDir();
      const run = await runCli(args, { cwd });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toBe(`${line}\n`);
      expect(run.stdout).toBe('');
      expect(existsSync(join(cwd, 'r.json'))).toBe(false);
    }
  });

  it('each output in its own place is written', async () => {
    const cwd = workDir();
    const run = await runCli(
      ['check', 'result.json', '--out', '-', '--report', 'json:r.json', '--write-baseline', 'b.json'],
      { cwd },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('result-content-not-array');
    expect(JSON.parse(readFileSync(join(cwd, 'r.json'), 'utf8')).command).toBe('check');
    expect(JSON.parse(readFileSync(join(cwd, 'b.json'), 'utf8')).findings).toHaveLength(1);
  });
});
