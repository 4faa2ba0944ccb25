/**
 * The public validators. They never throw and report every problem, not only the first.
 *
 * `validateToolResultSync` and `validateMessageSync` answer at once: payloads are sniffed by the
 * synchronous sniffer (core/magic.ts), which knows the formats clients handle. The asynchronous
 * `validateToolResult` and `validateMessage` return the same findings, except that for a payload whose
 * format the synchronous sniffer cannot place (TIFF, PSD, AIFF, archives, UTF-16 text…) they ask
 * file-type, so a mimeType that contradicts such bytes is reported by them alone, unless it names a
 * format with a fixed signature the bytes lack (core/sniff.ts, lacksSignature), which both report.
 *
 * A handler's JS value is judged as JSON carries it (./as-sent.ts): a Date as its string, NaN as null;
 * a tool result's class instances as the official SDK's server sends them, their getters read.
 */

import { decodeBase64Prefix } from '../core/base64.js';
import type { Finding } from '../core/finding.js';
import { isObject, type JsonObject } from '../core/json.js';
import { SNIFF_HEADER_BYTES } from '../core/magic.js';
import { payloadFactsAt } from '../core/payload.js';
import { FactScope, runInScope } from '../core/run-memo.js';
import { fileTypeMime, type Sniffed } from '../core/sniff.js';
import envelopeNotSerializable from '../rules/envelope/envelope-not-serializable.js';
import resultNotSerializable from '../rules/result/result-not-serializable.js';
import resultValueRefusedBySdk from '../rules/result/result-value-refused-by-sdk.js';
import { type Refusal, sdkRefusals, withRefusals } from '../rules/support/sdk-server-parse.js';
import toolsListNotSerializable from '../rules/tools/tools-list-not-serializable.js';
import type { Rule } from '../rules/types.js';
import {
  assumedProtocolVersion,
  checkProtocolVersionOption,
  DEFAULT_PROTOCOL_VERSION,
  isProtocolVersion,
  type ProtocolVersion,
  protocolVersionOptionError,
} from '../spec/versions.js';
import { asParsedResult, asSent, ENDLESS_REASON, readingThrows, type Sent } from './as-sent.js';
import {
  type EngineFinding,
  type EngineOptions,
  isQuietMediaCall,
  isQuietMessage,
  isQuietPlainText,
  isQuietPlainTextIn,
  MAX_QUOTED,
  type PayloadSniffer,
  quoted,
  responseKind,
  runMessage,
  runMessageRules,
  runResultRules,
  runToolResult,
  runToolsList,
  runToolsListRules,
  sniffSync,
} from './engine.js';

export interface ValidateOptions {
  /**
   * The negotiated protocol version; default: 2026-07-28 for a document that carries `resultType`,
   * else DEFAULT_PROTOCOL_VERSION (2025-11-25).
   */
  readonly protocolVersion?: ProtocolVersion;
}

export interface ValidateResultOptions extends ValidateOptions {
  /** The tool definition (from tools/list) this result answers, for outputSchema checks. */
  readonly tool?: unknown;
  /**
   * The tools/call request this result answers. What the request declared decides some verdicts: in
   * 2026-07-28 a `resultType: "task"` or an input request the request's clientCapabilities did not
   * declare is an error, and a warning where the request is not known; in 2025-11-25 only a
   * task-augmented request may be answered with a task instead of content.
   */
  readonly request?: unknown;
}

export interface ValidateMessageOptions extends ValidateOptions {
  /** The request this message answers, to know what kind of result to expect and which tool. */
  readonly request?: unknown;
  /** Tool definitions: an array of tools or a tools/list result. */
  readonly tools?: unknown;
}

/** Strips the engine's bookkeeping so callers get plain data. */
export function publicFinding(f: EngineFinding): Finding {
  const { rule, severity, message, pointer, location, fix } = f;
  const out: { -readonly [K in keyof Finding]: Finding[K] } = { rule, severity, message, pointer };
  if (location) out.location = location;
  if (fix) out.fix = fix;
  if (Object.keys(f.data).length > 0) (out as Finding & { data?: unknown }).data = quotedData(f.data);
  return out;
}

/** A finding's facts as reports carry them: a string too long to quote is clipped as messages clip it. */
function quotedData(data: EngineFinding['data']): EngineFinding['data'] {
  for (const key in data) {
    const value = data[key];
    if (typeof value === 'string' && value.length > MAX_QUOTED) {
      const copy: Record<string, string | number | boolean> = {};
      for (const k in data) {
        const v = data[k] as string | number | boolean;
        copy[k] = typeof v === 'string' ? quoted(v) : v;
      }
      return copy;
    }
  }
  return data;
}

function publicFindings(findings: readonly EngineFinding[]): Finding[] {
  if (findings.length === 0) return [];
  const out: Finding[] = new Array(findings.length);
  for (let i = 0; i < findings.length; i++) out[i] = publicFinding(findings[i] as EngineFinding);
  return out;
}

/** Where a payload is: `holder[key]`. */
export interface PayloadPlace {
  readonly holder: JsonObject;
  readonly key: string;
}

/**
 * Base64 payloads of a result's blocks: `data` of image and audio blocks, `blob` of embedded resources.
 * A plain loop, not a generator: this runs on every asynchronous validation.
 */
export function mediaPayloads(result: unknown): PayloadPlace[] {
  const payloads: PayloadPlace[] = [];
  if (!isObject(result) || !Array.isArray(result.content)) return payloads;
  const content = result.content;
  for (let i = 0; i < content.length; i++) {
    const block = content[i];
    if (!isObject(block)) continue;
    if ((block.type === 'image' || block.type === 'audio') && typeof block.data === 'string') {
      payloads.push({ holder: block, key: 'data' });
    } else if (
      block.type === 'resource' &&
      isObject(block.resource) &&
      typeof block.resource.blob === 'string'
    ) {
      payloads.push({ holder: block.resource, key: 'blob' });
    }
  }
  return payloads;
}

/** file-type's answers, by the object holding the payload. */
export type FileTypeAnswers = ReadonlyMap<object, Sniffed>;

const NO_ANSWERS: FileTypeAnswers = new Map();

/**
 * file-type's answers for the payloads the synchronous sniffer cannot place. Returns synchronously (and
 * decodes nothing twice: the facts stay in `scope` for the validation) when every payload was placed,
 * which is the common case.
 */
export function fileTypeAnswers(
  payloads: readonly PayloadPlace[],
  scope: FactScope,
): FileTypeAnswers | Promise<FileTypeAnswers> {
  const unplaced = runInScope(scope, () =>
    payloads.filter(({ holder, key }) => {
      const sniffed = payloadFactsAt(holder, key)?.sniffed;
      return sniffed !== undefined && !sniffed.settled;
    }),
  );
  if (unplaced.length === 0) return NO_ANSWERS;
  const answers = new Map<object, Sniffed>();
  return Promise.all(
    unplaced.map(async ({ holder, key }) => {
      const payload = holder[key] as string;
      const bytes = decodeBase64Prefix(payload, SNIFF_HEADER_BYTES);
      const mimeType = bytes ? await fileTypeMime(bytes) : undefined;
      const sniffed = runInScope(scope, () => payloadFactsAt(holder, key)?.sniffed);
      if (mimeType !== undefined && sniffed) answers.set(holder, { ...sniffed, mimeType });
    }),
  ).then(() => answers);
}

/** The synchronous sniffer, overridden by file-type's answers for the payloads it could not place. */
export function sniffWith(answers: FileTypeAnswers): PayloadSniffer {
  return answers.size === 0 ? sniffSync : (holder, key) => answers.get(holder) ?? sniffSync(holder, key);
}

/** Runs `check` once file-type has answered, without an extra microtask when it was not needed. */
function afterFileType(
  payloads: () => readonly PayloadPlace[],
  check: (scope: FactScope, sniff: PayloadSniffer) => Finding[],
): Promise<Finding[]> {
  const scope = new FactScope();
  let pending: FileTypeAnswers | Promise<FileTypeAnswers>;
  try {
    pending = fileTypeAnswers(payloads(), scope);
  } catch {
    pending = NO_ANSWERS;
  }
  if (pending instanceof Promise) {
    return pending.then(
      (answers) => guard(() => check(scope, sniffWith(answers))),
      () => guard(() => check(scope, sniffSync)),
    );
  }
  return Promise.resolve(guard(() => check(scope, sniffSync)));
}

export function toolsByName(tools: unknown): Map<string, JsonObject> {
  const list = isObject(tools) && Array.isArray(tools.tools) ? tools.tools : tools;
  const map = new Map<string, JsonObject>();
  if (Array.isArray(list)) {
    for (const tool of list) if (isObject(tool) && typeof tool.name === 'string') map.set(tool.name, tool);
  }
  return map;
}

function guard(fn: () => Finding[]): Finding[] {
  try {
    return fn();
  } catch (error) {
    return internalError(error);
  }
}

/** The engine already isolates rules; this only reports a bug in the walk itself. */
function internalError(error: unknown): Finding[] {
  const detail = error instanceof Error ? error.message : String(error);
  return [
    { rule: 'internal-error', severity: 'error', message: `validation failed: ${detail}`, pointer: '' },
  ];
}

/** `unbounded`: see Sent.bounded (./as-sent.ts). `scope`: a parsed document's, shared by its runs. */
function resultOptions(
  options: ValidateResultOptions,
  version: ProtocolVersion,
  unbounded: boolean,
  scope?: FactScope,
): EngineOptions {
  return {
    version,
    tool: isObject(options.tool) ? options.tool : undefined,
    request: isObject(options.request) ? options.request : undefined,
    sniff: sniffSync,
    unbounded,
    scope,
  };
}

function messageOptions(
  options: ValidateMessageOptions,
  version: ProtocolVersion,
  unbounded: boolean,
  scope?: FactScope,
): EngineOptions {
  return {
    version,
    request: isObject(options.request) ? options.request : undefined,
    tools: toolsByName(options.tools),
    sniff: sniffSync,
    unbounded,
    scope,
  };
}

/** The payloads of a message's tools/call result, the only ones its rules sniff. */
function messagePayloads(message: unknown, options: ValidateMessageOptions): PayloadPlace[] {
  const request = isObject(options.request) ? options.request : undefined;
  return isObject(message) &&
    Object.hasOwn(message, 'result') &&
    responseKind(message.result, request) === 'tools/call'
    ? mediaPayloads(message.result)
    : [];
}

/** Validates a tools/call result synchronously; see the module comment for how it differs from the async one. */
export function validateToolResultSync(result: unknown, options: ValidateResultOptions = {}): Finding[] {
  if (quickAnswer(result, options)) return [];
  checkProtocolVersionOption(options);
  return toolResultFindings(result, options, false);
}

/**
 * The commonest calls answered before anything is set up: a version named, no tool, and a plain-text
 * result on which no rule can report (isQuietPlainText), or, with no request either, a clean small plain
 * media result (isQuietMediaCall). The entry point's own calls (the option check, two nested try blocks,
 * the version's features looked up twice, the check of a handler's value as sent) cost a fifth of the
 * one and a quarter of the other (one small image).
 *
 * `true`: nothing to find. `false`: anything else, or a result whose members throw when read (or options
 * that do): the general path answers it in full. The media walk decodes a payload only while the result
 * is small enough to be quiet, so a large one (a 1 MB image over a client's limit) is decoded once, by
 * the general path.
 */
function quickAnswer(result: unknown, options: ValidateResultOptions): boolean {
  try {
    const version = options.protocolVersion;
    if (options.tool !== undefined) return false;
    if (isQuietPlainTextIn(result, version)) return true;
    return options.request === undefined && isProtocolVersion(version) && isQuietMediaCall(result, version);
  } catch {
    return false;
  }
}

/**
 * validateToolResultSync of a result parsed from JSON text (check, audit): it is what was sent already.
 * Not copied as a handler's value would be, which would also read a number such as `1e400` (Infinity
 * once parsed, as every client parses it) as the `null` JSON.stringify writes for a handler's Infinity.
 * @internal
 */
export function validateParsedToolResultSync(
  result: unknown,
  options: ValidateResultOptions = {},
  scope?: FactScope,
): Finding[] {
  checkProtocolVersionOption(options);
  return toolResultFindings(result, options, true, scope);
}

/**
 * Not in `guard`, whose closure the proxy's per-message path would pay: what throws here is the
 * caller's options (a tool definition that throws when read), answered as guard answers.
 */
function toolResultFindings(
  result: unknown,
  options: ValidateResultOptions,
  parsed: boolean,
  scope?: FactScope,
): Finding[] {
  try {
    return toolResultFindingsOf(result, options, parsed, scope);
  } catch (error) {
    return internalError(error);
  }
}

function toolResultFindingsOf(
  result: unknown,
  options: ValidateResultOptions,
  parsed: boolean,
  scope: FactScope | undefined,
): Finding[] {
  // No closure and no option object beyond the engine's: this is the proxy's per-message path.
  let version: ProtocolVersion;
  try {
    version = options.protocolVersion ?? assumedProtocolVersion(result);
    // The plain-text shape admits plain strings, booleans and plain objects and arrays only: its sent
    // form is itself, so it is judged before any copy.
    if (isQuietPlainText(result, version, isObject(options.tool) ? options.tool : undefined)) return [];
  } catch (error) {
    // Reading the result ran its own code, and that threw (a getter): see judged.
    return judged(result, resultOptions(options, versionFor(options, result), !parsed, scope), RESULT, error);
  }
  return parsed
    ? judged(result, resultOptions(options, version, false, scope), RESULT)
    : judgedAsSent(result, options, version, scope);
}

/** The findings of a handler's value, judged as sent (./as-sent.ts). */
function judgedAsSent(
  result: unknown,
  options: ValidateResultOptions,
  version: ProtocolVersion,
  scope: FactScope | undefined,
): Finding[] {
  const { sent, refusals } = resultAsSent(result, options);
  return judgedResultSent(sent, refusals, resultOptions(options, version, !sent.bounded, scope));
}

/**
 * judgedSent of a handler's result, with what SDK v1's server refuses of its live value (`refusals`),
 * which its sent form no longer shows: result-value-refused-by-sdk is run on its own with them, as the
 * sent form may be of a shape the engine answers without that rule (a plain text result).
 */
function judgedResultSent(sent: Sent, refusals: readonly Refusal[], engine: EngineOptions): Finding[] {
  const findings = judgedSent(sent, engine, RESULT);
  if (refusals.length === 0 || sent.endless) return findings;
  try {
    const refused = withRefusals(sent.document, refusals, () =>
      runResultRules(sent.document, [], sent.document, { ...engine, rules: REFUSED }),
    );
    return [...findings.filter((f) => f.rule !== resultValueRefusedBySdk.id), ...publicFindings(refused)];
  } catch (error) {
    return [...findings, ...internalError(error)];
  }
}

const REFUSED: readonly Rule[] = [resultValueRefusedBySdk];

/** The version asked for, else the one the document speaks; the default where reading it throws. */
function versionFor(options: ValidateOptions, document: unknown): ProtocolVersion {
  if (options.protocolVersion) return options.protocolVersion;
  try {
    return assumedProtocolVersion(document);
  } catch {
    return DEFAULT_PROTOCOL_VERSION;
  }
}

/**
 * How a kind of document is judged: all its rules, and only the rules that say whether it can be sent
 * at all (see judged).
 */
interface Judge {
  run(document: unknown, options: EngineOptions): EngineFinding[];
  sendability(document: unknown, options: EngineOptions): EngineFinding[];
  /** The sendability rule's finding that the document is endless (Sent.endless), and nothing else. */
  endless(document: unknown, options: EngineOptions): EngineFinding[];
}

const RESULT_SENDABILITY: readonly Rule[] = [resultNotSerializable];

/**
 * A sendability rule that reports, as it words a reason, that the document is endless: what it would
 * find cannot be asked of such a document, whose every walk would go on as long as its reading makes
 * new objects.
 */
function sayingEndless(rule: Rule): readonly Rule[] {
  return [{ ...rule, check: (_node, ctx) => ctx.report({ data: { reason: ENDLESS_REASON } }) }];
}

const RESULT_ENDLESS = sayingEndless(resultNotSerializable);
const MESSAGE_ENDLESS = sayingEndless(envelopeNotSerializable);
const TOOLS_LIST_ENDLESS = sayingEndless(toolsListNotSerializable);

const RESULT: Judge = {
  run: runToolResult,
  sendability: (result, engine) =>
    runResultRules(result, [], result, { ...engine, rules: RESULT_SENDABILITY }),
  endless: (result, engine) => runResultRules(result, [], result, { ...engine, rules: RESULT_ENDLESS }),
};

const MESSAGE: Judge = {
  endless: (message, engine) => runMessageRules(message, { ...engine, rules: MESSAGE_ENDLESS }),
  run: runMessage,
  sendability(message, engine) {
    const envelope = runMessageRules(message, { ...engine, rules: [envelopeNotSerializable] });
    // A message unreadable as a whole (a revoked proxy) has no result to speak of.
    if (envelope.some((f) => f.path.length === 0)) return envelope;
    const result = resultOrUnreadable(message);
    return [
      ...envelope,
      ...runResultRules(message, ['result'], result, { ...engine, rules: RESULT_SENDABILITY }),
    ];
  },
};

const TOOLS_LIST: Judge = {
  endless: (list, engine) => runToolsListRules(list, { ...engine, rules: TOOLS_LIST_ENDLESS }),
  run: runToolsList,
  sendability: (list, engine) => runToolsListRules(list, { ...engine, rules: [toolsListNotSerializable] }),
};

/**
 * The findings of `judge` on `document`. A document whose own code throws when read (a getter, a proxy's
 * trap, a `toJSON`) cannot be sent: JSON.stringify throws on it, which the sendability rules report
 * (result-not-serializable, envelope-not-serializable, tools-list-not-serializable). The walk and the
 * other rules throw reading it as well, and their failures would read as this validator's own (an
 * internal error, rules "skipped"); rules that read around the throw judge a value they could not see.
 * So those rules' findings are all that is returned.
 * Anything else that throws is a bug of the walk, reported as internal-error. `thrown`: what an earlier
 * read of the document threw.
 */
function judged(document: unknown, engine: EngineOptions, judge: Judge, thrown?: unknown): Finding[] {
  let findings: EngineFinding[] | undefined;
  let failure = thrown;
  if (thrown === undefined) {
    try {
      findings = judge.run(document, engine);
      if (!findings.some(mayBeUnreadable)) return publicFindings(findings);
    } catch (error) {
      failure = error;
    }
  }
  if (readingThrows(document)) {
    try {
      const only = judge.sendability(document, engine);
      if (only.length > 0 && !only.some(isInternal)) return publicFindings(only);
    } catch {
      // Reported below as it was.
    }
  }
  return findings ? publicFindings(findings) : internalError(failure);
}

/** judged of a handler's value as sent: an endless one only by the judge's `endless`. */
function judgedSent(sent: Sent, engine: EngineOptions, judge: Judge): Finding[] {
  if (!sent.endless) return judged(sent.document, engine, judge);
  try {
    return publicFindings(judge.endless(sent.document, engine));
  } catch (error) {
    return internalError(error);
  }
}

/**
 * A message's result, read here; where reading it throws (a getter), a stand-in that throws on every
 * read, as that result does, so that result-not-serializable says it cannot be sent.
 */
function resultOrUnreadable(message: unknown): unknown {
  try {
    return (message as { result?: unknown }).result;
  } catch {
    return UNREADABLE;
  }
}

const UNREADABLE = new Proxy(
  {},
  {
    get() {
      throw new TypeError('unreadable');
    },
    ownKeys() {
      throw new TypeError('unreadable');
    },
  },
);

const SENDABILITY_RULES: ReadonlySet<string> = new Set(
  [resultNotSerializable, envelopeNotSerializable, toolsListNotSerializable].map((rule) => rule.id),
);

function isInternal(f: EngineFinding): boolean {
  return f.messageId === 'internal';
}

/**
 * A finding that may come of a document that throws when read: a rule that failed reading it, or
 * result-not-serializable (whose other causes, a cycle or a BigInt, leave the rest of the findings
 * standing). Rules that read around the throw say nothing reliable either: the mirror check, say, finds
 * no text equal to a structuredContent it could not read.
 */
function mayBeUnreadable(f: EngineFinding): boolean {
  return f.messageId === 'internal' || SENDABILITY_RULES.has(f.rule);
}

/** Validates a JSON-RPC message synchronously; see the module comment for how it differs from the async one. */
export function validateMessageSync(message: unknown, options: ValidateMessageOptions = {}): Finding[] {
  return messageFindings(message, options, false);
}

/** validateMessageSync of a message parsed from JSON text (see validateParsedToolResultSync). @internal */
export function validateParsedMessageSync(
  message: unknown,
  options: ValidateMessageOptions = {},
  scope?: FactScope,
): Finding[] {
  return messageFindings(message, options, true, scope);
}

function messageFindings(
  message: unknown,
  options: ValidateMessageOptions,
  parsed: boolean,
  scope?: FactScope,
): Finding[] {
  checkProtocolVersionOption(options);
  return guard(() => {
    // Parsed, the message is its own sent form, and bounded (no allocation on the proxy's path).
    const sent = parsed ? undefined : guardedAsSent(() => asSent(message), message);
    const document = sent === undefined ? message : sent.document;
    const engine = messageOptions(options, versionFor(options, message), sent?.bounded === false, scope);
    if (sent?.endless) return judgedSent(sent, engine, MESSAGE);
    try {
      if (isQuietMessage(document, engine)) return [];
    } catch (error) {
      return judged(document, engine, MESSAGE, error);
    }
    return judged(document, engine, MESSAGE);
  });
}

/** Validates a tools/list result synchronously (tool definitions carry no payload to sniff). */
export function validateToolsListSync(result: unknown, options: ValidateOptions = {}): Finding[] {
  return toolsListFindings(result, options, false);
}

/** validateToolsListSync of a result parsed from JSON text (see validateParsedToolResultSync). @internal */
export function validateParsedToolsListSync(
  result: unknown,
  options: ValidateOptions = {},
  scope?: FactScope,
): Finding[] {
  return toolsListFindings(result, options, true, scope);
}

function toolsListFindings(
  list: unknown,
  options: ValidateOptions,
  parsed: boolean,
  scope?: FactScope,
): Finding[] {
  checkProtocolVersionOption(options);
  return guard(() => {
    // Parsed, the list is its own sent form, and bounded.
    const sent = parsed ? undefined : guardedAsSent(() => asSent(list), list);
    const document = sent === undefined ? list : sent.document;
    const engine = { version: versionFor(options, list), unbounded: sent?.bounded === false };
    const withScope = scope ? { ...engine, scope } : engine;
    return sent ? judgedSent(sent, withScope, TOOLS_LIST) : judged(document, withScope, TOOLS_LIST);
  });
}

/**
 * The two validators differ only in file-type's answers about payloads, so a document without a payload
 * for file-type to read is validated synchronously: its findings are the same, and it skips the
 * asynchronous path's set-up, which cost a small text result fifteen times its validation.
 */
export function validateToolResult(result: unknown, options: ValidateResultOptions = {}): Promise<Finding[]> {
  const wrongVersion = protocolVersionOptionError(options);
  if (wrongVersion !== undefined) return Promise.reject(wrongVersion);
  const { sent, refusals } = resultAsSent(result, options);
  const engine = resultOptions(options, versionFor(options, result), !sent.bounded);
  // Found endless once is enough: its reading takes the longest of any value's.
  if (sent.endless) return Promise.resolve(judgedSent(sent, engine, RESULT));
  const payloads = guardedPayloads(() => mediaPayloads(sent.document));
  if (payloads?.length === 0) return Promise.resolve(validateToolResultSync(result, options));
  return afterFileType(
    () => payloads ?? [],
    (scope, sniff) => judgedResultSent(sent, refusals, { ...engine, scope, sniff }),
  );
}

/**
 * The result as the wire carries it (./as-sent.ts), and where the SDK v1 server's parse of it refuses
 * the live value (rules/support/sdk-server-parse.ts), which the sent form no longer shows. Without an
 * outputSchema no rule judges the members of structuredContent by value, so they are not walked: the
 * structured results servers send most are large, and the walk would cost a third of their validation.
 */
function resultAsSent(
  result: unknown,
  options: ValidateResultOptions,
): { sent: Sent; refusals: readonly Refusal[] } {
  const tool = options.tool;
  const withSchema = isObject(tool) && tool.outputSchema !== undefined;
  let refusals: readonly Refusal[] = [];
  const sent = guardedAsSent(() => {
    const parsed = asParsedResult(result);
    refusals = sdkRefusals(parsed, withSchema);
    return asSent(parsed, !withSchema);
  }, result);
  return { sent, refusals };
}

/**
 * asSent never throws; this only keeps a bug in it from escaping a validator that must not throw. Then
 * the value is judged as given, and taken for unbounded: nothing was proven of it.
 */
function guardedAsSent(read: () => Sent, document: unknown): Sent {
  try {
    return read();
  } catch {
    return { document, bounded: false };
  }
}

/** The payloads, or `undefined` when reading them threw (a getter of a handler's value, say). */
function guardedPayloads(read: () => PayloadPlace[]): PayloadPlace[] | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

export function validateToolsList(result: unknown, options: ValidateOptions = {}): Promise<Finding[]> {
  const wrongVersion = protocolVersionOptionError(options);
  if (wrongVersion !== undefined) return Promise.reject(wrongVersion);
  return Promise.resolve(validateToolsListSync(result, options));
}

/** As validateToolResult: a message without a payload for file-type is validated synchronously. */
export function validateMessage(message: unknown, options: ValidateMessageOptions = {}): Promise<Finding[]> {
  const wrongVersion = protocolVersionOptionError(options);
  if (wrongVersion !== undefined) return Promise.reject(wrongVersion);
  const sent = guardedAsSent(() => asSent(message), message);
  const engine = messageOptions(options, versionFor(options, message), !sent.bounded);
  if (sent.endless) return Promise.resolve(judgedSent(sent, engine, MESSAGE));
  const payloads = guardedPayloads(() => messagePayloads(sent.document, options));
  if (payloads?.length === 0) return Promise.resolve(validateMessageSync(message, options));
  return afterFileType(
    () => payloads ?? [],
    (scope, sniff) => judgedSent(sent, { ...engine, scope, sniff }, MESSAGE),
  );
}
