/**
 * The processes a stdio server started, found on Linux through /proc, so that none outlives the proxy:
 * not even one that left the server's process group (`setsid`, a Node child spawned `detached`), which
 * the group's signals and the watchdog never reach.
 *
 * A process is the server's when either
 * - it descends from the server by parent links, seen while the links held: the tree is walked every
 *   second while the server runs, and each process found is remembered by its pid and its start time
 *   (field 22 of /proc/<pid>/stat), so that it stays known once its parent exits and it is reparented
 *   to init, and a pid the system reused for another process is never taken for it; or
 * - its environment holds this proxy's token: the server starts with `MCP_SHAPE_PROXY=<token>` (a
 *   random one per proxy, appended to any the proxy itself inherited), which every process it starts
 *   inherits unless it is given another environment. This finds a process that left the group and
 *   lost its parent between two walks.
 *
 * Limits: a process that both cleared its environment and lost its parent between two walks is not
 * found; a process of another user (a setuid helper) cannot be read or signalled. Elsewhere than Linux
 * (no /proc) nothing is tracked: the process group and the watchdog are all there is.
 */

import { randomUUID } from 'node:crypto';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';

/** The environment variable that carries the tokens of the proxies a process runs under. */
export const TOKEN_VARIABLE = 'MCP_SHAPE_PROXY';

/** How often the server's tree is walked while it runs. */
const WALK_MS = 1000;
/** How many processes the periodic walk reads per turn of the event loop. */
const WALK_STEP = 64;
/** How long processes the server left running get to exit on their own before they are signalled. */
const SETTLE_MS = 1000;
/** How long, at least, processes sent SIGKILL are waited for (and signalled again, with any they started). */
const KILL_WAIT_MS = 5000;

/** The kernel's flag (field 9 of /proc/<pid>/stat) of a process that has begun to exit. */
const PF_EXITING = 0x4;

/** A stat line is at most a few hundred bytes (a 16-byte name and 52 numbers). */
const STAT_BUFFER = Buffer.alloc(4096);

interface ProcStat {
  readonly pid: number;
  readonly ppid: number;
  readonly state: string;
  /** Its exit is under way (PF_EXITING): it has closed its files, but is no zombie yet. */
  readonly exiting: boolean;
  /** Clock ticks after boot: with the pid, names one process for the life of the system. */
  readonly start: number;
}

/** /proc/<pid>/stat read, or undefined when the process is gone (or there is no /proc). */
export function readStat(pid: number): ProcStat | undefined {
  let text: string;
  let fd: number | undefined;
  try {
    // Open, read, close into one buffer: a third of readFileSync's cost, for a walk that reads them all.
    fd = openSync(`/proc/${pid}/stat`, 'r');
    const length = readSync(fd, STAT_BUFFER, 0, STAT_BUFFER.length, null);
    text = STAT_BUFFER.toString('latin1', 0, length);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  // The command name, in parentheses, may hold spaces and parentheses itself: the fields follow the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const ppid = Number(fields[1]);
  const flags = Number(fields[6]);
  const start = Number(fields[19]);
  if (!Number.isInteger(ppid) || !Number.isInteger(start)) return undefined;
  const exiting = Number.isInteger(flags) && (flags & PF_EXITING) !== 0;
  return { pid, ppid, state: fields[0] ?? '', exiting, start };
}

function allPids(): number[] {
  try {
    return readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(Number);
  } catch {
    return [];
  }
}

/** A process that has exited (a zombie only waits for its parent to read its status) counts as gone. */
function living(stat: ProcStat | undefined): stat is ProcStat {
  return stat !== undefined && stat.state !== 'Z' && stat.state !== 'X';
}

export class Descendants {
  /** Whether this system has /proc to track processes with. */
  static readonly supported = process.platform === 'linux' && existsSync('/proc/self/stat');

  readonly token = `mcp-shape-proxy-${randomUUID()}`;
  /** pid → start time of every process seen descending from the server. */
  private readonly known = new Map<number, number>();
  private root: { pid: number; start: number } | undefined;
  private timer: NodeJS.Timeout | undefined;

  /** The environment for the server: this process's, with the token added. */
  environment(): NodeJS.ProcessEnv {
    const inherited = process.env[TOKEN_VARIABLE];
    return { ...process.env, [TOKEN_VARIABLE]: inherited ? `${inherited} ${this.token}` : this.token };
  }

  /** Starts watching the server's tree; does nothing without /proc. */
  watch(serverPid: number): void {
    if (!Descendants.supported) return;
    const stat = readStat(serverPid);
    if (!living(stat)) return;
    this.root = { pid: serverPid, start: stat.start };
    this.walk();
    this.schedule(WALK_MS);
  }

  /** Stops the periodic walk (the server has exited: its pid may be reused). */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.root) this.walk();
    this.root = undefined;
  }

  /** Walks the tree now, all at once: at the moments the server is about to end. */
  walk(): void {
    const before = [...this.known];
    this.learn(allPids().map(readStat).filter(living), before);
  }

  /**
   * The periodic walk, a few dozen processes per turn of the event loop so that a machine of thousands
   * never holds up a message; then the next one, after a second or 50 times as long as this one took.
   */
  private schedule(ms: number): void {
    this.timer = setTimeout(async () => {
      const began = performance.now();
      const before = [...this.known];
      const pids = allPids();
      const stats: ProcStat[] = [];
      for (let at = 0; at < pids.length; at += WALK_STEP) {
        for (const pid of pids.slice(at, at + WALK_STEP)) {
          const stat = readStat(pid);
          if (living(stat)) stats.push(stat);
        }
        await new Promise((resolve) => setImmediate(resolve));
        if (this.root === undefined) return; // stopped meanwhile
      }
      this.learn(stats, before);
      this.schedule(Math.max(WALK_MS, 50 * (performance.now() - began)));
    }, ms);
    this.timer.unref();
  }

  /**
   * Remembers every living process in `stats` that descends from the server or from a process already
   * known; forgets those of `before` (known when the walk began, so in it if alive) that are gone.
   */
  private learn(stats: readonly ProcStat[], before: readonly (readonly [number, number])[]): void {
    const alive = new Map(stats.map((stat) => [stat.pid, stat.start]));
    for (const [pid, start] of before) if (alive.get(pid) !== start) this.known.delete(pid);
    // Read again, not from the walk: a server that exited during a walk in steps leads to nobody.
    const root = this.root && readStat(this.root.pid)?.start === this.root.start ? this.root : undefined;
    // A parent is trusted only while it is the process remembered, and a child must be younger than it.
    const parents = new Map<number, number>(this.known);
    if (root) parents.set(root.pid, root.start);
    let grew = true;
    while (grew) {
      grew = false;
      for (const stat of stats) {
        const parentStart = parents.get(stat.ppid);
        if (parentStart === undefined || parents.has(stat.pid) || stat.start < parentStart) continue;
        parents.set(stat.pid, stat.start);
        if (stat.pid !== root?.pid) this.known.set(stat.pid, stat.start);
        grew = true;
      }
    }
  }

  /**
   * The server's processes alive now, other than the server itself: those known by the walks (and their
   * descendants) and those whose environment holds the token.
   */
  left(): ProcStat[] {
    if (!Descendants.supported) return [];
    this.walk();
    const found = new Map<number, ProcStat>();
    for (const [pid, start] of this.known) {
      const stat = readStat(pid);
      if (living(stat) && stat.start === start) found.set(pid, stat);
    }
    const token = Buffer.from(this.token);
    for (const pid of allPids()) {
      if (found.has(pid) || pid === process.pid || pid === this.root?.pid) continue;
      let environment: Buffer;
      try {
        environment = readFileSync(`/proc/${pid}/environ`);
      } catch {
        continue; // gone, or another user's
      }
      if (!environment.includes(token)) continue;
      const stat = readStat(pid);
      if (!living(stat)) continue;
      found.set(pid, stat);
      this.known.set(pid, stat.start);
    }
    return [...found.values()];
  }

  /** Sends `signal` to each process that is still the one found (same start time). */
  signal(processes: readonly ProcStat[], signal: NodeJS.Signals): void {
    for (const { pid, start } of processes) {
      const now = readStat(pid);
      if (!living(now) || now.start !== start) continue;
      try {
        process.kill(pid, signal);
      } catch {
        // Gone since, or not ours to signal.
      }
    }
  }

  /**
   * Ends every process of the server's still alive: SIGTERM, then SIGKILL to those left `graceMs` later.
   * Resolves once none is left (or, after SIGKILL, a second has passed), with the pids signalled.
   */
  async end(graceMs: number, log: (line: string) => void): Promise<void> {
    this.stop();
    // The end of the server's output may come a moment before the exit of the last process that held
    // it: a coreutils program closes its standard output before it exits, and one whose exit is under
    // way (PF_EXITING) has closed its files but is no zombie yet. Those are given a moment to go.
    let left = this.left();
    if (left.length === 0) return;
    left = await this.waitGone(Math.min(graceMs, SETTLE_MS));
    if (left.every((p) => p.exiting)) {
      await this.waitGone(Math.max(graceMs, KILL_WAIT_MS));
      return;
    }
    log(
      `${counted(left.length)} the server started outlived it (${pids(left)}): sending SIGTERM, then SIGKILL ${graceMs / 1000} s later`,
    );
    this.signal(left, 'SIGTERM');
    left = await this.waitGone(graceMs);
    if (left.length === 0) return;
    log(`${counted(left.length)} still running (${pids(left)}): sending SIGKILL`);
    // A process may have started another meanwhile: each round signals every one found.
    const end = Date.now() + Math.max(graceMs, KILL_WAIT_MS);
    while (left.length > 0 && Date.now() < end) {
      this.signal(left, 'SIGKILL');
      left = await this.waitGone(50);
    }
  }

  private async waitGone(ms: number): Promise<ProcStat[]> {
    const end = Date.now() + ms;
    for (;;) {
      const left = this.left();
      if (left.length === 0 || Date.now() >= end) return left;
      await new Promise((resolve) => setTimeout(resolve, Math.min(50, Math.max(1, end - Date.now()))));
    }
  }
}

function counted(n: number): string {
  return n === 1 ? '1 process' : `${n} processes`;
}

function pids(processes: readonly ProcStat[]): string {
  const shown = processes.slice(0, 10).map((p) => p.pid);
  return `pid ${shown.join(', ')}${processes.length > 10 ? `, and ${processes.length - 10} more` : ''}`;
}
