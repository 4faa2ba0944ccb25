/**
 * JSON-RPC over a raw channel: ids, pending requests, timeouts, and replies to the few requests a
 * server may send us. Every frame goes through the transport rules before it is parsed, and every
 * message that is not the answer to one of our requests is validated here; answers are handed back to
 * the caller, which knows the tools needed to validate them.
 */

import type { Finding, Location } from '../core/finding.js';
import { isObject, type JsonObject } from '../core/json.js';
import { convertedId } from '../core/request-id.js';
import type { Frame, WireTransport } from '../rules/types.js';
import type { ProtocolVersion } from '../spec/versions.js';
import { runFrame } from '../validate/engine.js';
import { publicFinding, validateParsedMessageSync } from '../validate/index.js';
import { type Channel, HttpStatusError, OversizeError, type SendHints, StartError } from './channel.js';
import { type AuditEvent, auditFindings } from './events.js';

export type Failure =
  /** No answer: `ms` waited in all; `cap` when the hard cap ended a wait the server kept alive. */
  | { readonly kind: 'timeout'; readonly ms: number; readonly cap?: boolean }
  | { readonly kind: 'closed'; readonly detail: string }
  | { readonly kind: 'oversize'; readonly bytes: number; readonly limit: number }
  | { readonly kind: 'http'; readonly status: number; readonly body: string }
  | { readonly kind: 'unreachable'; readonly detail: string };

export interface Exchange {
  readonly request: JsonObject;
  /** The response message exactly as received (it may be malformed). */
  readonly response?: JsonObject;
  /** The frame that carried the response, as received (for a batch: the whole batch). */
  readonly raw?: string;
  readonly failure?: Failure;
  /** From sending the request to its answer (or to giving up). */
  readonly latencyMs: number;
}

/** How long a request may take: idle time since the last byte, and a hard cap on the whole wait. */
export interface Waiting {
  readonly timeoutMs: number;
  readonly hardCapMs: number;
}

/** Sees every frame both ways, for `audit --record`; `text` is exactly what went over the wire. */
export type FrameTap = (
  from: 'client' | 'server',
  text: string,
  transport: WireTransport | undefined,
) => void;

/** Where findings of the current activity belong (tool and call are set while calling a tool). */
export interface SessionContext {
  tool?: string;
  call?: string;
}

interface Pending {
  readonly request: JsonObject;
  readonly resolve: (exchange: Exchange) => void;
  readonly sentAt: number;
  /** What the latency finding calls the request: `tools/call get_weather`, `initialize`. */
  readonly label: string;
  /** The tool and call it was sent for: where a second answer to it is reported. */
  readonly context: SessionContext;
  timer: NodeJS.Timeout | undefined;
}

export class Session {
  /** The version frames and unsolicited messages are checked against; set after negotiation. */
  version: ProtocolVersion;
  context: SessionContext = {};
  /** Set once the channel is gone; later requests fail at once. */
  closedDetail: string | undefined;
  /**
   * From 0, as the official SDK clients (TypeScript and Python) number theirs: a server that takes a
   * falsy id for a notification never answers their `initialize`, and must not pass the audit.
   */
  private nextId = 0;
  private readonly pending = new Map<string, Pending>();
  /** Ids of requests that timed out, so a late answer is not reported as unmatched. */
  private readonly abandoned = new Set<string>();
  /**
   * Requests answered, by id, so that a second answer is told apart from a lost one and reported where
   * the request was sent (the audit has moved on to another tool by the time it comes).
   */
  private readonly answered = new Map<string, SessionContext>();
  private readonly validations: Promise<void>[] = [];
  /** When the server last sent a byte: a request's wait runs from here (or from sending it). */
  private lastActivity = 0;
  /** Set by the auditor for `--record`. */
  tap: FrameTap | undefined;

  constructor(
    readonly channel: Channel,
    version: ProtocolVersion,
    private readonly waiting: Waiting,
    private sink: (finding: Finding) => void,
  ) {
    this.version = version;
    channel.onEvent((event) => {
      if (event.kind === 'activity') this.lastActivity = Date.now();
      else if (event.kind === 'frame') this.onFrame(event.frame);
      else if (event.kind === 'oversize') this.onOversize(event.bytes, event.limit);
      else this.onClosed(event.detail);
    });
  }

  /** Where findings go from now on (a re-opened connection reports only after its handshake). */
  setSink(report: (finding: Finding) => void): void {
    this.sink = report;
  }

  /** Findings reported so far, by rule and place, up to FINDINGS_PER_PLACE each. */
  private readonly reported = new Map<string, number>();

  /**
   * Hands a finding on, but at most FINDINGS_PER_PLACE of one rule at one place (version and call): a
   * server that floods its stdout with lines that are no JSON made one finding a line, and the audit
   * grew by half a gigabyte every ten seconds of its wait.
   */
  private report(finding: Finding): void {
    const key = `${finding.rule}\u0000${JSON.stringify(finding.location ?? null)}`;
    const count = this.reported.get(key) ?? 0;
    if (count >= FINDINGS_PER_PLACE) return;
    this.reported.set(key, count + 1);
    this.sink(finding);
  }

  location(): Location {
    return { protocolVersion: this.version, ...this.context };
  }

  request(method: string, params: JsonObject, hints: SendHints = {}): Promise<Exchange> {
    const id = this.nextId++;
    const request: JsonObject = { jsonrpc: '2.0', id, method, params };
    if (this.closedDetail)
      return Promise.resolve({
        request,
        failure: { kind: 'closed', detail: this.closedDetail },
        latencyMs: 0,
      });
    const label =
      method === 'tools/call' && typeof params.name === 'string' ? `${method} ${params.name}` : method;
    return new Promise<Exchange>((resolve) => {
      const key = String(id);
      const pending: Pending = {
        request,
        resolve,
        sentAt: Date.now(),
        label,
        context: { ...this.context },
        timer: undefined,
      };
      this.pending.set(key, pending);
      this.arm(key, pending);
      this.send(request, { protocolVersion: this.version, method, ...hints }).catch((error: unknown) => {
        this.settle(key, { request, failure: failureOf(error), latencyMs: Date.now() - pending.sentAt });
      });
    });
  }

  /**
   * The wait for an answer ends after `timeoutMs` without a byte from the server, or after `hardCapMs`
   * in all: a server that streams progress (or floods notifications) is waited for, but not forever.
   */
  private arm(key: string, pending: Pending): void {
    const { timeoutMs, hardCapMs } = this.waiting;
    const now = Date.now();
    const waited = now - pending.sentAt;
    const idle = now - Math.max(pending.sentAt, this.lastActivity);
    if (idle < timeoutMs && waited < hardCapMs) {
      pending.timer = setTimeout(
        () => this.arm(key, pending),
        Math.min(timeoutMs - idle, hardCapMs - waited),
      );
      return;
    }
    this.pending.delete(key);
    this.abandoned.add(key);
    // Be a good client: tell the server to stop working on it.
    const requestId = pending.request.id as number;
    void this.notify('notifications/cancelled', { requestId, reason: 'timeout' }).catch(() => {});
    pending.resolve({
      request: pending.request,
      failure: { kind: 'timeout', ms: waited, ...(waited >= hardCapMs ? { cap: true } : {}) },
      latencyMs: waited,
    });
  }

  async notify(method: string, params?: JsonObject): Promise<void> {
    if (this.closedDetail) return;
    const message: JsonObject = { jsonrpc: '2.0', method, ...(params ? { params } : {}) };
    await this.send(message, { protocolVersion: this.version, method });
  }

  /** Every message we send goes through here, so `--record` sees exactly what the server got. */
  private send(message: JsonObject, hints: SendHints): Promise<void> {
    this.tap?.('client', JSON.stringify(message), undefined);
    return this.channel.send(message, hints);
  }

  /** Waits for the validation of unsolicited messages received so far. */
  async drain(): Promise<void> {
    await Promise.all(this.validations);
  }

  private settle(key: string, exchange: Omit<Exchange, 'latencyMs'> & { latencyMs?: number }): void {
    const pending = this.pending.get(key);
    if (!pending) return;
    clearTimeout(pending.timer);
    this.pending.delete(key);
    const latencyMs = exchange.latencyMs ?? Date.now() - pending.sentAt;
    if (exchange.response) {
      // How long the answer took is judged against each client's own patience (audit-timeout).
      const answered = { event: 'answered', method: pending.label, ms: latencyMs } as const;
      for (const f of auditFindings(answered, this.location())) this.report(f);
    }
    pending.resolve({ ...exchange, latencyMs });
  }

  private onFrame(frame: Frame & { readonly transport: WireTransport }): void {
    this.tap?.('server', frame.text, frame.transport);
    this.lastActivity = Date.now();
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
      for (const member of value) if (isObject(member)) this.onMessage(member, frame.text, false);
    } else if (isObject(value)) {
      this.onMessage(value, frame.text, true);
    }
  }

  private onMessage(message: JsonObject, raw: string, validateUnsolicited: boolean): void {
    const hasMethod = Object.hasOwn(message, 'method');
    // `id: null` is how JSON-RPC reports an error it could not tie to a request; not a stray answer.
    if (!hasMethod && Object.hasOwn(message, 'id') && message.id !== null) {
      const key = responseKey(message.id);
      const pending = key === undefined ? undefined : this.pending.get(key);
      if (key !== undefined && pending) {
        if (typeof message.id === 'string') {
          this.event({
            event: 'response-id-converted',
            id: JSON.stringify(message.id),
            request: JSON.stringify(pending.request.id),
            method: pending.label,
          });
        }
        this.answered.set(key, pending.context);
        this.settle(key, { request: pending.request, response: message, raw });
        return;
      }
      if (key === undefined || !this.abandoned.has(key)) {
        const id = shownId(message.id);
        const answeredIn = key === undefined ? undefined : this.answered.get(key);
        if (answeredIn) {
          this.event({ event: 'response-unmatched', id, answered: true }, answeredIn);
          // The clients drop a second answer before reading it: what it holds breaks no call.
          return;
        }
        this.event({ event: 'response-unmatched', id, ...waitingFor([...this.pending.values()]) });
      }
    }
    if (validateUnsolicited) this.validate(message);
    if (hasMethod && Object.hasOwn(message, 'id')) this.answerServerRequest(message);
  }

  /**
   * We declare no client capabilities, so the only request we serve is ping (which every party must
   * answer); sampling, elicitation, roots and anything else get a JSON-RPC error each, at once, so a
   * server that waits on its own request is not left hanging by us.
   */
  private answerServerRequest(request: JsonObject): void {
    const reply: JsonObject =
      request.method === 'ping'
        ? { jsonrpc: '2.0', id: request.id, result: {} }
        : {
            jsonrpc: '2.0',
            id: request.id,
            error: {
              code: -32601,
              message: `Method not found: the audit client serves no ${String(request.method)}`,
            },
          };
    void this.send(reply, { protocolVersion: this.version }).catch(() => {});
  }

  private event(event: AuditEvent, context: SessionContext = this.context): void {
    for (const f of auditFindings(event, { protocolVersion: this.version, ...context })) this.report(f);
  }

  private validate(message: unknown): void {
    const location = this.location();
    this.validations.push(
      Promise.resolve(validateParsedMessageSync(message, { protocolVersion: this.version })).then(
        (findings) => {
          for (const f of findings) this.report({ ...f, location });
        },
      ),
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

/**
 * The key of the request a response answers, matched as the official TypeScript SDK client matches it
 * (src/core/request-id.ts): the audit's ids are integers, and a number sent back as a string still
 * finds its request (audit-response-id-converted reports it). An id of another type finds none.
 */
function responseKey(id: unknown): string | undefined {
  if (typeof id === 'number') return String(id);
  if (typeof id !== 'string') return undefined;
  const n = convertedId(id);
  return n === undefined ? undefined : String(n);
}

/** How many waiting requests a finding names. */
const NAMED_WAITING = 3;

/**
 * A response's id as the report shows it: JSON, but for a number past the largest double (`1e400`),
 * which JSON.parse reads as Infinity and JSON.stringify writes as null, a value the server never sent.
 */
function shownId(id: unknown): string {
  if (typeof id === 'number' && !Number.isFinite(id)) return `${id} (a number past the largest double)`;
  return JSON.stringify(id);
}

/** The most findings of one rule at one place that a session reports; the rest say nothing new. */
export const FINDINGS_PER_PLACE = 100;

/** The requests left waiting when a response matched none of them, for audit-response-unmatched. */
function waitingFor(pending: readonly Pending[]): { waiting?: string } {
  if (pending.length === 0) return {};
  const named = pending.slice(0, NAMED_WAITING).map((p) => `${p.label} (id ${JSON.stringify(p.request.id)})`);
  const more = pending.length - named.length;
  return { waiting: more > 0 ? `${named.join(', ')} and ${more} more` : named.join(', ') };
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
        { event: 'http-error', status: 'request failed', method, body: `: ${failure.detail}` },
        location,
      );
  }
}
