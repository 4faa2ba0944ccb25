/** The official TypeScript SDK v2 client as a 2026-07-28 peer, for tests that hold the rules to it. */

import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import type { JsonObject } from '../../src/core/json.js';

/**
 * An SDK v2 client pinned to 2026-07-28, connected in memory to a server that discovers as 2026-07-28,
 * lists `options.tools` and answers each tools/call with `answer(call, n)` (n counts from 1); `calls`
 * are the tools/call requests the client sent.
 */
export async function pinnedV2Client(
  answer: (call: JsonObject, n: number) => unknown,
  options: { roots?: boolean; tools?: readonly unknown[] } = {},
): Promise<{ client: Client; calls: JsonObject[] }> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const calls: JsonObject[] = [];
  serverSide.onmessage = (message) => {
    const m = message as JsonObject;
    const id = m.id as number;
    if (m.method === 'server/discover') {
      const serverInfo = { name: 'probe', version: '1' };
      const discovered = { supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, serverInfo };
      void serverSide.send({ jsonrpc: '2.0', id, result: { resultType: 'complete', ...discovered } });
    } else if (m.method === 'tools/list') {
      const list = { resultType: 'complete', ttlMs: 0, cacheScope: 'private', tools: options.tools ?? [] };
      void serverSide.send({ jsonrpc: '2.0', id, result: list } as never);
    } else if (m.method === 'tools/call') {
      calls.push(m);
      void serverSide.send({ jsonrpc: '2.0', id, result: answer(m, calls.length) } as never);
    }
  };
  await serverSide.start();
  const capabilities = options.roots ? { roots: {} } : {};
  const client = new Client(
    { name: 'c', version: '1' },
    { capabilities, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  if (options.roots) client.setRequestHandler('roots/list', () => ({ roots: [{ uri: 'file:///work' }] }));
  await client.connect(clientSide);
  return { client, calls };
}
