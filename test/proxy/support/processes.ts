/**
 * Real processes for the proxy tests: the proxy CLI started as a user's client would, and `ps` to prove
 * that nothing it started is left behind. Everything waits on events or polls with generous deadlines:
 * several test suites share two cores, so no step may assume speed.
 */

import {
  type ChildProcess,
  type ChildProcessWithoutNullStreams,
  execFileSync,
  spawn,
} from 'node:child_process';
import { join } from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cliArgs, REPO_ROOT } from '../../support/cli.js';

export const LIFECYCLE_SERVER = join(REPO_ROOT, 'test/proxy/support/lifecycle-server.mjs');

export interface ProcessRow {
  readonly pid: number;
  readonly ppid: number;
  readonly stat: string;
  readonly args: string;
}

/** Every process on the machine that is not a zombie (a zombie has exited; it only awaits its reaper). */
export function livingProcesses(): ProcessRow[] {
  const out = execFileSync('ps', ['-eo', 'pid=,ppid=,stat=,args='], { encoding: 'utf8', maxBuffer: 1 << 26 });
  return out
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), stat: m[3] as string, args: m[4] as string }))
    .filter((row) => !row.stat.startsWith('Z'));
}

/** Polls `ps` until no living process matches; resolves with what is still there at the deadline. */
export async function processesLeft(
  match: (row: ProcessRow) => boolean,
  timeoutMs = 30_000,
): Promise<ProcessRow[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = livingProcesses().filter(match);
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface RunningProxy {
  readonly child: ChildProcessWithoutNullStreams;
  stderr(): string;
  /** Lines the proxy wrote to its standard output so far. */
  lines(): string[];
  /** Resolves once standard error contains `text`. */
  stderrContains(text: string, timeoutMs?: number): Promise<void>;
  /** Resolves once `count` lines have arrived on standard output. */
  linesArrived(count: number, timeoutMs?: number): Promise<string[]>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `mcp-shape proxy …args` (the CLI bundle of this run), with pipes on all three streams. */
export function startProxy(args: readonly string[]): RunningProxy {
  const child = spawn(process.execPath, cliArgs(['proxy', ...args]), {
    cwd: REPO_ROOT,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  // Counted as they come: splitting all of stdout at each chunk made a 20 MB flood quadratic (40 s).
  let newlines = 0;
  const waiters: (() => void)[] = [];
  const notify = () => {
    for (const waiter of waiters.splice(0)) waiter();
  };
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
    notify();
  });
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    stdout += text;
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) newlines++;
    notify();
  });
  child.stdin.on('error', () => {});
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      notify();
      resolve({ code, signal });
    }),
  );
  // Complete lines only: a line still arriving would be counted, and read, cut short.
  const lines = () =>
    stdout
      .slice(0, stdout.lastIndexOf('\n') + 1)
      .split('\n')
      .filter((line) => line !== '');
  const until = (done: () => boolean, what: () => string, timeoutMs: number) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${what()}; stderr so far:\n${stderr}`)), timeoutMs);
      const check = () => {
        if (done()) {
          clearTimeout(timer);
          resolve();
        } else waiters.push(check);
      };
      check();
    });
  return {
    child,
    stderr: () => stderr,
    lines,
    stderrContains: (text, timeoutMs = 60_000) =>
      until(
        () => stderr.includes(text),
        () => `stderr never said "${text}"`,
        timeoutMs,
      ),
    linesArrived: async (count, timeoutMs = 60_000) => {
      // Every complete line is one newline, but for empty ones, which lines() leaves out: counted
      // by lines() only once there are newlines enough.
      await until(
        () => newlines >= count && lines().length >= count,
        () => `only ${lines().length} of ${count} lines arrived`,
        timeoutMs,
      );
      return lines();
    },
    exited,
  };
}

export interface UrlProxy {
  readonly url: string;
  readonly stderr: () => string;
  readonly child: ChildProcess;
}

/**
 * Starts `mcp-shape proxy --url UPSTREAM …extra` (the CLI bundle of this run); `started` resolves with
 * the URL it prints once it listens. The caller kills `child` when done.
 */
export function startUrlProxy(
  upstream: string,
  extra: readonly string[] = [],
): { child: ChildProcess; started: Promise<UrlProxy> } {
  const child = spawn(process.execPath, cliArgs(['proxy', '--url', upstream, ...extra]), {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const started = new Promise<UrlProxy>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`proxy did not start: ${stderr}`)), 30_000);
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => {
      stderr += text;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
      if (!match?.[1]) return;
      clearTimeout(timer);
      resolve({ url: match[1], stderr: () => stderr, child });
    });
    child.once('exit', (code) => reject(new Error(`proxy exited with ${code}: ${stderr}`)));
  });
  return { child, started };
}

/**
 * Resolves once `done()` holds, or after `ms` (the assertion that follows then says what is missing).
 * A proxy's log and recording travel on other pipes than its answers: a test reads them only once
 * they came, not the moment an answer did.
 */
export async function until(done: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!done() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 20));
}

/**
 * An SDK client transport that starts `mcp-shape proxy …args` (the CLI bundle of this run), as a client
 * configured to use the proxy would, and the proxy's standard error so far.
 */
export function proxiedStdio(args: readonly string[]): { transport: StdioClientTransport; log(): string } {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: cliArgs(['proxy', ...args]),
    cwd: REPO_ROOT,
    stderr: 'pipe',
  });
  let log = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  return { transport, log: () => log };
}
