/**
 * The Streamable HTTP proxy: the client talks to `http://HOST:PORT/mcp` instead of the server. Each
 * client request is forwarded to the upstream URL with its body and MCP headers; the upstream's answer
 * comes back repaired — a JSON body as a whole, an SSE stream event by event as the events arrive.
 * Anything else (202s, errors in HTML, other content types) passes through unchanged.
 */

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { unreachable } from '../audit/http-body.js';
import { isObject } from '../core/json.js';
import type { ProtocolVersion } from '../spec/versions.js';
import { ProxySession, type ServerMessageOutcome } from './session.js';
import { type ProxyEvent, repairEvent } from './stdio.js';

export interface HttpProxyOptions {
  readonly upstream: string;
  readonly host: string;
  readonly port: number;
  /** Extra headers (`--header`) sent with every upstream request; they win over the client's. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly protocolVersion: ProtocolVersion;
  readonly fixedVersion?: boolean;
  readonly onRepaired?: (event: ProxyEvent) => void;
  /** Called with a message body or SSE event data that is not JSON (it is forwarded unchanged). */
  readonly onUnparsed?: (text: string) => void;
  /** Called when the upstream cannot be reached (the client gets a 502). */
  readonly onUnreachable?: (reason: string) => void;
}

export interface RunningHttpProxy {
  /** Where clients connect, e.g. http://127.0.0.1:41234/mcp. */
  readonly url: string;
  close(): Promise<void>;
}

/** The endpoint path clients use; the upstream's own path comes from its URL. */
export const LISTEN_PATH = '/mcp';

/** Client request headers the upstream needs; everything else (Host, Connection, cookies…) stays here. */
const FORWARDED_REQUEST_HEADERS = [
  'content-type',
  'accept',
  'mcp-session-id',
  'mcp-protocol-version',
  'last-event-id',
  'authorization',
];

/**
 * Upstream response headers that describe the upstream connection or the encoded body, not the
 * message: fetch() has already decoded the body, and repairs change its length.
 */
const DROPPED_RESPONSE_HEADERS = new Set([
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'keep-alive',
]);

export function startHttpProxy(options: HttpProxyOptions): Promise<RunningHttpProxy> {
  // One session for every client of this proxy: pending request ids and the negotiated version are
  // learned from whoever talks through it, which is one client in the usual deployment.
  const session = new ProxySession(options.protocolVersion, options.fixedVersion);
  const server = createServer((req, res) => {
    relay(req, res, session, options).catch((error: unknown) => {
      // A client or upstream that hangs up mid-stream: there is nobody left to answer.
      if (!res.headersSent) res.writeHead(502);
      res.end();
      options.onUnreachable?.(error instanceof Error ? error.message : String(error));
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      const { address, port } = server.address() as AddressInfo;
      const host = address.includes(':') ? `[${address}]` : address;
      resolve({
        url: `http://${host}:${port}${LISTEN_PATH}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

async function relay(
  req: IncomingMessage,
  res: ServerResponse,
  session: ProxySession,
  options: HttpProxyOptions,
): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://proxy').pathname;
  if (path !== LISTEN_PATH) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end(`mcp-shape proxy serves ${LISTEN_PATH}\n`);
    return;
  }
  const body = await readBody(req);
  if (body !== '') session.observeClient(body);

  const headers: Record<string, string> = {};
  for (const name of FORWARDED_REQUEST_HEADERS) {
    const value = req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  Object.assign(headers, options.headers);

  const abort = new AbortController();
  res.on('close', () => abort.abort());
  let upstream: Response;
  try {
    upstream = await fetch(options.upstream, {
      method: req.method ?? 'GET',
      headers,
      ...(body !== '' && req.method !== 'GET' && req.method !== 'HEAD' ? { body } : {}),
      signal: abort.signal,
    });
  } catch (error) {
    if (abort.signal.aborted) return;
    const reason = unreachable(options.upstream, error).message;
    options.onUnreachable?.(reason);
    res.writeHead(502, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        jsonrpc: '2.0',
        id: requestId(body),
        error: { code: -32000, message: `mcp-shape proxy ${reason}` },
      }),
    );
    return;
  }

  const responseHeaders: Record<string, string> = {};
  upstream.headers.forEach((value, name) => {
    if (!DROPPED_RESPONSE_HEADERS.has(name)) responseHeaders[name] = value;
  });
  const contentType = (upstream.headers.get('content-type') ?? '').toLowerCase();

  if (contentType.startsWith('text/event-stream')) {
    res.writeHead(upstream.status, responseHeaders);
    res.flushHeaders();
    await relayEventStream(upstream, res, session, options);
    return;
  }
  if (contentType.startsWith('application/json')) {
    const text = await upstream.text();
    const repaired = text.trim() === '' ? text : await repairText(text, session, options);
    res.writeHead(upstream.status, {
      ...responseHeaders,
      'content-length': String(Buffer.byteLength(repaired)),
    });
    res.end(repaired);
    return;
  }
  const raw = Buffer.from(await upstream.arrayBuffer());
  res.writeHead(upstream.status, { ...responseHeaders, 'content-length': String(raw.byteLength) });
  res.end(raw);
}

/**
 * Re-emits the upstream's SSE events as they arrive, each message repaired. Ids and event names are
 * kept, since clients resume streams with Last-Event-ID.
 */
async function relayEventStream(
  upstream: Response,
  res: ServerResponse,
  session: ProxySession,
  options: HttpProxyOptions,
): Promise<void> {
  // Repairs are asynchronous (MIME sniffing); chaining them keeps the upstream's event order.
  let chain: Promise<void> = Promise.resolve();
  const parser = createParser({
    onEvent(event) {
      chain = chain.then(async () => {
        const data = event.data === '' ? '' : await repairText(event.data, session, options);
        res.write(formatEvent(event, data));
      });
    },
    onRetry(interval) {
      chain = chain.then(() => {
        res.write(`retry: ${interval}\n\n`);
      });
    },
  });
  if (!upstream.body) {
    res.end();
    return;
  }
  const decoder = new TextDecoder();
  const reader = upstream.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
    parser.feed(decoder.decode());
  } finally {
    await chain;
    res.end();
  }
}

/** Repairs one message text; text that is not JSON goes back unchanged. */
async function repairText(text: string, session: ProxySession, options: HttpProxyOptions): Promise<string> {
  const outcome: ServerMessageOutcome = await session.repairServer(text);
  if (outcome.fixes.length > 0) {
    options.onRepaired?.(repairEvent(outcome));
  }
  if (outcome.line !== undefined) return outcome.line;
  options.onUnparsed?.(text);
  return text;
}

function formatEvent(event: EventSourceMessage, data: string): string {
  let text = '';
  if (event.id !== undefined) text += `id: ${event.id}\n`;
  if (event.event !== undefined) text += `event: ${event.event}\n`;
  for (const line of data.split('\n')) text += `data: ${line}\n`;
  return `${text}\n`;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}

/** The id of the JSON-RPC request a body carries, so a 502 error can answer it; null otherwise. */
function requestId(body: string): unknown {
  try {
    const message: unknown = JSON.parse(body);
    if (isObject(message) && Object.hasOwn(message, 'id')) return message.id;
  } catch {
    // not JSON: the error answers no particular request
  }
  return null;
}
