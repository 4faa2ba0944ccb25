/**
 * A channel moves raw bytes between the auditor and one server connection. It never interprets a
 * message: it only cuts the byte stream into frames (stdout lines, HTTP bodies, SSE events) so that
 * the session can check each one with the transport rules before parsing it. This is why the audit
 * does not use the SDK's client transports: they drop the frames they reject.
 */

import type { JsonObject } from '../core/json.js';
import type { Frame, WireTransport } from '../rules/types.js';

export type ChannelKind = 'stdio' | 'streamable-http' | 'http+sse';

export type ChannelEvent =
  /** Bytes arrived (a chunk, not necessarily a whole frame): the server is alive and sending. */
  | { readonly kind: 'activity' }
  | { readonly kind: 'frame'; readonly frame: Frame & { readonly transport: WireTransport } }
  /** A frame longer than the size cap; its bytes were discarded without being parsed. */
  | { readonly kind: 'oversize'; readonly bytes: number; readonly limit: number }
  /** The connection is gone (process exit, stream end); no more frames will come. */
  | { readonly kind: 'closed'; readonly detail: string };

/** What the session tells the channel about an outgoing message, for HTTP headers. */
export interface SendHints {
  readonly protocolVersion?: string;
  /** The request's method, for the 2026-07-28 `Mcp-Method` header. */
  readonly method?: string;
  /** The tool name of a tools/call, for the 2026-07-28 `Mcp-Name` header. */
  readonly name?: string;
}

export interface Channel {
  readonly kind: ChannelKind;
  /** Starts the server or connects to it; rejects with StartError when that fails. */
  open(): Promise<void>;
  /**
   * Sends one message. Over HTTP it resolves once the response body has been read (its frames are
   * emitted as events); it rejects with HttpStatusError or OversizeError when the POST fails.
   */
  send(message: JsonObject | readonly JsonObject[], hints?: SendHints): Promise<void>;
  /** Stops the server or ends the session; never rejects and always reaps a child process. */
  close(): Promise<void>;
  /** The last lines the server wrote to stderr (stdio only). */
  stderrTail(): string;
  onEvent(listener: (event: ChannelEvent) => void): void;
}

/** The server could not be started (stdio) or reached (HTTP). The CLI exits with code 3. */
export class StartError extends Error {
  constructor(
    message: string,
    readonly what: 'start' | 'reach',
    /** What the server wrote to stderr before it failed (stdio), for the user to see the cause. */
    readonly stderr: string = '',
  ) {
    super(message);
    this.name = 'StartError';
  }
}

export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`HTTP ${status}${body ? `: ${body}` : ''}`);
    this.name = 'HttpStatusError';
  }
}

export class OversizeError extends Error {
  constructor(
    readonly bytes: number,
    readonly limit: number,
  ) {
    super(`response exceeded ${limit} bytes`);
    this.name = 'OversizeError';
  }
}

/** Event fan-out shared by the channel implementations; HTTP channels have no stderr to keep. */
export abstract class BaseChannel {
  private readonly listeners: ((event: ChannelEvent) => void)[] = [];

  onEvent(listener: (event: ChannelEvent) => void): void {
    this.listeners.push(listener);
  }

  protected emit(event: ChannelEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  /** For body readers: call on every chunk received. */
  protected readonly activity = (): void => this.emit({ kind: 'activity' });

  stderrTail(): string {
    return '';
  }
}

/** A short, single-line excerpt of a body for messages. */
export function excerpt(text: string, max = 120): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}
