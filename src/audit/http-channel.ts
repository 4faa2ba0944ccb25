/**
 * Streamable HTTP (2025-03-26 on): every client message is a POST; the answer is a JSON body or an
 * SSE stream of messages. The channel keeps the `Mcp-Session-Id` the server assigns and sends the
 * `MCP-Protocol-Version` header once a version is negotiated.
 */

import type { JsonObject } from '../core/json.js';
import { atLeast, parseProtocolVersion } from '../spec/versions.js';
import { BaseChannel, type Channel, excerpt, HttpStatusError, type SendHints } from './channel.js';
import { type HeaderMap, readCapped, readEventStream, unreachable } from './http-body.js';

export class StreamableHttpChannel extends BaseChannel implements Channel {
  readonly kind = 'streamable-http' as const;
  private sessionId: string | undefined;
  private readonly inflight = new Set<AbortController>();
  private closed = false;

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
      const session = response.headers.get('mcp-session-id');
      if (session) this.sessionId = session;
      const contentType = response.headers.get('content-type') ?? undefined;
      const abort = () => controller.abort();
      if (contentType?.toLowerCase().startsWith('text/event-stream') && response.ok) {
        await readEventStream(
          response,
          this.maxFrameBytes,
          (event) => {
            if (event.data !== '')
              this.emit({ kind: 'frame', frame: { transport: 'sse', text: event.data } });
          },
          abort,
          this.activity,
        );
        return;
      }
      const body = await readCapped(response, this.maxFrameBytes, abort, this.activity);
      if (body.trim() === '') {
        if (!response.ok) throw new HttpStatusError(response.status, '');
        return; // 202 Accepted for notifications and responses
      }
      if (!response.ok && !looksLikeJson(body)) throw new HttpStatusError(response.status, excerpt(body));
      this.emit({ kind: 'frame', frame: { transport: 'http', text: body, contentType } });
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

function looksLikeJson(body: string): boolean {
  const first = body.trimStart()[0];
  return first === '{' || first === '[';
}
