/**
 * What the official SDK does with an answer JSON cannot write, over a real pipe: the server's transport
 * fails to send it ("Failed to send response"), and the client waits until its request times out.
 */

import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';

const root = join(import.meta.dirname, '../..');

/**
 * Runs `server` (an ES module's source, an SDK server on stdio) and sends what `unanswered` asks with the
 * request options it is given, which must go unanswered until the client's timeout; then calls `fine`,
 * which must answer with the text `ok`, since only that one answer was lost and the server lives on.
 */
export async function expectUnanswered(
  server: string,
  unanswered: (client: Client, options: RequestOptions) => Promise<unknown>,
  fine = 'fine',
): Promise<void> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--input-type=module', '-e', server],
    cwd: root,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'test', version: '0.0.0' });
  await client.connect(transport);
  try {
    const failure = await unanswered(client, { timeout: 1_500 }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(McpError);
    expect((failure as McpError).code).toBe(ErrorCode.RequestTimeout);
    expect(await client.callTool({ name: fine })).toMatchObject({ content: [{ text: 'ok' }] });
  } finally {
    await client.close();
  }
}

/** expectUnanswered of a call of `tool`. */
export function expectUnansweredCall(server: string, tool: string): Promise<void> {
  return expectUnanswered(server, (client, options) => client.callTool({ name: tool }, undefined, options));
}
