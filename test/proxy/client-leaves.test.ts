/**
 * A client that leaves in the middle of an SSE stream it had stopped reading: the relay, waiting for
 * the client's response to drain, must see it close and finish (it once waited for a 'close' that had
 * come already, and kept the stream and its keep-alive timer for good). Real sockets: a flooding
 * upstream, the proxy, a node:http client that pauses and then hangs up.
 */

import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningHttpProxy } from '../../src/proxy/http.js';
import { loggingProxy } from './support/http-proxy.js';
import { until } from './support/processes.js';
import { closeServer } from './support/session-server.js';

const servers: Server[] = [];
const proxies: RunningHttpProxy[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
  await Promise.all(servers.splice(0).map(closeServer));
});

describe('proxy: a client that leaves a stream it stopped reading', { timeout: 30_000 }, () => {
  it('lets the relay finish, and says the client left before the response', async () => {
    let blocked: () => void = () => {};
    const upstreamBlocked = new Promise<void>((resolve) => {
      blocked = resolve;
    });
    const server = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const event = `data: {"jsonrpc":"2.0","method":"n","params":{"s":"${'x'.repeat(64 * 1024)}"}}\n\n`;
      // Notifications until the proxy stops taking them: the client does not read.
      const pump = () => {
        while (res.write(event));
        blocked();
        res.once('drain', pump);
      };
      pump();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    const { proxy, log } = await loggingProxy(
      `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
      proxies,
      { keepAliveMs: 60_000 },
    );
    const client = request(proxy.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    });
    client.on('error', () => {});
    client.on('response', (response) => response.pause());
    client.end('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}');
    await upstreamBlocked;
    client.destroy();
    const said = '[request-1] the client left before the response';
    await until(() => log.some((line) => line.startsWith(said)));
    expect(log.filter((line) => line.startsWith(said))).toHaveLength(1);
  });

  it('answers a client that resumes the stream it left with the errors the server will not resume it with', async () => {
    const server = createServer((req, res) => {
      req.resume();
      // The stream of the call stays open, after an event id; resuming it is refused.
      if (req.method === 'GET') return void res.writeHead(405).end();
      res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 's' });
      res.write('id: e1\ndata: \n\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    const { proxy, log } = await loggingProxy(
      `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
      proxies,
    );
    const headers = { accept: 'application/json, text/event-stream', 'mcp-session-id': 's' };
    const client = request(proxy.url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
    });
    client.on('error', () => {});
    const primed = new Promise<void>((resolve) =>
      client.on('response', (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => {
          text += chunk;
          if (text.includes('id: e1')) resolve();
        });
      }),
    );
    client.end('{"jsonrpc":"2.0","id":1e400,"method":"tools/call","params":{"name":"t"}}');
    await primed;
    client.destroy();
    await until(() => log.some((line) => line.includes('the client left before the response')));
    const resumed = await fetch(proxy.url, { headers: { ...headers, 'last-event-id': 'e1' } });
    expect(resumed.status).toBe(200);
    expect(resumed.headers.get('content-type')).toBe('text/event-stream');
    expect(await resumed.text()).toBe(
      'event: message\ndata: {"jsonrpc":"2.0","id":1e400,"error":{"code":-32000,"message":"mcp-shape proxy: resuming the stream failed: the server answered it with HTTP 405"}}\n\n',
    );
    // Answered once: a second resumption is the server's alone.
    expect((await fetch(proxy.url, { headers: { ...headers, 'last-event-id': 'e1' } })).status).toBe(405);
  });
});
