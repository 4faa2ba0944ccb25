/**
 * The audit: connect once per protocol version (a fresh process or HTTP session each), negotiate,
 * list every page of tools, decide which tools may be called, call them with the user's or
 * synthesized arguments, and validate every byte that comes back. Versions run in parallel; each
 * version's calls run one after another so a finding can be tied to its call, and every call is kept
 * (arguments, raw response, latency) so a finding can be reproduced.
 */

import { appendAll } from '../core/append.js';
import { inClientOrder } from '../core/client-tools.js';
import type { Finding } from '../core/finding.js';
import { isObject, type JsonObject } from '../core/json.js';
import { type RecordedFrame, recordFrame } from '../core/recording.js';
import { createOutputSchemaCompiler } from '../core/schema.js';
import { buildReport } from '../report/build.js';
import { foldFindings } from '../report/fold.js';
import { oneLine } from '../report/terminal.js';
import type { Report } from '../report/types.js';
import { sdkRejection } from '../rules/support/sdk-rejection.js';
import { ALL_VERSIONS, type ProtocolVersion } from '../spec/versions.js';
import { type ArgumentPlan, synthesizeArguments } from './arguments.js';
import { type Channel, type ChannelKind, StartError } from './channel.js';
import { compareVersions } from './compare.js';
import { type Connection, type HandshakeOutcome, handshake, paramsFor, validateExchange } from './connect.js';
import { type AuditEvent, auditFindings } from './events.js';
import { parseHeaders } from './http-body.js';
import { StreamableHttpChannel } from './http-channel.js';
import { splitByPageCache, ToolPages, withoutOutputSchema } from './pages.js';
import { type CallPolicy, decideCalls, type ToolDecision, unknownCallNames } from './selection.js';
import { type Exchange, failureFindings, Session } from './session.js';
import { LegacySseChannel } from './sse-channel.js';
import { StdioChannel, type StdioTarget } from './stdio-channel.js';

export type AuditTarget =
  | ({ readonly kind: 'stdio' } & StdioTarget)
  | { readonly kind: 'http'; readonly url: string; readonly headers?: readonly string[] };

export interface AuditOptions {
  readonly target: AuditTarget;
  /** Versions to audit; default: all. */
  readonly versions?: readonly ProtocolVersion[];
  readonly call?: readonly string[];
  readonly callAll?: boolean;
  readonly args?: ReadonlyMap<string, readonly JsonObject[]>;
  /** Explore enum and boolean parameters, up to `maxCallsPerTool` calls per tool. */
  readonly explore?: boolean;
  readonly maxCallsPerTool?: number;
  /** How long a request may go without a byte from the server. */
  readonly timeoutMs?: number;
  readonly maxResponseBytes?: number;
  /** A one-line description of what the audit is doing now, for a progress display. */
  readonly progress?: (text: string) => void;
  /** Sees every frame of every connection, both ways, for `--record`. */
  readonly record?: (entry: RecordedFrame) => void;
}

export const DEFAULTS = {
  maxCallsPerTool: 3,
  /** Just past the official SDK clients' 60 s, so an unanswered request is proven to fail there. */
  timeoutMs: 61_000,
  maxResponseBytes: 16 * 1024 * 1024,
} as const;

/** The wait for one request ends at this multiple of the timeout, however busy the server keeps it. */
export const HARD_CAP_FACTOR = 4;

/** Raw responses kept in the report are cut at this many bytes (their true size is kept too). */
export const RESPONSE_KEEP_BYTES = 64 * 1024;

/** How often a version's connection may be re-opened after a crash or hang before its calls stop. */
const MAX_RECONNECTS = 5;

/**
 * Whether a tools/list page asked for with `cursor` gives that cursor back with the tools of the page
 * before: what ends the SDK v2 client's walk of the pages, which takes nothing of that page.
 */
function repeatsPage(result: unknown, cursor: string, previous: unknown): boolean {
  return (
    isObject(result) &&
    result.nextCursor === cursor &&
    JSON.stringify(result.tools) === JSON.stringify(previous)
  );
}

/** tools/list pages the audit follows before it calls the listing endless. */
export const MAX_TOOLS_LIST_PAGES = 1000;

export type VersionStatus = 'audited' | 'same-as' | 'refused' | 'failed';

export interface VersionDetail {
  readonly requested: ProtocolVersion;
  readonly status: VersionStatus;
  /** The version the server answered with. */
  readonly answered?: ProtocolVersion;
  /** For `same-as`: the requested version whose audit covers this one. */
  readonly sameAs?: ProtocolVersion;
  readonly detail?: string;
  readonly tools?: number;
  readonly calls?: number;
}

export interface ToolDetail {
  readonly name: string;
  readonly called: boolean;
  readonly because?: string;
  readonly reason?: string;
  /** Versions whose listing has the tool. */
  readonly versions: readonly ProtocolVersion[];
  readonly calls: number;
  /** Calls skipped in some version, with why (for instance arguments that fail the inputSchema). */
  readonly skipped?: readonly string[];
}

/** What came back for a call, exactly as received (cut at RESPONSE_KEEP_BYTES). */
export interface RawResponse {
  readonly text: string;
  /** The true size of the frame in UTF-8 bytes. */
  readonly bytes: number;
  readonly truncated: boolean;
}

/**
 * One tools/call, so a finding can be reproduced: a finding's `location.protocolVersion` and
 * `location.call` name exactly one of these.
 */
export interface CallRecord {
  readonly protocolVersion: ProtocolVersion;
  readonly tool: string;
  /** `tool#n`, numbered per version. */
  readonly call: string;
  readonly arguments: JsonObject;
  readonly argumentsFrom: 'synthesized' | '--args';
  readonly latencyMs: number;
  readonly outcome:
    | 'result'
    | 'isError'
    | 'error'
    | 'timeout'
    | 'closed'
    | 'oversize'
    | 'http-error'
    | 'unreachable';
  readonly response?: RawResponse;
}

interface VersionRun {
  readonly requested: ProtocolVersion;
  connection?: Connection;
  handshake?: HandshakeOutcome;
  findings: Finding[];
  tools: JsonObject[];
  /** The pages the tools came on. */
  pages: ToolPages;
  calls: CallRecord[];
  /** Connections opened for this version; labels them in the recording. */
  connections: number;
  reconnects: number;
  stderr: string[];
  status: VersionStatus;
  sameAs?: ProtocolVersion;
  detail?: string;
}

function describeTarget(target: AuditTarget): string {
  return target.kind === 'stdio' ? [target.command, ...target.args].join(' ') : target.url;
}

export function rawResponse(text: string): RawResponse {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= RESPONSE_KEEP_BYTES) return { text, bytes, truncated: false };
  // Cut on a character boundary: decoding a cut UTF-8 sequence would add a replacement character.
  const cut = Buffer.from(text, 'utf8')
    .subarray(0, RESPONSE_KEEP_BYTES)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  return { text: cut, bytes, truncated: true };
}

function outcomeOf(exchange: Exchange): CallRecord['outcome'] {
  const failure = exchange.failure;
  if (failure) return failure.kind === 'http' ? 'http-error' : failure.kind;
  const response = exchange.response;
  if (isObject(response?.result)) return response.result.isError === true ? 'isError' : 'result';
  return 'error';
}

/** The message of a JSON-RPC error, or the first text of an isError result. */
function errorText(response: JsonObject | undefined): string | undefined {
  if (isObject(response?.error))
    return typeof response.error.message === 'string' ? response.error.message : undefined;
  const result = response?.result;
  if (!isObject(result) || result.isError !== true || !Array.isArray(result.content)) return undefined;
  const block = result.content.find((b) => isObject(b) && b.type === 'text' && typeof b.text === 'string');
  return isObject(block) ? String(block.text) : undefined;
}

class Auditor {
  private httpKind: ChannelKind | undefined;
  private readonly headers: Record<string, string>;
  private readonly timeoutMs: number;
  private readonly maxResponseBytes: number;
  private readonly maxCallsPerTool: number;
  private readonly schemas = createOutputSchemaCompiler();
  private readonly startedAt = new Date();

  constructor(private readonly options: AuditOptions) {
    this.headers = options.target.kind === 'http' ? parseHeaders(options.target.headers ?? []) : {};
    this.timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULTS.maxResponseBytes;
    this.maxCallsPerTool = options.maxCallsPerTool ?? DEFAULTS.maxCallsPerTool;
  }

  get transport(): ChannelKind {
    return this.options.target.kind === 'stdio' ? 'stdio' : (this.httpKind ?? 'streamable-http');
  }

  private progress(text: string): void {
    this.options.progress?.(text);
  }

  private channel(): Channel {
    const { target } = this.options;
    if (target.kind === 'stdio') return new StdioChannel(target, this.maxResponseBytes);
    return this.httpKind === 'http+sse'
      ? new LegacySseChannel(target.url, this.headers, this.maxResponseBytes, this.timeoutMs)
      : new StreamableHttpChannel(target.url, this.headers, this.maxResponseBytes);
  }

  /** A session on a new channel, its frames recorded under the run's next connection label. */
  private session(channel: Channel, run: VersionRun, sink: (f: Finding) => void): Session {
    const session = new Session(
      channel,
      run.requested,
      { timeoutMs: this.timeoutMs, hardCapMs: this.timeoutMs * HARD_CAP_FACTOR },
      sink,
    );
    const record = this.options.record;
    if (record) {
      run.connections++;
      const connection = `${run.requested}#${run.connections}`;
      const sent = channel.kind === 'stdio' ? 'stdio' : 'http';
      session.tap = (from, text, transport) =>
        record(recordFrame(from, text, { connection, transport: transport ?? sent }));
    }
    return session;
  }

  /** Opens a channel and negotiates; findings go to `sink`. Throws StartError when nothing is there. */
  async connect(run: VersionRun, sink: (f: Finding) => void): Promise<Connection> {
    const requested = run.requested;
    let channel = this.channel();
    await channel.open();
    // Held back until the transport is settled: a failed Streamable HTTP probe is no finding.
    const held: Finding[] = [];
    let session = this.session(channel, run, (f) => held.push(f));
    let outcome = await handshake(session, requested, (f) => held.push(f));
    // Streamable HTTP answers a POST; a 2024-11-05 HTTP+SSE server rejects it with a 4xx.
    if (
      this.options.target.kind === 'http' &&
      this.httpKind === undefined &&
      outcome.status === 'failed' &&
      outcome.failure.kind === 'http' &&
      outcome.failure.status >= 400 &&
      outcome.failure.status < 500
    ) {
      await channel.close();
      this.httpKind = 'http+sse';
      channel = this.channel();
      await channel.open();
      held.length = 0;
      session = this.session(channel, run, (f) => held.push(f));
      outcome = await handshake(session, requested, (f) => held.push(f));
    }
    for (const f of held) sink(f);
    session.setSink(sink);
    if (outcome.status === 'failed' && outcome.failure.kind === 'unreachable') {
      await channel.close();
      throw new StartError(outcome.failure.detail, 'reach');
    }
    if (this.options.target.kind === 'http' && this.httpKind === undefined) this.httpKind = 'streamable-http';
    return { requested, channel, session, handshake: outcome };
  }

  async close(run: VersionRun): Promise<void> {
    const connection = run.connection;
    if (!connection) return;
    run.connection = undefined;
    await connection.session.drain();
    await connection.channel.close();
    const tail = connection.channel.stderrTail();
    if (tail.trim() !== '') run.stderr.push(tail);
  }

  async handshakeVersion(run: VersionRun): Promise<void> {
    this.progress(`${run.requested}: connecting`);
    const connection = await this.connect(run, (f) => run.findings.push(f));
    run.connection = connection;
    run.handshake = connection.handshake;
    if (connection.handshake.status === 'refused') {
      run.status = 'refused';
      run.detail = connection.handshake.detail;
      // How a server answers a client it does not support matters only as the refusal itself: no
      // client of that version can work with it, so the defects of that answer would be noise.
      run.findings = run.findings.filter((f) => f.rule.startsWith('audit-'));
    } else if (connection.handshake.status === 'failed') {
      run.status = 'failed';
      run.detail = failureFindings(connection.handshake.failure, 'the handshake', {})[0]?.message;
    }
    if (run.status !== 'audited') await this.close(run);
  }

  async listTools(run: VersionRun): Promise<void> {
    const connection = run.connection;
    if (connection?.handshake.status !== 'ok') return;
    const { session } = connection;
    const capabilities = connection.handshake.capabilities;
    const report = (f: Finding) => run.findings.push(f);
    const cursors = new Set<string>();
    let cursor: string | undefined;
    /** The tools of the last page taken. */
    let previous: unknown;
    for (let page = 0; ; page++) {
      if (page === MAX_TOOLS_LIST_PAGES) {
        // A new cursor on every page: a client that follows them all never gets its list (the SDK v2
        // client throws after 64 pages; one that walks every page waits for ever). Not a pass.
        const detail = `it did not end: ${MAX_TOOLS_LIST_PAGES} pages, each with a new nextCursor (the audit stopped paging)`;
        const endless = { event: 'tools-list-failed', detail, endless: true } as const;
        for (const f of auditFindings(endless, session.location())) report(f);
        break;
      }
      this.progress(`${run.requested}: tools/list${page > 0 ? ` page ${page + 1}` : ''}`);
      const exchange = await session.request(
        'tools/list',
        paramsFor(session, cursor === undefined ? {} : { cursor }),
      );
      if (exchange.failure) {
        for (const f of failureFindings(exchange.failure, 'tools/list', session.location())) report(f);
        return;
      }
      const response = exchange.response as JsonObject;
      if (cursor !== undefined && repeatsPage(response.result, cursor, previous)) {
        // The page the cursor was for, again, with that cursor again: the SDK v2 client ends its walk
        // there and takes nothing of it (Client._walkPages). Its tools are not listed a second time,
        // nor judged again; a client that follows every cursor goes round for ever.
        const loop = {
          event: 'pagination-loop',
          cursor: JSON.stringify(cursor),
          loop: 'page-repeated',
        } as const;
        for (const f of auditFindings(loop, session.location())) report(f);
        break;
      }
      // A tool listed again as it was on an earlier page: its findings are that listing's, said already.
      const repeats = isObject(response.result) ? run.pages.take(response.result.tools) : new Set<number>();
      for (const f of await validateExchange(exchange, session)) {
        if (repeats.size === 0 || !repeats.has(toolIndexOf(f.pointer) ?? -1)) report(f);
      }
      if (!isObject(response.result)) {
        // No tools capability and no tools/list: a server without tools, which is fine.
        if (isObject(capabilities.tools) || run.tools.length > 0) {
          const detail = isObject(response.error)
            ? `${String(response.error.code)} ${String(response.error.message)}`
            : 'no result';
          for (const f of auditFindings({ event: 'tools-list-failed', detail }, session.location()))
            report(f);
        }
        break;
      }
      const { tools, nextCursor } = response.result;
      previous = tools;
      if (Array.isArray(tools)) appendAll(run.tools, tools.filter(isObject));
      if (typeof nextCursor !== 'string') break;
      if (cursors.has(nextCursor)) {
        const loop = {
          event: 'pagination-loop',
          cursor: JSON.stringify(nextCursor),
          loop: nextCursor === cursor ? 'same' : 'earlier',
        } as const;
        for (const f of auditFindings(loop, session.location())) report(f);
        break;
      }
      cursors.add(nextCursor);
      cursor = nextCursor;
    }
    for (const { event, tool, pointer } of run.pages.events()) {
      for (const f of auditFindings(event, { ...session.location(), tool }, pointer)) report(f);
    }
    if (run.tools.length > 0 && !isObject(capabilities.tools)) {
      const missing = { event: 'tools-capability-missing', count: run.tools.length } as const;
      for (const f of auditFindings(missing, session.location())) report(f);
    }
  }

  /** Argument objects for one tool in one version, or why it cannot be called there. */
  argumentsFor(tool: JsonObject, decision: ToolDecision, version: ProtocolVersion): ArgumentPlan {
    const name = String(tool.name);
    const given = this.options.args?.get(name);
    if (given) return { args: [...given] };
    const plan = synthesizeArguments(tool.inputSchema, {
      budget: this.maxCallsPerTool,
      explore: this.options.explore ?? false,
      named: decision.called && decision.because === '--call',
    });
    if ('skip' in plan) return { skip: `${version}: ${plan.skip}` };
    const compiled = this.schemas.compile(tool.inputSchema ?? { type: 'object' }, version);
    if (!compiled.ok) return plan;
    const valid = plan.args.filter((args) => compiled.validate(args).length === 0);
    if (valid.length > 0) return { args: valid };
    const [error] = compiled.validate(plan.args[0]);
    return {
      skip: `${version}: no synthesized arguments satisfy the inputSchema (${error?.instancePath || '/'} ${error?.message ?? ''}); give them with --args`,
    };
  }

  async callTools(
    run: VersionRun,
    decisions: readonly ToolDecision[],
    skipped: Map<string, string[]>,
  ): Promise<void> {
    const byName = new Map(run.tools.map((t) => [String(t.name), t]));
    // A tool listed twice is judged by the definition whose outputSchema the official clients check.
    const definitions = inClientOrder(run.tools);
    const skip = (name: string, why: string) => skipped.set(name, [...(skipped.get(name) ?? []), why]);
    for (const decision of decisions) {
      if (!decision.called) continue;
      const tool = byName.get(decision.name);
      if (!tool) continue;
      const plan = this.argumentsFor(tool, decision, this.effectiveVersion(run));
      if ('skip' in plan) {
        skip(decision.name, plan.skip);
        continue;
      }
      for (const [i, args] of plan.args.entries()) {
        const connection = await this.liveConnection(run);
        if (!connection) {
          skip(decision.name, `${run.requested}: the server could not be restarted`);
          return;
        }
        await this.callOnce(run, connection, definitions, decision.name, `${decision.name}#${i + 1}`, args);
      }
    }
  }

  private async callOnce(
    run: VersionRun,
    connection: Connection,
    definitions: readonly JsonObject[],
    tool: string,
    call: string,
    args: JsonObject,
  ): Promise<void> {
    const { session } = connection;
    session.context = { tool, call };
    this.progress(`${run.requested}: calling ${call}`);
    const exchange = await session.request(
      'tools/call',
      paramsFor(session, { name: tool, arguments: args }),
      {
        name: tool,
      },
    );
    const argumentsFrom = this.options.args?.has(tool) ? '--args' : 'synthesized';
    run.calls.push({
      protocolVersion: session.version,
      tool,
      call,
      arguments: args,
      argumentsFrom,
      latencyMs: exchange.latencyMs,
      outcome: outcomeOf(exchange),
      ...(exchange.raw !== undefined
        ? { response: rawResponse(exchange.raw) }
        : exchange.failure?.kind === 'oversize'
          ? { response: { text: '', bytes: exchange.failure.bytes, truncated: true } }
          : {}),
    });
    if (exchange.failure) {
      appendAll(run.findings, failureFindings(exchange.failure, `tools/call ${tool}`, session.location()));
      // A server that hung or crashed is not trusted with the next call: start a fresh one.
      await this.close(run);
    } else {
      let findings = await validateExchange(exchange, session, definitions);
      if (run.pages.v1LacksSchema(tool, definitions)) {
        // Declared on an earlier page only: the v1 client, which keeps the last page's, checks nothing.
        const v1 = await validateExchange(exchange, session, withoutOutputSchema(definitions, tool));
        findings = splitByPageCache(findings, v1);
      }
      appendAll(run.findings, findings);
      // The server's SDK refusing the result is reported by result-rejected-by-server; the error that
      // carried the refusal is no separate finding.
      if (!findings.some((f) => f.rule === 'result-rejected-by-server')) {
        const event = this.callErrorEvent(exchange.response, tool, argumentsFrom);
        if (event)
          run.findings.push(
            ...auditFindings(event, session.location(), event.event === 'call-error' ? '/error' : ''),
          );
      }
    }
    session.context = {};
  }

  /**
   * A JSON-RPC error, or an isError result that rejects the arguments, as an event: the arguments
   * may be at fault (ours are synthesized), so these are information, not defects.
   */
  private callErrorEvent(
    response: JsonObject | undefined,
    tool: string,
    argumentsFrom: CallRecord['argumentsFrom'],
  ): AuditEvent | undefined {
    const text = errorText(response);
    const error = response?.error;
    const code = isObject(error) ? error.code : undefined;
    const rejection = text === undefined ? undefined : sdkRejection(text);
    const aboutInput =
      rejection?.kind === 'arguments' ||
      (code === -32602 && text !== undefined && /argument|param|input|required|invalid/i.test(text));
    if (aboutInput) {
      const detail = rejection?.problem ?? (text ?? '').split('\n')[0] ?? '';
      return { event: 'arguments-rejected', tool, detail, from: argumentsFrom };
    }
    if (!isObject(error) || isObject(response?.result)) return undefined;
    return { event: 'call-error', tool, code: String(error.code), detail: String(error.message) };
  }

  private effectiveVersion(run: VersionRun): ProtocolVersion {
    return run.handshake?.status === 'ok' ? run.handshake.answered : run.requested;
  }

  /** The run's connection, re-opened (quietly: its handshake was already audited) if it died. */
  private async liveConnection(run: VersionRun): Promise<Connection | undefined> {
    if (run.connection && !run.connection.session.closedDetail) return run.connection;
    if (run.connection) await this.close(run);
    if (run.reconnects >= MAX_RECONNECTS) return undefined;
    run.reconnects++;
    this.progress(`${run.requested}: restarting the server`);
    try {
      const connection = await this.connect(run, () => {});
      if (connection.handshake.status !== 'ok') {
        run.connection = connection;
        await this.close(run);
        return undefined;
      }
      connection.session.setSink((f) => run.findings.push(f));
      run.connection = connection;
      return connection;
    } catch {
      return undefined;
    }
  }

  async run(): Promise<Report> {
    const versions = this.options.versions ?? ALL_VERSIONS;
    const runs: VersionRun[] = versions.map((requested) => ({
      requested,
      findings: [],
      tools: [],
      pages: new ToolPages(),
      calls: [],
      connections: 0,
      reconnects: 0,
      stderr: [],
      status: 'audited',
    }));
    try {
      await this.handshakeAll(runs);
      await this.dedupe(runs);
      const audited = runs.filter((r) => r.status === 'audited');
      await Promise.all(audited.map((r) => this.listTools(r)));
      const policy: CallPolicy = {
        call: this.options.call ?? [],
        callAll: this.options.callAll ?? false,
        args: this.options.args ?? new Map(),
      };
      const decisions = decideCalls(
        audited.map((r) => r.tools),
        policy,
      );
      const skipped = new Map<string, string[]>();
      await Promise.all(audited.map((r) => this.callTools(r, decisions, skipped)));
      await Promise.all(runs.map((r) => this.close(r)));
      return this.report(runs, decisions, skipped, unknownCallNames(decisions, policy));
    } finally {
      await Promise.all(runs.map((r) => this.close(r).catch(() => {})));
    }
  }

  /**
   * HTTP goes first with one version so the transport (Streamable HTTP or the HTTP+SSE fallback) is
   * known before the others connect. Start failures stop the audit only when no version connects.
   */
  private async handshakeAll(runs: VersionRun[]): Promise<void> {
    const [first, ...rest] = runs;
    if (!first) return;
    let startError: StartError | undefined;
    const attempt = async (run: VersionRun) => {
      try {
        await this.handshakeVersion(run);
      } catch (error) {
        if (!(error instanceof StartError)) throw error;
        startError ??= error;
        run.status = 'failed';
        run.detail = error.message;
      }
    };
    if (this.options.target.kind === 'http') {
      await attempt(first);
      await Promise.all(rest.map(attempt));
    } else {
      await Promise.all(runs.map(attempt));
    }
    const answeredAny = runs.some((r) => r.handshake?.status === 'ok' || r.handshake?.status === 'refused');
    if (answeredAny) return;
    if (startError) throw startError;
    // Started, but nothing ever answered: for exit code 3, say what happened to the first version,
    // with what the server wrote to stderr before it went (the cause is often above the last line).
    const firstFailure = runs.find((r) => r.handshake?.status === 'failed');
    const stderr = runs.flatMap((r) => r.stderr).find((s) => s.trim() !== '') ?? '';
    const what = this.options.target.kind === 'stdio' ? 'start' : 'reach';
    // The command is cut short so the reason after it is never what gets cut.
    const target = oneLine(describeTarget(this.options.target), { width: 120 });
    // An answer no client can read is why, not the wait that followed it: a byte order mark before the
    // initialize result once read as "no response to the handshake".
    const unreadable = runs
      .flatMap((r) => r.findings)
      .find((f) => f.rule === 'frame-not-json' || f.rule === 'frame-not-jsonrpc');
    const why = unreadable
      ? `what it wrote is no message a client can read: ${unreadable.message}`
      : (firstFailure?.detail ?? 'no answer');
    throw new StartError(`could not ${what} ${target}: no handshake completed (${why})`, what, stderr);
  }

  /** Versions the server answered with one already audited add nothing; their connections close. */
  private async dedupe(runs: VersionRun[]): Promise<void> {
    const owner = new Map<ProtocolVersion, VersionRun>();
    const ok = runs.filter((r) => r.status === 'audited' && r.handshake?.status === 'ok');
    // The run that asked for exactly the version it got owns that version.
    for (const run of ok) if (this.effectiveVersion(run) === run.requested) owner.set(run.requested, run);
    for (const run of ok) {
      const answered = this.effectiveVersion(run);
      const current = owner.get(answered);
      if (!current) owner.set(answered, run);
      else if (current !== run) {
        run.status = 'same-as';
        run.sameAs = current.requested;
        run.findings = [];
        await this.close(run);
      }
    }
  }

  private report(
    runs: readonly VersionRun[],
    decisions: readonly ToolDecision[],
    skipped: ReadonlyMap<string, string[]>,
    unknownCalls: readonly string[],
  ): Report {
    const findings = runs.flatMap((r) => r.findings);
    const audited = runs.filter((r) => r.status === 'audited');
    const calls = audited.flatMap((r) => r.calls);
    const versions: VersionDetail[] = runs.map((r) => ({
      requested: r.requested,
      status: r.status,
      ...(r.handshake?.status === 'ok' ? { answered: r.handshake.answered } : {}),
      ...(r.sameAs ? { sameAs: r.sameAs } : {}),
      ...(r.detail ? { detail: r.detail } : {}),
      // A name listed on two pages is one tool.
      ...(r.status === 'audited' ? { tools: distinctTools(r.tools), calls: r.calls.length } : {}),
    }));
    // Counted once and looked up per tool: scanning every call and every version's tools for each tool
    // grew with the square of their number (a server listing 200,000 tools: 46 s).
    const callCounts = new Map<unknown, number>();
    for (const call of calls) callCounts.set(call.tool, (callCounts.get(call.tool) ?? 0) + 1);
    const listed = audited.map((r) => ({
      requested: r.requested,
      names: new Set(r.tools.map((t) => t.name)),
    }));
    const tools: ToolDetail[] = decisions.map((d) => {
      const count = callCounts.get(d.name) ?? 0;
      return {
        name: d.name,
        called: d.called && count > 0,
        ...(d.called ? { because: d.because } : { reason: d.reason }),
        versions: listed.filter((r) => r.names.has(d.name)).map((r) => r.requested),
        calls: count,
        ...(skipped.has(d.name) ? { skipped: skipped.get(d.name) } : {}),
      };
    });
    const serverInfo = runs
      .map((r) => (r.handshake?.status === 'ok' ? r.handshake.serverInfo : undefined))
      .find(Boolean);
    const stderr = [...new Set(runs.flatMap((r) => r.stderr))];
    // The same defect in several versions, calls or sibling places is one finding listing them all.
    const folded = foldFindings(findings);
    return buildReport('audit', folded, calls.length, {
      summary: {
        versionsAudited: audited.length,
        toolsListed: tools.length,
        toolsCalled: tools.filter((t) => t.called).length,
      },
      details: {
        target: describeTarget(this.options.target),
        transport: this.transport,
        ...(serverInfo ? { server: serverInfo } : {}),
        startedAt: this.startedAt.toISOString(),
        versions,
        tools,
        calls,
        comparison: compareVersions(
          findings,
          audited.map((r) => ({
            version: this.effectiveVersion(r),
            tools: r.tools.map((t) => String(t.name)),
          })),
        ),
        ...(unknownCalls.length > 0 ? { unknownTools: unknownCalls } : {}),
        stderrTail: stderr.map((s) => s.trimEnd().split('\n').slice(-20).join('\n')),
      },
    });
  }
}

/** Tools listed, a name counted once. */
function distinctTools(tools: readonly JsonObject[]): number {
  return new Set(tools.map((tool) => (typeof tool.name === 'string' ? tool.name : tool))).size;
}

/** The index of the tool a tools/list finding's pointer lands in. */
function toolIndexOf(pointer: string): number | undefined {
  const match = /^\/result\/tools\/(\d+)(\/|$)/.exec(pointer);
  return match ? Number(match[1]) : undefined;
}

/** Runs an audit. Throws StartError when the server cannot be started or reached at all. */
export async function runAudit(options: AuditOptions): Promise<Report> {
  return new Auditor(options).run();
}
