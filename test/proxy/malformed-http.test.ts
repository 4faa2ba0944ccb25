/**
 * A server whose HTTP response Node's parser refuses. The audit says in one line what the server sent
 * wrong; behind proxy --url, the client's request fails with that line and the proxy logs it. None
 * names the parser's code (HPE_INVALID_HEADER_TOKEN), says only "terminated" (fetch), or says the
 * connection was merely reset (node:http).
 */

import { afterEach, describe, expect, it } from 'vitest';
import {
  INVALID_CHUNK_SIZE,
  INVALID_HEADER_TOKEN,
  type RawHttpServer,
  startRawHttpServer,
} from '../fixtures/raw-http.js';
import { CLI_TEST_TIMEOUT, runCli } from '../support/cli.js';
import { startUrlProxy, type UrlProxy, until } from './support/processes.js';

let server: RawHttpServer | undefined;
let proxy: UrlProxy | undefined;
afterEach(async () => {
  proxy?.child.kill('SIGKILL');
  await server?.close();
  server = undefined;
  proxy = undefined;
});

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
};

async function failureThroughProxy(raw: string): Promise<{ message: string; log: string }> {
  server = await startRawHttpServer(raw);
  proxy = await startUrlProxy(server.url).started;
  const response = await fetch(proxy.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify(initialize),
  });
  const body = (await response.json()) as { error: { message: string } };
  const running = proxy;
  await until(() => running.stderr().includes(body.error.message.replace('mcp-shape proxy: ', '')));
  return { message: body.error.message, log: running.stderr() };
}

describe('proxy --url against a malformed HTTP response', { timeout: CLI_TEST_TIMEOUT }, () => {
  it('names a header with a character HTTP forbids', async () => {
    const { message, log } = await failureThroughProxy(INVALID_HEADER_TOKEN);
    const line = `the server sent a malformed HTTP response (a header name or value holds a character HTTP forbids): ${server?.url}`;
    expect(message).toBe(`mcp-shape proxy: ${line}`);
    expect(log).toContain(`mcp-shape proxy: ${line}\n`);
    expect(log).not.toContain('HPE_');
  });

  it('names a chunk without a valid size, not a connection reset', async () => {
    const { message, log } = await failureThroughProxy(INVALID_CHUNK_SIZE);
    const line =
      "the server's response broke off: the server sent a malformed HTTP response (a chunk of its chunked body has no valid size)";
    expect(message).toBe(`mcp-shape proxy: ${line}`);
    expect(log).toContain(`mcp-shape proxy: ${line}\n`);
  });
});

describe('audit --url against a malformed HTTP response', { timeout: CLI_TEST_TIMEOUT }, () => {
  it('names a header with a character HTTP forbids', async () => {
    server = await startRawHttpServer(INVALID_HEADER_TOKEN);
    const run = await runCli(['audit', '--url', server.url, '--timeout', '5']);
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(
      `mcp-shape: the server sent a malformed HTTP response (a header name or value holds a character HTTP forbids): ${server.url}\n`,
    );
  });

  it('names a chunk without a valid size, where fetch says only "terminated"', async () => {
    server = await startRawHttpServer(INVALID_CHUNK_SIZE);
    const run = await runCli(['audit', '--url', server.url, '--timeout', '5']);
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(
      "mcp-shape: the server's response broke off: the server sent a malformed HTTP response (a chunk of its chunked body has no valid size)\n",
    );
  });
});
