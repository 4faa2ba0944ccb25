/**
 * What the proxy knows about one client–server conversation, and what it does to each message. Pure:
 * the transport (stdio.ts) hands it raw lines and writes what it returns.
 *
 * Client messages pass through untouched; they only teach the session which requests are pending, the
 * negotiated protocol version and the tools' outputSchemas. Server messages are repaired for that
 * version with repairMessageSync(). Nothing is dropped: a message that is not JSON cannot be repaired and is
 * handed back as `unparsed`, so the transport can surface it instead of corrupting the client's stream.
 */

import { isObject, type JsonObject } from '../core/json.js';
import { type Fix, repairMessageSync } from '../library/repair/index.js';
import { negotiatedVersion, requestedVersion } from '../spec/negotiation.js';
import type { ProtocolVersion } from '../spec/versions.js';

export interface ServerMessageOutcome {
  /** The line to send to the client, without its newline; absent when the input was not JSON. */
  readonly line?: string;
  /** The input line, when it was not JSON. */
  readonly unparsed?: string;
  readonly fixes: readonly Fix[];
  /** The request the message answers, when known: its method and, for tools/call, the tool name. */
  readonly answering?: { readonly method: string; readonly tool?: string };
  readonly protocolVersion: ProtocolVersion;
}

export class ProxySession {
  private readonly pending = new Map<string, JsonObject>();
  private readonly tools = new Map<string, JsonObject>();
  private version: ProtocolVersion;

  /**
   * @param initialVersion used until the conversation says which version it speaks
   * @param fixedVersion keep the negotiated version from overriding `initialVersion` (`--protocol`)
   */
  constructor(
    initialVersion: ProtocolVersion,
    private readonly fixedVersion = false,
  ) {
    this.version = initialVersion;
  }

  get protocolVersion(): ProtocolVersion {
    return this.version;
  }

  /** Learns from a client line; the line itself is forwarded unchanged by the caller. */
  observeClient(line: string): void {
    const message = parse(line);
    for (const item of Array.isArray(message) ? message : [message]) {
      if (!isObject(item) || typeof item.method !== 'string') continue;
      const declared = requestedVersion(item);
      if (declared) this.use(declared);
      if (Object.hasOwn(item, 'id')) this.pending.set(JSON.stringify(item.id), item);
    }
  }

  async repairServer(line: string): Promise<ServerMessageOutcome> {
    const message = parse(line);
    if (message === undefined) return { unparsed: line, fixes: [], protocolVersion: this.version };
    if (Array.isArray(message)) {
      // A 2025-03-26 batch: each member is repaired on its own.
      const outcomes = await Promise.all(message.map((item) => this.repairOne(item)));
      return {
        line: JSON.stringify(outcomes.map((o) => o.message)),
        fixes: outcomes.flatMap((o) => o.fixes),
        protocolVersion: this.version,
      };
    }
    const outcome = await this.repairOne(message);
    const changed = outcome.fixes.length > 0;
    return {
      // An untouched message goes out byte for byte as it came in.
      line: changed ? JSON.stringify(outcome.message) : line,
      fixes: outcome.fixes,
      ...(outcome.answering ? { answering: outcome.answering } : {}),
      protocolVersion: this.version,
    };
  }

  private async repairOne(message: unknown): Promise<{
    message: unknown;
    fixes: readonly Fix[];
    answering?: { method: string; tool?: string };
  }> {
    const request =
      isObject(message) && Object.hasOwn(message, 'id') && !('method' in message)
        ? this.takePending(message.id)
        : undefined;
    if (request) this.learnFromResponse(request, message as JsonObject);
    const { message: repaired, fixes } = repairMessageSync(message, {
      protocolVersion: this.version,
      request,
      tools: [...this.tools.values()],
    });
    if (request?.method === 'tools/list' && isObject(repaired) && isObject(repaired.result)) {
      const listed = repaired.result.tools;
      if (Array.isArray(listed)) {
        for (const tool of listed)
          if (isObject(tool) && typeof tool.name === 'string') this.tools.set(tool.name, tool);
      }
    }
    const answering = request ? describe(request) : undefined;
    return { message: repaired, fixes, ...(answering ? { answering } : {}) };
  }

  private takePending(id: unknown): JsonObject | undefined {
    const key = JSON.stringify(id);
    const request = this.pending.get(key);
    this.pending.delete(key);
    return request;
  }

  private learnFromResponse(request: JsonObject, response: JsonObject): void {
    const negotiated = negotiatedVersion(request, response.result);
    if (negotiated) this.use(negotiated);
  }

  private use(version: ProtocolVersion): void {
    if (!this.fixedVersion) this.version = version;
  }
}

function parse(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

function describe(request: JsonObject): { method: string; tool?: string } | undefined {
  if (typeof request.method !== 'string') return undefined;
  const params = isObject(request.params) ? request.params : undefined;
  const tool = request.method === 'tools/call' && typeof params?.name === 'string' ? params.name : undefined;
  return tool ? { method: request.method, tool } : { method: request.method };
}
