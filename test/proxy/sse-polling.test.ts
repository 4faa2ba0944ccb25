/**
 * proxy --url in front of the SDK's own Streamable HTTP server that polls (2025-11-25): the tool's
 * handler closes its SSE stream after a priming event id (closeSSEStream), then sends a notification
 * and its result, which the server keeps in its event store. The SDK client behind the proxy resumes
 * with a GET and Last-Event-ID through the proxy, and gets every message.
 */

import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  type EventStore,
  StreamableHTTPServerTransport,
} from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { type JSONRPCMessage, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_TEST_TIMEOUT } from '../support/cli.js';
import { startUrlProxy } from './support/processes.js';
import { closeServer } from './support/session-server.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * An event store that replays in the order events were stored. The SDK's example InMemoryEventStore
 * orders the events of one millisecond by a random suffix of their ids: the result could be replayed
 * before the notification sent ahead of it, or sort before the last event the client saw and never be
 * replayed at all. This test failed once on Node 22 in CI with that notification missing, which either
 * would explain; with this store it is replayed in order.
 */
class OrderedEventStore implements EventStore {
  private readonly events: { id: string; streamId: string; message: JSONRPCMessage }[] = [];

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const id = `${streamId}_${this.events.length}`;
    this.events.push({ id, streamId, message });
    return id;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const last = this.events.findIndex((e) => e.id === lastEventId);
    const streamId = this.events[last]?.streamId;
    if (streamId === undefined) return '';
    for (const e of this.events.slice(last + 1)) if (e.streamId === streamId) await send(e.id, e.message);
    return streamId;
  }
}

/** The SDK server; `seen` lists each request's method and Last-Event-ID. */
async function pollingServer(): Promise<{ url: string; seen: string[] }> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const seen: string[] = [];
  const http: Server = createServer(async (req, res) => {
    seen.push(`${req.method} ${req.headers['last-event-id'] ?? '-'}`);
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? transports.get(id) : undefined;
    if (!transport) {
      const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        eventStore: new OrderedEventStore(),
        retryInterval: 100,
        onsessioninitialized: (session): void => {
          transports.set(session, created);
        },
      });
      const server = new McpServer({ name: 'polling', version: '1.0.0' }, { capabilities: { logging: {} } });
      server.registerTool('poll', { description: 'closes its stream, then answers' }, async (extra) => {
        const say = (data: string) =>
          extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data } });
        await say('before the stream closed');
        extra.closeSSEStream?.();
        await say('after the stream closed');
        return {
          content: [{ type: 'text', text: `answered after closing: ${extra.closeSSEStream !== undefined}` }],
        };
      });
      await server.connect(created);
      cleanups.push(() => server.close());
      transport = created;
    }
    await transport?.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => closeServer(http));
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`, seen };
}

describe('proxy --url, a server that ends an SSE stream after an event id', {
  timeout: CLI_TEST_TIMEOUT,
}, () => {
  it('passes the resuming GET with Last-Event-ID, so the SDK client gets the notification and the result', async () => {
    const upstream = await pollingServer();
    const { child, started } = startUrlProxy(upstream.url);
    cleanups.push(() => {
      child.kill('SIGKILL');
    });
    const proxy = await started;
    const client = new Client({ name: 'behind-proxy', version: '1.0.0' });
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      logs.push(n.params.data);
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(proxy.url)));
    cleanups.push(() => client.close());
    const result = await client.callTool({ name: 'poll', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'answered after closing: true' }]);
    expect(logs).toEqual(['before the stream closed', 'after the stream closed']);
    // The answer came on a resumed stream: a GET that named the last event the client saw.
    expect(upstream.seen.some((line) => /^GET (?!-$)/.test(line))).toBe(true);
  });
});
