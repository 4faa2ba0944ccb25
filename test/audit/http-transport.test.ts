/** Transport defects over Streamable HTTP, from a small server written for the purpose. */

import { createServer, type Server, type ServerResponse } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAudit } from '../../src/audit/run.js';
import { keys, toolsOf } from './support.js';

interface Request {
  readonly id?: number;
  readonly method?: string;
}

/**
 * A server that answers each request `answer(message, result, res)` says, where `result` is what a
 * server with one read-only tool (`tool`) would answer; notifications get 202.
 */
function requestServer(
  tool: string,
  answer: (message: Request, result: object, res: ServerResponse) => void,
): Server {
  return createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const message = JSON.parse(body || '{}') as Request;
      if (message.id === undefined) {
        res.writeHead(202).end();
        return;
      }
      const result =
        message.method === 'initialize'
          ? {
              protocolVersion: '2025-06-18',
              capabilities: { tools: {} },
              serverInfo: { name: 's', version: '1' },
            }
          : message.method === 'tools/list'
            ? {
                tools: [{ name: tool, inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }],
              }
            : { content: [{ type: 'text', text: 'pong' }] };
      answer(message, result, res);
    });
  });
}

/** Answers initialize as text/plain, and everything else as an SSE stream with one unparseable event. */
function sloppyServer(): Server {
  return requestServer('ping_me', (message, result, res) => {
    const response = JSON.stringify({ jsonrpc: '2.0', id: message.id, result });
    if (message.method === 'initialize') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(response);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('event: message\ndata: {"progress": oops\n\n');
    res.end(`event: message\ndata: ${response}\n\n`);
  });
}

describe('Streamable HTTP transport defects', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = sloppyServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('reports a wrong Content-Type and SSE data that is not JSON, and still audits the tools', async () => {
    const report = await runAudit({ target: { kind: 'http', url }, versions: ['2025-06-18'] });
    expect(keys(report.findings)).toEqual([
      'frame-not-json@2025-06-18/-',
      'frame-not-json@2025-06-18/ping_me',
      'http-content-type@2025-06-18/-',
    ]);
    expect(report.findings.find((f) => f.rule === 'frame-not-json')?.message).toMatch(
      /^SSE event data is not JSON/,
    );
    expect(toolsOf(report)).toMatchObject([{ name: 'ping_me', called: true, calls: 1 }]);
  });
});

/**
 * A server that answers initialize and tools/list in JSON, and tools/call as `mode` says: each a way
 * the official SDK client (1.32.2) fails the call that the audit once passed.
 */
function callServer(
  mode: 'status-500' | 'error-500' | 'event-name' | 'type-suffix' | 'accepted' | 'latin1' | 'sse-latin1',
): Server {
  return requestServer('go', (message, result, res) => {
    const answer = { jsonrpc: '2.0', id: message.id, result };
    const json = (status: number, body: object) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (message.method !== 'tools/call') return json(200, answer);
    if (mode === 'status-500') return json(500, answer);
    if (mode === 'accepted') return json(202, answer);
    if (mode === 'latin1') {
      const body = JSON.stringify({ ...answer, result: { content: [{ type: 'text', text: 'Café' }] } });
      return res.writeHead(200, { 'content-type': 'application/json' }).end(Buffer.from(body, 'latin1'));
    }
    if (mode === 'sse-latin1') {
      // "𝄞 Café" with a Latin-1 é, the event's bytes sent a few at a time (one write ends inside the 𝄞).
      const data = JSON.stringify({ ...answer, result: { content: [{ type: 'text', text: '𝄞 Café' }] } });
      const [before, after] = data.split('Café') as [string, string];
      const bytes = Buffer.concat([
        Buffer.from(`event: message\ndata: ${before}Caf`),
        Buffer.from([0xe9]),
        Buffer.from(`${after}\n\n`),
      ]);
      badSseByte = bytes.indexOf(0xe9) - 'event: message\ndata: '.length;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const cut = bytes.indexOf(Buffer.from('𝄞')) + 2;
      res.write(bytes.subarray(0, cut));
      return void setTimeout(() => res.end(bytes.subarray(cut)), 20);
    }
    if (mode === 'error-500')
      return json(500, { jsonrpc: '2.0', id: message.id, error: { code: -32603, message: 'broke' } });
    const type = mode === 'type-suffix' ? 'text/event-streamx' : 'text/event-stream';
    const name = mode === 'event-name' ? 'result' : 'message';
    res.writeHead(200, { 'content-type': type }).end(`event: ${name}\ndata: ${JSON.stringify(answer)}\n\n`);
  });
}

/** Where the é of the last sse-latin1 answer is in its event's data, counting bytes from 0. */
let badSseByte = -1;

async function listening(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`;
}

describe('Streamable HTTP answers the SDK client does not take', () => {
  const servers: Server[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  });
  const audit = async (mode: Parameters<typeof callServer>[0]) => {
    const server = callServer(mode);
    servers.push(server);
    return runAudit({
      target: { kind: 'http', url: await listening(server) },
      versions: ['2025-06-18'],
      timeoutMs: 2_000,
    });
  };

  it('a result under a status that is not 2xx answers nothing: the SDK client fails the call', async () => {
    const report = await audit('status-500');
    expect(keys(report.findings)).toEqual(['audit-http-error@2025-06-18/go']);
    expect(report.findings[0]?.severity).toBe('error');
    // A JSON-RPC error under it is still judged as the answer: the call fails either way.
    const error = await audit('error-500');
    expect(keys(error.findings)).toEqual(['audit-call-error@2025-06-18/go']);
  });

  it('a result in the body of a 202 Accepted answers nothing: the SDK client cancels that body', async () => {
    const report = await audit('accepted');
    expect(report.findings.map((f) => f.rule)).toEqual(['audit-timeout']);
  });

  it('an SSE event with another name than message reaches no client: the answer is never taken', async () => {
    const report = await audit('event-name');
    expect(report.findings.map((f) => f.rule)).toEqual(['audit-http-error']);
    expect(report.findings[0]?.message).toBe(
      'HTTP request failed for tools/call go: the server sent the response as an SSE event named "result", which the clients do not read (only "message" or unnamed events), and ended the stream, and with no event id the clients cannot resume it: they wait for the response until their own timeout',
    );
  });

  it('a JSON body that is not UTF-8 is reported at its bad byte, and the answer still taken', async () => {
    const report = await audit('latin1');
    expect(report.findings.map((f) => [f.rule, f.severity, f.message])).toEqual([
      [
        'frame-not-utf8',
        'error',
        // The é of "Café" is byte 71 (counting from 0) of {"jsonrpc":"2.0","id":N,"result":{"content":[{"type":"text","text":"Café"}]}}.
        expect.stringMatching(
          /^HTTP response body is not valid UTF-8: byte 7\d \(0xE9\) begins no valid UTF-8 sequence$/,
        ),
      ],
    ]);
    expect(toolsOf(report)).toMatchObject([{ name: 'go', called: true, calls: 1 }]);
  });

  it('SSE event data that is not UTF-8 is reported at its bad byte, and the answer still taken', async () => {
    const report = await audit('sse-latin1');
    expect(report.findings.map((f) => [f.rule, f.severity, f.message])).toEqual([
      [
        'frame-not-utf8',
        'error',
        `SSE event data is not valid UTF-8: byte ${badSseByte} (0xE9) begins no valid UTF-8 sequence`,
      ],
    ]);
    expect(badSseByte).toBeGreaterThan(70);
    expect(toolsOf(report)).toMatchObject([{ name: 'go', called: true, calls: 1 }]);
  });

  it('so is a message event of the 2024-11-05 HTTP+SSE transport that is not UTF-8', async () => {
    let stream: ServerResponse | undefined;
    const posts = requestServer('go', (message, result, res) => {
      res.writeHead(202).end();
      const text = message.method === 'tools/call' ? { content: [{ type: 'text', text: 'Café' }] } : result;
      const answer = JSON.stringify({ jsonrpc: '2.0', id: message.id, result: text });
      stream?.write(Buffer.from(`data: ${answer}\n\n`, 'latin1'));
    });
    const legacy = createServer((req, res) => {
      if (req.method === 'POST' && req.url === '/messages') return void posts.emit('request', req, res);
      if (req.method === 'POST') return void res.writeHead(405).end();
      res
        .writeHead(200, { 'content-type': 'text/event-stream' })
        .write('event: endpoint\ndata: /messages\n\n');
      stream = res;
    });
    servers.push(legacy);
    const url = (await listening(legacy)).replace(/\/mcp$/, '/sse');
    const report = await runAudit({
      target: { kind: 'http', url },
      versions: ['2024-11-05'],
      timeoutMs: 2_000,
    });
    legacy.closeAllConnections();
    expect(report.findings.map((f) => f.message)).toEqual([
      expect.stringMatching(
        /^SSE event data is not valid UTF-8: byte \d+ \(0xE9\) begins no valid UTF-8 sequence$/,
      ),
    ]);
    expect(toolsOf(report)).toMatchObject([{ name: 'go', called: true, calls: 1 }]);
  });

  it('a Content-Type that only begins like text/event-stream is not an event stream', async () => {
    const report = await audit('type-suffix');
    expect(report.findings.map((f) => f.rule)).toEqual(
      expect.arrayContaining(['http-content-type', 'frame-not-json']),
    );
  });

  it('a redirect to another origin, and a legacy endpoint on another origin, are refused as the SDK client refuses them', async () => {
    // From 127.0.0.1 to localhost, where the same server answers as a server should: another origin.
    const working = callServer('status-500');
    const redirecting = createServer((req, res) => {
      const { port } = redirecting.address() as { port: number };
      if (req.headers.host?.startsWith('localhost')) return void working.emit('request', req, res);
      res.writeHead(307, { location: `http://localhost:${port}/other` }).end();
    });
    servers.push(redirecting);
    await expect(
      runAudit({ target: { kind: 'http', url: await listening(redirecting) }, versions: ['2025-06-18'] }),
    ).rejects.toThrow(/another origin than the server's: the official SDK clients do not follow it/);
    const legacy = createServer((req, res) => {
      const { port } = legacy.address() as { port: number };
      if (req.method === 'POST') return void res.writeHead(405).end();
      if (req.url === '/mcp') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`event: endpoint\ndata: http://localhost:${port}/messages\n\n`);
    });
    servers.push(legacy);
    const url = (await listening(legacy)).replace(/\/mcp$/, '/sse');
    await expect(runAudit({ target: { kind: 'http', url }, versions: ['2024-11-05'] })).rejects.toThrow(
      /endpoint event names "http:\/\/localhost:\d+\/messages", not on its origin/,
    );
    legacy.closeAllConnections();
  });
});

/**
 * A server that polls, as 2025-11-25 lets it (and the official SDK server does with closeSSEStream):
 * tools/call gets a stream that ends after a priming event (an id, empty data, a retry hint), and the
 * answer comes on the GET that resumes it with Last-Event-ID, or, with `resumes: false`, never (405).
 */
function pollingServer(resumes: boolean): Server {
  let unsent: string | undefined;
  const posts = requestServer('poll', (message, result, res) => {
    const answer = JSON.stringify({ jsonrpc: '2.0', id: message.id, result });
    if (message.method !== 'tools/call')
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(answer);
    unsent = answer;
    res.writeHead(200, { 'content-type': 'text/event-stream' }).end('id: p1\nretry: 50\ndata: \n\n');
  });
  return createServer((req, res) => {
    if (req.method !== 'GET') return void posts.emit('request', req, res);
    if (!resumes || req.headers['last-event-id'] !== 'p1' || !unsent) return void res.writeHead(405).end();
    res.writeHead(200, { 'content-type': 'text/event-stream' }).end(`id: p2\ndata: ${unsent}\n\n`);
    unsent = undefined;
  });
}

describe('a Streamable HTTP server that polls: its stream ends after an event id', () => {
  const servers: Server[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  });
  const serve = (resumes: boolean) => {
    const server = pollingServer(resumes);
    servers.push(server);
    return listening(server);
  };

  it('is resumed with Last-Event-ID as the SDK client resumes it, and the answer there is taken', async () => {
    const url = await serve(true);
    const client = new Client({ name: 'poll-test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    expect(await client.callTool({ name: 'poll', arguments: {} })).toMatchObject({
      content: [{ type: 'text', text: 'pong' }],
    });
    await client.close();
    const report = await runAudit({
      target: { kind: 'http', url },
      versions: ['2025-06-18'],
      timeoutMs: 5_000,
    });
    expect(report.findings).toEqual([]);
    expect(toolsOf(report)).toMatchObject([{ name: 'poll', called: true, calls: 1 }]);
  });

  it('waits out a retry past what a timer holds, instead of resuming at once with a warning on stderr', async () => {
    let gets = 0;
    const posts = requestServer('poll', (message, result, res) => {
      if (message.method !== 'tools/call')
        return void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
      res
        .writeHead(200, { 'content-type': 'text/event-stream' })
        .end('id: p1\nretry: 9999999999\ndata: \n\n');
    });
    const server = createServer((req, res) => {
      if (req.method !== 'GET') return void posts.emit('request', req, res);
      gets++;
      res.writeHead(200, { 'content-type': 'text/event-stream' }).end('id: p1\ndata: \n\n');
    });
    servers.push(server);
    const url = await listening(server);
    const warnings: string[] = [];
    const hear = (warning: Error) => warnings.push(warning.name);
    process.on('warning', hear);
    try {
      const report = await runAudit({
        target: { kind: 'http', url },
        versions: ['2025-06-18'],
        timeoutMs: 1_000,
      });
      expect(report.findings.map((f) => f.rule)).toEqual(['audit-timeout']);
    } finally {
      process.off('warning', hear);
    }
    expect(warnings).not.toContain('TimeoutOverflowWarning');
    expect(gets).toBe(0);
  });

  it('is an unanswered call when the stream cannot be resumed (405), as it is for the SDK client', async () => {
    const url = await serve(false);
    const report = await runAudit({
      target: { kind: 'http', url },
      versions: ['2025-06-18'],
      timeoutMs: 1_500,
    });
    // Said when the resumption fails, not after a wait that would tell the user to wait longer.
    expect(report.findings.map((f) => f.rule)).toEqual(['audit-http-error']);
    expect(report.findings[0]?.message).toMatch(/the clients' attempts to resume it failed/);
  });
});
