/**
 * The server's process group and its watchdog, in this process: ending the watchdog's input (what the
 * proxy's death does, however it dies) takes the group down with SIGTERM, then SIGKILL a grace period
 * later; signals go to the whole group; no watchdog is left for a server that never started.
 * lifecycle.test.ts kills a real proxy with SIGKILL for the same.
 */

import type { ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
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
