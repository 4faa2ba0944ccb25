/**
 * The stdio proxy: the client starts `mcp-shape proxy -- <server command>` instead of the server. Lines
 * from the client go to the server unchanged; lines from the server go back repaired, in the order the
 * server wrote them. The server's stderr passes straight through.
 */

import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { systemErrorWords } from '../core/system-error.js';
import type { Fix } from '../library/repair/index.js';
import type { ProtocolVersion } from '../spec/versions.js';
import { ProxySession, type ServerMessageOutcome } from './session.js';

export interface ProxyEvent {
  readonly fixes: readonly Fix[];
  readonly protocolVersion: ProtocolVersion;
  readonly method?: string;
  readonly tool?: string;
}

/** What the CLI logs about a repaired server message, whatever the transport. */
export function repairEvent(outcome: ServerMessageOutcome): ProxyEvent {
  return {
    fixes: outcome.fixes,
    protocolVersion: outcome.protocolVersion,
    ...(outcome.answering?.method ? { method: outcome.answering.method } : {}),
    ...(outcome.answering?.tool ? { tool: outcome.answering.tool } : {}),
  };
}

export interface StdioProxyOptions {
  readonly command: string;
  readonly args: readonly string[];
  readonly protocolVersion: ProtocolVersion;
  /** Use `protocolVersion` even when the conversation negotiates another. */
  readonly fixedVersion?: boolean;
  /** Called for every server message that needed fixes. */
  readonly onRepaired?: (event: ProxyEvent) => void;
  /** Called with a server stdout line that is not JSON (it is not forwarded: it would break the client). */
  readonly onUnparsed?: (line: string) => void;
  readonly stdin?: Readable;
  readonly stdout?: Writable;
}

export class ProxyStartError extends Error {}

/** Runs until the server exits; resolves with the exit code the proxy should exit with. */
export function runStdioProxy(options: StdioProxyOptions): Promise<number> {
  const clientIn = options.stdin ?? process.stdin;
  const clientOut = options.stdout ?? process.stdout;
  const session = new ProxySession(options.protocolVersion, options.fixedVersion);
  const child = spawn(options.command, [...options.args], { stdio: ['pipe', 'pipe', 'inherit'] });

  return new Promise((resolve, reject) => {
    let started = false;
    child.once('spawn', () => {
      started = true;
    });
    child.once('error', (error: NodeJS.ErrnoException) => {
      if (!started)
        reject(
          new ProxyStartError(
            `${systemErrorWords(error, { ENOENT: 'command not found' })}: ${options.command}`,
          ),
        );
    });

    const fromClient = createInterface({ input: clientIn, crlfDelay: Number.POSITIVE_INFINITY });
    fromClient.on('line', (line) => {
      session.observeClient(line);
      if (child.stdin.writable) child.stdin.write(`${line}\n`);
    });
    fromClient.on('close', () => child.stdin.end());
    // A server that exits first closes its stdin; late client lines must not crash the proxy.
    child.stdin.on('error', () => {});

    // Repairs are asynchronous (MIME sniffing); chaining them keeps the server's order.
    let relay: Promise<void> = Promise.resolve();
    const fromServer = createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY });
    fromServer.on('line', (line) => {
      relay = relay.then(async () => {
        const outcome = await session.repairServer(line);
        if (outcome.line !== undefined) clientOut.write(`${outcome.line}\n`);
        else if (outcome.unparsed !== undefined) options.onUnparsed?.(outcome.unparsed);
        if (outcome.fixes.length > 0) {
          options.onRepaired?.(repairEvent(outcome));
        }
      });
    });

    const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
    const onInt = forward('SIGINT');
    const onTerm = forward('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);

    child.once('close', (code, signal) => {
      process.removeListener('SIGINT', onInt);
      process.removeListener('SIGTERM', onTerm);
      fromClient.close();
      if (!started) return;
      relay.then(() => resolve(code ?? (signal ? 128 + signalNumber(signal) : 1)));
    });
  });
}

function signalNumber(signal: NodeJS.Signals): number {
  return { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 }[signal as string] ?? 1;
}
