/**
 * An upstream whose 2xx JSON body holds no answer to the request: a notification, an answer with
 * another id, an empty array, JSON that is no message, no JSON at all, nothing. Straight to the server
 * the SDK client takes what it can of the body and waits for the answer until its own timeout; through
 * the proxy each request the body leaves unanswered gets a JSON-RPC error saying what the server sent.
 * Real sockets both ways: a hand-written upstream, the proxy, the SDK client or fetch.
 */

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningHttpProxy } from '../../src/proxy/http.js';
import { minimalResult } from '../fixtures/minimal-answers.js';
import { loggingProxy } from './support/http-proxy.js';
import { closeServer } from './support/session-server.js';

const servers: Server[] = [];
const proxies: RunningHttpProxy[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(proxies.splice(0).map((p) => p.close()));
  await Promise.all(servers.splice(0).map(closeServer));
});

/**
 * A server that answers the handshake and tools/list properly, and every tools/call with `callBody`
 * (given the call's id), as application/json with `status`.
 */
async function upstream(callBody: (id: unknown) => string, status = 200): Promise<string> {
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const message = JSON.parse(body);
    if (Array.isArray(message) || message.method === 'tools/call') {
      const id = Array.isArray(message) ? message.map((m) => m.id) : message.id;
      return void res.writeHead(status, { 'content-type': 'application/json' }).end(callBody(id));
    }
    if (message.id === undefined) return void res.writeHead(202).end();
    const result = minimalResult(message, 'json-unanswered', {});
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

const proxyTo = (url: string) => loggingProxy(url, proxies);

/** POSTs `body` (a call with id 7 unless told) to the proxy as a client would. */
const post = (url: string, body = '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"t"}}') =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body,
  });

const NOTE = '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}';
const OK = (id: unknown) => `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[]}}`;

// Longer than the test may run: only an answer from the proxy ends the call in time.
const CLIENT_WAIT = { timeout: 600_000 };

const PREFIX =
  "MCP error -32000: mcp-shape proxy: the server's HTTP 200 answer held no response to the request, but ";

describe('proxy: a JSON body that does not answer the request', { timeout: 30_000 }, () => {
  it.each([
    ['a notification', () => NOTE, `a notification (notifications/message): ${NOTE}`],
    ['an answer with another id', () => OK(99), `an answer to another request: ${OK(99)}`],
    ['an empty array', () => '[]', 'JSON but not a JSON-RPC message: an empty array: []'],
    ['null', () => 'null', 'JSON but not a JSON-RPC message: null: null'],
    ['garbage', () => '{"jsonrpc":"2.0","id":', 'not JSON: {"jsonrpc":"2.0","id":'],
    ['nothing', () => '', 'an empty body'],
  ])('fails the SDK client call with what the server sent (%s)', async (_, body, words) => {
    const { proxy, log } = await proxyTo(await upstream(body));
    const client = new Client({ name: 'behind-proxy', version: '1.0.0' });
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(proxy.url)));
    const call = client.callTool({ name: 't', arguments: {} }, undefined, CLIENT_WAIT);
    await expect(call).rejects.toThrow(`${PREFIX}${words}`);
    expect(log.at(-1)).toMatch(/held no response to the request.*: answered 1 request with an error$/);
  });

  it('quotes the start of a long body only', async () => {
    const long = `{"jsonrpc":"2.0","method":"n","params":{"text":"${'x'.repeat(5000)}"}}`;
    const { proxy } = await proxyTo(await upstream(() => long));
    const response = await post(
      proxy.url,
      '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"t"}}',
    );
    const answer = await response.json();
    expect(answer.id).toBe(5);
    expect(answer.error.message).toBe(
      `mcp-shape proxy: the server's HTTP 200 answer held no response to the request, but a notification (n): ${long.slice(0, 200)}…`,
    );
  });

  it('keeps the answers a batch got and adds an error for each request it did not, with the upstream status 2xx', async () => {
    const { proxy, log } = await proxyTo(await upstream(() => `[${OK(1)},${NOTE}]`, 202));
    const response = await post(
      proxy.url,
      '[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}},{"jsonrpc":"2.0","id":"two","method":"tools/call","params":{"name":"t"}}]',
    );
    expect(response.status).toBe(200);
    const answer = await response.json();
    expect(answer).toEqual([
      JSON.parse(OK(1)),
      JSON.parse(NOTE),
      {
        jsonrpc: '2.0',
        id: 'two',
        error: {
          code: -32000,
          message: expect.stringContaining("the server's HTTP 202 answer held no response to the request"),
        },
      },
    ]);
    expect(log.at(-1)).toMatch(/: answered 1 request with an error$/);
  });

  it('passes an answer whose id the server turned into a string on, with the id as the client sent it, and nothing added', async () => {
    const { proxy, log } = await proxyTo(await upstream((id) => OK(String(id))));
    const response = await post(proxy.url);
    expect(await response.json()).toEqual(JSON.parse(OK(7)));
    expect(log.join('\n')).not.toContain('held no response');
  });

  it('passes on, unchanged, an answer with the id turned into a string that no repair can fix: it is still the answer', async () => {
    const broken = (id: unknown) =>
      `{"jsonrpc":"2.0","id":"${id}","result":{"content":[]},"error":{"code":1,"message":"m"}}`;
    const { proxy, log } = await proxyTo(await upstream(broken));
    const response = await post(proxy.url);
    expect(await response.text()).toBe(broken(7));
    expect(log.join('\n')).toContain('left unchanged: no repair for envelope-result-and-error');
    expect(log.join('\n')).not.toContain('held no response');
  });

  it('passes a gzip-encoded body on unread, for the client to decode', async () => {
    const server = createServer(async (req, res) => {
      for await (const _ of req);
      const body = gzipSync(OK(7));
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'content-length': body.length,
      });
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    const { proxy, log } = await proxyTo(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
    const response = await post(proxy.url);
    expect(await response.json()).toEqual(JSON.parse(OK(7)));
    expect(log).toEqual([]);
  });

  it('leaves an error status as it is: the client fails the call on it', async () => {
    const { proxy, log } = await proxyTo(await upstream(() => NOTE, 500));
    const response = await post(proxy.url);
    expect(response.status).toBe(500);
    expect(await response.text()).toBe(NOTE);
    expect(log.join('\n')).not.toContain('held no response');
  });
});

describe('proxy: an SSE answer whose id the server turned into a string', { timeout: 30_000 }, () => {
  it('counts as the answer: the stream ends with it, and no error for the request follows', async () => {
    const server = createServer(async (req, res) => {
      for await (const _ of req);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: ${OK('7')}\n\n`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    const { proxy, log } = await proxyTo(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
    const response = await post(proxy.url);
    expect(await response.text()).toBe(`data: ${OK(7)}\n\n`);
    expect(log.join('\n')).not.toContain('without the response');
  });
});

describe('proxy: a server that answers a request on the stream of another', { timeout: 30_000 }, () => {
  it('passes the answer on where it came, and adds no error for the request on its own stream', async () => {
    // Two calls of one session: the second's stream carries both answers; the first's (no event id)
    // ends later with none.
    let first: import('node:http').ServerResponse | undefined;
    const server = createServer(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      if (req.method === 'DELETE') {
        // The test's signal that it has read the second stream: the first ends now.
        first?.end();
        return void res.writeHead(200).end();
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 's' });
      if (JSON.parse(body).id === 1) {
        first = res;
        return void res.flushHeaders();
      }
      res.end(`data: ${OK(2)}\n\ndata: ${OK(1)}\n\n`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    const { proxy, log } = await proxyTo(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': 's',
    };
    const call = (id: number) =>
      fetch(proxy.url, {
        method: 'POST',
        headers,
        body: `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"t"}}`,
      });
    const one = await call(1);
    const two = await (await call(2)).text();
    expect(two).toBe(`data: ${OK(2)}\n\ndata: ${OK(1)}\n\n`);
    await fetch(proxy.url, { method: 'DELETE', headers });
    expect(await one.text()).toBe('');
    expect(log.join('\n')).not.toContain('without the response');
  });
});
