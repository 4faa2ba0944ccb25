/**
 * A request's SSE stream that the server ends without the response, and that the clients cannot
 * resume (no event id) or fail to resume, leaves the SDK clients waiting until their own timeout. The
 * audit once waited out its --timeout too and then told the user to rerun with a longer one; it now
 * says what the server did as soon as the stream ends.
 */

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startUnansweringServer, type UnansweredOptions } from '../fixtures/sse-unanswered.js';
import { CLI_TEST_TIMEOUT, runCli } from '../support/cli.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function server(options: UnansweredOptions): Promise<string> {
  const started = await startUnansweringServer(options);
  cleanups.push(() => started.close());
  return started.url;
}

const NO_EVENT_ID =
  "the server ended the request's SSE stream without its response, and with no event id the clients cannot resume it: they wait for the response until their own timeout";
const RESUME_FAILED =
  "the server ended the request's SSE stream without its response, and the clients' attempts to resume it failed: they wait for the response until their own timeout";

// --timeout 600: a wait for the answer would outlast the test; the report must come from the stream's end.
const AUDIT = ['--protocol', '2025-06-18', '--timeout', '600', '--format', 'json'];

describe('an SSE stream ended without the response', { timeout: CLI_TEST_TIMEOUT }, () => {
  it.each([
    ['no event id', {}, NO_EVENT_ID],
    ['an event id, and a resumption the server refuses', { eventId: true }, RESUME_FAILED],
  ])('is reported for the call it leaves unanswered, not as a timeout (%s)', async (_, options, words) => {
    const run = await runCli(['audit', '--url', await server(options), ...AUDIT]);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report.findings.map((f: { rule: string }) => f.rule)).toEqual(['audit-http-error']);
    expect(report.findings[0].message).toBe(`HTTP request failed for tools/call t: ${words}`);
  });

  it('ends the audit with what happened when it is the handshake', async () => {
    const run = await runCli(['audit', '--url', await server({ unansweredHandshake: true }), ...AUDIT]);
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(`mcp-shape: ${NO_EVENT_ID}\n`);
  });

  it('the SDK client, given the same stream, waits until its own timeout', async () => {
    const client = new Client({ name: 'direct', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(await server({})));
    await client.connect(transport);
    cleanups.push(() => client.close());
    await expect(client.callTool({ name: 't', arguments: {} }, undefined, { timeout: 1500 })).rejects.toThrow(
      /timed out/i,
    );
  });
});
