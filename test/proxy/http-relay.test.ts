/**
 * The HTTP proxy's relay, request by request, against a one-route upstream the test scripts: which
 * headers go up and come back, JSON bodies repaired or passed on as they are, other bodies piped, SSE
 * events re-emitted with their ids, names and retry hints, failures answered per request, and the
 * session table (created by the upstream's Mcp-Session-Id, ended by a successful DELETE).
 */

import { isUtf8 } from 'node:buffer';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningHttpProxy, startHttpProxy } from '../../src/proxy/http.js';
import { loggingProxy } from './support/http-proxy.js';
import { closeServer } from './support/session-server.js';

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

const servers: Server[] = [];
const proxies: RunningHttpProxy[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
  await Promise.all(servers.splice(0).map(closeServer));
});

/** An upstream at /up whose answers `handle` writes; `seen` lists the requests it got. */
async function upstream(handle: (res: ServerResponse, request: Seen) => void) {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      const request = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      seen.push(request);
      handle(res, request);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/up?k=1`, seen };
}

const proxyTo = (url: string, headers?: Record<string, string>) =>
  loggingProxy(url, proxies, headers ? { headers } : {});

const json = (res: ServerResponse, body: string, status = 200, headers: Record<string, string> = {}) =>
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body);

const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body,
  });

/**
 * Each test takes well under a second; a relay that never answers fails its test after this long
 * rather than stall a mutation run (whose own limit restarts its worker).
 */
const TIMEOUT = 15_000;

const PING = '{"jsonrpc":"2.0","id":1,"method":"ping"}';

/**
 * An upstream that starts session "abc" on 2025-03-26 at initialize and answers every other request with
 * a result whose block needs a repair (`"type": "object"`).
 */
function answerAsSession(res: ServerResponse, body: string): void {
  const message = JSON.parse(body) as { method: string; id: number };
  if (message.method === 'initialize') {
    json(
      res,
      `{"jsonrpc":"2.0","id":${message.id},"result":{"protocolVersion":"2025-03-26","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}`,
      200,
      { 'mcp-session-id': 'abc' },
    );
  } else {
    json(
      res,
      `{"jsonrpc":"2.0","id":${message.id},"result":{"content":[{"type":"object","object":{"a":1}}]}}`,
    );
  }
}

describe('HTTP relay: requests', { timeout: TIMEOUT }, () => {
  it('serves /mcp only', async () => {
    const { url, seen } = await upstream((res) => json(res, '{}'));
    const { proxy } = await proxyTo(url);
    const other = await fetch(proxy.url.replace('/mcp', '/other'));
    expect(other.status).toBe(404);
    expect(other.headers.get('content-type')).toBe('text/plain');
    expect(await other.text()).toBe('mcp-shape proxy serves /mcp\n');
    expect(seen).toEqual([]);
    expect((await post(`${proxy.url}?x=1`, PING)).status).toBe(200);
    expect(seen).toHaveLength(1);
  });

  it('sends the MCP headers, the body, its method and --header values to the upstream URL, and nothing else', async () => {
    const { url, seen } = await upstream((res) => res.writeHead(202).end());
    const { proxy } = await proxyTo(url, { authorization: 'Bearer from-cli', 'x-team': 'a' });
    const response = await post(proxy.url, PING, {
      'mcp-session-id': 's1',
      'mcp-protocol-version': '2025-06-18',
      'last-event-id': 'e7',
      authorization: 'Bearer client',
      cookie: 'secret=1',
      'x-client': 'y',
    });
    expect(response.status).toBe(202);
    const [request] = seen;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/up?k=1');
    expect(request?.body).toBe(PING);
    expect(request?.headers).toMatchObject({
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': 's1',
      'mcp-protocol-version': '2025-06-18',
      'last-event-id': 'e7',
      authorization: 'Bearer from-cli',
      'x-team': 'a',
      'content-length': String(PING.length),
    });
    expect(request?.headers.cookie).toBeUndefined();
    expect(request?.headers['x-client']).toBeUndefined();
    await fetch(proxy.url, { method: 'GET', headers: { accept: 'text/event-stream' } });
    expect(seen[1]?.method).toBe('GET');
    expect(seen[1]?.body).toBe('');
    expect(seen[1]?.headers['content-length']).toBeUndefined();
  });
});

describe('HTTP relay: JSON answers', { timeout: TIMEOUT }, () => {
  it('repairs a JSON body, with its length, status and headers, and reports the repair', async () => {
    const { url } = await upstream((res) =>
      json(res, '{"jsonrpc":"2.0","id":1,"requestId":"r","result":{}}', 200, {
        'x-upstream': 'kept',
        'mcp-session-id': 'sess-9',
      }),
    );
    const { proxy, repaired } = await proxyTo(url);
    const response = await post(proxy.url, PING);
    const body = await response.text();
    expect(body).toBe('{"jsonrpc":"2.0","id":1,"result":{}}');
    expect(response.headers.get('content-length')).toBe(String(body.length));
    expect(response.headers.get('x-upstream')).toBe('kept');
    expect(response.headers.get('mcp-session-id')).toBe('sess-9');
    expect(repaired).toEqual([
      {
        fixes: [expect.objectContaining({ rule: 'envelope-extra-member' })],
        protocolVersion: '2025-06-18',
        method: 'ping',
        connection: 'sess-9',
      },
    ]);
    // The upstream's id became this conversation's session.
    expect(proxy.sessions()).toEqual(['sess-9']);
  });

  it('passes a body that needs nothing on byte for byte', async () => {
    const text = '{ "jsonrpc": "2.0", "id": 1, "result": { "n": 1.0 } }';
    const { url } = await upstream((res) => json(res, text));
    const { proxy, log } = await proxyTo(url);
    expect(await (await post(proxy.url, PING)).text()).toBe(text);
    expect(log).toEqual([]);
  });

  it('passes a body that is not UTF-8 on as UTF-8, with U+FFFD for the bad byte, and logs it', async () => {
    const text = '{"jsonrpc":"2.0","id":1,"result":{"n":"Café"}}';
    const { url } = await upstream((res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(Buffer.from(text, 'latin1')),
    );
    const { proxy, log } = await proxyTo(url);
    const body = Buffer.from(await (await post(proxy.url, PING)).arrayBuffer());
    expect(isUtf8(body)).toBe(true);
    expect(body.toString('utf8')).toBe('{"jsonrpc":"2.0","id":1,"result":{"n":"Caf\uFFFD"}}');
    expect(log).toEqual([
      '[request-1] server sent a body that is not UTF-8 (byte 42 is 0xE9): passed on as UTF-8, with U+FFFD for each bad sequence',
    ]);
  });

  it('passes a JSON body that is no JSON-RPC message on as it is, with its status, and logs it', async () => {
    const { url } = await upstream((res) => json(res, '{"status":"unauthorized"}', 401));
    const { proxy, log } = await proxyTo(url);
    const response = await post(proxy.url, PING);
    expect(response.status).toBe(401);
    expect(await response.text()).toBe('{"status":"unauthorized"}');
    expect(log).toEqual([
      '[request-1] server answered with JSON but not a JSON-RPC message: an object with none of method, id, result and error, passed on as it is: {"status":"unauthorized"}',
    ]);
  });

  it('logs a message passed on unchanged for a reason, under its connection', async () => {
    const { url } = await upstream((res) => json(res, '{"jsonrpc":"2.0","requestId":"r","result":{}}'));
    const { proxy, log } = await proxyTo(url);
    await post(proxy.url, PING);
    await post(proxy.url, PING);
    // With no id the message answers no request: each ping gets an error (json-unanswered.test.ts).
    expect(log).toHaveLength(4);
    expect(log[0]).toMatch(
      /^\[request-1\] \[2025-06-18\] message: left unchanged: no repair for envelope-id-invalid/,
    );
    expect(log[1]).toMatch(/^\[request-1\] the server's HTTP 200 answer held no response to the request/);
    expect(log[2]).toMatch(/^\[request-2\] /);
  });

  it('answers a request an empty JSON body leaves unanswered, and passes any other content on as it is', async () => {
    let n = 0;
    const { url } = await upstream((res) => {
      if (n++ === 0) json(res, '');
      else
        res
          .writeHead(500, { 'content-type': 'text/html', 'x-a': 'b' })
          .end('<h1>{"jsonrpc":"2.0","requestId":1}</h1>');
    });
    const { proxy } = await proxyTo(url);
    const empty = await post(proxy.url, PING);
    expect(empty.status).toBe(200);
    expect(await empty.json()).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: {
        code: -32000,
        message:
          "mcp-shape proxy: the server's HTTP 200 answer held no response to the request, but an empty body",
      },
    });
    const html = await post(proxy.url, PING);
    expect(html.status).toBe(500);
    expect(html.headers.get('x-a')).toBe('b');
    expect(await html.text()).toBe('<h1>{"jsonrpc":"2.0","requestId":1}</h1>');
  });

  it('repairs for the version a sessionless request declares in its header', async () => {
    const { url } = await upstream((res) =>
      json(res, '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"object","object":{"a":1}}]}}'),
    );
    const { proxy } = await proxyTo(url);
    const call = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}';
    const old = await (await post(proxy.url, call, { 'mcp-protocol-version': '2025-03-26' })).json();
    expect(old.result).toEqual({ content: [{ type: 'text', text: '{"a":1}' }] });
    const current = await (await post(proxy.url, call, { 'mcp-protocol-version': '2025-06-18' })).json();
    expect(current.result.structuredContent).toEqual({ a: 1 });
    expect(proxy.sessions()).toEqual([]);
  });
});

describe('HTTP relay: sessions', { timeout: TIMEOUT }, () => {
  it('keeps what a session learned for its later requests, and forgets it on a successful DELETE only', async () => {
    let deletes = 0;
    const { url } = await upstream((res, request) => {
      if (request.method === 'DELETE') {
        // The first DELETE fails.
        res.writeHead(deletes++ === 0 ? 404 : 200).end();
        return;
      }
      answerAsSession(res, request.body);
    });
    const { proxy } = await proxyTo(url);
    await post(
      proxy.url,
      '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}',
    );
    expect(proxy.sessions()).toEqual(['abc']);
    // The session negotiated 2025-03-26: an object block becomes text only, as that version has no
    // structuredContent.
    const call = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}';
    const answer = await (await post(proxy.url, call, { 'mcp-session-id': 'abc' })).json();
    expect(answer.result).toEqual({ content: [{ type: 'text', text: '{"a":1}' }] });
    // A session the proxy has not seen start (it restarted) is taken up with its header's version.
    await post(proxy.url, call, { 'mcp-session-id': 'other', 'mcp-protocol-version': '2025-06-18' });
    expect(proxy.sessions()).toEqual(['abc', 'other']);
    const fails = await fetch(proxy.url, {
      method: 'DELETE',
      headers: { 'mcp-session-id': 'abc' },
    });
    expect(fails.status).toBe(404);
    // Kept in the order they were last used.
    expect(proxy.sessions()).toEqual(['other', 'abc']);
    await fetch(proxy.url, { method: 'DELETE', headers: { 'mcp-session-id': 'abc' } });
    expect(proxy.sessions()).toEqual(['other']);
  });
});

describe('HTTP relay: event streams', { timeout: TIMEOUT }, () => {
  const sse = (res: ServerResponse, text: string) =>
    res.writeHead(200, { 'content-type': 'text/event-stream', 'x-s': '1' }).end(text);

  it('re-emits each event with its id and name, repaired, drops what is no message, and keeps retry hints', async () => {
    const { url } = await upstream((res) =>
      sse(
        res,
        [
          'retry: 3000\n\n',
          'id: e1\nevent: message\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":1.0}}\n\n',
          'data: not json\n\n',
          'id: e2\ndata:\n\n',
          'id: e3\ndata: {"jsonrpc":"2.0",\ndata:  "id":1,"requestId":"r","result":{}}\n\n',
        ].join(''),
      ),
    );
    const { proxy, log, repaired } = await proxyTo(url);
    const response = await post(proxy.url, PING);
    expect(response.headers.get('x-s')).toBe('1');
    expect(await response.text()).toBe(
      [
        'retry: 3000\n\n',
        'id: e1\nevent: message\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":1.0}}\n\n',
        'id: e2\ndata: \n\n',
        'id: e3\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n',
      ].join(''),
    );
    expect(log).toEqual(['[request-1] server sent not JSON, not forwarded: not json']);
    expect(repaired).toHaveLength(1);
    expect(repaired[0]?.connection).toBe('request-1');
  });

  it('keeps a message spread over several data lines on as many lines', async () => {
    const { url } = await upstream((res) =>
      sse(res, 'data: {"jsonrpc":"2.0",\ndata: "id":1,"result":{}}\n\n'),
    );
    const { proxy } = await proxyTo(url);
    expect(await (await post(proxy.url, PING)).text()).toBe(
      'data: {"jsonrpc":"2.0",\ndata: "id":1,"result":{}}\n\n',
    );
  });

  it('answers only the requests the stream left unanswered when it breaks off', async () => {
    const { url } = await upstream((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"jsonrpc":"2.0","id":1,"result":{}}\n\n');
      setTimeout(() => res.socket?.destroy(), 100);
    });
    const { proxy, log } = await proxyTo(url);
    const text = await (
      await post(
        proxy.url,
        '[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":"b","method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"}]',
      )
    ).text();
    const events = text.split('\n\n').filter(Boolean);
    expect(events).toHaveLength(2);
    expect(events[0]).toBe('data: {"jsonrpc":"2.0","id":1,"result":{}}');
    expect(
      events[1]?.startsWith(
        'event: message\ndata: {"jsonrpc":"2.0","id":"b","error":{"code":-32000,"message":"mcp-shape proxy: the server\'s response broke off',
      ),
    ).toBe(true);
    expect(log.some((l) => l.startsWith("[request-1] the server's response broke off"))).toBe(true);
  });
});

describe('HTTP relay: an upstream that cannot be reached', { timeout: TIMEOUT }, () => {
  const unreachable = async () => {
    const { url } = await upstream(() => {});
    const closed = servers.pop() as Server;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    return url;
  };

  it('answers each request with a JSON-RPC error (502), a batch with an array, and logs why', async () => {
    const { proxy, log } = await proxyTo(await unreachable());
    const one = await post(proxy.url, PING);
    expect(one.status).toBe(502);
    expect(one.headers.get('content-type')).toBe('application/json');
    const error = await one.json();
    expect(error).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32000 } });
    expect(error.error.message).toMatch(/^mcp-shape proxy: /);
    expect(log).toHaveLength(1);
    expect(error.error.message).toBe(`mcp-shape proxy: ${log[0]}`);
    const batch = await (
      await post(
        proxy.url,
        '[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]',
      )
    ).json();
    expect(batch.map((e: { id: number }) => e.id)).toEqual([1, 2]);
  });

  it('answers each request under its id as the client wrote it, 1e400 and 12345678901234567890 too', async () => {
    const { proxy } = await proxyTo(await unreachable());
    const body = await (
      await post(
        proxy.url,
        '[{"jsonrpc":"2.0","id":1e400,"method":"ping"},{"jsonrpc":"2.0","id":12345678901234567890,"method":"ping"}]',
      )
    ).text();
    expect(body).toMatch(
      /^\[\{"jsonrpc":"2\.0","id":1e400,"error":\{.*\},\{"jsonrpc":"2\.0","id":12345678901234567890,"error":/,
    );
  });

  it('answers a request without ids with a plain 502', async () => {
    const { proxy, log } = await proxyTo(await unreachable());
    const response = await post(proxy.url, '{"jsonrpc":"2.0","method":"notifications/initialized"}');
    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toBe('text/plain');
    expect(await response.text()).toBe(`mcp-shape proxy: ${log[0]}\n`);
  });
});

describe('HTTP relay: connections that break', { timeout: TIMEOUT }, () => {
  it('logs a client that hangs up before its whole body arrived, asks the upstream nothing, and serves on', async () => {
    const { url, seen } = await upstream((res) => json(res, '{"jsonrpc":"2.0","id":1,"result":{}}'));
    const { proxy, log } = await proxyTo(url);
    const { port } = new URL(proxy.url);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(
      'POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"jsonrpc"',
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    for (let i = 0; i < 200 && log.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(log).toEqual(['a client hung up before its whole request arrived: nothing sent upstream']);
    expect(seen).toEqual([]);
    expect(await (await post(proxy.url, PING)).json()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });

  it('answers the requests with a JSON-RPC error (502) when the upstream JSON body breaks off', async () => {
    const { url } = await upstream((res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"jsonrpc":"2.0",');
      setTimeout(() => res.socket?.destroy(), 50);
    });
    const { proxy, log } = await proxyTo(url);
    const response = await post(proxy.url, PING);
    expect(response.status).toBe(502);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatch(/^the server's response broke off: /);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32000, message: `mcp-shape proxy: ${log[0]}` },
    });
  });

  it('lets go of the upstream request, and logs nothing, when the client hangs up first', async () => {
    let upstreamClosed: () => void = () => {};
    const closed = new Promise<void>((resolve) => {
      upstreamClosed = resolve;
    });
    const { url } = await upstream((res) => res.on('close', () => upstreamClosed()));
    const { proxy, log } = await proxyTo(url);
    const { port } = new URL(proxy.url);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(
      `POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${PING.length}\r\n\r\n${PING}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy();
    await closed;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(log).toEqual([]);
  });

  it('speaks TLS to an https upstream', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-shape-tls-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-subj',
        '/CN=localhost',
        '-days',
        '1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    const server = createHttpsServer(
      { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
      (_req, res) => json(res, '{}'),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/up`;
    const { proxy, log } = await proxyTo(url);
    // The upstream's certificate is its own: the proxy spoke TLS to it, and refused it.
    expect((await post(proxy.url, PING)).status).toBe(502);
    expect(log).toEqual([`self-signed TLS certificate: ${url}`]);
  });

  it('listens on an IPv6 address, bracketed in its URL', async () => {
    const { url } = await upstream((res) => json(res, '{"jsonrpc":"2.0","id":1,"result":{}}'));
    const proxy = await startHttpProxy({
      upstream: url,
      host: '::1',
      port: 0,
      protocolVersion: '2025-06-18',
    });
    proxies.push(proxy);
    expect(proxy.url).toMatch(/^http:\/\/\[::1\]:\d+\/mcp$/);
    expect(await (await post(proxy.url, PING)).json()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });
});

describe('HTTP relay: session headers', { timeout: TIMEOUT }, () => {
  it('takes an empty Mcp-Session-Id, sent or assigned, as no session', async () => {
    const { url } = await upstream((res) =>
      json(res, '{"jsonrpc":"2.0","id":1,"result":{}}', 200, { 'mcp-session-id': '' }),
    );
    const { proxy, repaired } = await proxyTo(url);
    const answer = await post(proxy.url, '{"jsonrpc":"2.0","id":1,"method":"ping"}', {
      'mcp-session-id': '',
    });
    expect(await answer.json()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    expect(proxy.sessions()).toEqual([]);
    expect(repaired).toEqual([]);
  });

  it('takes the version a known session states in a later request', async () => {
    const { url } = await upstream((res, request) => {
      answerAsSession(res, request.body);
    });
    const { proxy } = await proxyTo(url);
    await post(
      proxy.url,
      '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}',
    );
    const call = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}';
    const answer = await (
      await post(proxy.url, call, { 'mcp-session-id': 'abc', 'mcp-protocol-version': '2025-06-18' })
    ).json();
    expect(answer.result.structuredContent).toEqual({ a: 1 });
  });
});
