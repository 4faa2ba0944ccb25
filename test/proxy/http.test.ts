/**
 * `mcp-shape proxy --url`: the official SDK client against Streamable HTTP servers, over real sockets.
 * The legacy gateway answers in JSON bodies the client cannot use; server-everything answers in SSE.
 */

import type { ChildProcess } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningGateway, startLegacyGateway } from '../../fixtures/servers/legacy-gateway.mjs';
import { type RunningServer, serverBin, startHttpServer } from '../audit/support.js';
import { runCli } from '../support/cli.js';
import { startUrlProxy, type UrlProxy, until } from './support/processes.js';

const children: ChildProcess[] = [];
const clients: Client[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
});

afterAll(async () => {
  await Promise.all(
    children.splice(0).map(
      (child) =>
        new Promise<void>((done) => {
          if (child.exitCode !== null || child.signalCode !== null) return done();
          child.once('exit', () => done());
          child.kill('SIGKILL');
        }),
    ),
  );
});

/**
 * A hand-rolled upstream on a free port that answers each request once its body is read whole: for
 * what no real server sends.
 */
async function startUpstream(
  answer: (req: IncomingMessage, body: string, res: ServerResponse, port: number) => void,
): Promise<{ server: Server; port: number; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => answer(req, body, res, (server.address() as AddressInfo).port));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const close = async () => {
    server.closeAllConnections();
    await new Promise<void>((done) => server.close(() => done()));
  };
  return { server, port: (server.address() as AddressInfo).port, close };
}

/** Starts the real CLI as a process and waits for the URL it prints; killed after all tests. */
async function startProxy(upstream: string, extra: string[] = []): Promise<UrlProxy> {
  const proxy = startUrlProxy(upstream, extra);
  children.push(proxy.child);
  return proxy.started;
}

async function connect(url: string, timeout = 20_000): Promise<Client> {
  const client = new Client({ name: 'proxy-http-test', version: '1.0.0' });
  clients.push(client);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)), { timeout });
  return client;
}

describe('mcp-shape proxy --url, in front of the legacy JSON gateway', () => {
  let gateway: RunningGateway;
  let proxy: UrlProxy;
  beforeAll(async () => {
    gateway = await startLegacyGateway();
    proxy = await startProxy(gateway.url);
  }, 60_000);
  afterAll(async () => {
    await gateway?.close();
  });

  it('the gateway is unusable for the SDK client on its own (every response has requestId)', async () => {
    // The SDK rejects the initialize response outright (unrecognized key) or never matches it.
    await expect(connect(gateway.url, 3_000)).rejects.toThrow(/requestId|timed out/i);
  }, 30_000);

  it('makes every read-only tool call succeed in the SDK client, repaired', async () => {
    const client = await connect(proxy.url);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['get_balance', 'search_names', 'get_transaction', 'send_coin']);

    // The gateway negotiates 2024-11-05, which has no structuredContent: the object becomes text only.
    const balance = await client.callTool({ name: 'get_balance', arguments: { address: 'Qabc' } });
    const expected = { address: 'Qabc', balance: '0.00000000', assetId: 0 };
    expect(balance.content).toEqual([{ type: 'text', text: JSON.stringify(expected) }]);
    expect(balance.structuredContent).toBeUndefined();
    expect(balance.isError).not.toBe(true);

    const names = await client.callTool({ name: 'search_names', arguments: { query: 'qortal' } });
    expect(names.content).toEqual([expect.objectContaining({ type: 'text' })]);
    expect(JSON.stringify(names.content)).toContain('qortal-2');

    const transaction = await client.callTool({
      name: 'get_transaction',
      arguments: { signature: 'not-base58' },
    });
    expect(transaction.isError).toBe(true);
    expect(JSON.stringify(transaction.content)).toContain('INVALID_SIGNATURE');

    await until(() => proxy.stderr().includes('[2024-11-05] tools/call get_balance: block-type-unknown'));
    const log = proxy.stderr();
    expect(log).toContain('envelope-extra-member at /requestId');
    expect(log).toContain('[2024-11-05] tools/call get_balance: block-type-unknown');
  }, 60_000);

  it('with --protocol 2025-06-18, object blocks become text plus structuredContent', async () => {
    const pinned = await startProxy(gateway.url, ['--protocol', '2025-06-18']);
    const client = await connect(pinned.url);
    const balance = await client.callTool({ name: 'get_balance', arguments: { address: 'Qabc' } });
    const expected = { address: 'Qabc', balance: '0.00000000', assetId: 0 };
    expect(balance.structuredContent).toEqual(expected);
    expect(balance.content).toEqual([{ type: 'text', text: JSON.stringify(expected) }]);
    const names = await client.callTool({ name: 'search_names', arguments: { query: 'qortal' } });
    expect(JSON.stringify(names.structuredContent)).toContain('qortal-2');
    await until(() => pinned.stderr().includes('[2025-06-18] tools/call get_balance: block-type-unknown'));
    expect(pinned.stderr()).toContain('[2025-06-18] tools/call get_balance: block-type-unknown');
  }, 60_000);

  it('answers 502 with a JSON-RPC error when the upstream cannot be reached', async () => {
    const dead = await startLegacyGateway();
    await dead.close();
    const lonely = await startProxy(dead.url);
    const response = await fetch(lonely.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' }),
    });
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32000 } });
    await until(() => lonely.stderr().includes(`connection refused: ${dead.url}`));
    expect(lonely.stderr()).toContain(`connection refused: ${dead.url}`);
  }, 60_000);

  it('forwards a client body that is not JSON unchanged', async () => {
    const response = await fetch(proxy.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{not json',
    });
    // The gateway's own parse error comes back (it is JSON, with requestId absent: nothing to repair).
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: -32700 } });
  }, 30_000);
});

describe('mcp-shape proxy --url, in front of server-everything (SSE responses)', () => {
  let everything: RunningServer;
  let proxy: UrlProxy;
  beforeAll(async () => {
    everything = await startHttpServer(serverBin('server-everything'), ['streamableHttp'], '/mcp');
    proxy = await startProxy(everything.url);
  }, 60_000);
  afterAll(async () => {
    await everything?.stop();
  });

  it('relays the SSE responses so listTools and a call work', async () => {
    const response = await fetch(proxy.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      }),
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('mcp-session-id')).toBeTruthy();
    expect(await response.text()).toMatch(/^(id: .*\n)?event: message\ndata: \{.*"serverInfo"/m);

    const client = await connect(proxy.url);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('echo');
    const echo = await client.callTool({ name: 'echo', arguments: { message: 'through the proxy' } });
    expect(JSON.stringify(echo.content)).toContain('through the proxy');
  }, 60_000);
});

describe('mcp-shape proxy --url, in front of a server whose SSE events need repair', () => {
  // A hand-rolled upstream, because no real server sends these defects over SSE.
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let proxy: UrlProxy;
  beforeAll(async () => {
    upstream = await startUpstream((req, body, res) => {
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'application/json' }).end('this is not json');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (body.includes('"batch"')) {
        // Answers in a batch: a progress notification, then the response.
        const batch = [
          { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'w' } },
          { jsonrpc: '2.0', id: 2, result: {} },
        ];
        res.end(`id: e3\nevent: message\ndata: ${JSON.stringify(batch)}\n\n`);
        return;
      }
      res.write('id: e1\nevent: message\ndata: {"jsonrpc":"2.0","id":1,"result":{},"requestId":"x"}\n\n');
      res.write('id: e2\ndata: not json either\n\n');
      res.end();
    });
    proxy = await startProxy(`http://127.0.0.1:${upstream.port}/mcp`);
  }, 60_000);
  afterAll(async () => {
    await upstream?.close();
  });

  it('repairs each event, keeps ids and event names, and drops an event that is not JSON (logged)', async () => {
    const sse = await fetch(proxy.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(await sse.text()).toBe('id: e1\nevent: message\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n');
    const json = await fetch(proxy.url);
    expect(json.status).toBe(200);
    expect(await json.text()).toBe('this is not json');
    const log = proxy.stderr();
    expect(log).toContain('envelope-extra-member at /requestId');
    expect(log).toContain('server sent not JSON, not forwarded: not json either');
    // A JSON body stands alone, with its status: it is passed on, and logged.
    expect(log).toContain('server answered with not JSON, passed on as it is: this is not json');
  }, 60_000);

  it('sends the messages of a batch as events of their own, the event id on the last', async () => {
    const sse = await fetch(proxy.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'batch' }),
    });
    expect(await sse.text()).toBe(
      [
        'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"w"}}\n',
        'id: e3\nevent: message\ndata: {"jsonrpc":"2.0","id":2,"result":{}}\n',
        '',
      ].join('\n'),
    );
  }, 60_000);
});

describe('mcp-shape proxy --url, in front of a server that redirects /mcp to /mcp/ (as Starlette does)', () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let proxy: UrlProxy;
  beforeAll(async () => {
    upstream = await startUpstream((req, body, res, port) => {
      if (req.url === '/mcp') {
        res.writeHead(307, { location: `http://127.0.0.1:${port}/mcp/` }).end();
        return;
      }
      const message = body === '' ? undefined : JSON.parse(body);
      if (req.method !== 'POST' || message?.id === undefined) {
        res.writeHead(202).end();
        return;
      }
      const result =
        message.method === 'initialize'
          ? {
              protocolVersion: message.params.protocolVersion,
              capabilities: { tools: {} },
              serverInfo: { name: 'r', version: '1' },
            }
          : { content: ['redirected'] };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    });
    proxy = await startProxy(`http://127.0.0.1:${upstream.port}/mcp`);
  }, 60_000);
  afterAll(async () => {
    await upstream?.close();
  });

  it('follows the redirect itself, so the SDK client connects and gets the repaired answer', async () => {
    const { port } = upstream;
    // Directly, the SDK client will not follow a redirect to another origin than the one it asked.
    const direct = new Client({ name: 'direct', version: '1.0.0' });
    clients.push(direct);
    await expect(
      direct.connect(new StreamableHTTPClientTransport(new URL(`http://localhost:${port}/mcp`)), {
        timeout: 10_000,
      }),
    ).rejects.toThrow(/redirect/i);
    const client = await connect(proxy.url);
    const answer = await client.callTool({ name: 'any', arguments: {} });
    expect(answer.content).toEqual([{ type: 'text', text: 'redirected' }]);
    expect(proxy.stderr()).toContain('the server redirected /mcp to /mcp/ (307): followed');
  }, 60_000);
});

describe('mcp-shape proxy usage', () => {
  it('takes exactly one of --url and a server command (exit 2, one line)', async () => {
    const both = await runCli(['proxy', '--url', 'http://127.0.0.1:9/mcp', '--', 'node', 'server.js']);
    expect(both.code).toBe(2);
    expect(both.stderr.trim().split('\n')).toEqual([
      'mcp-shape: give either --url or a server command after --, not both (see mcp-shape proxy --help)',
    ]);
    const neither = await runCli(['proxy', '--quiet']);
    expect(neither.code).toBe(2);
    expect(neither.stderr.trim().split('\n')).toHaveLength(1);
    expect(neither.stderr).toMatch(/give the server command after --.*or --url URL/);
  }, 60_000);
});
