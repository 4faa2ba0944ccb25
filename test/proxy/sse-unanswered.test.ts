/**
 * The upstream ends a request's SSE stream without the response and without an event id, so the client
 * cannot resume it: straight to the server, the SDK client waits out its own timeout (60 s by default)
 * for an answer that cannot come. Through the proxy it gets a JSON-RPC error for the call as the
 * stream ends, as it does when a stream breaks; a stream that carries the answer ends as it is.
 */

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startSseServer, TOOL_TEXT } from '../fixtures/sse-line-endings.js';
import { startUnansweringServer } from '../fixtures/sse-unanswered.js';
import { CLI_TEST_TIMEOUT } from '../support/cli.js';
import { startUrlProxy, until } from './support/processes.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function clientThroughProxy(upstream: { url: string; close(): Promise<void> }) {
  cleanups.push(() => upstream.close());
  const { child, started } = startUrlProxy(upstream.url);
  cleanups.push(() => {
    child.kill('SIGKILL');
  });
  const proxy = await started;
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
