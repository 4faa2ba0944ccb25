/**
 * Runs the real `mcp-shape` command line in a child process, as a user would: the sources bundled at
 * the start of the test run (test/support/cli-bundle.ts, built by the global setup).
 */

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { inject } from 'vitest';

export const REPO_ROOT = join(import.meta.dirname, '../..');

declare module 'vitest' {
  export interface ProvidedContext {
    /** The CLI bundle the global setup built for this run. */
    cliBundle: string;
  }
}

/** The CLI bundle of this run, a script for `node`. */
export function cliBundle(): string {
  return inject('cliBundle');
}

/** `node` arguments that start the command line with `args`, for tests that spawn it themselves. */
export function cliArgs(args: readonly string[]): string[] {
  return [cliBundle(), ...args];
}

/**
 * Timeout for a test that spawns the CLI: a second or more per spawn on a loaded 2-core machine, so a
 * test of several spawns needs more than vitest's default.
 */
export const CLI_TEST_TIMEOUT = 120_000;

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  input?: string;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

export function runCli(args: readonly string[], options: RunOptions = {}): Promise<CliRun> {
  return runNode(cliArgs(args), options);
}

/** Runs `node …args` without colours and collects its output; killed after `timeoutMs`. */
export function runNode(args: readonly string[], options: RunOptions = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: options.cwd ?? REPO_ROOT,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    if (options.input !== undefined) child.stdin.end(options.input);
    else child.stdin.end();
  });
}
