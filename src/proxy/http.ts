/**
 * The Streamable HTTP proxy: the client talks to `http://HOST:PORT/mcp` instead of the server. Each
 * client request goes to the upstream URL with its body and MCP headers; the upstream's answer comes
 * back repaired: a JSON body as a whole, an SSE stream event by event as the events arrive. Anything
 * else (202s, errors in HTML, other content types) passes through unchanged.
 *
 * One conversation per client: each `Mcp-Session-Id` has its own ProxySession (negotiated version,
 * pending requests, tools and their outputSchemas), created when the upstream assigns the id in its
 * answer to `initialize` and ended by DELETE. A request without a session id (a sessionless upstream)
 * gets a session of its own for that one exchange, speaking the version of its MCP-Protocol-Version
 * header. Clients whose request ids overlap never share anything.
 *
 * No time limit is imposed unless `--timeout` asks for one: neither on the client's requests (Node's
 * own 300 s `requestTimeout` is turned off) nor on the upstream (plain node:http, no fetch defaults).
 * Idle SSE streams get keep-alive comments. A stream that ends or breaks without the response after an
 * event id is resumed by the proxy (GET with Last-Event-ID, after the server's retry hint) into the same
 * client stream; a client that left a stream before its answer and resumes it later gets, where the
 * server will not resume it, the errors for its requests. When the upstream fails (unreachable, timed
 * out, its stream breaks or ends without the response and cannot be resumed, or a 2xx JSON body holds
 * no answer), every request of that exchange still unanswered gets a JSON-RPC error.
 */

import {
  type ClientRequest,
  createServer,
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { pipeline, Transform } from 'node:stream';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { httpFailureWords, unreachable } from '../audit/http-body.js';
import { isObject } from '../core/json.js';
import { convertedId } from '../core/request-id.js';
import { utf8Problem } from '../io/utf8.js';
import { whenWritable } from '../io/writable.js';
import { type ProtocolVersion, parseProtocolVersion } from '../spec/versions.js';
import { decodeUtf8 } from './decode.js';
import { notUtf8Line, outcomeLine, type ProxyEvents, repairEvent } from './events.js';
import { MAX_HELD_FRAME_BYTES, tooLongWords } from './frames.js';
import { idTexts } from './id-text.js';
import { afterFrame } from './memory.js';
import { OrderedQueue } from './ordered.js';
import { AnswerReader, EventAnswerReader } from './passed-answers.js';
import type { Recorder } from './record.js';
import { idKey, ProxySession, type ServerOutcome } from './session.js';
import { type PassedPiece, type SsePiece, SseSplitter } from './sse-split.js';

export interface HttpProxyOptions extends ProxyEvents {
  readonly upstream: string;
  readonly host: string;
  readonly port: number;
  /** Extra headers (`--header`) sent with every upstream request; they win over the client's. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly protocolVersion: ProtocolVersion;
  readonly fixedVersion?: boolean;
  /**
   * How long the upstream may stay silent, in milliseconds: before its response headers and between
   * chunks of its body (`--timeout`). Default: no limit.
   */
  readonly timeoutMs?: number;
  /** Interval of SSE keep-alive comments on an idle stream, in milliseconds; default 15000. */
  readonly keepAliveMs?: number;
  /** The longest wait before resuming a stream, and `retry:` hint passed on; default MAX_RESUME_DELAY_MS. */
  readonly maxResumeDelayMs?: number;
  /**
   * The longest message held and judged, in bytes (default and maximum: MAX_HELD_FRAME_BYTES; an SSE
   * event's in characters): a longer JSON answer or SSE event is forwarded unchanged and unjudged as it
   * arrives, and a longer client request is refused with 413.
   */
  readonly maxMessageBytes?: number;
  readonly recorder?: Recorder;
  /** The most conversations kept (default MAX_SESSIONS); past it the least recently used is forgotten. */
  readonly maxSessions?: number;
}

export interface RunningHttpProxy {
  /** Where clients connect, e.g. http://127.0.0.1:41234/mcp. */
  readonly url: string;
  /** The listening server, as configured (its timeouts are part of the contract). */
  readonly server: Server;
  /** Session ids with state held, in creation order. */
  sessions(): string[];
  close(): Promise<void>;
}

/** The endpoint path clients use; the upstream's own path comes from its URL. */
export const LISTEN_PATH = '/mcp';

export const DEFAULT_KEEP_ALIVE_MS = 15_000;

/**
 * The wait before resuming a stream that ended without the response, when the server sent no `retry:`
 * hint: the SDK clients' first reconnection delay.
 */
export const DEFAULT_RESUME_DELAY_MS = 1000;

/**
 * The longest the proxy waits before resuming a stream, whatever `retry:` the server sent, and the
 * longest hint it passes on: the SDK clients' default request timeout. A longer wait would outlast the
 * call it is for (resuming sooner at worst finds nothing new, which the call is answered for), and a
 * hint over 2^31 − 1 ms overflowed Node's timers: they fired at once, with a TimeoutOverflowWarning on
 * the proxy's standard error (and on a JavaScript client's, from the hint passed on).
 */
export const MAX_RESUME_DELAY_MS = 60_000;

/** Resolves after `ms`, or as soon as the client's response closes. */
function delay(ms: number, res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      res.off('close', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    res.once('close', done);
  });
}

/** Client request headers the upstream needs; everything else (Host, Connection, cookies…) stays here. */
const FORWARDED_REQUEST_HEADERS = [
  'content-type',
  'accept',
  'mcp-session-id',
  'mcp-protocol-version',
  'last-event-id',
  'authorization',
];

/** Upstream response headers that describe the upstream connection or the encoded body, not the message. */
const DROPPED_RESPONSE_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive']);

/**
 * The most conversations kept; past it the one used least recently is forgotten. Clients seldom send
 * DELETE (the SDK clients close without it), every Mcp-Session-Id a client sends or the server assigns
 * started one, and none was ever dropped: a client sending a new id with each request, or a server
 * assigning one with each answer, grew the proxy without bound. A forgotten conversation that comes
 * back starts afresh, its version from its MCP-Protocol-Version header.
 */
export const MAX_SESSIONS = 10_000;

/** The upstream failed: unreachable, timed out, or its response broke off. */
class UpstreamError extends Error {}

/** A client request's id, and its JSON text as the client wrote it (id-text.ts). */
interface RequestOfExchange {
  readonly id: unknown;
  readonly text: string;
}

interface Exchange {
  readonly session: ProxySession;
  /** The session id, or a label of this one request for a sessionless upstream. */
  readonly connection: string;
  /** The client requests in this exchange's body, to answer them if the upstream fails. */
  readonly requests: RequestOfExchange[];
  /** Requests among them that got their answer, by answerKey (an answer may give the id another type). */
  readonly answered: Set<string | undefined>;
}

export function startHttpProxy(options: HttpProxyOptions): Promise<RunningHttpProxy> {
  // In the order they were last used: the first is the one to forget.
  const sessions = new Map<string, ProxySession>();
  const maxSessions = options.maxSessions ?? MAX_SESSIONS;
  let forgetting = false;
  const remember = (id: string, session: ProxySession) => {
    sessions.delete(id);
    sessions.set(id, session);
    if (sessions.size <= maxSessions) return;
    sessions.delete(sessions.keys().next().value as string);
    // Said once: a flood of new ids would otherwise be a flood of lines.
    if (!forgetting)
      options.onLog?.(
        `more than ${maxSessions} conversations: from now on the one used least recently is forgotten`,
      );
    forgetting = true;
  };
  let sessionless = 0;
  // Requests whose client left their stream before the answer, by the event ids that stream carried,
  // per conversation: a client that resumes after one of them gets their answers or their errors.
  const orphans = new WeakMap<ProxySession, Map<string, RequestOfExchange[]>>();
  const upstream = new URL(options.upstream);
  const maxMessageBytes = Math.min(options.maxMessageBytes ?? MAX_HELD_FRAME_BYTES, MAX_HELD_FRAME_BYTES);
  const overLimit = tooLongWords(maxMessageBytes);
  const agent =
    upstream.protocol === 'https:' ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });

  const newSession = (declared: ProtocolVersion | undefined) => {
    const session = new ProxySession({
      protocolVersion: options.protocolVersion,
      fixedVersion: options.fixedVersion ?? false,
    });
    if (declared) session.declareVersion(declared);
    return session;
  };

  /** The conversation a request belongs to. */
  const exchangeFor = (req: IncomingMessage): Exchange => {
    const header = req.headers['mcp-protocol-version'];
    const declared = typeof header === 'string' ? parseProtocolVersion(header) : undefined;
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string' && id !== '') {
      let session = sessions.get(id);
      if (!session) {
        // A session this proxy has not seen start (it was restarted): its header says the version.
        session = newSession(declared);
      } else if (declared) session.declareVersion(declared);
      remember(id, session);
      return { session, connection: id, requests: [], answered: new Set<string | undefined>() };
    }
    return {
      session: newSession(declared),
      connection: `request-${++sessionless}`,
      requests: [],
      answered: new Set<string | undefined>(),
    };
  };

  const server = createServer((req, res) => {
    relay(req, res).catch((error: unknown) => {
      // Only a bug gets here: relay() answers every failure it knows of.
      options.onLog?.(`proxy error: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  // Node ends a request that takes more than 300 s to arrive; a proxy imposes no limit of its own.
  server.requestTimeout = 0;
  server.timeout = 0;

  async function relay(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://proxy').pathname;
    if (path !== LISTEN_PATH) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`mcp-shape proxy serves ${LISTEN_PATH}\n`);
      return;
    }
    // No client sends such a request: it is refused rather than held, and the rest is dropped. One
    // that says its length is refused before a byte of its body is read.
    const refuse = (bytes: number) => {
      options.onLog?.(`a client request ${overLimit}: refused with 413, nothing sent upstream`);
      options.recorder?.refused(bytes, `refused with 413: ${overLimit}`, {
        connection: exchangeFor(req).connection,
        transport: 'http',
      });
      const answer = `mcp-shape proxy: a request ${overLimit}\n`;
      res.writeHead(413, {
        'content-type': 'text/plain',
        'content-length': Buffer.byteLength(answer),
        connection: 'close',
      });
      // Written whole but not ended: ending it closes the connection, which waits for the linger.
      res.write(answer);
      lingerThenEnd(req, res);
    };
    const declared = Number(req.headers['content-length']);
    if (declared > maxMessageBytes) {
      refuse(declared);
      return;
    }
    let body: Buffer;
    try {
      const read = await readBody(req, maxMessageBytes);
      if (!('bytes' in read)) {
        refuse(read.held.reduce((sum, chunk) => sum + chunk.length, 0));
        return;
      }
      body = read.bytes;
    } catch {
      options.onLog?.('a client hung up before its whole request arrived: nothing sent upstream');
      return;
    }
    const exchange = exchangeFor(req);
    const lastEventId = req.headers['last-event-id'];
    const left = typeof lastEventId === 'string' ? orphans.get(exchange.session) : undefined;
    const orphaned = left?.get(lastEventId as string);
    if (left && orphaned) {
      // The stream resumed is theirs: its answers or its failure are theirs.
      for (const [id, requests] of left) if (requests === orphaned) left.delete(id);
      exchange.requests.push(...orphaned.filter(({ id }) => !exchange.session.answeredAlready(id)));
    }
    const text = decodeUtf8(body);
    // Recorded once the connection is known: an initialize request belongs to the session it starts.
    let recordClient: ((connection: string) => void) | undefined;
    if (text.trim() !== '') {
      const parsed = exchange.session.fromClient(text);
      recordClient = (connection) =>
        options.recorder?.client(text, parsed, { connection, transport: 'http' });
      const texts = idTexts(text, parsed);
      for (const [place, item] of (Array.isArray(parsed) ? parsed : [parsed]).entries()) {
        if (isObject(item) && typeof item.method === 'string' && Object.hasOwn(item, 'id')) {
          exchange.requests.push({ id: item.id, text: texts[place] ?? 'null' });
        }
      }
    }

    const headers: OutgoingHttpHeaders = {};
    for (const name of FORWARDED_REQUEST_HEADERS) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    Object.assign(headers, options.headers);
    if (body.length > 0) headers['content-length'] = String(body.length);

    let upstreamRequest: ClientRequest | undefined;
    let silence: string | undefined;
    // Node's parser fails the request, not the response, when a body turns out malformed (a chunk
    // size that is no number); the response then only says it was reset.
    let requestFailure: unknown;
    res.on('close', () => upstreamRequest?.destroy());
    let answer: IncomingMessage;
    const sendTo = (target: URL, method = req.method, sent = headers, payload = body) =>
      new Promise<IncomingMessage>((resolve, reject) => {
        const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
        upstreamRequest = send(target, { method, headers: sent, agent }, resolve);
        upstreamRequest.on('error', (error) => {
          requestFailure = error;
          reject(error);
        });
        watchSilence(upstreamRequest, options.timeoutMs, (reason) => {
          silence = reason;
        });
        upstreamRequest.end(payload.length > 0 ? payload : undefined);
      });
    // Where the request went, after the redirects followed.
    let target = upstream;
    try {
      answer = await sendTo(upstream);
      // A redirect within the upstream's origin (Starlette's `/mcp` → `/mcp/`) is followed here: passed
      // on, its Location names the upstream, which the SDK client will not follow to another origin
      // (or, told to, reaches unrepaired). 307 and 308 keep the method and body; another origin is
      // the client's to decide on, so it is passed on.
      for (let hop = 0; hop < MAX_REDIRECTS; hop++) {
        const next = sameOriginRedirect(answer, target);
        if (!next) break;
        answer.resume();
        options.onLog?.(
          `the server redirected ${target.pathname} to ${next.pathname} (${answer.statusCode}): followed`,
        );
        target = next;
        answer = await sendTo(target);
      }
    } catch (error) {
      recordClient?.(exchange.connection);
      if (res.destroyed) return;
      const reason = silence ?? unreachable(options.upstream, error).message;
      options.onLog?.(reason);
      if (orphaned) answerInStream(res, exchange, `resuming the stream failed: ${reason}`);
      else answerFailure(res, exchange, reason);
      return;
    }
    const brokenOff = (error: unknown) =>
      silence ?? `the server's response broke off: ${httpFailureWords(requestFailure ?? error)}`;

    const responseHeaders: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined && !DROPPED_RESPONSE_HEADERS.has(name)) responseHeaders[name] = value;
    }
    const assigned = answer.headers['mcp-session-id'];
    const connection = typeof assigned === 'string' && assigned !== '' ? assigned : exchange.connection;
    if (connection !== exchange.connection && !sessions.has(connection)) {
      // The upstream started a session (its answer to initialize): this exchange's state is its state.
      remember(connection, exchange.session);
    }
    recordClient?.(connection);
    if (req.method === 'DELETE' && answer.statusCode !== undefined && answer.statusCode < 400) {
      sessions.delete(exchange.connection);
    }

    const contentType = String(answer.headers['content-type'] ?? '').toLowerCase();
    const status = answer.statusCode ?? 0;
    const isStream = contentType.startsWith('text/event-stream');
    if (orphaned && exchange.requests.length > 0 && !(isStream && status >= 200 && status < 300)) {
      // A client resuming a stream it left gets, where the server will not resume it, the errors that
      // stream would have ended with: a refused GET (405) leaves the SDK clients waiting for ever.
      answer.resume();
      const reason = `resuming the stream failed: the server answered it with HTTP ${status}`;
      options.onLog?.(`[${connection}] ${reason}`);
      answerInStream(res, exchange, reason);
      return;
    }
    if (isStream) {
      res.writeHead(answer.statusCode ?? 200, responseHeaders);
      res.flushHeaders();
      // The stream, resumed after its last event id as a client would (GET with Last-Event-ID), or why
      // it could not be.
      const resume = async (lastEventId: string): Promise<IncomingMessage | string> => {
        const resuming: OutgoingHttpHeaders = {
          ...headers,
          accept: 'text/event-stream',
          'last-event-id': lastEventId,
        };
        delete resuming['content-type'];
        delete resuming['content-length'];
        if (connection !== exchange.connection) resuming['mcp-session-id'] = connection;
        Object.assign(resuming, options.headers);
        silence = undefined;
        requestFailure = undefined;
        let resumed: IncomingMessage;
        try {
          resumed = await sendTo(target, 'GET', resuming, Buffer.alloc(0));
        } catch (error) {
          return silence ?? unreachable(options.upstream, error).message;
        }
        const status = resumed.statusCode ?? 0;
        const type = String(resumed.headers['content-type'] ?? '');
        if (status >= 200 && status < 300 && type.toLowerCase().startsWith('text/event-stream'))
          return resumed;
        resumed.resume();
        return `the server answered it with HTTP ${status}${status >= 200 && status < 300 ? ` and ${type === '' ? 'no content type' : type}, not an event stream` : ''}`;
      };
      await relayEventStream(
        answer,
        res,
        exchange,
        connection,
        brokenOff,
        resume,
        () => silence !== undefined,
      );
      return;
    }
    // A body in an encoding (gzip…) the client asked for nothing of is not read: passed on, as before
    // a875e83 also when it held no answer, for the client to decode.
    const encoding = String(answer.headers['content-encoding'] ?? 'identity').toLowerCase();
    if (contentType.startsWith('application/json') && encoding === 'identity') {
      let received: Buffer;
      try {
        const read = await readBody(answer, maxMessageBytes);
        if (!('bytes' in read)) {
          // Passed on as it arrives, unjudged, as a stdio line that long is (frames.ts).
          options.onLog?.(`[${connection}] an answer ${overLimit}: forwarded unchanged, unjudged`);
          res.writeHead(answer.statusCode ?? 200, responseHeaders);
          let passed = 0;
          const answers = new AnswerReader();
          for (const chunk of read.held) {
            passed += chunk.length;
            answers.feed(chunk);
            res.write(chunk);
          }
          const counted = new Transform({
            transform(chunk: Buffer, _encoding, done) {
              passed += chunk.length;
              answers.feed(chunk);
              done(null, chunk);
            },
          });
          // pipeline, not pipe: an upstream that breaks off mid-body cuts the client's answer too,
          // instead of leaving it waiting for the rest.
          pipeline(read.rest, counted, res, (error) => {
            if (error) return;
            exchange.session.passedUnjudged(answers.answers());
            options.recorder?.passed('server', passed, { connection, transport: 'http' }, maxMessageBytes);
          });
          return;
        }
        received = read.bytes;
      } catch (error) {
        const reason = brokenOff(error);
        options.onLog?.(reason);
        answerFailure(res, exchange, reason);
        return;
      }
      const json = decodeUtf8(received);
      const judged = json.trim() === '' ? undefined : await repairJson(json, exchange, connection);
      const status = answer.statusCode ?? 200;
      // A 2xx body is the answer to the requests: one that lacks a response leaves its request waiting
      // for the client's own timeout, so the proxy answers it with what the server sent instead.
      const missing = status >= 200 && status < 300 ? unansweredBy(judged?.outcome, exchange) : [];
      if (missing.length > 0) {
        const reason = `the server's HTTP ${status} answer held no response to the request, but ${sentWords(json, judged?.outcome)}`;
        options.onLog?.(
          `[${connection}] ${reason}: answered ${missing.length} request${missing.length === 1 ? '' : 's'} with an error`,
        );
        exchange.session.passedUnjudged(missing.map((request) => request.id));
        const body = Buffer.from(withErrors(judged, missing, exchange.requests.length, reason));
        res.writeHead(200, {
          ...responseHeaders,
          'content-type': 'application/json',
          'content-length': String(body.length),
        });
        res.end(body);
        afterFrame(json.length);
        return;
      }
      const repaired = judged?.text;
      // Bytes that are not UTF-8 break the transports' MUST (frame-not-utf8): a body that needs nothing
      // else goes on as its text, with U+FFFD for each bad sequence as fetch decodes it.
      const bad = repaired === undefined ? utf8Problem(received) : undefined;
      if (bad) options.onLog?.(notUtf8Line(bad, 'a body', `[${connection}] `));
      const out = repaired === undefined && !bad ? received : Buffer.from(repaired ?? json);
      res.writeHead(status, { ...responseHeaders, 'content-length': String(out.length) });
      res.end(out);
      afterFrame(json.length);
      return;
    }
    res.writeHead(answer.statusCode ?? 200, responseHeaders);
    answer.pipe(res);
  }

  /** A JSON body's outcome, and its repaired text (undefined to send the body as it came). */
  async function repairJson(text: string, exchange: Exchange, connection: string): Promise<JudgedBody> {
    const outcome = await exchange.session.fromServer(text);
    options.recorder?.server(text, outcome, { connection, transport: 'http' });
    if (outcome.kind === 'drop') {
      // An HTTP body stands alone, and its status may be the point (401, 404): it goes through as sent.
      options.onLog?.(`[${connection}] server answered with ${outcome.reason}, passed on as it is: ${text}`);
      return { outcome, text: undefined };
    }
    const line = outcomeLine(outcome, text, `[${connection}] `);
    if (line) options.onLog?.(line);
    if (outcome.fixes.length === 0) return { outcome, text: undefined };
    options.onRepaired?.(repairEvent(outcome, connection));
    return { outcome, text: outcome.text };
  }

  /** Keeps `requests` for a client that resumes after one of `ids` (see orphans). */
  function keepOrphans(session: ProxySession, ids: readonly string[], requests: RequestOfExchange[]): void {
    let left = orphans.get(session);
    if (!left) {
      left = new Map();
      orphans.set(session, left);
    }
    for (const id of ids) left.set(id, requests);
    // Bounded: a conversation whose client keeps leaving keeps only the latest.
    for (const id of left.keys()) {
      if (left.size <= MAX_ORPHAN_IDS) break;
      left.delete(id);
    }
  }

  /**
   * Re-emits the upstream's SSE events as they arrive, each message repaired, in order. Ids and event
   * names are kept, since clients resume streams with Last-Event-ID. Events whose data is no JSON-RPC
   * message are not forwarded (they are logged), as on stdio. An event longer than the proxy holds is
   * passed on as it arrives, unjudged (sse-split.ts), as a stdio line that long is.
   */
  async function relayEventStream(
    answer: IncomingMessage,
    res: ServerResponse,
    exchange: Exchange,
    connection: string,
    brokenOff: (error: unknown) => string,
    resume: (lastEventId: string) => Promise<IncomingMessage | string>,
    timedOut: () => boolean,
  ): Promise<void> {
    const keepAliveMs = options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS;
    let lastWrite = Date.now();
    const write = async (text: string) => {
      // A client gone, its response closed: 'close' will not come again, and waiting for it once
      // stalled the relay for good, its keep-alive timer ticking and the stream held, per client.
      if (res.destroyed) return;
      lastWrite = Date.now();
      if (!res.write(text)) await whenWritable(res);
    };
    // Never inside an event being passed on: a comment there would become part of it.
    let passing: { answers: EventAnswerReader; bytes: number } | undefined;
    const keepAlive = setInterval(
      () => {
        if (Date.now() - lastWrite >= keepAliveMs && !res.destroyed && !passing)
          void write(': keep-alive\n\n');
      },
      Math.max(10, Math.floor(keepAliveMs / 2)),
    );

    let cut: string | undefined;
    // The last event id: where the stream is resumed when it ends without the response.
    let lastEventId: string | undefined;
    // The event ids the client was sent (the latest ones), where it may resume if it leaves.
    const writtenIds: string[] = [];
    // The server's `retry:` hint, the wait before resuming.
    let retryMs: number | undefined;
    // Whether the stream now read brought an event with an id or data.
    let progressed = false;
    const passOn = async (piece: PassedPiece) => {
      if (piece.first) {
        passing = { answers: new EventAnswerReader(), bytes: 0 };
        options.onLog?.(`[${connection}] an event ${overLimit}: forwarded unchanged, unjudged`);
      }
      if (!passing) return;
      progressed = true;
      passing.bytes += Buffer.byteLength(piece.passed);
      passing.answers.feed(piece.passed);
      if (piece.passed !== '') await write(piece.passed);
      if (!piece.last) return;
      const { answers, bytes } = passing;
      passing = undefined;
      options.recorder?.passed('server', bytes, { connection, transport: 'sse' }, maxMessageBytes);
      if (piece.cut) {
        // Ended, so that what is written next is no part of it; its request was not answered.
        await write('\n\n');
        cut = "the server's stream ended inside an event";
        return;
      }
      const ids = answers.answers();
      exchange.session.passedUnjudged(ids);
      for (const id of ids) exchange.answered.add(answerKey(id));
    };
    const relayEvent = async (event: EventSourceMessage | { retry: number } | PassedPiece) => {
      if ('passed' in event) return passOn(event);
      if ('retry' in event) {
        const most = options.maxResumeDelayMs ?? MAX_RESUME_DELAY_MS;
        retryMs = Math.min(event.retry, most);
        if (event.retry > most)
          options.onLog?.(
            `[${connection}] the server's retry hint of ${Number.isSafeInteger(event.retry) ? event.retry : 'more than 2^53'} ms is longer than the ${most / 1000} s the proxy waits before resuming a stream: passed on as ${most}`,
          );
        return write(`retry: ${retryMs}\n\n`);
      }
      if (event.id) {
        lastEventId = event.id;
        progressed = true;
        if (!res.destroyed) noteWrittenId(writtenIds, event.id);
      }
      if (event.data === '') return write(formatEvent(event, ''));
      progressed = true;
      const outcome = await exchange.session.fromServer(event.data, { canSplit: true });
      options.recorder?.server(event.data, outcome, { connection, transport: 'sse' });
      const line = outcomeLine(outcome, event.data, `[${connection}] `);
      if (line) options.onLog?.(line);
      if (outcome.kind === 'drop') return;
      if (event.event !== undefined && event.event !== 'message') {
        // The SDK clients read only events named `message` (or not named), as EventSource does: a
        // message under another name never reached them, and its request waited for their timeout.
        options.onLog?.(
          `[${connection}] an SSE event named ${JSON.stringify(event.event)} carried a JSON-RPC message, which clients read only from "message" events: passed on as one`,
        );
        event = { ...event, event: 'message' };
      }
      noteAnswers(sentMessage(outcome), exchange);
      if (outcome.fixes.length > 0) options.onRepaired?.(repairEvent(outcome, connection));
      if (outcome.split) {
        // A batch's messages as events of their own; the event's id (where a resumed stream starts
        // after) goes on the last.
        const { id, ...named } = event;
        const last = outcome.split.length - 1;
        for (const [i, message] of (outcome.splitTexts ?? []).entries())
          await write(formatEvent(i === last ? event : named, message));
      } else await write(formatEvent(event, outcome.text));
      afterFrame(event.data.length);
    };

    /** Relays one upstream stream to its end; resolves with why it broke, if it did. */
    const relayStream = async (source: IncomingMessage): Promise<string | undefined> => {
      progressed = false;
      const queue = new OrderedQueue<EventSourceMessage | { retry: number } | PassedPiece>(
        source,
        relayEvent,
        (event) => ('data' in event ? event.data.length : 'passed' in event ? event.passed.length : 0),
      );
      // An event is judged from its data, one string. The splitter hands the parser only events it
      // holds, so the parser never holds more: growing one without end once ran the proxy out of memory
      // (an abort, 3.6 GB in 13 s).
      const splitter = new SseSplitter(maxMessageBytes);
      const parser = createParser({
        onEvent: (event) => queue.push([event]),
        onRetry: (retry) => queue.push([{ retry }]),
      });
      const take = (pieces: readonly SsePiece[]) => {
        for (const piece of pieces) {
          // A bare CR ending the text could be half a CRLF to the parser, which would wait for the next
          // event to dispatch this one: the splitter knows it is whole, and makes the CR a CRLF.
          if ('event' in piece) parser.feed(piece.event.endsWith('\r') ? `${piece.event}\n` : piece.event);
          else queue.push([piece]);
        }
      };
      source.setEncoding('utf8');
      let first = true;
      const ended = new Promise<string | undefined>((resolve) => {
        source.on('data', (chunk: string) => {
          // A byte order mark may start the stream (the SSE format allows one). Clients decode with
          // TextDecoder, which drops it; Node's decoder keeps it, and the parser, which looks for its
          // bytes rather than its character, read the first line's field as "\uFEFFevent" or
          // "\uFEFFdata": the first event lost its type, or its data and so itself.
          const text = first && chunk.charCodeAt(0) === 0xfeff ? chunk.slice(1) : chunk;
          first = false;
          take(splitter.push(text));
        });
        source.once('end', () => resolve(undefined));
        source.once('error', (error) => resolve(brokenOff(error)));
        source.once('close', () =>
          resolve(source.complete ? undefined : brokenOff(new Error('closed early'))),
        );
      });
      const ending = await ended;
      take(splitter.end());
      queue.endOfSource();
      await queue.drained();
      return ending;
    };

    let ended = await relayStream(answer);
    let broken: string | undefined;
    let resumedAfter: string | undefined;
    for (;;) {
      if (unansweredOf(exchange).length === 0 || res.destroyed) {
        broken = ended ?? cut;
        break;
      }
      // A stream that ends or breaks without the response leaves the client waiting for its own timeout
      // (60 s for the SDK clients) unless it can resume it; clients that can fail at it (a refused GET)
      // wait as long. The proxy resumes it itself, after the server's retry hint, and answers the
      // requests when it cannot, when that fails, or when a resumed stream brings nothing new. A time
      // limit the user set (--timeout) is final.
      const how = ended ?? cut ?? 'the server ended the stream without the response';
      cut = undefined;
      if (lastEventId === undefined || timedOut()) {
        broken = how;
        break;
      }
      if (resumedAfter !== undefined && !progressed) {
        broken = `${how}, and the stream resumed after event ${JSON.stringify(resumedAfter)} brought nothing new`;
        break;
      }
      resumedAfter = lastEventId;
      await delay(retryMs ?? DEFAULT_RESUME_DELAY_MS, res);
      if (res.destroyed) break;
      const resumed = await resume(lastEventId);
      if (typeof resumed === 'string') {
        broken = `${how}, and resuming it after event ${JSON.stringify(lastEventId)} failed: ${resumed}`;
        break;
      }
      ended = await relayStream(resumed);
    }
    clearInterval(keepAlive);
    const unanswered = unansweredOf(exchange);
    if (res.destroyed) {
      if (unanswered.length > 0) keepOrphans(exchange.session, writtenIds, unanswered);
      if (unanswered.length > 0)
        options.onLog?.(
          `[${connection}] the client left before the response: the server's stream was let go`,
        );
    } else if (broken) {
      options.onLog?.(`[${connection}] ${broken}`);
      for (const request of unanswered)
        await write(formatEvent({ event: 'message' }, errorMessage(request.text, broken)));
    }
    res.end();
  }

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      const { address, port } = server.address() as AddressInfo;
      const host = address.includes(':') ? `[${address}]` : address;
      resolve({
        url: `http://${host}:${port}${LISTEN_PATH}`,
        server,
        sessions: () => [...sessions.keys()],
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            agent.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

/**
 * Fails the upstream request when it stays silent for `timeoutMs`, before its headers or between
 * chunks of its body (a socket idle timeout); no limit without it.
 */
/** Redirects the proxy follows for one request before it passes the last one on. */
const MAX_REDIRECTS = 5;

/** Where a 307 or 308 answer sends the request, when that is on `from`'s origin; else `undefined`. */
function sameOriginRedirect(answer: IncomingMessage, from: URL): URL | undefined {
  if (answer.statusCode !== 307 && answer.statusCode !== 308) return undefined;
  const location = answer.headers.location;
  if (typeof location !== 'string') return undefined;
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    return undefined;
  }
  return next.origin === from.origin ? next : undefined;
}

function watchSilence(
  request: ClientRequest,
  timeoutMs: number | undefined,
  onTimeout: (reason: string) => void,
): void {
  if (timeoutMs === undefined || timeoutMs <= 0) return;
  request.setTimeout(timeoutMs, () => {
    const reason = `the server sent nothing for ${timeoutMs / 1000} s (--timeout)`;
    onTimeout(reason);
    request.destroy(new UpstreamError(reason));
  });
}

/** A JSON-RPC error for the request whose id's JSON text is `idText`. */
function errorMessage(idText: string, reason: string): string {
  const error = JSON.stringify({ code: -32000, message: `mcp-shape proxy: ${reason}` });
  return `{"jsonrpc":"2.0","id":${idText},"error":${error}}`;
}

/**
 * The requests of an exchange still waiting for their answer: not answered on its stream, nor on
 * another (a server that answers a request on the stream of another is still answering it, and a
 * second answer, the proxy's error, would only reach the client as an answer to no request).
 */
function unansweredOf(exchange: Exchange): RequestOfExchange[] {
  return exchange.requests.filter(
    ({ id }) => !exchange.answered.has(answerKey(id)) && !exchange.session.answeredAlready(id),
  );
}

/** Marks the responses in a forwarded message as answers to this exchange's requests. */
function noteAnswers(message: unknown, exchange: Exchange): void {
  for (const id of responseIds(message)) exchange.answered.add(answerKey(id));
}

/**
 * A key that a request's id and the id of its answer share, whatever type the server gave it back as:
 * "3" answers 3 for the official SDK clients, which convert it (src/core/request-id.ts), even where
 * the proxy forwards the answer unchanged.
 */
function answerKey(id: unknown): string | undefined {
  const number = typeof id === 'string' ? convertedId(id) : undefined;
  return idKey(number ?? id);
}

/** The ids of the responses in a message (a batch's members too), as the client will read them. */
function responseIds(message: unknown): unknown[] {
  const ids: unknown[] = [];
  for (const item of Array.isArray(message) ? message : [message]) {
    if (isObject(item) && !Object.hasOwn(item, 'method') && Object.hasOwn(item, 'id')) ids.push(item.id);
  }
  return ids;
}

/** The message a forwarded outcome sends: the repaired one, or the server's own. */
function sentMessage(outcome: ServerOutcome & { kind: 'forward' }): unknown {
  return outcome.fixes.length > 0 ? (outcome.split ?? outcome.repaired) : outcome.message;
}

/** A JSON body judged: its outcome, and the repaired text to send (undefined: the body as it came). */
interface JudgedBody {
  readonly outcome: ServerOutcome;
  readonly text: string | undefined;
}

/** The requests of `exchange` that a JSON body (undefined: an empty one) does not answer. */
function unansweredBy(outcome: ServerOutcome | undefined, exchange: Exchange): RequestOfExchange[] {
  const answered = new Set(
    outcome?.kind === 'forward' ? responseIds(sentMessage(outcome)).map((id) => answerKey(id)) : [],
  );
  return exchange.requests.filter(({ id }) => !answered.has(answerKey(id)));
}

/** The longest part of a server's body a message quotes. */
const QUOTED_CHARACTERS = 200;

/** What a JSON body that answers no request held, in words, with its start quoted. */
function sentWords(text: string, outcome: ServerOutcome | undefined): string {
  if (outcome === undefined) return 'an empty body';
  const quoted = text.length > QUOTED_CHARACTERS ? `${text.slice(0, QUOTED_CHARACTERS)}…` : text;
  if (outcome.kind === 'drop') return `${outcome.reason}: ${quoted}`;
  const sent = sentMessage(outcome);
  const words = (Array.isArray(sent) ? sent : [sent]).map((item) => {
    if (!isObject(item)) return 'no message';
    const method = typeof item.method === 'string' ? ` (${item.method})` : '';
    if (Object.hasOwn(item, 'method'))
      return Object.hasOwn(item, 'id') ? `a request${method}` : `a notification${method}`;
    return Object.hasOwn(item, 'id') ? 'an answer to another request' : 'an answer without an id';
  });
  return `${words.join(', ')}: ${quoted}`;
}

/**
 * The body that answers `missing` with errors: the errors alone when nothing in the server's body
 * answered the exchange (one error for one request), else the body's messages and the errors, in a batch
 * (the client sent one: it had several requests).
 */
function withErrors(
  judged: JudgedBody | undefined,
  missing: readonly RequestOfExchange[],
  requests: number,
  reason: string,
): string {
  const errors = missing.map((request) => errorMessage(request.text, reason));
  if (missing.length === requests) return requests === 1 ? (errors[0] as string) : `[${errors.join(',')}]`;
  // Some were answered, so the body was forwarded: a message or a batch of them.
  const outcome = judged?.outcome as ServerOutcome & { kind: 'forward' };
  // As they are sent, not written anew from their values: the server's own text, or the repaired one
  // with the server's own numbers (number-text.ts). A batch's text without its brackets.
  const sent = sentMessage(outcome);
  const messages = !Array.isArray(sent)
    ? [outcome.text]
    : sent.length === 0
      ? []
      : [outcome.text.trim().slice(1, -1)];
  return `[${[...messages, ...errors].join(',')}]`;
}

/**
 * The upstream failed before answering: a 502 whose body is a JSON-RPC error for each request of the
 * exchange (the SDK clients report it on the call instead of waiting for a timeout).
 */
function answerFailure(res: ServerResponse, exchange: Exchange, reason: string): void {
  const ids = exchange.requests;
  if (ids.length === 0) {
    res.writeHead(502, { 'content-type': 'text/plain' }).end(`mcp-shape proxy: ${reason}\n`);
    return;
  }
  const errors = ids.map((request) => errorMessage(request.text, reason));
  const body = ids.length === 1 ? (errors[0] as string) : `[${errors.join(',')}]`;
  res.writeHead(502, { 'content-type': 'application/json' }).end(body);
}

/** The event ids of a stream kept for a client that left it, and of a conversation's such streams. */
const MAX_ORPHAN_IDS = 1000;

function noteWrittenId(ids: string[], id: string): void {
  ids.push(id);
  if (ids.length > MAX_ORPHAN_IDS) ids.shift();
}

/** Answers the exchange's requests with errors on an event stream (200), for a client resuming one. */
function answerInStream(res: ServerResponse, exchange: Exchange, reason: string): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const request of exchange.requests)
    res.write(formatEvent({ event: 'message' }, errorMessage(request.text, reason)));
  res.end();
}

function formatEvent(event: Pick<EventSourceMessage, 'id' | 'event'>, data: string): string {
  let text = '';
  if (event.id !== undefined) text += `id: ${event.id}\n`;
  if (event.event !== undefined) text += `event: ${event.event}\n`;
  for (const line of data.split('\n')) text += `data: ${line}\n`;
  return `${text}\n`;
}

/**
 * A body read whole, or, past `limit` (by default MAX_HELD_FRAME_BYTES, longer than any string, so never
 * judged), the chunks read so far and the paused stream with the rest: held whole it once ended in
 * "Cannot create a string longer than…" and a 500 without a body.
 */
type Body = { readonly bytes: Buffer } | { readonly held: readonly Buffer[]; readonly rest: IncomingMessage };

function readBody(stream: IncomingMessage, limit: number): Promise<Body> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      total += chunk.length;
      if (total <= limit) return;
      stream.pause();
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('close', onClose);
      resolve({ held: chunks, rest: stream });
    };
    const onEnd = () => resolve({ bytes: Buffer.concat(chunks, total) });
    const onClose = () => {
      if (!stream.complete) reject(new UpstreamError('the connection closed before the whole body arrived'));
    };
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', reject);
    stream.once('close', onClose);
  });
}

/**
 * How long a refused request may go on arriving after its answer. A client writing a body that long
 * is still writing when the 413 reaches it; were the connection closed at once, the kernel would answer
 * its next bytes with a reset, and the client's failed write can end the exchange before it reads the
 * answer: it sees EPIPE and no status at all (a fresh-clone run saw that). So the rest is read and
 * dropped, as web servers' "lingering close" does, until the request ends, nothing has come for
 * `idleMs`, or `totalMs` have passed since the answer.
 */
export const REFUSED_REQUEST_LINGER = { idleMs: 2000, totalMs: 5000 } as const;

/** Drops the rest of `request` and ends `res`, which closes the connection, when the linger is over. */
function lingerThenEnd(request: IncomingMessage, res: ServerResponse): void {
  let idle: NodeJS.Timeout | undefined;
  const over = (stillArriving: boolean) => {
    clearTimeout(idle);
    clearTimeout(total);
    request.removeListener('data', arrived);
    res.end();
    // A client still writing at the cap loses its connection at once, whatever it sends or leaves
    // unread; otherwise the connection closes as every answer with `connection: close` does.
    if (stillArriving) request.socket.destroy();
  };
  const arrived = () => {
    clearTimeout(idle);
    idle = setTimeout(() => over(false), REFUSED_REQUEST_LINGER.idleMs);
  };
  const total = setTimeout(() => over(true), REFUSED_REQUEST_LINGER.totalMs);
  // Each chunk is read and dropped.
  request.on('data', arrived);
  request.once('end', () => over(false));
  request.once('close', () => over(false));
  // Paused where the body was read up to the limit: a 'data' listener alone would not start it again.
  request.resume();
  arrived();
}
