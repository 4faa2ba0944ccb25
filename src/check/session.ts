/**
 * Checks a recorded session, line by line, as a client would have read it.
 *
 * A line is a recorded frame (src/core/recording.ts: `{time, from, connection?, transport?, message? |
 * frame?}`, what `audit --record` and `proxy --record` write) or a bare frame (plain NDJSON captured
 * with `tee`). What is not a JSON-RPC message (a banner, a blank line, a cut-off line, a JSON log line)
 * is a finding of the transport rules `frame-not-json` / `frame-not-jsonrpc` at its line, and checking
 * goes on. The rest is validated as messages.
 *
 * Requests and responses are paired by id, and the protocol version negotiated, per connection: an
 * audit opens one connection per version, each numbering its requests from 1. The version comes from
 * `initialize` or `server/discover` (or a 2026-07-28 request's `_meta`); before that, `--protocol`, else
 * 2026-07-28 once a result carries `resultType`, else DEFAULT_PROTOCOL_VERSION. tools/list responses
 * supply the outputSchemas for later calls on the same connection. A proxy's line is judged by what
 * the server sent (`message`), not by what the proxy forwarded.
 */

import { auditFindings } from '../audit/events.js';
import { splitByPageCache, withoutOutputSchema } from '../audit/pages.js';
import { inClientOrder } from '../core/client-tools.js';
import type { Finding, Location } from '../core/finding.js';
import { isObject, type JsonObject, tryParseJson } from '../core/json.js';
import { type FrameSource, isRecordedFrame, type RecordedFrame } from '../core/recording.js';
import { convertedId } from '../core/request-id.js';
import { MAX_INPUT_BYTES } from '../io/read-text.js';
import { stringifyJson } from '../library/repair/clone.js';
import { affectedClients } from '../report/clients.js';
import { getRule } from '../rules/catalog.js';
import { isJsonRpcShaped } from '../rules/support/envelope.js';
import type { Frame, InvalidUtf8, Rule } from '../rules/types.js';
import { negotiatedVersion, requestedVersion } from '../spec/negotiation.js';
import {
  assumedProtocolVersion,
  DEFAULT_PROTOCOL_VERSION,
  LATEST_PROTOCOL_VERSION,
  type ProtocolVersion,
} from '../spec/versions.js';
import { runFrame } from '../validate/engine.js';
import { publicFinding, validateParsedMessageSync } from '../validate/index.js';
import type { SessionLine } from './parse.js';

export interface SessionResult {
  readonly findings: Finding[];
  /** Lines judged (a recording's blank lines are not frames and are not counted). */
  readonly checked: number;
  /** Versions used, in order of first use. */
  readonly protocolVersions: ProtocolVersion[];
  /** Lines the server sent, or may have sent (not known to be the client's). */
  readonly fromServer: number;
}

export interface SessionOptions {
  /** The version until the session says which it speaks; default: assumed from its messages. */
  readonly fallbackVersion?: ProtocolVersion;
  /** Label for `location.file`. */
  readonly file?: string;
  /** Tool definitions by name, from `--tools`, for every connection. */
  readonly tools?: ReadonlyMap<string, JsonObject>;
  /** The first bad byte of each line whose bytes are not UTF-8, by line number. */
  readonly invalidUtf8?: ReadonlyMap<number, InvalidUtf8>;
  /**
   * Hears each finding as it is found, in order, instead of its being kept in `findings` (left empty):
   * a verdict that only counts them need not hold a flood of them. `frame`: a finding of the line's
   * bytes or of a line that is no message (frame-not-utf8, frame-not-json, frame-not-jsonrpc), which
   * is the same under every version but for its location's version; it comes before the line's others.
   */
  readonly emit?: (finding: Finding, frame: boolean) => void;
  /** Leaves out the `frame` findings: the caller has them from a reading under another version. */
  readonly skipFrames?: boolean;
}

/**
 * The frame rules only: a recording keeps no Content-Type, so http-content-type cannot be judged from
 * it (and would report every HTTP frame as missing one).
 */
const FRAME_RULES: readonly Rule[] = ['frame-not-json', 'frame-not-jsonrpc'].map((id) => {
  const rule = getRule(id);
  if (!rule) throw new Error(`rule ${id} is missing from the catalog`);
  return rule;
});

const NOT_UTF8: readonly Rule[] = [getRule('frame-not-utf8') as Rule];

/**
 * A line of the input whose bytes are not UTF-8: judged on the bytes, before and whatever its text
 * (decoded with U+FFFD) turns out to be.
 */
export function notUtf8(
  text: string,
  invalidUtf8: InvalidUtf8,
  version: ProtocolVersion,
  location: Finding['location'],
): Finding[] {
  const frame: Frame = { transport: 'file', text, invalidUtf8 };
  return runFrame(frame, { version, rules: NOT_UTF8 }).map((f) => ({ ...publicFinding(f), location }));
}

/** One line, whichever way it was written down. */
interface Entry {
  readonly line: number;
  readonly from: FrameSource | undefined;
  readonly connection: string;
  readonly transport: Frame['transport'];
  /** The frame's text: what the rules parse. */
  readonly text: string;
  /** The parsed message, when the frame is JSON. */
  readonly message?: { readonly value: unknown };
  /** The length of a frame a proxy passed on unjudged, too long for it (RecordedFrame.passed). */
  readonly passed?: number;
  /** The longest frame that proxy held (RecordedFrame.limit; by default the longest string). */
  readonly limit?: number;
  /** A client request a proxy refused unread (RecordedFrame.refused): the server never saw it. */
  readonly refused?: true;
}

class Connection {
  version: ProtocolVersion;
  /** Whether the version is known (given, negotiated or implied) rather than assumed. */
  settled: boolean;
  /** Requests awaiting their response, by who sent them and their id. */
  readonly pending = new Map<string, JsonObject>();
  readonly tools: Map<string, JsonObject>;
  /** Tools called before this connection listed them (their results judged without an outputSchema). */
  readonly unlisted = new Set<string>();
  /**
   * Tools known so far only from a listing that came later in the session (`later`): a client that
   * lists tools before it calls them had not seen their outputSchema yet.
   */
  readonly listedLater: Set<string>;
  /** The page of the current tools/list listing last answered (1 for one asked without a cursor). */
  listingPage = 0;
  /**
   * The page of the current listing whose definition of a tool, with an outputSchema, results are
   * judged by: a later page listing it without one does not take it away, as the SDK v2 client's walk
   * of the pages does not (src/core/client-tools.ts), but the v1 client keeps only the page it listed
   * last (src/audit/pages.ts).
   */
  readonly schemaPages = new Map<string, number>();

  constructor(options: SessionOptions, later?: ReadonlyMap<string, JsonObject>) {
    this.version = options.fallbackVersion ?? DEFAULT_PROTOCOL_VERSION;
    this.settled = options.fallbackVersion !== undefined;
    this.tools = new Map([...(later ?? []), ...(options.tools ?? [])]);
    this.listedLater = new Set([...(later?.keys() ?? [])].filter((name) => !options.tools?.has(name)));
  }
}

/**
 * The clients that judge a tool's result by a tools/list answered after the call: a client that has
 * not listed the tool lists the tools itself before it validates the result. The Python SDK does
 * (python-sdk v1.29 src/mcp/client/session.py: call_tool validates non-error results only, and
 * _validate_tool_result calls list_tools() first for a tool missing from its output-schema cache).
 * The TypeScript SDK clients validate only against a listing they already hold (typescript-sdk v1
 * src/client/index.ts callTool: getToolOutputValidator reads the cache listTools() fills;
 * @modelcontextprotocol/client 2.4.0 callTool: outputValidator of the held tools/list), and so do the
 * clients built on them (Gemini CLI, Claude Code): a session whose listing came after the call is not
 * one of theirs, or they did not validate that result.
 */
const VALIDATE_AFTER_LATE_LISTING: ReadonlyMap<string, { readonly errorResults: boolean }> = new Map([
  ['python-sdk', { errorResults: false }],
]);

/**
 * The findings judged by an outputSchema the connection listed only after the call: those a judgment
 * without the later listing does not have. Each names, in `data.affected`, only the clients of its
 * rule that would have seen that schema when the result came (VALIDATE_AFTER_LATE_LISTING).
 */
function narrowLateListed(
  findings: readonly Finding[],
  without: readonly Finding[],
  message: unknown,
): Finding[] {
  const key = (f: Finding) => `${f.rule}\u0000${f.pointer}\u0000${f.message}`;
  const before = new Set(without.map(key));
  const isError = isObject(message) && isObject(message.result) && message.result.isError === true;
  return findings.map((finding) => {
    if (before.has(key(finding))) return finding;
    const clients = affectedClients(finding).filter((c) => {
      const late = VALIDATE_AFTER_LATE_LISTING.get(c.client);
      return late !== undefined && (late.errorResults || !isError);
    });
    const { data } = finding as Finding & { data?: unknown };
    const affected = clients.map((c) => c.client).join(',');
    return { ...finding, data: { ...(isObject(data) ? data : {}), affected } } as Finding;
  });
}

/** `client:1`, `server:1`, or `?:1` when the direction was not recorded. */
function pendingKey(requester: FrameSource | undefined, id: unknown): string {
  return `${requester ?? '?'}:${JSON.stringify(id)}`;
}

/**
 * A recorded line: what mcp-shape writes, or another recorder's `{ message: {…} }` wrapper (with its
 * direction in `from` when it has one).
 */
function recordedLine(value: unknown): RecordedFrame | undefined {
  if (isRecordedFrame(value)) return value;
  if (!isObject(value) || Object.hasOwn(value, 'jsonrpc') || !isObject(value.message)) return undefined;
  const from = value.from === 'client' || value.from === 'server' ? value.from : undefined;
  return { time: '', ...(from ? { from } : {}), message: value.message } as RecordedFrame;
}

function entryOf(line: SessionLine): Entry {
  const recorded = line.json ? recordedLine(line.value) : undefined;
  if (recorded) {
    const base = {
      line: line.line,
      from: recorded.from as FrameSource | undefined,
      connection: typeof recorded.connection === 'string' ? recorded.connection : '',
      transport: recorded.transport ?? 'stdio',
    };
    if (typeof recorded.passed === 'number') {
      const limit = typeof recorded.limit === 'number' ? { limit: recorded.limit } : {};
      return { ...base, text: '', passed: recorded.passed, ...limit };
    }
    if (typeof recorded.refused === 'number') return { ...base, text: '', refused: true };
    if (Object.hasOwn(recorded, 'message')) {
      return {
        ...base,
        text: stringifyJson(recorded.message),
        message: { value: recorded.message },
      };
    }
    const frame = typeof recorded.frame === 'string' ? recorded.frame : '';
    const parsed = tryParseJson(frame);
    return { ...base, text: frame, ...(parsed ? { message: parsed } : {}) };
  }
  return {
    line: line.line,
    from: undefined,
    connection: '',
    transport: 'stdio',
    text: line.text,
    ...(line.json ? { message: { value: line.value } } : {}),
  };
}

export async function checkSession(
  lines: readonly SessionLine[],
  options: SessionOptions = {},
): Promise<SessionResult> {
  // A tools/list answered after the calls of a tool: the server declared that tool's outputSchema in
  // this session all the same, and its results must conform to it. The session is judged with the
  // tools each connection lists anywhere known from its start (a listing on the way still replaces
  // them). Which those are, a first reading tells: it follows the session without judging it.
  const later = new Map<string, ReadonlyMap<string, JsonObject>>();
  for (const [key, connection] of readSession(lines, options, undefined, undefined).connections) {
    if ([...connection.unlisted].some((name) => connection.tools.has(name))) later.set(key, connection.tools);
  }
  const findings: Finding[] = [];
  const report = options.emit ?? ((finding: Finding) => void findings.push(finding));
  const { result } = readSession(lines, options, later.size > 0 ? later : undefined, report);
  return { ...result, findings };
}

/**
 * Reads the session line by line, keeping each connection's state (version, pending requests, tools),
 * and judges each line into `report`; without one, only the state is kept.
 */
function readSession(
  lines: readonly SessionLine[],
  options: SessionOptions,
  later: ReadonlyMap<string, ReadonlyMap<string, JsonObject>> | undefined,
  report: ((finding: Finding, frame: boolean) => void) | undefined,
): { result: Omit<SessionResult, 'findings'>; connections: Map<string, Connection> } {
  const connections = new Map<string, Connection>();
  const versions: ProtocolVersion[] = [];
  const reportAll = (found: readonly Finding[], frame = false) => {
    if (report) for (const finding of found) report(finding, frame);
  };
  const frames = report !== undefined && !options.skipFrames;
  // A recording written by mcp-shape has no blank frames; a blank line there is not the server's.
  const recording = lines.some((l) => l.json && isRecordedFrame(l.value));
  let checked = 0;
  let fromServer = 0;

  for (const line of lines) {
    if (recording && !line.json && line.text.trim() === '') continue;
    const entry = entryOf(line);
    checked++;
    if (entry.from === 'server' || (entry.from === undefined && !isClientMessage(entry.message?.value))) {
      fromServer++;
    }
    let connection = connections.get(entry.connection);
    if (!connection) {
      connection = new Connection(options, later?.get(entry.connection));
      connections.set(entry.connection, connection);
    }
    const invalidUtf8 = frames ? options.invalidUtf8?.get(line.line) : undefined;
    if (invalidUtf8) {
      const at = locationOf(options, entry, connection);
      reportAll(notUtf8(line.text, invalidUtf8, connection.version, at), true);
    }
    if (entry.refused) {
      // Nothing of it reached the server, which has nothing to answer.
    } else if (entry.passed !== undefined) {
      // Not recorded, and over the proxy's cap (by default one no reader could hold): a server's is a
      // response over that cap, unjudged; a client's request is the server's to refuse.
      if (entry.from !== 'client' && report) {
        const limit = entry.limit ?? MAX_INPUT_BYTES;
        const event = { event: 'response-too-large', bytes: entry.passed, limit } as const;
        reportAll(auditFindings(event, locationOf(options, entry, connection)));
      }
    } else if (!entry.message || !isJsonRpcShaped(entry.message.value)) {
      // Not JSON, or JSON that is no message: the frame rules say which, and the line is done.
      if (frames) {
        const frame: Frame = { transport: entry.transport, text: entry.text };
        const at = locationOf(options, entry, connection);
        for (const f of runFrame(frame, { version: connection.version, rules: FRAME_RULES })) {
          report?.({ ...publicFinding(f), location: at }, true);
        }
      }
    } else {
      reportAll(judgeMessage(entry.message.value, entry, connection, options, report !== undefined));
    }
    if (!versions.includes(connection.version)) versions.push(connection.version);
  }
  return { result: { checked, protocolVersions: versions, fromServer }, connections };
}

/** Methods only a client sends: a line of one, its direction not recorded, is the client's. */
const CLIENT_METHODS = new Set([
  'initialize',
  'notifications/initialized',
  'server/discover',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'logging/setLevel',
  'notifications/roots/list_changed',
]);

/**
 * A message (or batch) that only a client sends: nothing of it is the server's to judge. A response,
 * a method a server may send (ping, sampling, notifications) or a line that is no message may be the
 * server's.
 */
export function isClientMessage(value: unknown): boolean {
  // A batch holds messages, not batches: one level only (an array nested 5,000 deep overflowed the stack).
  if (Array.isArray(value)) return value.length > 0 && value.every(isClientRequest);
  return isClientRequest(value);
}

function isClientRequest(value: unknown): boolean {
  return isObject(value) && typeof value.method === 'string' && CLIENT_METHODS.has(value.method);
}

function locationOf(
  options: SessionOptions,
  entry: Entry,
  connection: Connection,
  extra: Partial<Location> = {},
): Location {
  // Written out, not spread: a flood of bad lines makes one for each finding.
  const location: { -readonly [K in keyof Location]: Location[K] } = {};
  if (options.file) location.file = options.file;
  location.line = entry.line;
  location.protocolVersion = connection.version;
  return extra.tool === undefined && extra.call === undefined ? location : { ...location, ...extra };
}

/** Validates a message (each member of a batch on its own, after the batch rules judge the array). */
function judgeMessage(
  message: unknown,
  entry: Entry,
  connection: Connection,
  options: SessionOptions,
  /** Whether to judge it: without, only the connection's state follows it. */
  judging = true,
): Finding[] {
  if (Array.isArray(message)) {
    const at = locationOf(options, entry, connection);
    const findings: Finding[] = judging
      ? validateParsedMessageSync(message, { protocolVersion: connection.version }).map((f) => ({
          ...f,
          location: at,
        }))
      : [];
    for (const member of message) {
      if (isObject(member)) findings.push(...judgeMessage(member, entry, connection, options, judging));
    }
    return findings;
  }
  const { request, converted } = observe(connection, entry, message);
  const toolName = toolNameOf(request);
  const at = locationOf(options, entry, connection, {
    ...(toolName ? { tool: toolName } : {}),
    ...(isObject(message) && Object.hasOwn(message, 'id') ? { call: String(message.id) } : {}),
  });
  if (toolName && !connection.tools.has(toolName)) connection.unlisted.add(toolName);
  const judge = (tools: Iterable<JsonObject>) =>
    validateParsedMessageSync(message, { protocolVersion: connection.version, request, tools: [...tools] });
  let findings = judging ? judge(connection.tools.values()) : [];
  if (judging && toolName && connection.listedLater.has(toolName)) {
    const listed = [...connection.tools].filter(([name]) => !connection.listedLater.has(name));
    findings = narrowLateListed(findings, judge(listed.map(([, tool]) => tool)), message);
  }
  const schemaPage = toolName === undefined ? undefined : connection.schemaPages.get(toolName);
  if (judging && toolName && schemaPage !== undefined && schemaPage < connection.listingPage) {
    // Its outputSchema is on a page before the last listed: the SDK v1 client does not hold it.
    findings = splitByPageCache(
      findings,
      judge(withoutOutputSchema([...connection.tools.values()], toolName)),
    );
  }
  if (judging && converted && request && isObject(message)) {
    const event = {
      event: 'response-id-converted',
      id: JSON.stringify(message.id),
      request: JSON.stringify(request.id),
      method: toolName ? `tools/call ${toolName}` : String(request.method),
    } as const;
    findings.unshift(...auditFindings(event, at, '/id'));
  }
  if (request?.method === 'tools/list' && isObject(message) && isObject(message.result)) {
    const listed = message.result.tools;
    if (Array.isArray(listed)) takePage(connection, request, listed);
  }
  return findings.map((f) => ({ ...f, location: at }));
}

/**
 * A tools/list page: a request without a cursor starts a listing. A tool listed twice is judged by the
 * definition whose outputSchema the SDK clients check (src/core/client-tools.ts): the last with one, on
 * this page or an earlier one of the listing.
 */
function takePage(connection: Connection, request: JsonObject, tools: readonly unknown[]): void {
  const cursor = isObject(request.params) ? request.params.cursor : undefined;
  const page = cursor === undefined ? 1 : connection.listingPage + 1;
  if (page === 1) connection.schemaPages.clear();
  connection.listingPage = page;
  for (const tool of inClientOrder(tools.filter(isObject))) {
    if (typeof tool.name !== 'string') continue;
    connection.listedLater.delete(tool.name);
    if (tool.outputSchema) connection.schemaPages.set(tool.name, page);
    else if (connection.schemaPages.has(tool.name)) continue;
    connection.tools.set(tool.name, tool);
  }
}

/**
 * Updates the connection with a message (its version, its pending requests) and returns the request a
 * response answers, if any: `converted` when its id is a number sent back as a string, which the
 * official SDKs match to the request all the same (src/core/request-id.ts), and so does check.
 */
function observe(
  connection: Connection,
  entry: Entry,
  message: unknown,
): { request?: JsonObject; converted?: boolean } {
  const use = (version: ProtocolVersion) => {
    connection.version = version;
    connection.settled = true;
  };
  if (!isObject(message)) return {};
  if (typeof message.method === 'string') {
    const declared = requestedVersion(message);
    if (declared) use(declared);
    if (Object.hasOwn(message, 'id')) connection.pending.set(pendingKey(entry.from, message.id), message);
    return {};
  }
  if (!Object.hasOwn(message, 'id')) return {};
  // A response answers a request of the other side.
  const requester = entry.from === 'server' ? 'client' : entry.from === 'client' ? 'server' : undefined;
  let key = pendingKey(requester, message.id);
  let request = connection.pending.get(key);
  let converted = false;
  const asNumber = typeof message.id === 'string' ? convertedId(message.id) : undefined;
  if (!request && asNumber !== undefined) {
    key = pendingKey(requester, asNumber);
    request = connection.pending.get(key);
    converted = request !== undefined;
  }
  connection.pending.delete(key);
  const negotiated = negotiatedVersion(request, message.result);
  if (negotiated) use(negotiated);
  else if (!connection.settled && assumedProtocolVersion(message) === LATEST_PROTOCOL_VERSION)
    use(LATEST_PROTOCOL_VERSION);
  return request ? { request, converted } : {};
}

function toolNameOf(request: JsonObject | undefined): string | undefined {
  if (request?.method !== 'tools/call' || !isObject(request.params)) return undefined;
  return typeof request.params.name === 'string' ? request.params.name : undefined;
}
