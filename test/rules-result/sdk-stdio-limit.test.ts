/**
 * The 10 MiB the official TypeScript SDK clients read from stdio: what a longer message does to them
 * over a real pipe (the claim of result-over-client-limits), the warning about it, and the text mirror
 * that is not added where it would take a result past it (the proxy once turned a 6 MB result the SDK
 * client read into a 12 MB one that closed the connection).
 */

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { repairSync } from '../../src/library/repair/index.js';
import { ProxySession } from '../../src/proxy/session.js';
import { SDK_STDIO_MAX_BYTES } from '../../src/rules/support/serialization.js';
import { validateToolResultSync } from '../../src/validate/index.js';
import { REPO_ROOT } from '../support/cli.js';

const V = { protocolVersion: '2025-11-25' } as const;

/** A result whose structuredContent is `megabytes` MB of one string, without a text mirror. */
function structured(megabytes: number) {
  return {
    content: [{ type: 'text', text: 'report generated' }],
    structuredContent: { rows: 'r'.repeat(megabytes * 1_000_000) },
  };
}

/** An SDK McpServer on stdio whose `big` tool answers with 11 MB of text, and `fine` with `ok`. */
const SERVER = `
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
const server = new McpServer({ name: 'big', version: '1.0.0' });
server.registerTool('big', {}, async () => ({ content: [{ type: 'text', text: 'x'.repeat(11_000_000) }] }));
server.registerTool('fine', {}, async () => ({ content: [{ type: 'text', text: 'ok' }] }));
await server.connect(new StdioServerTransport());
`;

describe('the SDK clients’ stdio limit', () => {
  it('a message over 10 MiB closes the SDK client’s stdio connection, and the calls after it fail', {
    timeout: 60_000,
  }, async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--input-type=module', '-e', SERVER],
      cwd: REPO_ROOT,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'test', version: '0.0.0' });
    const errors: string[] = [];
    client.onerror = (error) => errors.push(error.message);
    await client.connect(transport);
    try {
      await expect(client.callTool({ name: 'big' }, undefined, { timeout: 20_000 })).rejects.toThrow(
        /Connection closed/,
      );
      expect(errors).toContain(`ReadBuffer exceeded maximum size of ${SDK_STDIO_MAX_BYTES} bytes`);
      await expect(client.callTool({ name: 'fine' })).rejects.toThrow();
    } finally {
      await client.close().catch(() => {});
    }
  });

  it('result-over-client-limits warns of a result over it, and not of one under it', () => {
    const sdk = (result: unknown) =>
      validateToolResultSync(result, V)
        .filter((f) => f.rule === 'result-over-client-limits' && f.message.includes('10 MiB'))
        .map((f) => f.message);
    expect(sdk({ content: [{ type: 'text', text: 'x'.repeat(11_000_000) }] })).toEqual([
      'the result is 10.49 MiB serialized; over stdio, the official TypeScript SDK clients close the connection on a message over 10 MiB',
    ]);
    expect(sdk({ content: [{ type: 'text', text: 'x'.repeat(10_000_000) }] })).toEqual([]);
  });

  it('a mirror that would take the result past it is reported and not added, by repair and by the proxy', () => {
    const big = structured(6);
    const [finding] = validateToolResultSync(big, V).filter(
      (f) => f.rule === 'structured-content-text-mirror-missing',
    );
    expect(finding).toMatchObject({
      severity: 'warning',
      message:
        'structuredContent has no text block with its JSON, and one would make the result 11.44 MiB, past the 10 MiB the official TypeScript SDK clients read from stdio',
      fix: { automatic: false },
    });
    const repaired = repairSync(big, V);
    expect(repaired.fixes).toEqual([]);
    expect(repaired.result).toBe(big);
    // The proxy sends the result as it came.
    const proxy = new ProxySession(V);
    proxy.fromClient('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"report"}}');
    const text = JSON.stringify({ jsonrpc: '2.0', id: 1, result: big });
    const outcome = proxy.fromServer(text);
    expect(outcome).toMatchObject({ kind: 'forward', fixes: [], text });
    // Under it, the mirror is added.
    const smaller = repairSync(structured(4), V);
    expect(smaller.fixes.map((f) => f.rule)).toEqual(['structured-content-text-mirror-missing']);
    expect(Buffer.byteLength(JSON.stringify(smaller.result))).toBeLessThan(SDK_STDIO_MAX_BYTES);
  });
});
