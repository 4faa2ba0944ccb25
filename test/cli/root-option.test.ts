/**
 * --root names the repository root SARIF URIs and fingerprints are relative to: a directory. A file or
 * a path that is not there is refused before the run, in one line on stderr with the usage exit code,
 * whether it came from the command line or from the configuration's `root`.
 */

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_TEST_TIMEOUT, runCli } from '../support/cli.js';

function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-shape-root-'));
  writeFileSync(join(dir, 'result.json'), '{"jsonrpc":"2.0","id":1,"result":{"content":[]}}\n');
  writeFileSync(join(dir, 'notes.txt'), 'a file\n');
  mkdirSync(join(dir, 'sub'));
  return dir;
}

describe('--root', { timeout: CLI_TEST_TIMEOUT }, () => {
  it('refuses a file or a missing path in one line, exit 2, and takes a directory', async () => {
    const cwd = workspace();
    const file = await runCli(['check', 'result.json', '--format', 'sarif', '--root', 'notes.txt'], { cwd });
    expect([file.code, file.stdout, file.stderr.trimEnd().split('\n')]).toEqual([
      2,
      '',
      ['mcp-shape: --root notes.txt: not a directory; it names the repository root'],
    ]);
    const missing = await runCli(['check', 'result.json', '--root', 'gone'], { cwd });
    expect([missing.code, missing.stderr.trimEnd().split('\n')]).toEqual([
      2,
      ['mcp-shape: --root gone: no such directory'],
    ]);
    const directory = await runCli(['check', 'result.json', '--format', 'sarif', '--root', 'sub'], { cwd });
    expect([directory.code, directory.stderr]).toEqual([0, '']);
  });

  it('refuses a file named by the configuration', async () => {
    const cwd = workspace();
    writeFileSync(join(cwd, 'mcp-shape.config.json'), '{"root": "notes.txt"}\n');
    const run = await runCli(['check', 'result.json'], { cwd });
    expect(run.code).toBe(2);
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^mcp-shape: root \S*notes\.txt \(.*mcp-shape\.config\.json\): not a directory/),
    ]);
  });
});
