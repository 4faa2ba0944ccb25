/**
 * The 2024-11-05 HTTP+SSE transport, the fallback when a server rejects Streamable HTTP: a GET opens
 * an event stream whose first `endpoint` event names the URL to POST messages to; every server message
 * then arrives as a `message` event on that stream.
 */

import type { JsonObject } from '../core/json.js';
import { BaseChannel, type Channel, excerpt, HttpStatusError, StartError } from './channel.js';
import { type HeaderMap, readCappedFrame, readEventStream, sseFrame, unreachable } from './http-body.js';

export class LegacySseChannel extends BaseChannel implements Channel {
  readonly kind = 'http+sse' as const;
  private readonly stream = new AbortController();
  private endpoint: string | undefined;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly headers: HeaderMap,
    private readonly maxFrameBytes: number,
    private readonly connectTimeoutMs: number,
  ) {
    super();
  }

  async open(): Promise<void> {
    let response: Response;
    try {
      response = await fetch(this.url, {
        headers: { ...this.headers, accept: 'text/event-stream' },
        signal: this.stream.signal,
      });
    } catch (error) {
      throw unreachable(this.url, error);
    }
    const contentType = response.headers.get('content-type') ?? '';
    if (!response.ok || !contentType.toLowerCase().startsWith('text/event-stream')) {
      await response.body?.cancel();
      throw new StartError(
        `could not reach ${this.url}: neither Streamable HTTP nor HTTP+SSE (GET answered ${response.status} ${contentType || 'without a Content-Type'})`,
        'reach',
      );
    }
    /** An endpoint event's data naming another origin (or no URL at all). */
    let foreign: string | undefined;
    let resolveEndpoint!: () => void;
    const gotEndpoint = new Promise<void>((resolve) => {
      resolveEndpoint = resolve;
    });
    const reading = readEventStream(
      response,
      this.maxFrameBytes,
      (event) => {
        if (event.event === 'endpoint') {
          const endpoint = safeUrl(event.data, this.url);
          // The SDK clients refuse an endpoint on another origin than the stream's ("Endpoint origin
          // does not match connection origin"), so no message of theirs would reach it.
          if (endpoint && endpoint.origin === new URL(this.url).origin) this.endpoint = endpoint.toString();
          else foreign = event.data;
          resolveEndpoint();
        } else if (event.event === undefined || event.event === 'message') {
          this.emit({ kind: 'frame', frame: sseFrame(event) });
        }
      },
      () => this.stream.abort(),
      this.activity,
    )
      .catch((error: unknown) => {
        if (error instanceof Error && error.name === 'OversizeError') {
          const { bytes, limit } = error as unknown as { bytes: number; limit: number };
          this.emit({ kind: 'oversize', bytes, limit });
        }
      })
      .finally(() => {
        if (!this.closed) this.emit({ kind: 'closed', detail: 'the server closed the SSE stream' });
      });
    const timeout = new Promise<'timeout'>((resolve) =>
      setTimeout(() => resolve('timeout'), this.connectTimeoutMs).unref(),
    );
    if ((await Promise.race([gotEndpoint, reading, timeout])) === 'timeout' || !this.endpoint) {
      this.stream.abort();
      if (foreign !== undefined) {
        throw new StartError(
          `could not connect to ${this.url}: the SSE stream's endpoint event names ${JSON.stringify(foreign)}, not on its origin, and the official SDK clients refuse it ("Endpoint origin does not match connection origin")`,
          'reach',
        );
      }
      throw new StartError(`could not reach ${this.url}: the SSE stream sent no endpoint event`, 'reach');
    }
  }

  async send(message: JsonObject | readonly JsonObject[]): Promise<void> {
    if (this.closed || !this.endpoint) return;
    let response: Response;
    try {
      response = await fetch(this.endpoint, {
        method: 'POST',
        headers: { ...this.headers, 'content-type': 'application/json' },
        body: JSON.stringify(message),
        signal: this.stream.signal,
      });
    } catch (error) {
      if (this.closed) return;
      throw unreachable(this.endpoint, error);
    }
    const body = await readCappedFrame(response, 64 * 1024, () => {}).then(
      (frame) => frame.text,
      () => '',
    );
    if (!response.ok) throw new HttpStatusError(response.status, excerpt(body));
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stream.abort();
  }
}

/** `text` as a URL relative to `base`, or undefined when it is none. */
function safeUrl(text: string, base: string): URL | undefined {
  try {
    return new URL(text, base);
  } catch {
    return undefined;
  }
}
