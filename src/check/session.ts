/**
 * Checks a recorded session: JSON-RPC messages in order, as JSONL or a JSON array. Requests and
 * responses are paired by id; the protocol version comes from `initialize` or `server/discover` (or a
 * 2026-07-28 request's `_meta`), and tools/list responses supply outputSchemas for later calls.
 */

import type { Finding, Location } from '../core/finding.js';
import { isObject, type JsonObject } from '../core/json.js';
import { negotiatedVersion, requestedVersion } from '../spec/negotiation.js';
import type { ProtocolVersion } from '../spec/versions.js';
import { validateMessageSync } from '../validate/index.js';

export interface SessionMessage {
  readonly line: number;
  readonly value: unknown;
}

export interface SessionResult {
  readonly findings: Finding[];
  readonly checked: number;
  /** Versions seen, in order of first use. */
  readonly protocolVersions: ProtocolVersion[];
}

/** Recorders often wrap each message with its direction; accept `{ message: {...} }` too. */
function unwrap(value: unknown): unknown {
  if (isObject(value) && !Object.hasOwn(value, 'jsonrpc') && isObject(value.message)) return value.message;
  return value;
}

export async function checkSession(
  messages: readonly SessionMessage[],
  options: { fallbackVersion: ProtocolVersion; file?: string; tools?: ReadonlyMap<string, JsonObject> },
): Promise<SessionResult> {
  const findings: Finding[] = [];
  const pending = new Map<string, JsonObject>();
  const tools = new Map<string, JsonObject>(options.tools ?? []);
  const versions: ProtocolVersion[] = [];
  let version = options.fallbackVersion;
  const use = (v: ProtocolVersion) => {
    version = v;
    if (!versions.includes(v)) versions.push(v);
  };

  for (const { line, value: raw } of messages) {
    const message = unwrap(raw);
    let request: JsonObject | undefined;
    if (isObject(message) && typeof message.method === 'string') {
      const declared = requestedVersion(message);
      if (declared) use(declared);
      if (Object.hasOwn(message, 'id')) pending.set(JSON.stringify(message.id), message);
    } else if (isObject(message) && Object.hasOwn(message, 'id')) {
      const key = JSON.stringify(message.id);
      request = pending.get(key);
      pending.delete(key);
      const negotiated = negotiatedVersion(request, message.result);
      if (negotiated) use(negotiated);
    }
    if (!versions.includes(version)) versions.push(version);

    const toolName = toolNameOf(request);
    const location: Location = {
      ...(options.file ? { file: options.file } : {}),
      line,
      protocolVersion: version,
      ...(toolName ? { tool: toolName } : {}),
      ...(isObject(message) && Object.hasOwn(message, 'id') ? { call: String(message.id) } : {}),
    };
    const messageFindings = validateMessageSync(message, {
      protocolVersion: version,
      request,
      tools: [...tools.values()],
    });
    for (const f of messageFindings) findings.push({ ...f, location });

    if (request?.method === 'tools/list' && isObject(message) && isObject(message.result)) {
      const listed = message.result.tools;
      if (Array.isArray(listed)) {
        for (const tool of listed)
          if (isObject(tool) && typeof tool.name === 'string') tools.set(tool.name, tool);
      }
    }
  }
  return { findings, checked: messages.length, protocolVersions: versions };
}

function toolNameOf(request: JsonObject | undefined): string | undefined {
  if (request?.method !== 'tools/call' || !isObject(request.params)) return undefined;
  return typeof request.params.name === 'string' ? request.params.name : undefined;
}
