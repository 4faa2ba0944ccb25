/**
 * Streamable HTTP (2025-03-26 on): every client message is a POST; the answer is a JSON body or an
 * SSE stream of messages. The channel keeps the `Mcp-Session-Id` the server assigns and sends the
 * `MCP-Protocol-Version` header once a version is negotiated.
 */

import { isObject, type JsonObject } from '../core/json.js';
import { atLeast, parseProtocolVersion } from '../spec/versions.js';
import {
  BaseChannel,
  type Channel,
  excerpt,
  HttpStatusError,
  OversizeError,
  type SendHints,
} from './channel.js';
import {
  type HeaderMap,
  readCappedFrame,
  readEventStream,
  sseFrame,
  UnansweredStreamError,
  unreachable,
} from './http-body.js';

export class StreamableHttpChannel extends BaseChannel implements Channel {
  readonly kind = 'streamable-http' as const;
  private sessionId: string | undefined;
  private readonly inflight = new Set<AbortController>();
  private closed = false;
  /** The server's last `retry:` hint, which the SDK clients keep for every later resumption. */
  private retryMs: number | undefined;

  constructor(
    private readonly url: string,
    private readonly headers: HeaderMap,
    private readonly maxFrameBytes: number,
  ) {
    super();
  }

  async open(): Promise<void> {
    // Nothing to open: the first POST (initialize) finds out whether the server is there.
  }

  private requestHeaders(hints: SendHints): Record<string, string> {
    const headers: Record<string, string> = {
      ...this.headers,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    if (this.sessionId) headers['mcp-session-id'] = this.sessionId;
    const version = hints.protocolVersion ? parseProtocolVersion(hints.protocolVersion) : undefined;
    // The header exists from 2025-06-18 on; older servers may reject unknown versions in it.
    if (hints.protocolVersion && version && atLeast(version, '2025-06-18'))
      headers['mcp-protocol-version'] = hints.protocolVersion;
    if (version && atLeast(version, '2026-07-28')) {
      if (hints.method) headers['mcp-method'] = hints.method;
      if (hints.name) headers['mcp-name'] = hints.name;
    }
    return headers;
  }

  async send(message: JsonObject | readonly JsonObject[], hints: SendHints = {}): Promise<void> {
    if (this.closed) return;
    const controller = new AbortController();
    this.inflight.add(controller);
    try {
      let response: Response;
      try {
        response = await fetch(this.url, {
          method: 'POST',
          headers: this.requestHeaders(hints),
          body: JSON.stringify(message),
          signal: controller.signal,
        });
      } catch (error) {
        if (controller.signal.aborted) return;
        throw unreachable(this.url, error);
      }
      if (!sameOrigin(response, this.url)) {
        await response.body?.cancel();
        throw new HttpStatusError(
          response.status,
          `redirected to ${response.url}, another origin than the server's: the official SDK clients do not follow it (their redirect policy is same-origin)`,
        );
      }
      const session = response.headers.get('mcp-session-id');
      if (session) this.sessionId = session;
      // The SDK clients read no body of a 202 Accepted (they cancel it): whatever it holds answers nothing.
      if (response.status === 202) {
        await response.body?.cancel().catch(() => {});
        return;
      }
      const contentType = response.headers.get('content-type') ?? undefined;
      const abort = () => controller.abort();
      if (mediaType(contentType) === 'text/event-stream' && response.ok) {
        await this.readStream(response, controller, hints, expectsAnswer(message));
        return;
      }
      const { text: body, invalidUtf8 } = await readCappedFrame(
        response,
        this.maxFrameBytes,
        abort,
        this.activity,
      );
      if (body.trim() === '') {
        if (!response.ok) throw new HttpStatusError(response.status, '');
        return; // 202 Accepted for notifications and responses
      }
      // The SDK clients read no body of a status that is not 2xx: the request fails with the body as
      // its message. A JSON-RPC error there fails it as well, and is judged as the answer; anything else
      // (a result under a 500) answers nothing, whatever it says.
      if (!response.ok && !isErrorAnswer(body)) throw new HttpStatusError(response.status, excerpt(body));
      this.emit({
        kind: 'frame',
        frame: { transport: 'http', text: body, contentType, ...(invalidUtf8 ? { invalidUtf8 } : {}) },
      });
      // An error body often has `id: null` (the server could not tell which request failed); the
      // status still fails the request this POST carried, unless the frame already answered it.
      if (!response.ok) throw new HttpStatusError(response.status, excerpt(body));
    } catch (error) {
      if (controller.signal.aborted && this.closed) return;
      throw error;
    } finally {
      this.inflight.delete(controller);
    }
  }

  /**
   * Reads an SSE stream and resumes it as the official SDK clients do (StreamableHTTPClientTransport):
   * a stream that ends or breaks before a response, once it has carried an event id (or any stream
   * opened to resume one), is opened again with a GET carrying the last event id as Last-Event-ID,
   * after the server's `retry` or else 1 s, growing 1.5 times for each failed attempt; two failed
   * attempts, or a 405, end it. This is how a 2025-11-25 server polls: it closes the stream after a
   * priming event and sends the answer on the resumed one, which the audit once reported lost.
   */
  private async readStream(
    first: Response,
    controller: AbortController,
    hints: SendHints,
    expectsAnswer: boolean,
  ): Promise<void> {
    let response: Response | undefined = first;
    let resumed = false;
    let triedResuming = false;
    let misnamed: string | undefined;
    for (;;) {
      let lastEventId: string | undefined;
      let answered = false;
      let broke: unknown;
      try {
        await readEventStream(
          response,
          this.maxFrameBytes,
          (event) => {
            if (event.id) lastEventId = event.id;
            // The SDK clients read events named `message` or not named, as EventSource does; an event
            // of another name reaches no client, whatever its data.
            if (event.data === '') return;
            if (event.event !== undefined && event.event !== 'message') {
              if (isResponse(event.data)) misnamed ??= event.event;
              return;
            }
            answered ||= isResponse(event.data);
            this.emit({ kind: 'frame', frame: sseFrame(event) });
          },
          () => controller.abort(),
          this.activity,
          (ms) => {
            this.retryMs = ms;
          },
        );
      } catch (error) {
        if (error instanceof OversizeError || controller.signal.aborted) throw error;
        broke = error;
      }
      const resumable = resumed || lastEventId !== undefined;
      if (answered || (broke !== undefined && !resumable)) {
        if (broke !== undefined) throw broke;
        return;
      }
      triedResuming ||= resumable;
      const next = resumable ? await this.resume(lastEventId, controller, hints) : undefined;
      if (next === undefined) break;
      response = next;
      resumed = true;
    }
    // Ended for good without the response. While another request's stream is open the response may
    // still come on it (the clients read every stream alike); else nothing will, and the session's
    // wait would end in a timeout that tells the user to wait longer.
    if (expectsAnswer && !controller.signal.aborted && this.inflight.size === 1)
      throw new UnansweredStreamError(triedResuming, misnamed);
  }

  /** The GET that resumes a stream, or undefined when the clients would give up on it. */
  private async resume(
    lastEventId: string | undefined,
    controller: AbortController,
    hints: SendHints,
  ): Promise<Response | undefined> {
    const headers = this.requestHeaders({ protocolVersion: hints.protocolVersion });
    delete headers['content-type'];
    headers.accept = 'text/event-stream';
    if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
    for (let attempt = 0; attempt < RESUME_ATTEMPTS; attempt++) {
      const delay = this.retryMs ?? Math.min(1000 * 1.5 ** attempt, 30_000);
      if (!(await pause(Math.min(Math.max(delay, RESUME_MIN_MS), LONGEST_TIMER_MS), controller.signal)))
        return undefined;
      let response: Response;
      try {
        response = await fetch(this.url, { method: 'GET', headers, signal: controller.signal });
      } catch {
        if (controller.signal.aborted) return undefined;
        continue;
      }
      if (response.ok && sameOrigin(response, this.url)) return response;
      await response.body?.cancel().catch(() => {});
      if (response.status === 405 || !sameOrigin(response, this.url)) return undefined;
    }
    return undefined;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const controller of this.inflight) controller.abort();
    if (!this.sessionId) return;
    // The spec asks clients to end sessions they no longer need with a DELETE.
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 2000);
    try {
      const response = await fetch(this.url, {
        method: 'DELETE',
        headers: { ...this.headers, 'mcp-session-id': this.sessionId },
        signal: controller.signal,
      });
      await response.body?.cancel();
    } catch {
      // A server that does not support DELETE or is already gone: nothing left to clean up.
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Failed attempts to resume a stream before the SDK clients give up (their default maxRetries). */
const RESUME_ATTEMPTS = 2;

/**
 * The shortest wait before resuming a stream. The SDK clients take the server's `retry` as it is, even
 * 0; the floor keeps a server that ends every stream at once from being polled in a tight loop.
 */
const RESUME_MIN_MS = 20;

/**
 * The longest wait a timer holds. A server's `retry` past it (`retry: 9999999999`) made Node fire the
 * timer at once, printing a TimeoutOverflowWarning on stderr each time and resuming in a loop; the
 * audit's own wait (--timeout) ends any longer pause anyway.
 */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** A redirect the SDK clients follow: within the server's origin. */
function sameOrigin(response: Response, url: string): boolean {
  return !response.redirected || new URL(response.url).origin === new URL(url).origin;
}

/** Waits `ms`; false when `signal` aborted the wait (the channel closed). */
function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (waited: boolean) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', aborted);
      resolve(waited);
    };
    const aborted = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    signal.addEventListener('abort', aborted, { once: true });
  });
}

/** Whether a POST carries a request, which the server must answer. */
function expectsAnswer(message: JsonObject | readonly JsonObject[]): boolean {
  const messages: readonly JsonObject[] = Array.isArray(message) ? message : [message as JsonObject];
  return messages.some((m) => typeof m.method === 'string' && Object.hasOwn(m, 'id'));
}

/** Whether an event's data is a response (a result or an error with an id): its stream needs no resuming. */
function isResponse(data: string): boolean {
  try {
    const message: unknown = JSON.parse(data);
    return isObject(message) && Object.hasOwn(message, 'id') && ('result' in message || 'error' in message);
  } catch {
    return false;
  }
}

/**
 * The essence of a Content-Type (`text/event-stream; charset=utf-8` is `text/event-stream`), as the SDK
 * clients compare it: `text/event-streamx` is not an event stream.
 */
function mediaType(contentType: string | undefined): string | undefined {
  return contentType?.split(';', 1)[0]?.trim().toLowerCase();
}

/** A JSON-RPC error response (or a batch of them) and nothing else: what an HTTP error may carry. */
function isErrorAnswer(body: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return false;
  }
  const answers = Array.isArray(parsed) ? parsed : [parsed];
  return (
    answers.length > 0 &&
    answers.every((a) => isObject(a) && Object.hasOwn(a, 'error') && !Object.hasOwn(a, 'result'))
  );
}
