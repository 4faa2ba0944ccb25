/**
 * Nothing a stdio server started outlives the proxy, not even processes that left the server's process
 * group (which the group's signals and the watchdog never reach): real servers start them with
 * `setsid`, `detached: true`, a double fork and an empty environment, and each test ends by reading
 * /proc for their pids. Linux only: elsewhere there is no /proc to find them with.
 */

import { type ChildProcess, type ChildProcessByStdio, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { Descendants, readStat } from '../../src/proxy/descendants.js';
import { REPO_ROOT } from '../support/cli.js';
import { processesLeft, type RunningProxy, startProxy } from './support/processes.js';

const ESCAPING_SERVER = join(REPO_ROOT, 'test/proxy/support/escaping-server.mjs');
const KEEPALIVE = 'process.stdout.write(process.pid + "\\n"); setTimeout(() => {}, 60000)';

const started: (RunningProxy | ChildProcess)[] = [];
const pidsToKill: number[] = [];

afterEach(() => {
  for (const item of started.splice(0)) {
    const child = 'child' in item ? item.child : item;
    if (child.exitCode === null) child.kill('SIGKILL');
  }
  for (const pid of pidsToKill.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone, as it should be
    }
  }
});

/** Whether the process is alive (a zombie is not). */
function alive(pid: number): boolean {
  const stat = readStat(pid);
  return stat !== undefined && stat.state !== 'Z';
}

/** The proxy in front of escaping-server.mjs with `flags`; resolves with the pids its processes said. */
async function proxyFor(
  flags: string[],
  proxyFlags: string[] = ['--grace', '1'],
): Promise<{ proxy: RunningProxy; pids: Record<string, number> }> {
  const marker = `marker-${randomUUID()}-`;
  const proxy = startProxy([...proxyFlags, '--', process.execPath, ESCAPING_SERVER, ...flags, marker]);
  started.push(proxy);
  await proxy.stderrContains('escaping-server ready');
  const line = /escaping-server ready(.*)/.exec(proxy.stderr())?.[1] ?? '';
  const pids = Object.fromEntries(
    [...line.matchAll(/([a-z-]+)=(\d+)/g)].map((m) => [m[1] as string, Number(m[2])]),
  );
  pidsToKill.push(...Object.values(pids));
  return { proxy, pids };
}

/** A process the test itself starts, like the server's but no relation of it; resolves with its pid. */
async function bystander(): Promise<number> {
  return saidPid(spawn(process.execPath, ['-e', KEEPALIVE], { stdio: ['ignore', 'pipe', 'ignore'] }));
}

/** The pid a KEEPALIVE process wrote on its standard output (`child` may be a shell that started it). */
function saidPid(child: ChildProcessByStdio<null, Readable, null>): Promise<number> {
  started.push(child);
  return new Promise<number>((resolve) =>
    child.stdout.setEncoding('utf8').once('data', (text: string) => resolve(Number(text.trim()))),
  );
}

const LINUX = Descendants.supported;

describe.runIf(LINUX)('proxy: no process the server started is left behind', () => {
  it('ends a setsid grandchild and a detached child when the client closes its input', async () => {
    const other = await bystander();
    const { proxy, pids } = await proxyFor(['--setsid', '--detached']);
    expect(Object.keys(pids).sort()).toEqual(['detached', 'setsid']);
    for (const pid of Object.values(pids)) expect(alive(pid)).toBe(true);
    proxy.child.stdin.end();
    expect(await proxy.exited).toEqual({ code: 0, signal: null });
    for (const pid of Object.values(pids)) expect(alive(pid)).toBe(false);
    expect(proxy.stderr()).toMatch(
      /2 processes the server started outlived it \(pid \d+, \d+\): sending SIGTERM/,
    );
    // A process of the same user, started alike but not by the server, is untouched.
    expect(alive(other)).toBe(true);
  }, 120_000);

  it('ends one that ignores SIGTERM with SIGKILL when the proxy gets SIGTERM', async () => {
    const { proxy, pids } = await proxyFor(['--setsid', '--deaf']);
    proxy.child.kill('SIGTERM');
    // The server is killed by the SIGTERM forwarded to its group.
    expect(await proxy.exited).toEqual({ code: 143, signal: null });
    expect(alive(pids.setsid as number)).toBe(false);
    expect(proxy.stderr()).toContain('1 process still running');
    expect(proxy.stderr()).toContain('sending SIGKILL');
  }, 120_000);

  it('ends a process whose parent exited at once (found by its environment) on SIGINT', async () => {
    const { proxy, pids } = await proxyFor(['--double-fork']);
    const pid = pids['double-fork'] as number;
    expect(readStat(pid)?.ppid).not.toBe(proxy.child.pid);
    proxy.child.kill('SIGINT');
    expect(await proxy.exited).toEqual({ code: 130, signal: null });
    expect(alive(pid)).toBe(false);
  }, 120_000);

  it('leaves none behind when the proxy itself is killed with SIGKILL: the watchdog finds them by their token', async () => {
    const { proxy, pids } = await proxyFor(['--setsid', '--double-fork', '--deaf']);
    proxy.child.kill('SIGKILL');
    expect(await proxy.exited).toEqual({ code: null, signal: 'SIGKILL' });
    // The watchdog acts once the proxy is gone: SIGTERM (ignored), then SIGKILL after --grace.
    const left = await processesLeft((row) => Object.values(pids).includes(row.pid));
    expect(left).toEqual([]);
  }, 120_000);

  it('ends a detached child started with an empty environment (found by its parent)', async () => {
    const { proxy, pids } = await proxyFor(['--clean-env']);
    proxy.child.stdin.end();
    expect(await proxy.exited).toEqual({ code: 0, signal: null });
    expect(alive(pids['clean-env'] as number)).toBe(false);
  }, 120_000);
});

describe.runIf(LINUX)('Descendants', () => {
  it('finds a process with its token in the environment, whatever its parent, and signals it', async () => {
    const descendants = new Descendants();
    // Started by this test with the token: as though the server had, and its parent exited.
    const pid = await saidPid(
      spawn('sh', ['-c', `setsid "$@" &`, 'sh', process.execPath, '-e', KEEPALIVE], {
        env: descendants.environment(),
        stdio: ['ignore', 'pipe', 'ignore'],
      }),
    );
    pidsToKill.push(pid);
    const other = await bystander();
    expect(descendants.left().map((p) => p.pid)).toEqual([pid]);
    const logged: string[] = [];
    await descendants.end(100, (line) => logged.push(line));
    expect(alive(pid)).toBe(false);
    expect(alive(other)).toBe(true);
    expect(logged).toEqual([
      `1 process the server started outlived it (pid ${pid}): sending SIGTERM, then SIGKILL 0.1 s later`,
    ]);
    expect(descendants.left()).toEqual([]);
  }, 60_000);

  it('does not signal a pid whose start time is not the one found (a reused pid)', async () => {
    const other = await bystander();
    const stat = readStat(other);
    expect(stat).toBeDefined();
    const descendants = new Descendants();
    descendants.signal([{ ...(stat as NonNullable<typeof stat>), start: (stat?.start ?? 0) + 1 }], 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(alive(other)).toBe(true);
    descendants.signal([stat as NonNullable<typeof stat>], 'SIGKILL');
    await new Promise<void>((resolve) => {
      const check = () => (alive(other) ? setTimeout(check, 20) : resolve());
      check();
    });
    expect(alive(other)).toBe(false);
  }, 60_000);

  it('adds its token to an inherited one, so that an outer proxy still finds the process', () => {
    const outer = new Descendants();
    const saved = process.env.MCP_SHAPE_PROXY;
    process.env.MCP_SHAPE_PROXY = outer.token;
    try {
      const inner = new Descendants();
      expect(inner.environment().MCP_SHAPE_PROXY).toBe(`${outer.token} ${inner.token}`);
    } finally {
      if (saved === undefined) delete process.env.MCP_SHAPE_PROXY;
      else process.env.MCP_SHAPE_PROXY = saved;
    }
  });
});
