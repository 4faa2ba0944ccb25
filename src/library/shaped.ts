/**
 * `shaped(handler, options)`: wraps a tool handler of the official TypeScript SDK (v1
 * `McpServer.registerTool`, or the v2 `@modelcontextprotocol/server` McpServer) so that it may return
 * anything, and the client still gets a conformant CallToolResult for the protocol version negotiated
 * on that connection (see tool-result.ts for the mapping).
 *
 * Where the negotiated version comes from, first match wins (what each SDK exposes, read from their
 * sources in node_modules):
 * 1. `options.protocolVersion`, a version or a function of the handler's context;
 * 2. SDK v2, 2026-07-28 era: the per-request envelope, `ctx.mcpReq.envelope["io.modelcontextprotocol/protocolVersion"]`;
 * 3. `options.server`:
 *    - SDK v2 (`Server` or `McpServer`): `getNegotiatedProtocolVersion()`;
 *    - SDK v1: the v1 `Server` keeps no negotiated version (its `_oninitialize` computes it and only
 *      returns it), so `shaped` wraps that method once per server to record the version it answers;
 * 4. the `mcp-protocol-version` HTTP header (Streamable HTTP sends it on every request after initialize):
 *    v1 `extra.requestInfo.headers`, v2 `ctx.http.req.headers`;
 * 5. otherwise DEFAULT_PROTOCOL_VERSION (2025-11-25), the default of every mcp-shape entry point and
 *    what current clients negotiate. (The SDKs' own `DEFAULT_NEGOTIATED_PROTOCOL_VERSION`, 2025-03-26,
 *    is what they assume of an HTTP request without the version header; a shaped handler that reaches
 *    this step has no header either, and would otherwise strip structuredContent and resource_link
 *    blocks that today's clients expect.)
 *
 * Thrown errors become `isError` results (what the SDKs do too), except protocol errors (an error with
 * a numeric `code`, like McpError or ProtocolError), which are rethrown for the SDK to answer. In
 * development mode the wrapper throws instead of repairing: a CallToolResult the handler built that has
 * findings, or a value whose structuredContent breaks the outputSchema, is a bug to fix, not to hide.
 */

import type { Finding } from '../core/finding.js';
import { isObject } from '../core/json.js';
import { getRule } from '../rules/catalog.js';
import { DEFAULT_PROTOCOL_VERSION, PROTOCOL_VERSIONS, type ProtocolVersion } from '../spec/versions.js';
import { validateToolResult } from '../validate/index.js';
import { errorText } from './builders.js';
import { checkedOptions } from './options.js';
import { safeJson, toWire } from './repair/clone.js';
import type { Fix } from './repair/engine.js';
import { withProtocolMembers } from './repair/members.js';
import { isInstance, looksLikeCallToolResult, shapeValue, toolResult } from './tool-result.js';
import type { CallToolResult } from './types.js';

/** The version shaped() assumes when nothing tells it the negotiated one: the shared default. */
export const DEFAULT_SHAPED_PROTOCOL_VERSION: ProtocolVersion = DEFAULT_PROTOCOL_VERSION;

const PROTOCOL_VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion';

export interface ShapedOptions {
  /** The server the tool is registered on (SDK v1 or v2, McpServer or Server). */
  readonly server?: unknown;
  /** A fixed version, or a function of the handler's context; overrides what the server negotiated. */
  readonly protocolVersion?: ProtocolVersion | ((context: unknown) => ProtocolVersion | string | undefined);
  /** The tool definition as JSON (from tools/list), for outputSchema checks. */
  readonly tool?: unknown;
  /** The tool's outputSchema as JSON Schema; structuredContent must validate against it. */
  readonly outputSchema?: unknown;
  /** `development`: throw on findings instead of repairing. Default `production`. */
  readonly mode?: 'production' | 'development';
  /** Called with the fixes applied to a result, for logging (never with an empty list). */
  readonly onFixes?: (fixes: readonly Fix[], info: { protocolVersion: ProtocolVersion }) => void;
}

/** Development mode: the handler's own CallToolResult had findings. */
export class ShapedFindingsError extends Error {
  override readonly name = 'ShapedFindingsError';
  constructor(
    readonly findings: readonly Finding[],
    readonly protocolVersion: ProtocolVersion,
  ) {
    super(
      `the tool result has ${findings.length} finding(s) for protocol ${protocolVersion}:\n` +
        findings.map((f) => `  ${f.severity} ${f.rule} at ${f.pointer || '/'}: ${f.message}`).join('\n'),
    );
  }
}

/** The newest known version not after `version` (the SDK also speaks 2024-10-07, which we read as 2024-11-05). */
export function nearestProtocolVersion(version: string): ProtocolVersion | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(version)) return undefined;
  const known = PROTOCOL_VERSIONS.filter((v) => v <= version);
  return known[known.length - 1] ?? PROTOCOL_VERSIONS[0];
}

/** What an SDK v1 Server looks like to the tracker. */
interface V1Server {
  _oninitialize(request: unknown): Promise<unknown>;
}

const trackedV1 = new WeakMap<object, { version?: string }>();

function trackV1(server: object): { version?: string } | undefined {
  const existing = trackedV1.get(server);
  if (existing) return existing;
  const candidate = server as Partial<V1Server> & { getNegotiatedProtocolVersion?: unknown };
  // SDK v2 servers say what they negotiated; only v1 needs the hook.
  if (typeof candidate.getNegotiatedProtocolVersion === 'function') return undefined;
  if (typeof candidate._oninitialize !== 'function') return undefined;
  const record: { version?: string } = {};
  const original = candidate._oninitialize.bind(server);
  // The v1 Server's initialize handler calls `this._oninitialize(request)`, so an own property wins.
  (server as V1Server)._oninitialize = async (request: unknown) => {
    const answer = await original(request);
    if (isObject(answer) && typeof answer.protocolVersion === 'string')
      record.version = answer.protocolVersion;
    return answer;
  };
  trackedV1.set(server, record);
  return record;
}

/** The SDK's low-level server inside an McpServer (`.server`), or the server itself. */
function lowLevel(server: unknown): object | undefined {
  if (!isObject(server) && typeof server !== 'object') return undefined;
  if (server === null) return undefined;
  const inner = (server as { server?: unknown }).server;
  return typeof inner === 'object' && inner !== null ? inner : (server as object);
}

function serverVersion(server: object | undefined): string | undefined {
  if (!server) return undefined;
  const v2 = (server as { getNegotiatedProtocolVersion?: () => string | undefined })
    .getNegotiatedProtocolVersion;
  if (typeof v2 === 'function') return v2.call(server);
  return trackedV1.get(server)?.version;
}

function headerVersion(context: unknown): string | undefined {
  if (!isObject(context)) return undefined;
  const v1Headers = isObject(context.requestInfo) ? context.requestInfo.headers : undefined;
  if (isObject(v1Headers)) {
    const value = v1Headers['mcp-protocol-version'];
    if (typeof value === 'string') return value;
  }
  const request = isObject(context.http) ? context.http.req : undefined;
  const headers = (request as { headers?: { get?: (name: string) => string | null } } | undefined)?.headers;
  return typeof headers?.get === 'function' ? (headers.get('mcp-protocol-version') ?? undefined) : undefined;
}

function envelopeVersion(context: unknown): string | undefined {
  const request = isObject(context) ? context.mcpReq : undefined;
  const envelope = isObject(request) ? request.envelope : undefined;
  const value = isObject(envelope) ? envelope[PROTOCOL_VERSION_META_KEY] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** The negotiated protocol version for one call (see the module comment for the order). */
export function negotiatedVersion(context: unknown, given: ShapedOptions | null = {}): ProtocolVersion {
  // Read leniently, as the versions a client sends are: null options are none.
  const options = given ?? {};
  const explicit =
    typeof options.protocolVersion === 'function'
      ? options.protocolVersion(context)
      : options.protocolVersion;
  const candidates = [
    explicit,
    envelopeVersion(context),
    serverVersion(lowLevel(options.server)),
    headerVersion(context),
  ];
  for (const candidate of candidates) {
    const version = candidate === undefined ? undefined : nearestProtocolVersion(candidate);
    if (version) return version;
  }
  return DEFAULT_SHAPED_PROTOCOL_VERSION;
}

function isProtocolError(error: unknown): boolean {
  try {
    return error instanceof Error && typeof (error as { code?: unknown }).code === 'number';
  } catch {
    // A getter on `code` or a proxy's getPrototypeOf trap that throws: no protocol error, a failure.
    return false;
  }
}

/** A repair shaping made, told in development as the finding it answered. */
function fixAsFinding(fix: Fix): Finding {
  return {
    rule: fix.rule,
    severity: getRule(fix.rule)?.severity ?? 'error',
    message: `${fix.description} (repaired in production)`,
    pointer: fix.pointer,
  };
}

/**
 * What the handler threw, as an Error. Never throws: String() of what it threw may (an object without
 * a prototype, a toString that throws), and shaped() rejected with String's own TypeError, which the
 * SDK answered in its place (McpServer as an error result naming it, a low-level Server as -32603).
 */
function thrownError(thrown: unknown): Error {
  if (isInstance(thrown, Error)) return thrown as Error;
  try {
    return new Error(String(thrown));
  } catch {
    return new Error(safeJson(thrown));
  }
}

/**
 * Wraps `handler` so its return value (or thrown error) becomes a conformant CallToolResult. The SDK
 * passes the request context as the handler's last argument; shaped reads the version from it.
 */
export function shaped<Args extends unknown[]>(
  handler: (...args: Args) => unknown,
  options: ShapedOptions = {},
): (...args: Args) => Promise<CallToolResult<ProtocolVersion>> {
  // A version named in the code is checked now; one a client negotiates is read leniently per call.
  options = checkedOptions(options, 'shaped()', true);
  const server = lowLevel(options.server);
  if (server) trackV1(server);
  const development = options.mode === 'development';
  let outputSchema: unknown;
  try {
    outputSchema = options.outputSchema ?? (isObject(options.tool) ? options.tool.outputSchema : undefined);
  } catch (error) {
    // A revoked proxy or a getter that throws: a mistake in the tool's registration, said there.
    throw new TypeError(`shaped(): options.tool cannot be read (${errorText(error)})`);
  }

  return async (...args: Args) => {
    const protocolVersion = negotiatedVersion(args[args.length - 1], options);
    let value: unknown;
    try {
      value = await handler(...args);
    } catch (error) {
      if (development || isProtocolError(error)) throw error;
      value = thrownError(error);
    }
    if (development && looksLikeCallToolResult(value)) {
      // Judged as shaping sends it (toWire's copy, which the fixes below report on): a value that reading
      // makes without end was followed by the validator until the process ran out of memory.
      const sent = toWire(withProtocolMembers(value));
      const findings = [
        ...sent.fixes.map(fixAsFinding),
        ...(await validateToolResult(sent.value, { protocolVersion, tool: options.tool })),
      ];
      if (findings.some((f) => f.severity !== 'info'))
        throw new ShapedFindingsError(findings, protocolVersion);
    }
    try {
      const { result, fixes } = await shapeValue(value, {
        protocolVersion,
        outputSchema,
        tool: options.tool,
      });
      // A value that is no CallToolResult may need repairs too (a cycle, a BigInt, a block's wrong
      // mimeType): in development they are findings to fix, thrown as for a result the handler built,
      // each with its rule's severity (what JSON cannot carry, which no rule of the catalog names, is
      // an error: the validators call it result-not-serializable).
      const findings = development ? fixes.map(fixAsFinding) : [];
      if (findings.some((f) => f.severity !== 'info'))
        throw new ShapedFindingsError(findings, protocolVersion);
      if (fixes.length > 0) options.onFixes?.(fixes, { protocolVersion });
      return result;
    } catch (error) {
      if (development) throw error;
      // An outputSchema mismatch in production: tell the model the tool failed rather than send data
      // the client would reject.
      return toolResult(thrownError(error), { protocolVersion });
    }
  };
}
