/**
 * Standard output closed by its reader (EPIPE): `mcp-shape check … | head` is the reader's choice and
 * says nothing, but under the stdio proxy it is the client going away, and the proxy used to exit
 * without a word on stderr, where its log goes. The real CLI, its stdout a pipe whose reader is gone.
 */

import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_TEST_TIMEOUT, cliArgs, REPO_ROOT } from '../support/cli.js';

const SERVER = join(REPO_ROOT, 'fixtures/servers/conformant.mjs');
const SAID =
  'mcp-shape proxy: the client stopped reading (its end of standard output is closed); exiting, which ends the server';

/**
 * Runs the CLI with its standard output closed before it writes, `input` on its standard input (kept
 * open, as a client keeps it); its exit code and stderr once it exits.
 */
function withStdoutClosed(
  args: readonly string[],
  input: string,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, cliArgs(args), {
      cwd: REPO_ROOT,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.stdin.on('error', () => {});
    child.stdin.write(input);
    child.on('error', reject);
    child.on('close', (code) => {
      child.stdin.destroy();
      resolve({ code, stderr });
    });
  });
}

const initialize = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
})}\n`;

describe('standard output closed by its reader', { timeout: CLI_TEST_TIMEOUT }, () => {
  it('the stdio proxy says in one line on stderr that the client went away, with --quiet too', async () => {
    for (const quiet of [[], ['--quiet']]) {
      const run = await withStdoutClosed(['proxy', ...quiet, '--', process.execPath, SERVER], initialize);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr.trimEnd().split('\n')).toEqual([SAID]);
    }
  });

  it('check says nothing: a reader that stops early is no error', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mcp-shape-epipe-')), 'result.json');
    writeFileSync(file, JSON.stringify({ content: 'x'.repeat(200_000) }));
    const run = await withStdoutClosed(['check', file, '--format', 'json'], '');
    expect(run.stderr).toBe('');
  });
});
