/**
 * A Streamable HTTP server written by hand for the proxy's session tests, because no real one is this
 * wrong: every response carries a stray `requestId` (the official SDK client drops such messages), and
 * every tools/call answers with an `{"type":"object"}` block. It negotiates 2025-03-26 with clients
 * whose name starts with "old" and 2025-11-25 with the others, answers half the calls over SSE and half
 * as JSON, each after a short random delay so that sessions interleave, and records the
 * MCP-Protocol-Version header of every request per session.
 */

import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SessionServer {
  readonly url: string;
  /** MCP-Protocol-Version headers seen, per session id. */
  readonly versions: Map<string, Set<string>>;
  /** Session ids ended by DELETE. */
  readonly deleted: string[];
  close(): Promise<void>;
}

const TOOL = {
  name: 'balance',
  description: 'An account balance, wrongly as an object block',
  inputSchema: { type: 'object', properties: { account: { type: 'string' } } },
};

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      text += chunk;
    });
    req.on('end', () => resolve(text));
  });
}

export async function startSessionServer(): Promise<SessionServer> {
  const sessions = new Map<string, string>(); // session id → negotiated version
  const versions = new Map<string, Set<string>>();
  const deleted: string[] = [];
  let calls = 0;

  const answer = (
    res: ServerResponse,
    message: object,
    sse: boolean,
    headers: Record<string, string> = {},
  ) => {
    const text = JSON.stringify({ ...message, requestId: randomUUID() });
    if (sse) {
      res.writeHead(200, { 'content-type': 'text/event-stream', ...headers });
      res.end(`event: message\ndata: ${text}\n\n`);
    } else {
      res.writeHead(200, { 'content-type': 'application/json', ...headers });
      res.end(text);
    }
  };

  const server: Server = createServer(async (req, res) => {
    const session = req.headers['mcp-session-id'];
    if (typeof session === 'string') {
      const header = req.headers['mcp-protocol-version'];
      if (!versions.has(session)) versions.set(session, new Set());
      if (typeof header === 'string') versions.get(session)?.add(header);
    }
    if (req.method === 'DELETE' && typeof session === 'string') {
      sessions.delete(session);
      deleted.push(session);
      res.writeHead(200).end();
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    const message = JSON.parse(await body(req));
    if (message.id === undefined) {
      res.writeHead(202).end();
      return;
    }
    if (message.method === 'initialize') {
      const id = randomUUID();
      const version = String(message.params.clientInfo.name).startsWith('old') ? '2025-03-26' : '2025-11-25';
      sessions.set(id, version);
      const result = {
        protocolVersion: version,
        capabilities: { tools: {} },
        serverInfo: { name: 'session-server', version: '1.0.0' },
      };
      answer(res, { jsonrpc: '2.0', id: message.id, result }, false, { 'mcp-session-id': id });
      return;
    }
    if (typeof session !== 'string' || !sessions.has(session)) {
      res.writeHead(404).end();
      return;
    }
    if (message.method === 'tools/list') {
      answer(res, { jsonrpc: '2.0', id: message.id, result: { tools: [TOOL] } }, false);
      return;
    }
    const account = String(message.params?.arguments?.account);
    const result = { content: [{ type: 'object', object: { account, balance: account.length } }] };
    const sse = calls++ % 2 === 0;
    setTimeout(() => answer(res, { jsonrpc: '2.0', id: message.id, result }, sse), Math.random() * 30);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    versions,
    deleted,
    close: () => closeServer(server),
  };
}

/** Closes a test's HTTP server, its open connections (keep-alive, streams) first. */
export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}
