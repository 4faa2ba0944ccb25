/**
 * The upstream ends a request's SSE stream without the response and without an event id, so the client
 * cannot resume it: straight to the server, the SDK client waits out its own timeout (60 s by default)
 * for an answer that cannot come. Through the proxy it gets a JSON-RPC error for the call as the
 * stream ends, as it does when a stream breaks; a stream that carries the answer ends as it is.
 */

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_RESUME_DELAY_MS, type RunningHttpProxy } from '../../src/proxy/http.js';
import { minimalResult } from '../fixtures/minimal-answers.js';
import { startSseServer, TOOL_TEXT } from '../fixtures/sse-line-endings.js';
import { startUnansweringServer } from '../fixtures/sse-unanswered.js';
import { CLI_TEST_TIMEOUT } from '../support/cli.js';
import { loggingProxy } from './support/http-proxy.js';
import { startUrlProxy, until } from './support/processes.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** `mcp-shape proxy --url` in front of `url`, killed after the test. */
function proxyProcess(url: string) {
  const { child, started } = startUrlProxy(url);
  cleanups.push(() => {
    child.kill('SIGKILL');
  });
  return started;
}

async function clientThroughProxy(upstream: { url: string; close(): Promise<void> }) {
  cleanups.push(() => upstream.close());
  const proxy = await proxyProcess(upstream.url);
  const client = new Client({ name: 'behind-proxy', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(proxy.url)));
  cleanups.push(() => client.close());
  return { client, proxy };
}

// Longer than the test may run: only an answer from the proxy ends the call in time.
const CLIENT_WAIT = { timeout: 10 * CLI_TEST_TIMEOUT };

describe('proxy: an upstream SSE stream ended without the response', { timeout: CLI_TEST_TIMEOUT }, () => {
  it('fails the call with a JSON-RPC error as the stream ends, rather than leaving the client waiting', async () => {
    const { client, proxy } = await clientThroughProxy(await startUnansweringServer());
    const call = client.callTool({ name: 't', arguments: {} }, undefined, CLIENT_WAIT);
    await expect(call).rejects.toThrow(
      'MCP error -32000: mcp-shape proxy: the server ended the stream without the response',
    );
    const logged = '] the server ended the stream without the response';
    await until(() => proxy.stderr().includes(logged));
    expect(proxy.stderr()).toContain(logged);
  });

  it('passes a message under another event name than message on as a message event, which clients read', async () => {
    const { client, proxy } = await clientThroughProxy(await startSseServer('\n', 'result'));
    const result = await client.callTool({ name: 't', arguments: {} }, undefined, CLIENT_WAIT);
    expect(result.content).toEqual([{ type: 'text', text: TOOL_TEXT }]);
    const logged = 'an SSE event named "result" carried a JSON-RPC message';
    await until(() => proxy.stderr().includes(logged));
    expect(proxy.stderr()).toContain(logged);
  });

  it('passes a stream that carries the answer as it is, with nothing added', async () => {
    const { client, proxy } = await clientThroughProxy(await startSseServer('\n'));
    const result = await client.callTool({ name: 't', arguments: {} }, undefined, CLIENT_WAIT);
    expect(result.content).toEqual([{ type: 'text', text: TOOL_TEXT }]);
    expect(proxy.stderr()).not.toContain('without the response');
  });
});

/**
 * A server whose tools/call stream ends after an event with id `e1` and a `retry` hint (10 ms unless
 * told), without the response; `resumed` answers the GET that resumes it. `seen` lists each request's
 * method and Last-Event-ID.
 */
async function resumingServer(
  resumed: (res: import('node:http').ServerResponse) => void,
  breakOff = false,
  retry = '10',
): Promise<{ url: string; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  const server: Server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    seen.push(`${req.method} ${req.headers['last-event-id'] ?? '-'} ${req.headers['mcp-session-id'] ?? '-'}`);
    // No stream of its own for the client (a GET without Last-Event-ID): only resumptions.
    if (req.method === 'GET')
      return req.headers['last-event-id'] ? resumed(res) : void res.writeHead(405).end();
    const message = JSON.parse(body);
    if (message.id === undefined) return void res.writeHead(202).end();
    if (message.method === 'tools/call') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const priming = `retry: ${retry}\nid: e1\ndata: \n\n`;
      // Broken off: the connection goes down in the middle of the chunked body.
      if (breakOff) return void res.write(priming, () => res.socket?.destroy());
      return void res.end(priming);
    }
    const result = minimalResult(message, 'resuming', {});
    res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'sess-1' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const ANSWER = '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"resumed"}]}}';

describe('proxy: an upstream SSE stream ended without the response after an event id', {
  timeout: CLI_TEST_TIMEOUT,
}, () => {
  it('resumes it, and fails the call with a JSON-RPC error when the server refuses the resumption', async () => {
    // Straight to this server the SDK client's resuming GET gets a 405, after which it waits for its timeout.
    const { client, proxy } = await clientThroughProxy(await startUnansweringServer({ eventId: true }));
    const call = client.callTool({ name: 't', arguments: {} }, undefined, CLIENT_WAIT);
    const words =
      'the server ended the stream without the response, and resuming it after event "e1" failed: the server answered it with HTTP 405';
    await expect(call).rejects.toThrow(`MCP error -32000: mcp-shape proxy: ${words}`);
    await until(() => proxy.stderr().includes(words));
    expect(proxy.stderr()).toContain(words);
  });

  it('fails the call when the resumed stream ends with nothing new', async () => {
    const upstream = await resumingServer((res) =>
      res.writeHead(200, { 'content-type': 'text/event-stream' }).end(': nothing\n\n'),
    );
    const { client } = await clientThroughProxy(upstream);
    const call = client.callTool({ name: 't', arguments: {} }, undefined, CLIENT_WAIT);
    await expect(call).rejects.toThrow(
      'MCP error -32000: mcp-shape proxy: the server ended the stream without the response, and the stream resumed after event "e1" brought nothing new',
    );
    expect(upstream.seen.filter((line) => line.startsWith('GET e'))).toEqual(['GET e1 sess-1']);
  });

  it('fails the call when the resumption is answered with JSON, not a stream', async () => {
    const upstream = await resumingServer((res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(ANSWER),
    );
    const { client } = await clientThroughProxy(upstream);
    const call = client.callTool({ name: 't', arguments: {} }, undefined, CLIENT_WAIT);
    await expect(call).rejects.toThrow(
      'resuming it after event "e1" failed: the server answered it with HTTP 200 and application/json, not an event stream',
    );
  });

  it.each([
    ['ended', false, 'without the response'],
    ['broke off', true, 'broke off'],
  ])(
    'passes on the answer the resumed stream brings, once, after the stream %s',
    async (_, breakOff, words) => {
      // The SDK client straight to the server resumes a stream that broke off after an event id as well.
      const upstream = await resumingServer(
        (res) =>
          res.writeHead(200, { 'content-type': 'text/event-stream' }).end(`id: e2\ndata: ${ANSWER}\n\n`),
        breakOff,
      );
      const { client, proxy } = await clientThroughProxy(upstream);
      const result = await client.callTool({ name: 't', arguments: {} }, undefined, CLIENT_WAIT);
      expect(result.content).toEqual([{ type: 'text', text: 'resumed' }]);
      expect(upstream.seen.filter((line) => line.startsWith('GET e'))).toEqual(['GET e1 sess-1']);
      expect(proxy.stderr()).not.toContain(words);
    },
  );

  it('says the stream broke off when its resumption fails', async () => {
    const upstream = await resumingServer((res) => res.writeHead(404).end(), true);
    const { client } = await clientThroughProxy(upstream);
    const call = client.callTool({ name: 't', arguments: {} }, undefined, CLIENT_WAIT);
    await expect(call).rejects.toThrow(
      /mcp-shape proxy: the server's response broke off: .*, and resuming it after event "e1" failed: the server answered it with HTTP 404$/,
    );
  });
});

/** Past 2^31 − 1 ms, the longest wait a Node timer holds. */
const OVERFLOWING_RETRY = '99999999999';

/** resumingServer with OVERFLOWING_RETRY, whose resumption brings the answer; closed after the test. */
async function overflowingServer() {
  const upstream = await resumingServer(
    (res) => res.writeHead(200, { 'content-type': 'text/event-stream' }).end(`id: e2\ndata: ${ANSWER}\n\n`),
    false,
    OVERFLOWING_RETRY,
  );
  cleanups.push(() => upstream.close());
  return upstream;
}

describe('proxy: a retry hint longer than a timer holds', { timeout: CLI_TEST_TIMEOUT }, () => {
  it('waits at most its longest wait before resuming, with no TimeoutOverflowWarning, and passes that on', async () => {
    const upstream = await overflowingServer();
    const proxies: RunningHttpProxy[] = [];
    cleanups.push(async () => {
      for (const proxy of proxies) await proxy.close();
    });
    const { proxy, log } = await loggingProxy(upstream.url, proxies, { maxResumeDelayMs: 50 });
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    cleanups.push(() => {
      process.off('warning', onWarning);
    });
    const body = await (await postCall(proxy.url)).text();
    // A warning is emitted on the next turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.filter((warning) => warning.startsWith('TimeoutOverflowWarning'))).toEqual([]);
    expect(body).toContain('retry: 50\n');
    expect(body).not.toContain(OVERFLOWING_RETRY);
    expect(body).toContain(ANSWER);
    expect(upstream.seen.filter((line) => line.startsWith('GET e'))).toEqual(['GET e1 -']);
    expect(log).toContainEqual(
      expect.stringContaining(
        `the server's retry hint of ${OVERFLOWING_RETRY} ms is longer than the 0.05 s the proxy waits before resuming a stream: passed on as 50`,
      ),
    );
  });

  it('does not resume at once, and prints no TimeoutOverflowWarning on the terminal (the command line)', async () => {
    const upstream = await overflowingServer();
    const proxy = await proxyProcess(upstream.url);
    const abort = new AbortController();
    const response = await postCall(proxy.url, abort.signal);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let body = '';
    while (!body.includes('id: e1')) body += decoder.decode((await reader.read()).value, { stream: true });
    // Before the fix the timer fired at once: the resumption and the warning came within milliseconds.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    abort.abort();
    await reader.cancel().catch(() => {});
    const logged = `retry hint of ${OVERFLOWING_RETRY} ms is longer than the 60 s the proxy waits`;
    await until(() => proxy.stderr().includes(logged));
    expect(proxy.stderr()).not.toContain('TimeoutOverflowWarning');
    expect(upstream.seen.filter((line) => line.startsWith('GET'))).toEqual([]);
    expect(proxy.stderr()).toContain(logged);
    expect(body).toContain(`retry: ${MAX_RESUME_DELAY_MS}\n`);
  });
});

/** POSTs a tools/call (id 1) to the proxy, with no session, as a client that takes JSON or a stream. */
function postCall(url: string, signal?: AbortSignal): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 't', arguments: {} },
    }),
    ...(signal ? { signal } : {}),
  });
}
