/**
 * SSE line endings, comments, and chunks that split both line endings and UTF-8 characters. CRLF is
 * read as the SDK clients read it. A stream whose last event ends on a CR that closes the stream is
 * never read by the SDK clients (their parser waits for a possible LF, and nothing flushes it at the
 * end): the audit once waited out its timeout and told the user to rerun with a longer one; it now
 * says what the server sent. The proxy ends such an event for the client behind it.
 */

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startSseServer, TOOL_TEXT } from '../fixtures/sse-line-endings.js';
import { startUrlProxy } from '../proxy/support/processes.js';
import { CLI_TEST_TIMEOUT, runCli } from '../support/cli.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function server(eol: string): Promise<string> {
  const started = await startSseServer(eol);
  cleanups.push(() => started.close());
  return started.url;
}

describe('SSE line endings', { timeout: CLI_TEST_TIMEOUT }, () => {
  it('audits a stream with CRLF endings and comments, split mid-character, as the clients read it', async () => {
    const url = await server('\r\n');
    const run = await runCli(['audit', '--url', url, '--protocol', '2025-06-18', '--format', 'json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    const [call] = report.details.calls;
    expect(call).toMatchObject({ tool: 't', outcome: 'result' });
    expect(call.response.text).toContain(TOOL_TEXT);
  });

  it('says that a stream ending on a CR hides its last event from the SDK clients, rather than timing out', async () => {
    const url = await server('\r');
    const run = await runCli(['audit', '--url', url, '--protocol', '2025-06-18', '--timeout', '30']);
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(
      "mcp-shape: the server's SSE stream ended on a CR line ending: the SDK clients' parser waits for the byte after it, so they never read the stream's last event\n",
    );
  });

  it('the SDK client, reading the CR-ended stream itself, never gets the handshake', async () => {
    const url = await server('\r');
    const client = new Client({ name: 'direct', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(url));
    cleanups.push(() => transport.close());
    await expect(client.connect(transport, { timeout: 3000 })).rejects.toThrow(/timed out/i);
  });

  it('through the proxy, the SDK client reads the CR-ended stream', async () => {
    const url = await server('\r');
    const { child, started } = startUrlProxy(url);
    cleanups.push(() => {
      child.kill('SIGKILL');
    });
    const proxy = await started;
    const client = new Client({ name: 'behind-proxy', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(proxy.url)));
    cleanups.push(() => client.close());
    const result = await client.callTool({ name: 't', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: TOOL_TEXT }]);
  });
});
