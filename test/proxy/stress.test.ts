/**
 * The proxy under stress, end to end: the official SDK client through `mcp-shape proxy` to a raw NDJSON
 * server (support/stress-server.mjs) that sends thousands of mixed messages: good and broken results,
 * a 1 MB one, one nested 3,000 levels deep, progress and log notifications, server requests, a
 * notification that carries a stray result, cancellations both ways, and lines that are not JSON-RPC.
 * Every JSON-RPC message must reach the client exactly once and in order, every result must be accepted
 * by the SDK (its callTool() validates it), and the proxy must still be running at the end.
 */

import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type JSONRPCMessage, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/cli.js';
import { proxiedStdio } from './support/processes.js';

const SERVER = join(REPO_ROOT, 'test/proxy/support/stress-server.mjs');
const CALLS = 500;
const IN_FLIGHT = 8;

/** The variant of call n: mostly broken in some way, now and then large, deep or slow (and cancelled). */
function variant(n: number): string {
  if (n === 123) return 'deep';
  if (n % 97 === 0) return 'large';
  if (n % 29 === 0) return 'slow';
  const kinds = [
    'good',
    'stray-member',
    'object-block',
    'data-uri-image',
    'error-payload',
    'method-beside-result',
    'bad-progress-token',
  ];
  return kinds[n % kinds.length] as string;
}

function seqOf(message: JSONRPCMessage): number | undefined {
  const holder = ('result' in message ? message.result : 'params' in message ? message.params : undefined) as
    | { _meta?: { seq?: unknown } }
    | undefined;
  const seq = holder?._meta?.seq;
  return typeof seq === 'number' ? seq : undefined;
}

describe('proxy stress', () => {
  it(`relays ${CALLS} calls' worth of mixed traffic to the SDK client: each message once, in order`, async () => {
    const { transport, log: stderr } = proxiedStdio(['--', process.execPath, SERVER]);
    const client = new Client({ name: 'stress', version: '1.0.0' });
    const errors: Error[] = [];
    client.onerror = (error) => errors.push(error);
    await client.connect(transport, { timeout: 60_000 });

    // Every message the client's transport delivers, in arrival order.
    const seen: number[] = [];
    const deliver = transport.onmessage;
    transport.onmessage = (message: JSONRPCMessage) => {
      const seq = seqOf(message);
      if (seq !== undefined) seen.push(seq);
      deliver?.(message);
    };
    const logged: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      logged.push(notification.params.data);
    });

    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['work', 'stats']);

    const progress = new Map<number, number>();
    const outcomes: { n: number; kind: string; result?: Record<string, unknown>; error?: unknown }[] = [];
    const call = async (n: number) => {
      const kind = variant(n);
      const abort = new AbortController();
      if (kind === 'slow') setTimeout(() => abort.abort('changed my mind'), 20);
      try {
        const result = await client.callTool({ name: 'work', arguments: { n, variant: kind } }, undefined, {
          signal: abort.signal,
          timeout: 120_000,
          onprogress: () => {
            progress.set(n, (progress.get(n) ?? 0) + 1);
          },
        });
        outcomes.push({ n, kind, result });
      } catch (error) {
        outcomes.push({ n, kind, error });
      }
    };
    for (let start = 1; start <= CALLS; start += IN_FLIGHT) {
      await Promise.all(
        Array.from({ length: Math.min(IN_FLIGHT, CALLS - start + 1) }, (_, i) => call(start + i)),
      );
    }
    // The client answers server requests asynchronously: the last answers may still be on their way.
    const readStats = async () => {
      const stats = await client.callTool({ name: 'stats', arguments: {} });
      return JSON.parse((stats.content as { text: string }[])[0]?.text ?? '{}') as {
        sent: number[];
        answeredPings: number;
        serverRequests: number;
      };
    };
    let stats = await readStats();
    for (let tries = 0; tries < 100 && stats.answeredPings < stats.serverRequests; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      stats = await readStats();
    }
    const { sent, answeredPings, serverRequests } = stats;

    // Exactly once, in order: what arrived up to the stats answer is what was sent up to it. The first
    // message, the answer to initialize, arrived before the tap (connect() succeeding shows it did). A
    // cancelled call the server answers anyway, too late, may add messages after the stats.
    expect(sent.length).toBeGreaterThan(2_000);
    const last = sent[sent.length - 1] as number;
    expect(sent[0]).toBe(1);
    expect(seen.slice(0, seen.indexOf(last) + 1)).toEqual(sent.slice(1));

    // Every call that was not cancelled came back accepted by the SDK, repaired where it was broken.
    for (const { n, kind, result, error } of outcomes) {
      if (kind === 'slow') {
        expect(error).toBeDefined();
        continue;
      }
      expect(error, `call ${n} (${kind})`).toBeUndefined();
      const content = result?.content as { type: string; text?: string; mimeType?: string }[];
      switch (kind) {
        case 'object-block':
          expect(result?.structuredContent).toEqual({ n });
          break;
        case 'data-uri-image':
          expect(content[0]).toMatchObject({ type: 'image', mimeType: 'image/png' });
          break;
        case 'error-payload':
          expect(result?.isError).toBe(true);
          break;
        case 'large':
          expect(content[0]?.text?.length).toBe(String(n).length + 1 + (1 << 20));
          break;
        case 'deep':
          expect(content[0]?.text).toBe('deep');
          break;
        default:
          expect(content[0]?.text).toBe(`ok ${n}`);
      }
    }
    expect(outcomes).toHaveLength(CALLS);
    // The SDK runs progress callbacks a microtask late and drops those that come after the answer was
    // handled, so their count is the SDK's business; arrival itself is proven by the sequence above.
    expect(progress.size).toBeGreaterThan(0);
    expect(answeredPings).toBe(serverRequests);
    expect(logged.filter((data) => String(data).startsWith('confused'))).toHaveLength(Math.floor(CALLS / 7));
    // The lines that are not JSON-RPC were dropped, each with one log line.
    expect(stderr().match(/server sent not JSON, not forwarded: server log line/g)).toHaveLength(
      Math.floor(CALLS / 11),
    );
    expect(stderr().match(/server sent JSON but not a JSON-RPC message: a bare integer/g)).toHaveLength(
      Math.floor(CALLS / 13),
    );

    // Still running.
    const pid = transport.pid;
    expect(pid).toBeTypeOf('number');
    expect(() => process.kill(pid as number, 0)).not.toThrow();
    await client.close();
  }, 300_000);
});
