/**
 * Opening a connection and negotiating a protocol version on it: `initialize` for 2024-11-05 through
 * 2025-11-25, `server/discover` for 2026-07-28 (which has no handshake; every request then carries
 * the version and client capabilities in `_meta`).
 */

import { readFileSync } from 'node:fs';
import type { Finding } from '../core/finding.js';
import { isObject, type JsonObject } from '../core/json.js';
import { initializeVersion } from '../rules/support/session.js';
import { features, type ProtocolVersion } from '../spec/versions.js';
import { validateParsedMessageSync } from '../validate/index.js';
import type { Channel } from './channel.js';
import { type AuditEvent, auditFindings } from './events.js';
import { type Exchange, type Failure, failureFindings, type Session } from './session.js';

/** Our package.json, found upward from this module (src/, dist/ and the bench build sit at different depths). */
function ourVersion(): string {
  for (const up of ['../../', '../../../']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(`${up}package.json`, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'mcp-shape' && pkg.version) return pkg.version;
    } catch {
      // not at this depth
    }
  }
  return '0.0.0';
}

const OUR_VERSION = ourVersion();

export const CLIENT_INFO = { name: 'mcp-shape-audit', version: OUR_VERSION } as const;

export type HandshakeOutcome =
  | {
      readonly status: 'ok';
      /** The version the server answered (initialize) or confirmed (server/discover). */
      readonly answered: ProtocolVersion;
      readonly capabilities: JsonObject;
      readonly serverInfo?: JsonObject;
    }
  /** The server answered, but not with a version we can audit (refused, unknown, or no 2026 support). */
  | { readonly status: 'refused'; readonly detail: string }
  /** No usable answer: timeout, crash, HTTP failure. */
  | { readonly status: 'failed'; readonly failure: Failure };

export interface Connection {
  readonly requested: ProtocolVersion;
  readonly channel: Channel;
  readonly session: Session;
  readonly handshake: HandshakeOutcome;
}

/** `_meta` every 2026-07-28 request carries instead of a handshake. */
export function modernMeta(version: ProtocolVersion): JsonObject {
  return {
    'io.modelcontextprotocol/protocolVersion': version,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
  };
}

/** Request params for the session's version: 2026-07-28 requires `_meta` on every request. */
export function paramsFor(session: Session, params: JsonObject): JsonObject {
  return features(session.version).handshake === 'server/discover'
    ? { ...params, _meta: modernMeta(session.version) }
    : params;
}

export async function validateExchange(
  exchange: Exchange,
  session: Session,
  tools?: readonly JsonObject[],
): Promise<Finding[]> {
  if (!exchange.response) return [];
  const location = session.location();
  const findings = validateParsedMessageSync(exchange.response, {
    protocolVersion: session.version,
    request: exchange.request,
    tools,
  });
  return findings.map((f) => ({
    ...f,
    location: { ...location, ...toolOfPointer(f.pointer, exchange.response, location.tool) },
  }));
}

/** For tools/list findings, the tool the pointer lands in. */
function toolOfPointer(pointer: string, response: unknown, current: string | undefined): { tool?: string } {
  if (current) return { tool: current };
  const match = /^\/result\/tools\/(\d+)(\/|$)/.exec(pointer);
  if (!match || !isObject(response) || !isObject(response.result) || !Array.isArray(response.result.tools))
    return {};
  const tool = response.result.tools[Number(match[1])];
  return isObject(tool) && typeof tool.name === 'string' ? { tool: tool.name } : {};
}

function errorDetail(error: unknown): string {
  if (!isObject(error)) return 'malformed error';
  return `${String(error.code)} ${typeof error.message === 'string' ? error.message : ''}`.trim();
}

function judge(event: AuditEvent, session: Session, report: (f: Finding) => void): void {
  for (const f of auditFindings(event, session.location())) report(f);
}

export async function handshake(
  session: Session,
  requested: ProtocolVersion,
  report: (f: Finding) => void,
): Promise<HandshakeOutcome> {
  return features(requested).handshake === 'server/discover'
    ? discover(session, requested, report)
    : initialize(session, requested, report);
}

async function initialize(
  session: Session,
  requested: ProtocolVersion,
  report: (f: Finding) => void,
): Promise<HandshakeOutcome> {
  const exchange = await session.request('initialize', {
    protocolVersion: requested,
    capabilities: {},
    clientInfo: CLIENT_INFO,
  });
  if (exchange.failure) {
    for (const f of failureFindings(exchange.failure, 'initialize', session.location())) report(f);
    return { status: 'failed', failure: exchange.failure };
  }
  for (const f of await validateExchange(exchange, session)) report(f);
  const response = exchange.response as JsonObject;
  if (!isObject(response.result)) {
    const detail = errorDetail(response.error);
    judge({ event: 'version-refused', version: requested, detail }, session, report);
    return { status: 'refused', detail };
  }
  const result = response.result;
  // audit-initialize-invalid and audit-version-unknown judge the result.
  judge({ event: 'initialize-result', version: requested, result }, session, report);
  const known = initializeVersion(result.protocolVersion);
  if (!known) {
    return {
      status: 'refused',
      detail: `answered protocolVersion ${JSON.stringify(result.protocolVersion)}`,
    };
  }
  session.version = known;
  await session.notify('notifications/initialized').catch(() => {});
  return accepted(known, result.capabilities, result.serverInfo);
}

function accepted(answered: ProtocolVersion, capabilities: unknown, serverInfo: unknown): HandshakeOutcome {
  return {
    status: 'ok',
    answered,
    capabilities: isObject(capabilities) ? capabilities : {},
    ...(isObject(serverInfo) ? { serverInfo } : {}),
  };
}

async function discover(
  session: Session,
  requested: ProtocolVersion,
  report: (f: Finding) => void,
): Promise<HandshakeOutcome> {
  const exchange = await session.request('server/discover', { _meta: modernMeta(requested) });
  const failure = exchange.failure;
  if (failure?.kind === 'http' && failure.status >= 400 && failure.status < 500) {
    // A Streamable HTTP server of an older version rejects a request outside an initialized session.
    const detail = `HTTP ${failure.status}${failure.body ? `: ${failure.body}` : ''}`;
    judge({ event: 'discover-unsupported', detail }, session, report);
    return { status: 'refused', detail: `server/discover: ${detail}` };
  }
  if (exchange.failure) {
    for (const f of failureFindings(exchange.failure, 'server/discover', session.location())) report(f);
    return { status: 'failed', failure: exchange.failure };
  }
  for (const f of await validateExchange(exchange, session)) report(f);
  const response = exchange.response as JsonObject;
  if (!isObject(response.result)) {
    // A server for 2025-11-25 and earlier does not know the method; that is no defect of its own.
    const detail = errorDetail(response.error);
    judge({ event: 'discover-unsupported', detail }, session, report);
    return { status: 'refused', detail: `server/discover: ${detail}` };
  }
  const result = response.result;
  const supported = result.supportedVersions;
  if (!Array.isArray(supported)) {
    judge(
      { event: 'discover-invalid', problem: 'the result has no supportedVersions array' },
      session,
      report,
    );
    return { status: 'refused', detail: 'server/discover result without supportedVersions' };
  }
  if (!supported.includes(requested)) {
    const detail = `supportedVersions is ${JSON.stringify(supported)}`;
    judge({ event: 'discover-unsupported', detail }, session, report);
    return { status: 'refused', detail };
  }
  const meta = isObject(result._meta) ? result._meta : {};
  return accepted(requested, result.capabilities, meta['io.modelcontextprotocol/serverInfo']);
}
