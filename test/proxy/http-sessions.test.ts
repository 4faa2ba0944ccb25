/**
 * The HTTP proxy keeps one conversation per Mcp-Session-Id: four official SDK clients on two protocol
 * versions at once, with overlapping request ids, are each repaired for their own version. Also the
 * time limits: none unless --timeout asks, keep-alive comments on idle streams, and a JSON-RPC error on
 * the right id when the upstream fails before answering or in the middle of a stream.
 */

import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningHttpProxy, startHttpProxy } from '../../src/proxy/http.js';
import { Recorder } from '../../src/proxy/record.js';
import { until } from './support/processes.js';
import { closeServer, type SessionServer, startSessionServer } from './support/session-server.js';

/**
 * A full collection, as the proxy's own memory.ts gets one: V8 takes --expose-gc at run time, and a
 * fresh context then has `gc`.
 */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

const proxies: RunningHttpProxy[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});

async function proxyTo(
  upstream: string,
  extra: {
    timeoutMs?: number;
    keepAliveMs?: number;
    recorder?: Recorder;
    maxMessageBytes?: number;
    maxSessions?: number;
  } = {},
) {
  const log: string[] = [];
  const proxy = await startHttpProxy({
    upstream,
    host: '127.0.0.1',
    port: 0,
    protocolVersion: '2025-11-25',
    onLog: (line) => log.push(line),
    ...extra,
  });
  proxies.push(proxy);
  return { proxy, log };
}

describe('one conversation per client', () => {
  let upstream: SessionServer;
  beforeAll(async () => {
    upstream = await startSessionServer();
  });
  afterAll(async () => {
    await upstream.close();
  });

  it('the upstream is unusable for the SDK client on its own (every response has requestId)', async () => {
    const client = new Client({ name: 'direct', version: '1.0.0' });
    await expect(
      client.connect(new StreamableHTTPClientTransport(new URL(upstream.url)), { timeout: 3_000 }),
    ).rejects.toThrow();
    await client.close().catch(() => {});
  }, 30_000);

  it('repairs four SDK clients on two versions at once, each for its own version', async () => {
    const recording = new PassThrough();
    let recorded = '';
    recording.setEncoding('utf8').on('data', (text: string) => {
      recorded += text;
    });
    const { proxy } = await proxyTo(upstream.url, { recorder: Recorder.on(recording) });
    const names = ['old-a', 'new-a', 'old-b', 'new-b'];
    const clients = names.map((name) => ({ name, client: new Client({ name, version: '1.0.0' }) }));
    const transports = clients.map(() => new StreamableHTTPClientTransport(new URL(proxy.url)));
    // Connected one after the other on purpose: the last to initialize must not decide for the others.
    for (const [i, { client }] of clients.entries())
      await client.connect(transports[i] as StreamableHTTPClientTransport);
    expect(clients.map(({ client }) => client.getServerVersion()?.name)).toEqual(
      Array(4).fill('session-server'),
    );
    expect(proxy.sessions()).toHaveLength(4);
    const sessionIds = new Set(transports.map((t) => t.sessionId));

    // Ten calls each, all in flight together: the request ids 2…11 collide across the four clients.
    const calls = clients.flatMap(({ name, client }) =>
      Array.from({ length: 10 }, async (_, n) => {
        const account = `${name}-${n}`;
        const result = await client.callTool({ name: 'balance', arguments: { account } });
        return { name, account, result };
      }),
    );
    for (const { name, account, result } of await Promise.all(calls)) {
      const data = { account, balance: account.length };
      expect(result.content).toEqual([{ type: 'text', text: JSON.stringify(data) }]);
      if (name.startsWith('old')) {
        // 2025-03-26 has no structuredContent: the object is carried as text only.
        expect(result.structuredContent).toBeUndefined();
      } else {
        expect(result.structuredContent).toEqual(data);
      }
    }
    // Each session spoke its own version to the upstream, as the SDK client declared it.
    const spoken = [...upstream.versions.values()].map((v) => [...v].sort().join(','));
    expect(spoken.sort()).toEqual(['2025-03-26', '2025-03-26', '2025-11-25', '2025-11-25']);

    // DELETE ends a session's state in the proxy too.
    const [first] = transports;
    const id = first?.sessionId as string;
    await first?.terminateSession();
    expect(upstream.deleted).toContain(id);
    expect(proxy.sessions()).not.toContain(id);
    expect(proxy.sessions()).toHaveLength(3);
    await Promise.all(clients.map(({ client }) => client.close()));

    // --record: every frame is filed under its session, the initialize exchange included.
    const entries = recorded
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { from: string; connection: string; message: { method?: string } });
    expect(new Set(entries.map((e) => e.connection))).toEqual(sessionIds);
    for (const id of sessionIds) {
      const mine = entries.filter((e) => e.connection === id);
      expect(mine[0]?.message.method).toBe('initialize');
      expect(mine.filter((e) => e.from === 'server')).toHaveLength(11); // initialize and 10 calls
    }
  }, 120_000);
});

/** A one-route upstream whose handler the test writes. */
async function upstreamWith(
  handle: (res: ServerResponse, body: string) => void,
): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => handle(res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  servers.push(server);
  return { url: `http://127.0.0.1:${port}/mcp`, server };
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map(closeServer));
});

const post = (url: string, body: unknown) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify(body),
  });

const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });
const event = (message: object) => `event: message\ndata: ${JSON.stringify(message)}\n\n`;

describe('time limits and upstream failures', () => {
  it('imposes no time limit of its own: Node’s 300 s request timeout is off, the upstream has none', async () => {
    const { url } = await upstreamWith((res) => res.writeHead(202).end());
    const { proxy } = await proxyTo(url);
    expect(proxy.server.requestTimeout).toBe(0);
    expect(proxy.server.timeout).toBe(0);
  });

  it('keeps an idle SSE stream alive with comments while a slow tool runs, without a timeout', async () => {
    const { url } = await upstreamWith((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(
        event({
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: 1, progress: 1 },
        }),
      );
      setTimeout(() => res.end(event({ jsonrpc: '2.0', id: 1, result: {} })), 1_500);
    });
    const { proxy } = await proxyTo(url, { keepAliveMs: 100 });
    const text = await (await post(proxy.url, ping(1))).text();
    expect(text).toContain(': keep-alive\n\n');
    expect(text.endsWith(event({ jsonrpc: '2.0', id: 1, result: {} }))).toBe(true);
  }, 30_000);

  it('sends no keep-alive inside an event it passes on unjudged (longer than it holds), however long it stalls', async () => {
    const long = event({
      jsonrpc: '2.0',
      id: 1,
      result: { content: [{ type: 'text', text: 'x'.repeat(400) }] },
    });
    const { url } = await upstreamWith((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      // Half the event, a stall of several keep-alive periods, then the rest.
      res.write(long.slice(0, 300));
      setTimeout(() => res.end(long.slice(300)), 600);
    });
    const { proxy, log } = await proxyTo(url, { keepAliveMs: 50, maxMessageBytes: 200 });
    const text = await (await post(proxy.url, ping(1))).text();
    // Keep-alives before the event started are fine; none inside it.
    expect(text.replaceAll(': keep-alive\n\n', '')).toBe(long);
    expect(text.endsWith(long)).toBe(true);
    expect(log).toEqual([
      "[request-1] an event longer than 200 bytes (the proxy's --max-message-mb): forwarded unchanged, unjudged",
    ]);
  }, 30_000);

  it('holds nothing of an event it passes on, while the event is still coming', async () => {
    const limit = 16 * 2 ** 20;
    const head = 'data: {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"';
    const end = '"}]}}\n\n';
    let release: (() => void) | undefined;
    const { url } = await upstreamWith((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      // Past the limit, then a stall: the first piece passed on is all that was held, 16 MB.
      res.write(`${head}${'x'.repeat(limit + 4096)}`);
      release = () => res.end(end);
    });
    const { proxy, log } = await proxyTo(url, { maxMessageBytes: limit });
    const gc = collector();
    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    const response = await fetch(proxy.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(ping(1)),
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    let received = 0;
    while (received < limit) received += (await reader.read()).value?.length ?? 0;
    await until(() => log.some((line) => line.includes('forwarded unchanged, unjudged')));
    gc();
    const used = process.memoryUsage().heapUsed;
    // The 16 MB piece is written and gone: anything of it kept as a view into it (an id read from it, a
    // head or tail as the proxy once kept) would keep all of it.
    expect(used).toBeLessThan(heapBefore + 8 * 2 ** 20);
    release?.();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      received += chunk.value.length;
    expect(received).toBe(head.length + limit + 4096 + end.length);
  }, 60_000);

  it('drops a byte order mark that starts an event stream, as clients do, and relays the first event', async () => {
    const message = { jsonrpc: '2.0', id: 1, result: {} };
    // Its first field an event type, or its data.
    for (const answer of [event(message), `data: ${JSON.stringify(message)}\n\n`]) {
      const { url } = await upstreamWith((res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(`\uFEFF${answer}`);
      });
      const { proxy, log } = await proxyTo(url);
      expect(await (await post(proxy.url, ping(1))).text()).toBe(answer);
      expect(log).toEqual([]);
    }
  }, 30_000);

  it('--timeout: an upstream silent before its headers gets the request a JSON-RPC error (502)', async () => {
    const { url } = await upstreamWith(() => {
      // never answers
    });
    const { proxy, log } = await proxyTo(url, { timeoutMs: 300 });
    const response = await post(proxy.url, ping(5));
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: 5,
      error: { code: -32000, message: 'mcp-shape proxy: the server sent nothing for 0.3 s (--timeout)' },
    });
    expect(log).toContain('the server sent nothing for 0.3 s (--timeout)');
  }, 30_000);

  it('--timeout: a stream gone silent mid-way ends with an error for each request still unanswered', async () => {
    const { url } = await upstreamWith((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(event({ jsonrpc: '2.0', id: 1, result: {} }));
      // …and nothing more: request 2 is never answered.
    });
    const { proxy } = await proxyTo(url, { timeoutMs: 300 });
    const text = await (await post(proxy.url, [ping(1), ping(2)])).text();
    expect(text).toBe(
      event({ jsonrpc: '2.0', id: 1, result: {} }) +
        event({
          jsonrpc: '2.0',
          id: 2,
          error: { code: -32000, message: 'mcp-shape proxy: the server sent nothing for 0.3 s (--timeout)' },
        }),
    );
  }, 30_000);

  it('an upstream that breaks off its stream: the unanswered request gets an error, not silence', async () => {
    const { url } = await upstreamWith((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': starting\n\n');
      setTimeout(() => res.socket?.destroy(), 100);
    });
    const { proxy } = await proxyTo(url);
    const text = await (await post(proxy.url, ping(3))).text();
    const [data] = /data: (.*)/.exec(text)?.slice(1) ?? [];
    expect(JSON.parse(data ?? 'null')).toMatchObject({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32000, message: expect.stringContaining("the server's response broke off") },
    });
  }, 30_000);

  it('without --timeout, a slow JSON answer simply arrives', async () => {
    const { url } = await upstreamWith((res) =>
      setTimeout(
        () =>
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end('{"jsonrpc":"2.0","id":4,"result":{}}'),
        1_000,
      ),
    );
    const { proxy } = await proxyTo(url);
    expect(await (await post(proxy.url, ping(4))).json()).toEqual({ jsonrpc: '2.0', id: 4, result: {} });
  }, 30_000);
});

describe('keep-alive comments', () => {
  it('sends none on a stream that is never idle for the keep-alive interval', async () => {
    const { url } = await upstreamWith((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let sent = 0;
      const timer = setInterval(() => {
        sent++;
        const progress = {
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: 1, progress: sent },
        };
        if (sent < 50) res.write(event(progress));
        else {
          clearInterval(timer);
          res.end(event({ jsonrpc: '2.0', id: 1, result: {} }));
        }
      }, 40);
    });
    const { proxy } = await proxyTo(url, { keepAliveMs: 2_000 });
    const text = await (await post(proxy.url, ping(1))).text();
    expect(text).not.toContain('keep-alive');
    expect(text.split('\n\n').filter(Boolean)).toHaveLength(50);
  }, 30_000);
});

describe('how many conversations it keeps', () => {
  it('forgets the one used least recently past its limit, however many ids clients send or the server assigns', async () => {
    // Assigns a new session id with every answer, as a hostile or careless server may.
    let assigned = 0;
    const { url } = await upstreamWith((res, body) => {
      const { id } = JSON.parse(body) as { id: number };
      res
        .writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': `server-${++assigned}` })
        .end(JSON.stringify({ jsonrpc: '2.0', id, result: {} }));
    });
    const { proxy, log } = await proxyTo(url, { maxSessions: 10 });
    const send = (session: string, id: number) =>
      fetch(proxy.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': session,
          'mcp-protocol-version': '2025-06-18',
        },
        body: JSON.stringify(ping(id)),
      });
    // A client with a new id each time, and one that keeps coming back with its own.
    for (let i = 0; i < 40; i++) {
      expect(await (await send(`client-${i}`, i)).json()).toEqual({ jsonrpc: '2.0', id: i, result: {} });
      await (await send('regular', 1000 + i)).text();
    }
    // The 80 requests started over a hundred conversations, each kept until its DELETE, which
    // neither this client nor the SDK clients send.
    const kept = proxy.sessions();
    expect(kept).toHaveLength(10);
    expect(kept).toContain('regular');
    expect(kept).toContain('client-39');
    expect(log.filter((line) => line.includes('conversations'))).toEqual([
      'more than 10 conversations: from now on the one used least recently is forgotten',
    ]);
  });
});
