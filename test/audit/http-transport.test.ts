/** Transport defects over Streamable HTTP, from a small server written for the purpose. */

import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAudit } from '../../src/audit/run.js';
import { keys, toolsOf } from './support.js';

/** Answers initialize as text/plain, and everything else as an SSE stream with one unparseable event. */
function sloppyServer(): Server {
  return createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const message = JSON.parse(body || '{}') as { id?: number; method?: string };
      if (message.id === undefined) {
        res.writeHead(202).end();
        return;
      }
      const result =
        message.method === 'initialize'
          ? {
              protocolVersion: '2025-06-18',
              capabilities: { tools: {} },
              serverInfo: { name: 'sloppy', version: '1' },
            }
          : message.method === 'tools/list'
            ? {
                tools: [
                  { name: 'ping_me', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
                ],
              }
            : { content: [{ type: 'text', text: 'pong' }] };
      const response = JSON.stringify({ jsonrpc: '2.0', id: message.id, result });
      if (message.method === 'initialize') {
        res.writeHead(200, { 'content-type': 'text/plain' }).end(response);
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: message\ndata: {"progress": oops\n\n');
      res.end(`event: message\ndata: ${response}\n\n`);
    });
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
