/**
 * Messages interleaved around a call, through the real proxy, with the official SDK v1 Client in front:
 * progress and log notifications before, between and after the chunks of the call's answer; two
 * messages in one chunk and one across many; the server's requests (sampling, elicitation, roots/list)
 * during the call, under ids that are also the client's (the call's own, the initialize request's), and
 * the client's answers going back. Nothing may be lost, reordered or given to the wrong request.
 */

import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CreateMessageRequestSchema,
  CreateMessageResultSchema,
  ElicitRequestSchema,
  ElicitResultSchema,
  type JSONRPCMessage,
  ListRootsRequestSchema,
  ListRootsResultSchema,
  LoggingMessageNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningHttpProxy } from '../../src/proxy/http.js';
import { REPO_ROOT } from '../support/cli.js';
import { loggingProxy } from './support/http-proxy.js';
import { proxiedStdio, until } from './support/processes.js';
import { closeServer } from './support/session-server.js';

const SERVER = join(REPO_ROOT, 'test/proxy/support/interleave-server.mjs');

const servers: Server[] = [];
const proxies: RunningHttpProxy[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
  await Promise.all(servers.splice(0).map(closeServer));
});

/** The answers the client gave the three requests, as the server received them. */
const ANSWERS = [
  { role: 'assistant', model: 'm', content: { type: 'text', text: 'sampled' } },
  { action: 'accept', content: { name: 'elicited' } },
  { roots: [{ uri: 'file:///root', name: 'root' }] },
];

/**
 * An SDK v1 client that answers sampling, elicitation and roots/list, what it was asked and the log lines
 * it was sent, and a promise of the last one ("done …").
 */
function answeringClient() {
  const client = new Client(
    { name: 'interleave', version: '1.0.0' },
    { capabilities: { sampling: {}, elicitation: {}, roots: { listChanged: true } } },
  );
  const asked: string[] = [];
  client.setRequestHandler(CreateMessageRequestSchema, (request) => {
    asked.push(request.method);
    return { role: 'assistant', model: 'm', content: { type: 'text', text: 'sampled' } };
  });
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    asked.push(request.method);
    return { action: 'accept', content: { name: 'elicited' } };
  });
  client.setRequestHandler(ListRootsRequestSchema, (request) => {
    asked.push(request.method);
    return { roots: [{ uri: 'file:///root', name: 'root' }] };
  });
  const logged: unknown[] = [];
  let done: () => void;
  // The last log line comes after the call's answer: the test waits for it.
  const loggedDone = new Promise<void>((resolve) => {
    done = resolve;
  });
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    logged.push(notification.params.data);
    if (String(notification.params.data).startsWith('done')) done();
  });
  return { client, asked, logged, loggedDone };
}

/** What a message is, for the order the client received them in. */
function describeMessage(message: JSONRPCMessage): string {
  if ('method' in message) {
    const params = message.params as { progress?: number; data?: unknown } | undefined;
    const detail = params?.progress ?? params?.data;
    return 'id' in message
      ? `${message.method} ${JSON.stringify(message.id)}`
      : `${message.method} ${detail}`;
  }
  return `answer ${JSON.stringify(message.id)}`;
}

/**
 * Connects the client, calls `ask` with a progress callback, and waits for the last log line: the
 * result, the progress values, and every message the client's transport delivered, in order.
 */
async function askThrough(
  answering: ReturnType<typeof answeringClient>,
  transport: Transport,
): Promise<{ result: Awaited<ReturnType<Client['callTool']>>; progress: number[]; order: string[] }> {
  const { client, loggedDone } = answering;
  await client.connect(transport, { timeout: 60_000 });
  const order: string[] = [];
  const deliver = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    order.push(describeMessage(message));
    deliver?.(message);
  };
  const progress: number[] = [];
  const result = await client.callTool({ name: 'ask', arguments: {} }, undefined, {
    timeout: 60_000,
    onprogress: ({ progress: value }) => {
      progress.push(value);
    },
  });
  await loggedDone;
  return { result, progress, order };
}

describe('proxy: messages interleaved around a call', () => {
  it('over stdio, with the SDK v1 Client: each message once, in order, each answer to its own request', async () => {
    const { transport, log } = proxiedStdio(['--', process.execPath, SERVER]);
    const answering = answeringClient();
    const { client, asked, logged } = answering;
    clients.push(client);
    const { result, progress, order } = await askThrough(answering, transport);

    // The server got each answer under the id it asked with: its text is the three as received.
    const content = result.content as { type: string; text: string }[];
    const received = JSON.parse(content[0]?.text as string) as { id: unknown; result: unknown }[];
    expect(received).toEqual([
      {
        jsonrpc: '2.0',
        id: 's-1',
        result: { role: 'assistant', model: 'm', content: { type: 'text', text: 'sampled' } },
      },
      { jsonrpc: '2.0', id: 1, result: { action: 'accept', content: { name: 'elicited' } } },
      { jsonrpc: '2.0', id: 0, result: { roots: [{ uri: 'file:///root', name: 'root' }] } },
    ]);
    // The broken second block was repaired, and the call's answer is the call's.
    expect(content).toHaveLength(2);
    expect(content[1]?.text).toContain('was dropped from this tool result');
    // The proxy's log comes on its standard error, which may arrive after the answer.
    await until(() => log().includes('block-text-invalid'), 30_000);
    expect(log()).toContain('block-text-invalid');
    expect(asked).toEqual(['sampling/createMessage', 'elicitation/create', 'roots/list']);
    expect(progress).toEqual([1, 2]);
    expect(logged).toEqual(['working', 'done 1']);
    expect(order).toEqual([
      'notifications/progress 1',
      'notifications/message working',
      'notifications/progress 2',
      'sampling/createMessage "s-1"',
      'elicitation/create 1',
      'roots/list 0',
      'answer 1',
      'notifications/progress 3',
      'notifications/message done 1',
    ]);
  }, 120_000);
});

describe('proxy --url: messages interleaved around a call', () => {
  it("the SDK's own server asks the client three things during a call: each answer reaches it, in order", async () => {
    const url = await sdkServer();
    const { proxy, log } = await loggingProxy(url, proxies);
    const answering = answeringClient();
    const { client, asked, logged } = answering;
    clients.push(client);
    const { result, progress, order } = await askThrough(
      answering,
      new StreamableHTTPClientTransport(new URL(proxy.url)),
    );
    expect(JSON.parse((result.content as { text: string }[])[0]?.text as string)).toEqual(ANSWERS);
    expect(asked).toEqual(['sampling/createMessage', 'elicitation/create', 'roots/list']);
    expect(progress).toEqual([1, 2]);
    expect(logged).toEqual(['working', 'asked', 'done']);
    // The server's own request ids count from 0, as the client's do: each answer went to its request.
    expect(order).toEqual([
      'notifications/progress 1',
      'notifications/message working',
      'sampling/createMessage 0',
      'notifications/progress 2',
      'elicitation/create 1',
      'roots/list 2',
      'notifications/message asked',
      'answer 1',
      'notifications/message done',
    ]);
    expect(log.filter((line) => !line.startsWith('listening'))).toEqual([]);
  }, 60_000);

  it('a server that cuts its events anywhere, asks under the id of the call, and logs between events', async () => {
    let answered: (message: unknown) => void;
    const rootsAnswer = new Promise<unknown>((resolve) => {
      answered = resolve;
    });
    const url = await upstream(async (message, res) => {
      if (message.method === 'initialize') {
        res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'one' });
        res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: message.id,
            result: {
              protocolVersion: '2025-06-18',
              capabilities: { tools: {}, logging: {} },
              serverInfo: { name: 'raw', version: '1.0.0' },
            },
          }),
        );
        return;
      }
      if (message.method !== 'tools/call') {
        // The client's answer to roots/list, and its notifications.
        if (message.method === undefined) answered(message);
        res.writeHead(202).end();
        return;
      }
      const token = (message.params as { _meta?: { progressToken?: unknown } })._meta?.progressToken;
      const event = (body: object) =>
        `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', ...body })}\n\n`;
      const progress = (n: number) =>
        event({ method: 'notifications/progress', params: { progressToken: token, progress: n } });
      const say = (data: string) =>
        event({ method: 'notifications/message', params: { level: 'info', data } });
      const write = (text: string) =>
        new Promise<void>((resolve) => {
          res.write(text, () => setImmediate(resolve));
        });
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      await write(progress(1));
      // A log event and half of a request in one chunk; the request asks under the call's own id.
      const request = event({ id: message.id, method: 'roots/list' });
      await write(say('working') + request.slice(0, 30));
      await write(request.slice(30));
      const roots = await rootsAnswer;
      await write(progress(2) + say(`got ${(roots as { id: unknown }).id}`));
      const answer = event({
        id: message.id,
        result: { content: [{ type: 'text', text: 'answered' }, { type: 'text' }] },
      });
      for (let at = 0; at < answer.length; at += 5) await write(answer.slice(at, at + 5));
      await write(say('done'));
      res.end();
    });
    const { proxy, repaired } = await loggingProxy(url, proxies);
    const answering = answeringClient();
    const { client, logged } = answering;
    clients.push(client);
    const { result, progress, order } = await askThrough(
      answering,
      new StreamableHTTPClientTransport(new URL(proxy.url)),
    );
    const content = result.content as { text: string }[];
    expect(content[0]?.text).toBe('answered');
    expect(content[1]?.text).toContain('was dropped from this tool result');
    // The client's answer to roots/list, asked under the call's id, went to the server, not to the call.
    expect(await rootsAnswer).toEqual({ jsonrpc: '2.0', id: 1, result: ANSWERS[2] });
    expect({ progress, logged, order }).toEqual({
      progress: [1, 2],
      logged: ['working', 'got 1', 'done'],
      order: [
        'notifications/progress 1',
        'notifications/message working',
        'roots/list 1',
        'notifications/progress 2',
        'notifications/message got 1',
        'answer 1',
        'notifications/message done',
      ],
    });
    expect(repaired.map(({ method, fixes }) => [method, fixes.map((fix) => fix.rule)])).toEqual([
      ['tools/call', ['block-text-invalid']],
    ]);
  }, 60_000);
});

/**
 * The SDK's McpServer over its Streamable HTTP transport, with a tool that reports progress, logs, and
 * asks the client for a sample, an elicitation and its roots on the call's own stream, then answers with
 * what it was given.
 */
async function sdkServer(): Promise<string> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer(async (req, res) => {
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? transports.get(id) : undefined;
    if (!transport) {
      const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (session): void => {
          transports.set(session, created);
        },
      });
      const server = new McpServer({ name: 'asking', version: '1.0.0' }, { capabilities: { logging: {} } });
      server.registerTool('ask', { description: 'asks the client three things' }, async (extra) => {
        const token = extra._meta?.progressToken;
        const progress = (n: number) =>
          token === undefined
            ? undefined
            : extra.sendNotification({
                method: 'notifications/progress',
                params: { progressToken: token, progress: n },
              });
        const say = (data: string) =>
          extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data } });
        await progress(1);
        await say('working');
        const sampled = extra.sendRequest(
          {
            method: 'sampling/createMessage',
            params: { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 },
          },
          CreateMessageResultSchema,
        );
        await progress(2);
        const elicited = extra.sendRequest(
          {
            method: 'elicitation/create',
            params: {
              mode: 'form',
              message: 'name?',
              requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
            },
          },
          ElicitResultSchema,
        );
        const roots = extra.sendRequest({ method: 'roots/list' }, ListRootsResultSchema);
        const answers = await Promise.all([sampled, elicited, roots]);
        await say('asked');
        setTimeout(() => void server.server.sendLoggingMessage({ level: 'info', data: 'done' }), 0);
        return { content: [{ type: 'text', text: JSON.stringify(answers) }] };
      });
      await server.connect(created);
      transport = created;
    }
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  servers.push(http);
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
}

/** A hand-written upstream: `handle` answers each POSTed message; a GET is refused (405). */
async function upstream(
  handle: (
    message: { id?: unknown; method?: string; params?: unknown },
    res: import('node:http').ServerResponse,
  ) => void,
): Promise<string> {
  const http = createServer(async (req: IncomingMessage, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    let body = '';
    for await (const chunk of req) body += chunk;
    handle(JSON.parse(body), res);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  servers.push(http);
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
}
