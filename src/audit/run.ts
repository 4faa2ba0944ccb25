/**
 * The audit: connect once per protocol version (a fresh process or HTTP session each), negotiate,
 * list every page of tools, decide which tools may be called, call them with the user's or
 * synthesized arguments, and validate every byte that comes back. Versions run in parallel; each
 * version's calls run one after another so a finding can be tied to its call.
 */

import type { Finding } from '../core/finding.js';
import { isObject, type JsonObject } from '../core/json.js';
import { createOutputSchemaCompiler } from '../core/schema.js';
import { buildReport } from '../report/build.js';
import type { Report } from '../report/types.js';
import { ALL_VERSIONS, type ProtocolVersion } from '../spec/versions.js';
import { synthesizeArguments } from './arguments.js';
import { type Channel, type ChannelKind, StartError } from './channel.js';
import { compareVersions } from './compare.js';
import { type Connection, type HandshakeOutcome, handshake, paramsFor, validateExchange } from './connect.js';
import { auditFindings } from './events.js';
import { parseHeaders } from './http-body.js';
import { StreamableHttpChannel } from './http-channel.js';
import { type CallPolicy, decideCalls, type ToolDecision, unknownCallNames } from './selection.js';
import { failureFindings, Session } from './session.js';
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
  readonly maxCallsPerTool?: number;
  readonly timeoutMs?: number;
  readonly maxResponseBytes?: number;
  /** A one-line description of what the audit is doing now, for a progress display. */
  readonly progress?: (text: string) => void;
}

export const DEFAULTS = {
  maxCallsPerTool: 3,
  timeoutMs: 15_000,
  maxResponseBytes: 16 * 1024 * 1024,
} as const;

/** How often a version's connection may be re-opened after a crash or hang before its calls stop. */
const MAX_RECONNECTS = 5;

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

interface VersionRun {
  readonly requested: ProtocolVersion;
  connection?: Connection;
  handshake?: HandshakeOutcome;
  findings: Finding[];
  tools: JsonObject[];
  calls: number;
  reconnects: number;
  stderr: string[];
  status: VersionStatus;
  sameAs?: ProtocolVersion;
  detail?: string;
}

function describeTarget(target: AuditTarget): string {
  return target.kind === 'stdio' ? [target.command, ...target.args].join(' ') : target.url;
}

class Auditor {
  private httpKind: ChannelKind | undefined;
  private readonly headers: Record<string, string>;
  private readonly timeoutMs: number;
  private readonly maxResponseBytes: number;
  private readonly maxCallsPerTool: number;
  private readonly schemas = createOutputSchemaCompiler();

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

  /** Opens a channel and negotiates; findings go to `sink`. Throws StartError when nothing is there. */
  async connect(requested: ProtocolVersion, sink: (f: Finding) => void): Promise<Connection> {
    let channel = this.channel();
    await channel.open();
    // Held back until the transport is settled: a failed Streamable HTTP probe is no finding.
    const held: Finding[] = [];
    let session = new Session(channel, requested, this.timeoutMs, (f) => held.push(f));
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
      session = new Session(channel, requested, this.timeoutMs, (f) => held.push(f));
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
    const connection = await this.connect(run.requested, (f) => run.findings.push(f));
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
    for (let page = 0; page < 1000; page++) {
      this.progress(`${run.requested}: tools/list${page > 0 ? ` page ${page + 1}` : ''}`);
      const exchange = await session.request(
        'tools/list',
        paramsFor(session, cursor === undefined ? {} : { cursor }),
      );
      if (exchange.failure) {
        for (const f of failureFindings(exchange.failure, 'tools/list', session.location())) report(f);
        return;
      }
      for (const f of await validateExchange(exchange, session)) report(f);
      const response = exchange.response as JsonObject;
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
      if (Array.isArray(tools)) run.tools.push(...tools.filter(isObject));
      if (typeof nextCursor !== 'string') break;
      if (cursors.has(nextCursor)) {
        const loop = { event: 'pagination-loop', cursor: JSON.stringify(nextCursor) } as const;
        for (const f of auditFindings(loop, session.location())) report(f);
        break;
      }
      cursors.add(nextCursor);
      cursor = nextCursor;
    }
    if (run.tools.length > 0 && !isObject(capabilities.tools)) {
      const missing = { event: 'tools-capability-missing', count: run.tools.length } as const;
      for (const f of auditFindings(missing, session.location())) report(f);
    }
  }

  /** Argument objects for one tool in one version, or why it cannot be called there. */
  argumentsFor(tool: JsonObject, version: ProtocolVersion): { args: JsonObject[] } | { skip: string } {
    const name = String(tool.name);
    const given = this.options.args?.get(name);
    if (given) return { args: [...given] };
    const candidates = synthesizeArguments(tool.inputSchema, this.maxCallsPerTool);
    const compiled = this.schemas.compile(tool.inputSchema ?? { type: 'object' }, version);
    if (!compiled.ok) return { args: candidates };
    const valid = candidates.filter((args) => compiled.validate(args).length === 0);
    if (valid.length > 0) return { args: valid };
    const [error] = compiled.validate(candidates[0]);
    return {
      skip: `${version}: no synthesized arguments satisfy the inputSchema (${error?.instancePath || '/'} ${error?.message ?? ''}); give them with --args`,
    };
  }

  async callTools(
    run: VersionRun,
    decisions: readonly ToolDecision[],
    skipped: Map<string, string[]>,
    counts: Map<string, number>,
  ): Promise<void> {
    const byName = new Map(run.tools.map((t) => [String(t.name), t]));
    for (const decision of decisions) {
      if (!decision.called) continue;
      const tool = byName.get(decision.name);
      if (!tool) continue;
      const plan = this.argumentsFor(tool, this.effectiveVersion(run));
      if ('skip' in plan) {
        skipped.set(decision.name, [...(skipped.get(decision.name) ?? []), plan.skip]);
        continue;
      }
      for (const [i, args] of plan.args.entries()) {
        const connection = await this.liveConnection(run);
        if (!connection) {
          skipped.set(decision.name, [
            ...(skipped.get(decision.name) ?? []),
            `${run.requested}: the server could not be restarted`,
          ]);
          return;
        }
        const { session } = connection;
        const call = `${decision.name}#${i + 1}`;
        session.context = { tool: decision.name, call };
        this.progress(`${run.requested}: calling ${call}`);
        const exchange = await session.request(
          'tools/call',
          paramsFor(session, { name: decision.name, arguments: args }),
          { name: decision.name },
        );
        run.calls++;
        counts.set(decision.name, (counts.get(decision.name) ?? 0) + 1);
        if (exchange.failure) {
          run.findings.push(
            ...failureFindings(exchange.failure, `tools/call ${decision.name}`, session.location()),
          );
          // A server that hung or crashed is not trusted with the next call: start a fresh one.
          await this.close(run);
        } else {
          for (const f of await validateExchange(exchange, session, run.tools)) run.findings.push(f);
          const error = exchange.response?.error;
          if (isObject(error) && !isObject(exchange.response?.result)) {
            const event = {
              event: 'call-error',
              tool: decision.name,
              code: String(error.code),
              detail: String(error.message),
            } as const;
            run.findings.push(...auditFindings(event, session.location(), '/error'));
          }
        }
        session.context = {};
      }
    }
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
      const connection = await this.connect(run.requested, () => {});
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
      calls: 0,
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
      const counts = new Map<string, number>();
      await Promise.all(audited.map((r) => this.callTools(r, decisions, skipped, counts)));
      await Promise.all(runs.map((r) => this.close(r)));
      return this.report(runs, decisions, skipped, counts, unknownCallNames(decisions, policy));
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
    // Started, but nothing ever answered: for exit code 3, say what happened to the first version.
    const firstFailure = runs.find((r) => r.handshake?.status === 'failed');
    const stderr = runs
      .flatMap((r) => r.stderr)
      .join('\n')
      .trim()
      .split('\n')
      .pop();
    const what = this.options.target.kind === 'stdio' ? 'start' : 'reach';
    throw new StartError(
      `could not ${what} ${describeTarget(this.options.target)}: no handshake completed (${firstFailure?.detail ?? 'no answer'})${stderr ? `; stderr: ${stderr}` : ''}`,
      what,
    );
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
    counts: ReadonlyMap<string, number>,
    unknownCalls: readonly string[],
  ): Report {
    const findings = runs.flatMap((r) => r.findings);
    const audited = runs.filter((r) => r.status === 'audited');
    const versions: VersionDetail[] = runs.map((r) => ({
      requested: r.requested,
      status: r.status,
      ...(r.handshake?.status === 'ok' ? { answered: r.handshake.answered } : {}),
      ...(r.sameAs ? { sameAs: r.sameAs } : {}),
      ...(r.detail ? { detail: r.detail } : {}),
      ...(r.status === 'audited' ? { tools: r.tools.length, calls: r.calls } : {}),
    }));
    const tools: ToolDetail[] = decisions.map((d) => ({
      name: d.name,
      called: d.called && (counts.get(d.name) ?? 0) > 0,
      ...(d.called ? { because: d.because } : { reason: d.reason }),
      versions: audited.filter((r) => r.tools.some((t) => t.name === d.name)).map((r) => r.requested),
      calls: counts.get(d.name) ?? 0,
      ...(skipped.has(d.name) ? { skipped: skipped.get(d.name) } : {}),
    }));
    const serverInfo = runs
      .map((r) => (r.handshake?.status === 'ok' ? r.handshake.serverInfo : undefined))
      .find(Boolean);
    const stderr = [...new Set(runs.flatMap((r) => r.stderr))];
    const calls = audited.reduce((n, r) => n + r.calls, 0);
    return buildReport('audit', findings, calls, {
      summary: {
        versionsAudited: audited.length,
        toolsListed: tools.length,
        toolsCalled: tools.filter((t) => t.called).length,
      },
      details: {
        target: describeTarget(this.options.target),
        transport: this.transport,
        ...(serverInfo ? { server: serverInfo } : {}),
        versions,
        tools,
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

/** Runs an audit. Throws StartError when the server cannot be started or reached at all. */
export async function runAudit(options: AuditOptions): Promise<Report> {
  return new Auditor(options).run();
}
