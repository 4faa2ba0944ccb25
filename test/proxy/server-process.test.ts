/**
 * The server's process group and its watchdog, in this process: ending the watchdog's input (what the
 * proxy's death does, however it dies) takes the group down with SIGTERM, then SIGKILL a grace period
 * later; signals go to the whole group; no watchdog is left for a server that never started.
 * lifecycle.test.ts kills a real proxy with SIGKILL for the same.
 */

import { type ChildProcess, execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { Descendants } from '../../src/proxy/descendants.js';
import { type ServerProcess, startServerProcess } from '../../src/proxy/server-process.js';

/** Sleeps in a loop for at most 10 s: a server that outlives a failed test still ends. */
const LOOP = 'i=0; while [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done';

const TIMEOUT = 15_000;

function start(script: string, watchdog = true): ServerProcess {
  return startServerProcess({ command: 'sh', args: ['-c', script], graceMs: 100, watchdog });
}

/** Resolves with how the process ended. */
function ended(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/** Resolves once the server wrote its first output: its traps are set. */
function ready(server: ServerProcess): Promise<void> {
  return new Promise((resolve) => server.child.stdout.once('data', () => resolve()));
}

describe('startServerProcess', () => {
  it(
    'a watchdog whose input ends sends the server group SIGTERM, then exits',
    async () => {
      const server = start(`echo up; ${LOOP}`);
      await ready(server);
      const watchdog = server.watchdog as ChildProcess;
      expect(watchdog.pid).toBeGreaterThan(0);
      const watchdogEnded = ended(watchdog);
      const serverEnded = ended(server.child);
      watchdog.stdin?.end();
      expect(await serverEnded).toEqual({ code: null, signal: 'SIGTERM' });
      expect(await watchdogEnded).toEqual({ code: 0, signal: null });
    },
    TIMEOUT,
  );

  it(
    '…and SIGKILL a grace period later to a group that ignores SIGTERM',
    async () => {
      const server = start(`trap '' TERM; echo up; ${LOOP}`);
      await ready(server);
      const serverEnded = ended(server.child);
      server.watchdog?.stdin?.end();
      expect(await serverEnded).toEqual({ code: null, signal: 'SIGKILL' });
    },
    TIMEOUT,
  );

  it(
    'a watchdog leaves at once when the group is gone',
    async () => {
      const server = start('echo up');
      const serverEnded = ended(server.child);
      await ready(server);
      await serverEnded;
      const watchdogEnded = ended(server.watchdog as ChildProcess);
      server.watchdog?.stdin?.end();
      expect(await watchdogEnded).toEqual({ code: 0, signal: null });
    },
    TIMEOUT,
  );

  it(
    'sends a signal to the whole group, and none once it is gone',
    async () => {
      // The server's own child traps the signal too: it is in the group.
      const server = start(
        `trap 'exit 5' USR1; sh -c 'trap "echo child; exit 0" USR1; echo up; ${LOOP}' & wait`,
        false,
      );
      let out = '';
      server.child.stdout.setEncoding('utf8').on('data', (text: string) => {
        out += text;
      });
      const closed = new Promise((resolve) => server.child.stdout.once('end', resolve));
      await new Promise<void>((resolve) => {
        const check = () => (out.includes('up') ? resolve() : server.child.stdout.once('data', check));
        check();
      });
      const serverEnded = ended(server.child);
      server.signal('SIGUSR1');
      expect(await serverEnded).toEqual({ code: 5, signal: null });
      await closed;
      expect(out).toBe('up\nchild\n');
      expect(() => server.signal('SIGTERM')).not.toThrow();
      expect(server.watchdog).toBeUndefined();
    },
    TIMEOUT,
  );

  it(
    'leaves no watchdog for a command that does not start',
    async () => {
      const server = startServerProcess({ command: 'mcp-shape-no-such-command', args: [], graceMs: 100 });
      const error = await new Promise<NodeJS.ErrnoException>((resolve) =>
        server.child.once('error', resolve),
      );
      expect(error.code).toBe('ENOENT');
      expect(server.watchdog).toBeUndefined();
      expect(() => server.signal('SIGTERM')).not.toThrow();
    },
    TIMEOUT,
  );
});

describe('startServerProcess: the watchdog and the grace period', () => {
  /** `ps` rows (pid, process group, arguments) of the processes whose arguments contain `text`. */
  const rows = (text: string) =>
    execFileSync('ps', ['-eo', 'pid=,pgid=,stat=,args='], { encoding: 'utf8' })
      .split('\n')
      .map((line) => /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(line))
      .filter((m): m is RegExpExecArray => m !== null && !(m[3] as string).startsWith('Z'))
      .filter((m) => (m[4] as string).includes(text))
      .map((m) => ({ pid: Number(m[1]), pgid: Number(m[2]), args: m[4] as string }));

  /** The watchdog's arguments: its name, the grace period in tenths, the token (Linux), this pid. */
  const named = (server: ServerProcess, tenths: number) =>
    `mcp-shape-watchdog ${tenths} ${Descendants.supported ? server.descendants.token : ''} ${process.pid}`;

  it(
    'runs the watchdog as a group of its own, named, and waits the whole grace period before SIGKILL',
    async () => {
      const server = startServerProcess({
        command: 'sh',
        args: ['-c', `trap 'echo term' TERM; echo up; ${LOOP}`],
        graceMs: 1500,
      });
      expect(server.child.stderr).toBeNull();
      await ready(server);
      const watchdog = server.watchdog as ChildProcess;
      expect(rows(named(server, 15))).toEqual([
        expect.objectContaining({ pid: watchdog.pid, pgid: watchdog.pid }),
      ]);
      const serverEnded = ended(server.child);
      const termed = new Promise<number>((resolve) =>
        server.child.stdout.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('term')) resolve(Date.now());
        }),
      );
      watchdog.stdin?.end();
      const termAt = await termed;
      expect(await serverEnded).toEqual({ code: null, signal: 'SIGKILL' });
      // 15 tenths of a second counted in sleeps of 0.1 s: never less than a second.
      expect(Date.now() - termAt).toBeGreaterThanOrEqual(1000);
    },
    TIMEOUT,
  );

  it(
    'ends the watchdog at once when the server does not start',
    async () => {
      const server = startServerProcess({ command: 'mcp-shape-no-such-command', args: [], graceMs: 4200 });
      await new Promise((resolve) => server.child.once('error', resolve));
      let left = rows(named(server, 42));
      for (let i = 0; i < 100 && left.length > 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        left = rows(named(server, 42));
      }
      expect(left).toEqual([]);
    },
    TIMEOUT,
  );
});
