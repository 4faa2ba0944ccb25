/**
 * Every server process the audit spawns is registered here, so that it is reaped whatever happens:
 * on close, on process exit, and on SIGINT (installed by the CLI). Servers are spawned as process
 * group leaders, so killing the group also stops what they spawned themselves (npx, shells, workers).
 */

import type { ChildProcess } from 'node:child_process';

const live = new Set<ChildProcess>();
let exitHookInstalled = false;

export function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // ESRCH: the group is already gone. Fall back to the leader alone in case it left its group.
    try {
      child.kill(signal);
    } catch {
      // already dead
    }
  }
}

export function register(child: ChildProcess): void {
  live.add(child);
  child.once('exit', () => {
    // The leader is gone; anything it left behind in its group goes too.
    killGroup(child, 'SIGKILL');
    live.delete(child);
  });
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', killAllNow);
  }
}

export function unregister(child: ChildProcess): void {
  live.delete(child);
}

/** Synchronous, for the `exit` and `SIGINT` handlers. */
export function killAllNow(): void {
  for (const child of live) killGroup(child, 'SIGKILL');
  live.clear();
}

/** Kills every group and waits (briefly) for the exits, so the processes are reaped, not left as zombies. */
export async function killAll(waitMs = 1000): Promise<void> {
  const exits = [...live].map(
    (child) =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) resolve();
        else child.once('exit', () => resolve());
      }),
  );
  killAllNow();
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.all(exits), new Promise((resolve) => (timer = setTimeout(resolve, waitMs)))]);
  clearTimeout(timer);
}

export function liveChildren(): number {
  return live.size;
}
