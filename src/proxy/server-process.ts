/**
 * The stdio server as a process group the proxy can always take down, even when the proxy itself is
 * killed with SIGKILL.
 *
 * - The server runs in its own process group (`detached`), so a signal reaches it and every process it
 *   started (`npx` → `node`, a shell wrapper → the real server), and a terminal's Ctrl-C reaches only
 *   the proxy, which decides what to forward.
 * - Node has no `prctl(PR_SET_PDEATHSIG)`, so a watchdog stands in for it: a few lines of POSIX `sh`,
 *   in a session of its own and deaf to INT, TERM and HUP, whose standard input is a pipe from the
 *   proxy. The proxy never writes to it after the group id, so the pipe closes only when the proxy's
 *   process ends, however it ends. Then the watchdog sends the group SIGTERM, and SIGKILL after the
 *   grace period if anything is left. When the group is already gone it exits at once.
 * - Processes that leave the group (`setsid`, `detached`) are tracked on Linux (descendants.ts) and
 *   ended by the relay once the server has exited; if the proxy dies first, the watchdog ends those it
 *   finds by the token in their environment along with the group.
 *
 * Platforms: Linux and macOS (any POSIX system with /bin/sh) get all of this. On Windows there are no
 * process groups or POSIX signals: the server is started normally, signals are sent to it alone, and
 * it is not killed when the proxy is killed forcibly (there is no watchdog).
 */

import { type ChildProcess, type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import { Descendants } from './descendants.js';

const POSIX = process.platform !== 'win32';

/**
 * The watchdog, in POSIX sh. $1 is the grace period in tenths of a second; $2 the token in the
 * environment of the server's processes (descendants.ts), empty without /proc; $3, the proxy's pid, is
 * there to be seen in `ps`. Its own environment has no token: `grep` finds the server's processes only.
 */
const WATCHDOG = `
trap '' INT TERM HUP PIPE
read pgid || exit 0
case "$pgid" in ''|*[!0-9]*) exit 0 ;; esac
while read -r _; do :; done
ours() { [ -n "$2" ] && grep -l -F -e "$2" /proc/[0-9]*/environ 2>/dev/null | sed -e 's#^/proc/##' -e 's#/environ$##'; }
kill -TERM "-$pgid" $(ours "$@") 2>/dev/null
n=0
while kill -0 "-$pgid" 2>/dev/null || [ -n "$(ours "$@")" ]; do
  if [ "$n" -ge "$1" ]; then kill -KILL "-$pgid" $(ours "$@") 2>/dev/null; exit 0; fi
  sleep 0.1
  n=$((n + 1))
done
`;

export type ServerChild = ChildProcessByStdio<Writable, Readable, null>;

export interface ServerProcess {
  readonly child: ServerChild;
  /**
   * The watchdog, when there is one: its standard input is the pipe whose end (this process's) sets
   * it off. The relay never touches it; tests end the pipe to see it act.
   */
  readonly watchdog?: ChildProcess;
  /** Sends a signal to the server's whole process group (to the server alone on Windows). */
  signal(signal: NodeJS.Signals): void;
  /**
   * The processes the server started, wherever they went (descendants.ts; Linux only): ended once the
   * server has exited.
   */
  readonly descendants: Descendants;
}

export interface ServerProcessOptions {
  readonly command: string;
  readonly args: readonly string[];
  /** How long the watchdog waits between SIGTERM and SIGKILL, in milliseconds. */
  readonly graceMs: number;
  /** Leave out the watchdog (in-process tests of the relay). */
  readonly watchdog?: boolean;
}

/** Starts the server (and its watchdog); the caller waits for 'spawn' or 'error' on `child`. */
export function startServerProcess(options: ServerProcessOptions): ServerProcess {
  const descendants = new Descendants();
  const watchdog =
    POSIX && options.watchdog !== false
      ? startWatchdog(options.graceMs, Descendants.supported ? descendants.token : '')
      : undefined;
  const child = spawn(options.command, [...options.args], {
    stdio: ['pipe', 'pipe', 'inherit'],
    detached: POSIX,
    ...(Descendants.supported ? { env: descendants.environment() } : {}),
  });
  if (child.pid !== undefined) descendants.watch(child.pid);
  const guarded = watchdog && child.pid !== undefined;
  if (guarded) {
    // Written at once, in this tick: the group id is in the pipe before anything can kill the proxy.
    watchdog.stdin.write(`${child.pid}\n`);
  } else {
    watchdog?.kill('SIGKILL');
  }
  const pid = child.pid;
  return {
    child,
    ...(guarded ? { watchdog } : {}),
    descendants,
    signal(signal) {
      if (pid === undefined) return;
      // While the server still holds its tree together: a process it started is then known before
      // the signal ends the server and the process is reparented.
      descendants.walk();
      try {
        if (POSIX) process.kill(-pid, signal);
        else child.kill(signal);
      } catch {
        // The group is gone already.
      }
    },
  };
}

function startWatchdog(
  graceMs: number,
  token: string,
): ChildProcessByStdio<Writable, null, null> | undefined {
  const tenths = String(Math.max(1, Math.ceil(graceMs / 100)));
  try {
    const watchdog = spawn(
      '/bin/sh',
      ['-c', WATCHDOG, 'mcp-shape-watchdog', tenths, token, String(process.pid)],
      {
        stdio: ['pipe', 'ignore', 'ignore'],
        detached: true,
      },
    );
    watchdog.on('error', () => {}); // no /bin/sh: the proxy still runs, unguarded
    watchdog.stdin.on('error', () => {});
    // The watchdog must not keep the proxy alive; its pipe closes when the proxy's process ends.
    watchdog.unref();
    (watchdog.stdin as Socket).unref();
    return watchdog;
  } catch {
    return undefined;
  }
}
