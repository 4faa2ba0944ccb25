/**
 * Output that cannot be written, found out after the command started: standard output on a full disk,
 * an audit's or a proxy's --record there. /dev/full (Linux) fails every write with ENOSPC, as a disk
 * that filled up does. Each is one line on stderr, never a stack trace, and what can go on goes on.
 */

import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { CLI_TEST_TIMEOUT, cliArgs, REPO_ROOT, runCli } from '../support/cli.js';

const FULL = '/dev/full';
const SERVER = join(REPO_ROOT, 'fixtures/servers/conformant.mjs');

/** Runs the CLI with its standard output on /dev/full; its exit code and stderr. */
function toFullDisk(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  const out = openSync(FULL, 'w');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, cliArgs(args), {
      cwd: REPO_ROOT,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', out, 'pipe'],
    });
    closeSync(out);
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe.runIf(existsSync(FULL))('output on a full disk', { timeout: CLI_TEST_TIMEOUT }, () => {
  it('standard output that cannot be written is one line and exit 2, for a report and for --help', async () => {
    const result = join(mkdtempSync(join(tmpdir(), 'mcp-shape-full-')), 'result.json');
    writeFileSync(result, JSON.stringify({ content: [{ type: 'text', text: 'hi' }] }));
    for (const args of [
      ['check', result],
      ['repair', result],
      ['audit', '--help'],
    ]) {
      const run = await toFullDisk(args);
      expect(run.code, run.stderr).toBe(2);
      // It was an uncaught ENOSPC with its stack trace.
      expect(run.stderr.trimEnd().split('\n')).toEqual(
        expect.arrayContaining(['mcp-shape: cannot write standard output: no space left on device']),
      );
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('an audit whose --record fails mid-way finishes its report, then says so in one line with exit 2', async () => {
    const run = await runCli([
      'audit',
      '--protocol',
      '2025-06-18',
      '--format',
      'json',
      '--record',
      FULL,
      '--',
      process.execPath,
      SERVER,
    ]);
    // It was an internal error (exit 70) thrown out of the first request's send.
    expect(run.code, run.stderr).toBe(2);
    expect(JSON.parse(run.stdout).summary.versionsAudited).toBe(1);
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      `mcp-shape: no space left on device: ${FULL} (--record): the recording stops after 0 frames`,
    ]);
  });

  it('a proxy whose --record fails goes on relaying to the SDK client and says so once', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: cliArgs(['proxy', '--quiet', '--record', FULL, '--', process.execPath, SERVER]),
      cwd: REPO_ROOT,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const client = new Client({ name: 'full-disk', version: '1.0.0' });
    try {
      await client.connect(transport, { timeout: 20_000 });
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(0);
      await expect.poll(() => stderr, { timeout: 10_000 }).toContain('cannot write --record');
    } finally {
      await client.close();
    }
    // It was silent: the operator learnt only from the empty file that nothing had been recorded.
    expect(stderr.trimEnd().split('\n')).toEqual([
      `mcp-shape proxy: cannot write --record, the recording stops here: no space left on device: ${FULL}`,
    ]);
  });
});
