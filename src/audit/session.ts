/**
 * JSON-RPC over a raw channel: ids, pending requests, timeouts, and replies to the few requests a
 * server may send us. Every frame goes through the transport rules before it is parsed, and every
 * message that is not the answer to one of our requests is validated here; answers are handed back to
 * the caller, which knows the tools needed to validate them.
 */

import type { Finding, Location } from '../core/finding.js';
import { isObject, type JsonObject } from '../core/json.js';
import type { Frame } from '../rules/types.js';
import type { ProtocolVersion } from '../spec/versions.js';
import { runFrame } from '../validate/engine.js';
import { publicFinding, validateMessageSync } from '../validate/index.js';
import { type Channel, HttpStatusError, OversizeError, type SendHints, StartError } from './channel.js';
import { auditFindings } from './events.js';

export type Failure =
  | { readonly kind: 'timeout'; readonly ms: number }
  | { readonly kind: 'closed'; readonly detail: string }
  | { readonly kind: 'oversize'; readonly bytes: number; readonly limit: number }
  | { readonly kind: 'http'; readonly status: number; readonly body: string }
  | { readonly kind: 'unreachable'; readonly detail: string };

export interface Exchange {
  readonly request: JsonObject;
  /** The response message exactly as received (it may be malformed). */
  readonly response?: JsonObject;
  readonly failure?: Failure;
}

/** Where findings of the current activity belong (tool and call are set while calling a tool). */
export interface SessionContext {
  tool?: string;
  call?: string;
}

interface Pending {
  readonly request: JsonObject;
  readonly resolve: (exchange: Exchange) => void;
  readonly timer: NodeJS.Timeout;
}

export class Session {
  /** The version frames and unsolicited messages are checked against; set after negotiation. */
  version: ProtocolVersion;
  context: SessionContext = {};
  /** Set once the channel is gone; later requests fail at once. */
  closedDetail: string | undefined;
  private nextId = 1;
  private readonly pending = new Map<string, Pending>();
  /** Ids of requests that timed out, so a late answer is not reported as unmatched. */
  private readonly abandoned = new Set<string>();
  private readonly validations: Promise<void>[] = [];

  constructor(
    readonly channel: Channel,
    version: ProtocolVersion,
    private readonly timeoutMs: number,
    private report: (finding: Finding) => void,
  ) {
    this.version = version;
    channel.onEvent((event) => {
      if (event.kind === 'frame') this.onFrame(event.frame);
      else if (event.kind === 'oversize') this.onOversize(event.bytes, event.limit);
      else this.onClosed(event.detail);
    });
  }

  /** Where findings go from now on (a re-opened connection reports only after its handshake). */
  setSink(report: (finding: Finding) => void): void {
    this.report = report;
  }

  location(): Location {
    return { protocolVersion: this.version, ...this.context };
  }

  request(method: string, params: JsonObject, hints: SendHints = {}): Promise<Exchange> {
    const id = this.nextId++;
    const request: JsonObject = { jsonrpc: '2.0', id, method, params };
    if (this.closedDetail)
      return Promise.resolve({ request, failure: { kind: 'closed', detail: this.closedDetail } });
    return new Promise<Exchange>((resolve) => {
      const key = String(id);
      const timer = setTimeout(() => {
        this.pending.delete(key);
        this.abandoned.add(key);
        // Be a good client: tell the server to stop working on it.
        void this.notify('notifications/cancelled', { requestId: id, reason: 'timeout' }).catch(() => {});
        resolve({ request, failure: { kind: 'timeout', ms: this.timeoutMs } });
      }, this.timeoutMs);
      this.pending.set(key, { request, resolve, timer });
      this.channel
        .send(request, { protocolVersion: this.version, method, ...hints })
        .catch((error: unknown) => {
          this.settle(key, { request, failure: failureOf(error) });
        });
    });
  }

  async notify(method: string, params?: JsonObject): Promise<void> {
    if (this.closedDetail) return;
    const message: JsonObject = { jsonrpc: '2.0', method, ...(params ? { params } : {}) };
    await this.channel.send(message, { protocolVersion: this.version, method });
  }

  /** Waits for the validation of unsolicited messages received so far. */
  async drain(): Promise<void> {
    await Promise.all(this.validations);
  }

  private settle(key: string, exchange: Exchange): void {
    const pending = this.pending.get(key);
    if (!pending) return;
    clearTimeout(pending.timer);
    this.pending.delete(key);
    pending.resolve(exchange);
  }

  private onFrame(frame: Frame): void {
    for (const f of runFrame(frame, { version: this.version })) {
      this.report({ ...publicFinding(f), location: this.location() });
    }
    let value: unknown;
    try {
      value = JSON.parse(frame.text);
    } catch {
      return; // frame-not-json has reported it
    }
    if (Array.isArray(value)) {
      // A batch: the envelope rules judge the array, then each member is handled on its own.
      this.validate(value);
      for (const member of value) if (isObject(member)) this.onMessage(member, false);
    } else if (isObject(value)) {
      this.onMessage(value, true);
    }
  }

  private onMessage(message: JsonObject, validateUnsolicited: boolean): void {
    const hasMethod = Object.hasOwn(message, 'method');
    if (!hasMethod && Object.hasOwn(message, 'id')) {
      const key = String(message.id);
      const pending = this.pending.get(key);
      if (pending) {
        this.settle(key, { request: pending.request, response: message });
        return;
      }
      // `id: null` is how JSON-RPC reports an error it could not tie to a request; not a stray answer.
      if (message.id !== null && !this.abandoned.has(key)) {
        for (const f of auditFindings(
          { event: 'response-unmatched', id: JSON.stringify(message.id) },
          this.location(),
        ))
          this.report(f);
      }
    }
    if (validateUnsolicited) this.validate(message);
    if (hasMethod && Object.hasOwn(message, 'id')) this.answerServerRequest(message);
  }

  /** We declare no client capabilities, so the only request we serve is ping. */
  private answerServerRequest(request: JsonObject): void {
    const reply =
      request.method === 'ping'
        ? { jsonrpc: '2.0', id: request.id, result: {} }
        : { jsonrpc: '2.0', id: request.id, error: { code: -32601, message: 'Method not found' } };
    void this.channel.send(reply as JsonObject, { protocolVersion: this.version }).catch(() => {});
  }

  private validate(message: unknown): void {
    const location = this.location();
    this.validations.push(
      Promise.resolve(validateMessageSync(message, { protocolVersion: this.version })).then((findings) => {
        for (const f of findings) this.report({ ...f, location });
      }),
    );
  }

  private onOversize(bytes: number, limit: number): void {
    // The frame was not parsed, so its id is unknown; with one request in flight it must be the answer.
    const [only] = this.pending.size === 1 ? this.pending.keys() : [];
    if (only !== undefined) {
      const pending = this.pending.get(only);
      if (pending)
        this.settle(only, { request: pending.request, failure: { kind: 'oversize', bytes, limit } });
      return;
    }
    for (const f of auditFindings({ event: 'response-too-large', bytes, limit }, this.location()))
      this.report(f);
  }

  private onClosed(detail: string): void {
    this.closedDetail = detail;
    for (const [key, pending] of [...this.pending]) {
      this.settle(key, { request: pending.request, failure: { kind: 'closed', detail } });
    }
  }
}

function failureOf(error: unknown): Failure {
  if (error instanceof OversizeError) return { kind: 'oversize', bytes: error.bytes, limit: error.limit };
  if (error instanceof HttpStatusError) return { kind: 'http', status: error.status, body: error.body };
  if (error instanceof StartError) return { kind: 'unreachable', detail: error.message };
  return { kind: 'unreachable', detail: error instanceof Error ? error.message : String(error) };
}

/** The findings for a failed exchange: the server's fault in every case (we stop only what it broke). */
export function failureFindings(failure: Failure, method: string, location: Location): Finding[] {
  switch (failure.kind) {
    case 'timeout':
      return auditFindings({ event: 'timeout', method, ms: failure.ms }, location);
    case 'closed':
      return auditFindings({ event: 'server-exited', method, detail: failure.detail }, location);
    case 'oversize':
      return auditFindings(
        { event: 'response-too-large', bytes: failure.bytes, limit: failure.limit },
        location,
      );
    case 'http':
      return auditFindings(
        {
          event: 'http-error',
          status: failure.status,
          method,
          body: failure.body ? `: ${failure.body}` : '',
        },
        location,
      );
    case 'unreachable':
      return auditFindings(
        { event: 'http-error', status: 'unreachable', method, body: `: ${failure.detail}` },
        location,
      );
  }
}
