/**
 * The public validators. They never throw and report every problem, not only the first. They are
 * asynchronous because MIME sniffing (file-type) is; the rules themselves run synchronously.
 */

import { base64Problem } from '../core/base64.js';
import type { Finding } from '../core/finding.js';
import { isObject, type JsonObject } from '../core/json.js';
import { type PathSegment, toPointer } from '../core/pointer.js';
import { type Sniffed, sniffBase64 } from '../core/sniff.js';
import { assumedProtocolVersion, type ProtocolVersion } from '../spec/versions.js';
import { type EngineFinding, responseKind, runMessage, runToolResult, runToolsList } from './engine.js';

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
  if (Object.keys(f.data).length > 0) (out as Finding & { data?: unknown }).data = f.data;
  return out;
}

/**
 * Base64 payloads of a result's blocks, by absolute path. A plain loop into an array, not a generator:
 * this runs on every validation, and most results have no payload at all.
 */
export function mediaPayloads(result: unknown, base: readonly PathSegment[]): [PathSegment[], string][] {
  const payloads: [PathSegment[], string][] = [];
  if (!isObject(result) || !Array.isArray(result.content)) return payloads;
  const content = result.content;
  for (let i = 0; i < content.length; i++) {
    const block = content[i];
    if (!isObject(block)) continue;
    if ((block.type === 'image' || block.type === 'audio') && typeof block.data === 'string') {
      payloads.push([[...base, 'content', i, 'data'], block.data]);
    } else if (
      block.type === 'resource' &&
      isObject(block.resource) &&
      typeof block.resource.blob === 'string'
    ) {
      payloads.push([[...base, 'content', i, 'resource', 'blob'], block.resource.blob]);
    }
  }
  return payloads;
}

const NOTHING_SNIFFED: ReadonlyMap<string, Sniffed> = new Map();

/**
 * Sniffs every base64 payload of a result. Returns synchronously when there is nothing to sniff, so a
 * text-only result never waits for a microtask.
 */
export function sniffResult(
  result: unknown,
  base: readonly PathSegment[] = [],
): ReadonlyMap<string, Sniffed> | Promise<ReadonlyMap<string, Sniffed>> {
  let jobs: Promise<void>[] | undefined;
  const sniffed = new Map<string, Sniffed>();
  for (const [path, data] of mediaPayloads(result, base)) {
    const problem = base64Problem(data);
    if (problem !== undefined && problem !== 'non-canonical') continue;
    jobs ??= [];
    jobs.push(
      sniffBase64(data).then((s) => {
        if (s) sniffed.set(toPointer(path), s);
      }),
    );
  }
  return jobs ? Promise.all(jobs).then(() => sniffed) : NOTHING_SNIFFED;
}

/** Runs `check` once sniffing is done, without an extra microtask when there was nothing to sniff. */
function afterSniffing(
  sniff: () => ReadonlyMap<string, Sniffed> | Promise<ReadonlyMap<string, Sniffed>>,
  check: (sniffed: ReadonlyMap<string, Sniffed>) => Finding[],
): Promise<Finding[]> {
  let pending: ReadonlyMap<string, Sniffed> | Promise<ReadonlyMap<string, Sniffed>>;
  try {
    pending = sniff();
  } catch {
    pending = NOTHING_SNIFFED;
  }
  if (pending instanceof Promise) {
    return pending.then(
      (sniffed) => guard(() => check(sniffed)),
      () => guard(() => check(NOTHING_SNIFFED)),
    );
  }
  return Promise.resolve(guard(() => check(pending as ReadonlyMap<string, Sniffed>)));
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
    // The engine already isolates rules; this only catches a bug in the walk itself.
    const detail = error instanceof Error ? error.message : String(error);
    return [
      { rule: 'internal-error', severity: 'error', message: `validation failed: ${detail}`, pointer: '' },
    ];
  }
}

export function validateToolResult(result: unknown, options: ValidateResultOptions = {}): Promise<Finding[]> {
  return afterSniffing(
    () => sniffResult(result),
    (sniffed) =>
      runToolResult(result, {
        version: options.protocolVersion ?? assumedProtocolVersion(result),
        tool: isObject(options.tool) ? options.tool : undefined,
        sniffed,
      }).map(publicFinding),
  );
}

export function validateToolsList(result: unknown, options: ValidateOptions = {}): Promise<Finding[]> {
  return Promise.resolve(
    guard(() =>
      runToolsList(result, { version: options.protocolVersion ?? assumedProtocolVersion(result) }).map(
        publicFinding,
      ),
    ),
  );
}

export function validateMessage(message: unknown, options: ValidateMessageOptions = {}): Promise<Finding[]> {
  const request = isObject(options.request) ? options.request : undefined;
  return afterSniffing(
    () =>
      isObject(message) &&
      Object.hasOwn(message, 'result') &&
      responseKind(message.result, request) === 'tools/call'
        ? sniffResult(message.result, ['result'])
        : NOTHING_SNIFFED,
    (sniffed) =>
      runMessage(message, {
        version: options.protocolVersion ?? assumedProtocolVersion(message),
        request,
        tools: toolsByName(options.tools),
        sniffed,
      }).map(publicFinding),
  );
}
