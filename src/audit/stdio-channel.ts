/** Newline-delimited JSON over a spawned server's stdin/stdout, as the stdio transport defines it. */

import { type ChildProcess, spawn } from 'node:child_process';
import type { JsonObject } from '../core/json.js';
import { systemErrorWords } from '../core/system-error.js';
import { type DecodedFrame, decodeFrame } from '../io/utf8.js';
import { whenWritable } from '../io/writable.js';
import { BaseChannel, type Channel, StartError } from './channel.js';
import { killGroup, register } from './children.js';

export interface StdioTarget {
  readonly command: string;
  readonly args: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
}

const STDERR_KEEP = 64 * 1024;
const NEWLINE = 0x0a;

/** Cuts a byte stream into lines without copying more than once, discarding lines over the cap. */
export class LineSplitter {
  private chunks: Buffer[] = [];
  private size = 0;
  private discarding = false;

  constructor(
    private readonly limit: number,
    private readonly onLine: (line: DecodedFrame) => void,
    private readonly onOversize: (bytes: number) => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(NEWLINE, start);
      const end = nl === -1 ? chunk.length : nl;
      this.append(chunk.subarray(start, end));
      if (nl === -1) return;
      this.finishLine();
      start = nl + 1;
    }
  }

  /** A last line without a newline still counts when the stream ends. */
  end(): void {
    if (this.size > 0 || this.discarding) this.finishLine();
  }

  private append(part: Buffer): void {
    if (part.length === 0) return;
    this.size += part.length;
    if (this.discarding) return;
    if (this.size > this.limit) {
      // Reported at once, so the caller need not wait for the rest of a line that may never end.
      this.discarding = true;
      this.chunks = [];
      this.onOversize(this.size);
      return;
    }
    this.chunks.push(part);
  }

  private finishLine(): void {
    if (!this.discarding) this.onLine(decodeFrame(Buffer.concat(this.chunks, this.size)));
    this.chunks = [];
    this.size = 0;
    this.discarding = false;
  }
}

export class StdioChannel extends BaseChannel implements Channel {
  readonly kind = 'stdio' as const;
  private child: ChildProcess | undefined;
  private stderr = '';
  private exited: Promise<void> | undefined;
  private closedDetail: string | undefined;
  /** Set when close() starts: from then on the process ends because we end it. */
  private closing = false;

  constructor(
    private readonly target: StdioTarget,
    private readonly maxFrameBytes: number,
  ) {
    super();
  }

  override stderrTail(): string {
    return this.stderr;
  }

  async open(): Promise<void> {
    const child = spawn(this.target.command, [...this.target.args], {
      stdio: ['pipe', 'pipe', 'pipe'],
      // Its own process group, so close() and the exit hooks can stop everything it spawns.
      detached: true,
      env: this.target.env ?? process.env,
      cwd: this.target.cwd,
    });
    this.child = child;
    const spawned = new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', (error: NodeJS.ErrnoException) => {
        reject(
          new StartError(
            `${systemErrorWords(error, { ENOENT: 'command not found' })}: ${this.target.command}`,
            'start',
          ),
        );
      });
    });
    await spawned;
    register(child);

    const lines = new LineSplitter(
      this.maxFrameBytes,
      (line) => this.emit({ kind: 'frame', frame: { transport: 'stdio', ...line } }),
      (bytes) => this.emit({ kind: 'oversize', bytes, limit: this.maxFrameBytes }),
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      this.activity();
      lines.push(chunk);
    });
    // A last line cut short because we stopped the server (after a timeout, say) is our doing, not a
    // frame the server sent; one left by a server that exited on its own is reported.
    child.stdout?.on('end', () => {
      if (!this.closing) lines.end();
    });
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => {
      this.stderr = (this.stderr + text).slice(-STDERR_KEEP);
    });
    // EPIPE when the server died before reading what we wrote; the exit event reports the death.
    child.stdin?.on('error', () => {});
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.closedDetail = signal ? `killed by ${signal}` : `exited with code ${code}`;
        // Let stdout drain first so the last frames are not reported after the exit.
        setImmediate(() => {
          this.emit({ kind: 'closed', detail: this.closedDetail ?? 'exited' });
          resolve();
        });
      });
    });
  }

  async send(message: JsonObject | readonly JsonObject[]): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed || this.closedDetail) return;
    const line = `${JSON.stringify(message)}\n`;
    // A server that closed its input makes the write fail (EPIPE): its exit says why, not the write.
    if (!stdin.write(line)) await Promise.race([whenWritable(stdin), this.exited]);
  }

  async close(): Promise<void> {
    const child = this.child;
    if (!child || !this.exited) return;
    if (child.exitCode === null && child.signalCode === null) {
      this.closing = true;
      // The stdio spec's shutdown: close stdin, then SIGTERM, then SIGKILL.
      child.stdin?.end();
      if (!(await settlesWithin(this.exited, 500))) {
        killGroup(child, 'SIGTERM');
        if (!(await settlesWithin(this.exited, 1000))) killGroup(child, 'SIGKILL');
      }
    }
    await settlesWithin(this.exited, 2000);
    killGroup(child, 'SIGKILL');
  }
}

async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
