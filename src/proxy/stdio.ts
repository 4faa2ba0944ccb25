/**
 * The stdio proxy: the client starts `mcp-shape proxy -- <server command>` instead of the server.
 *
 * - Client bytes go to the server as they are, as they arrive; complete frames teach the session.
 * - Server frames come back one at a time, in order, each with its one outcome (session.ts): forwarded
 *   as received, forwarded repaired, or dropped with a log line.
 * - Flow control both ways: while the client does not read, the proxy does not read the server (nor
 *   the next frame while one is being repaired); while the server does not read, the proxy does not
 *   read the client. Memory is bounded by the largest message, not by the traffic.
 * - Lifecycle (server-process.ts): when the server exits, every client request it had not answered
 *   gets a JSON-RPC error before the proxy exits with the server's code. When the client closes its
 *   input, so does the proxy to the server, then SIGTERM and SIGKILL follow a grace period apart; a
 *   server that closed its output and runs on a grace period later gets the same.
 *   SIGINT, SIGTERM and SIGHUP are forwarded to the server's process group and escalated the same way.
 * The server's standard error passes straight through.
 */

import { constants } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { systemErrorWords } from '../core/system-error.js';
import { utf8Problem } from '../io/utf8.js';
import { whenWritable } from '../io/writable.js';
import type { ProtocolVersion } from '../spec/versions.js';
import { Descendants, readStat } from './descendants.js';
import { notUtf8Line, outcomeLine, type ProxyEvents, repairEvent } from './events.js';
import { type Frame, FrameSplitter, frameSize, MAX_HELD_FRAME_BYTES, tooLongWords } from './frames.js';
import { afterFrame, releasedBytes } from './memory.js';
import { OrderedQueue } from './ordered.js';
import { AnswerReader } from './passed-answers.js';
import type { Recorder } from './record.js';
import { startServerProcess } from './server-process.js';
import { ProxySession } from './session.js';
import { writeBytes, writeJson, writeJsonFrames, writePiece, writeText } from './write.js';

/**
 * How much of what the client sent may wait for a server that does not read it before the client's
 * input is paused. Not less: a paused input is not read, so the client's end is not seen either, and a
 * client that sent one request to a server that stopped reading, and then left, would leave the proxy
 * and the server running with nobody to stop them. Past this, memory is the stronger concern; the
 * server's direction holds as much (ordered.ts).
 */
const CLIENT_BACKLOG_BYTES = 1 << 20;

export interface StdioProxyOptions extends ProxyEvents {
  readonly command: string;
  readonly args: readonly string[];
  readonly protocolVersion: ProtocolVersion;
  /** Use `protocolVersion` even when the conversation negotiates another. */
  readonly fixedVersion?: boolean;
  /** Between closing the server's input (or forwarding a signal) and each escalation; default 2000. */
  readonly graceMs?: number;
  readonly recorder?: Recorder;
  readonly stdin?: Readable;
  readonly stdout?: Writable;
  /** Forward SIGINT, SIGTERM and SIGHUP sent to this process (default true). */
  readonly forwardSignals?: boolean;
  /** Start the watchdog that kills the server if this process is killed (default true). */
  readonly watchdog?: boolean;
  /**
   * The longest message held and judged, in bytes (default and maximum: MAX_HELD_FRAME_BYTES); a longer
   * one is forwarded as it comes, unchanged and unjudged.
   */
  readonly maxMessageBytes?: number;
}

export class ProxyStartError extends Error {}

export const DEFAULT_GRACE_MS = 2000;

const FORWARDED_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** afterFrame as a callback that holds the length only, not the frame (memory.ts says why). */
function collectAfter(length: number): () => void {
  return () => afterFrame(length);
}

/** Node reports either the server's exit code or the signal that ended it, as a shell would say it. */
function exitCode(code: number | null, signal: NodeJS.Signals | null): number {
  return code ?? 128 + constants.signals[signal as NodeJS.Signals];
}

/** Runs until the server exits; resolves with the exit code the proxy should exit with. */
export async function runStdioProxy(options: StdioProxyOptions): Promise<number> {
  const graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
  const maxMessageBytes = Math.min(options.maxMessageBytes ?? MAX_HELD_FRAME_BYTES, MAX_HELD_FRAME_BYTES);
  const clientIn = options.stdin ?? process.stdin;
  const clientOut = options.stdout ?? process.stdout;
  const log = (line: string) => options.onLog?.(line);
  const where = { connection: 'stdio', transport: 'stdio' } as const;
  const session = new ProxySession({
    protocolVersion: options.protocolVersion,
    fixedVersion: options.fixedVersion ?? false,
  });
  const server = startServerProcess({
    command: options.command,
    args: options.args,
    graceMs,
    watchdog: options.watchdog ?? true,
  });
  const { child } = server;
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new ProxyStartError(
          `${systemErrorWords(error, { ENOENT: 'command not found' })}: ${options.command}`,
        ),
      ),
    );
  });
  child.on('error', () => {}); // a failed kill of a server that is gone already
  child.stdin.on('error', () => {}); // the server exited; what the client sends now goes nowhere

  return new Promise<number>((resolve) => {
    // --- escalation: one signal per grace period until the server is gone ---
    let ladder: { timer: NodeJS.Timeout; steps: NodeJS.Signals[] } | undefined;
    let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    // Never after the server exited: its exit clears the timer, and a signal then is ignored.
    const step = (why = `server still running ${graceMs / 1000} s later`) => {
      const signal = ladder?.steps.shift();
      if (!ladder || !signal) return;
      log(`${why}: sending ${signal} to its process group`);
      server.signal(signal);
      ladder.timer = setTimeout(() => step(), graceMs);
    };
    // Called only while no ladder runs: a signal during one takes the next step instead.
    const escalate = (steps: NodeJS.Signals[]) => {
      ladder = { steps, timer: setTimeout(() => step(), graceMs) };
    };

    // --- client → server: bytes as they are ---
    const clientFrames = new FrameSplitter(maxMessageBytes);
    const clientPassed = new PassedLength();
    let clientEnded = false;
    const observe = (frame: Frame) => {
      const { text, passed } = frame;
      // A request too long to hold is the server's to answer; the proxy learns nothing of it.
      if (passed) {
        const bytes = clientPassed.add(frame);
        if (bytes !== undefined) options.recorder?.passed('client', bytes, where, maxMessageBytes);
        return;
      }
      const parsed = session.fromClient(text);
      options.recorder?.client(text, parsed, where);
    };
    const onClientData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      // The bytes go first: the server starts on the request while the proxy parses it. The session
      // still learns of it before any answer, which can only be read on a later turn of the loop.
      if (
        child.stdin.writable &&
        !child.stdin.write(bytes) &&
        child.stdin.writableLength > CLIENT_BACKLOG_BYTES
      ) {
        clientIn.pause();
        void whenWritable(child.stdin).then(() => clientIn.resume());
      }
      for (const frame of clientFrames.push(bytes)) observe(frame);
    };
    const onClientEnd = () => {
      if (clientEnded) return;
      clientEnded = true;
      const rest = clientFrames.end();
      if (rest !== undefined) observe(rest);
      if (exited) return;
      log(
        `client closed its input: closing the server's, then SIGTERM and SIGKILL ${graceMs / 1000} s apart`,
      );
      // The server may exit as soon as its input ends: what it started is known while it runs.
      server.descendants.walk();
      child.stdin.end();
      if (!ladder) escalate(['SIGTERM', 'SIGKILL']);
    };
    clientIn.on('data', onClientData);
    clientIn.on('end', onClientEnd);
    clientIn.on('error', onClientEnd);

    // --- signals to the proxy: forwarded to the group, then escalated ---
    const onSignal = (signal: NodeJS.Signals) => {
      if (exited) return;
      if (ladder) {
        // A second signal: do not wait out the grace period.
        clearTimeout(ladder.timer);
        step(`received ${signal} while the server is stopping`);
        return;
      }
      log(`received ${signal}: forwarding it to the server's process group`);
      server.signal(signal);
      escalate(signal === 'SIGTERM' ? ['SIGKILL'] : ['SIGTERM', 'SIGKILL']);
    };
    const handlers = FORWARDED_SIGNALS.map((signal) => [signal, () => onSignal(signal)] as const);
    if (options.forwardSignals !== false)
      for (const [signal, handler] of handlers) process.on(signal, handler);

    // --- server → client: one frame at a time, in order ---
    const serverFrames = new FrameSplitter(maxMessageBytes);
    let outputEnded = false;
    const relayFrame = (frame: Frame): Promise<void> | undefined => {
      if (frame.passed) return passOn(frame);
      const { text } = frame;
      const outcome = session.fromServer(text, { controlFree: frame.controlFree, canSplit: true });
      options.recorder?.server(text, outcome, where);
      const line = outcomeLine(outcome, text);
      if (line) log(line);
      let waiting: Promise<void> | undefined;
      if (outcome.kind === 'forward' && outcome.fixes.length > 0) {
        // A large message is not held as its bytes beside its text while the repaired one is written.
        frame.bytes = undefined;
        releasedBytes(text.length);
        // With the numbers the repair left in place as the server wrote them (number-text.ts).
        const { marked, texts } = outcome.numbers ?? { marked: outcome.split ?? outcome.repaired, texts: [] };
        waiting = outcome.split
          ? writeJsonFrames(clientOut, marked as unknown[], text.length, texts)
          : writeJson(clientOut, marked, text.length, texts);
        options.onRepaired?.(repairEvent(outcome));
      } else if (outcome.kind === 'forward') {
        // The bytes as they came (frames.ts): only a repaired message let go of them. Bytes that are not
        // UTF-8 end the Python SDK's stdio session (frame-not-utf8): the text, which has U+FFFD in their
        // place as the TypeScript SDK would read it, goes instead.
        const bytes = frame.bytes as Buffer;
        const bad = utf8Problem(bytes);
        if (bad) log(notUtf8Line(bad, 'a line'));
        waiting = bad ? writeText(clientOut, text) : writeBytes(clientOut, bytes);
      }
      frame.bytes = undefined;
      if (!waiting) {
        afterFrame(text.length);
        return undefined;
      }
      return waiting.then(collectAfter(text.length));
    };
    // A message longer than any string: forwarded as it comes, unjudged, and said so (frames.ts).
    const serverPassed = new PassedLength();
    let passedAnswers = new AnswerReader();
    const passOn = (frame: Frame): Promise<void> | undefined => {
      const piece = frame.bytes as Buffer;
      const bytes = serverPassed.add(frame);
      if (bytes !== undefined) options.recorder?.passed('server', bytes, where, maxMessageBytes);
      if (frame.passed?.first) {
        passedAnswers = new AnswerReader();
        log(`a message ${tooLongWords(maxMessageBytes)}: forwarded unchanged, unjudged`);
      }
      passedAnswers.feed(piece);
      // Answered once it is whole: one the server's output ended inside (`cut`) answers nothing, and its
      // request gets the error of the server's exit.
      if (frame.passed?.last && !frame.passed.cut) session.passedUnjudged(passedAnswers.answers());
      return writePiece(clientOut, piece);
    };
    const relay = new OrderedQueue<Frame>(child.stdout, relayFrame, frameSize);
    child.stdout.on('data', (chunk: Buffer) => relay.push(serverFrames.push(chunk)));
    // A server that closed its output and runs on can answer nothing more: its pending requests, and
    // every one after, waited for the client's own timeout. A grace period after, it is stopped as on a
    // signal, and its requests get the error of its exit.
    let closedOutputTimer: NodeJS.Timeout | undefined;
    const afterClosedOutput = () => {
      if (exited || ladder || !runningStill(child.pid)) return;
      log(
        `server closed its output and still runs ${graceMs / 1000} s later, so no answer can come: sending SIGTERM to its process group`,
      );
      server.signal('SIGTERM');
      escalate(['SIGKILL']);
    };
    const endOfOutput = () => {
      if (outputEnded) return;
      outputEnded = true;
      relay.endOfSource();
      const rest = serverFrames.end();
      relay.push(rest === undefined ? [] : [rest]);
      void relay.drained().then(() => {
        if (!exited) closedOutputTimer = setTimeout(afterClosedOutput, graceMs);
        return finish();
      });
    };
    child.stdout.on('end', endOfOutput);

    // --- the end: the server exited and everything it wrote is delivered ---
    let stdoutTimer: NodeJS.Timeout | undefined;
    child.once('exit', (code, signal) => {
      exited = { code, signal };
      if (ladder) clearTimeout(ladder.timer);
      clearTimeout(closedOutputTimer);
      // Its pid is free for another process now: the processes it started are known by their own.
      server.descendants.stop();
      // A process the server started may hold its stdout open; do not wait for it forever.
      stdoutTimer = setTimeout(() => {
        child.stdout.destroy();
        endOfOutput();
      }, graceMs);
      void finish();
    });
    let finished = false;
    const finish = async () => {
      if (finished || !exited || !outputEnded || !relay.idle) return;
      finished = true;
      clearTimeout(stdoutTimer);
      for (const [signal, handler] of handlers) process.off(signal, handler);
      const code = exitCode(exited.code, exited.signal);
      const pending = session.pendingIdTexts();
      const message = `server exited with code ${code}`;
      for (const id of pending) {
        // The id's own text: the client's 1e400 parses to Infinity, which JSON.stringify writes null.
        await writeText(
          clientOut,
          `{"jsonrpc":"2.0","id":${id},"error":{"code":-32000,"message":"${message}"}}`,
        );
      }
      log(
        `${message}${exited.signal ? ` (${exited.signal})` : ''}${
          pending.length > 0
            ? `; answered ${pending.length} pending request${pending.length === 1 ? '' : 's'} with an error`
            : ''
        }`,
      );
      // What the server started and left running, inside its process group or not, goes with it.
      await server.descendants.end(graceMs, log);
      clientIn.off('data', onClientData);
      clientIn.pause();
      if (clientIn === process.stdin) process.stdin.destroy();
      resolve(code);
    };
  });
}

/**
 * Whether the server's process is still running: on Linux, its /proc entry says it is no zombie (its
 * exit, whose event may come after the end of its output, has not happened); elsewhere it is assumed.
 */
function runningStill(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  if (!Descendants.supported) return true;
  const state = readStat(pid)?.state;
  return state !== undefined && state !== 'Z' && state !== 'X';
}

/** Counts the bytes of a frame passed on in pieces (frames.ts): its length once its last piece came. */
class PassedLength {
  private bytes = 0;

  add(frame: Frame): number | undefined {
    const piece = frame.bytes;
    if (frame.passed?.first) this.bytes = 0;
    this.bytes += piece?.length ?? 0;
    if (!frame.passed?.last) return undefined;
    // The frame without the `\n` that ends it, as a frame's text is.
    return piece?.[piece.length - 1] === 0x0a ? this.bytes - 1 : this.bytes;
  }
}
