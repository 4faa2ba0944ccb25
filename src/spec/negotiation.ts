/**
 * Which protocol version a recorded or relayed conversation speaks, read from its messages: what
 * `initialize` proposes and answers, what `server/discover` offers, and the per-request `_meta` of
 * 2026-07-28. Shared by `check` (sessions) and the proxy.
 */

import { isObject, type JsonObject } from '../core/json.js';
import { type ProtocolVersion, parseProtocolVersion } from './versions.js';

const PROTOCOL_META = 'io.modelcontextprotocol/protocolVersion';

/** The version a request speaks: what `initialize` proposes, or a 2026-07-28 request's `_meta`. */
export function requestedVersion(request: JsonObject): ProtocolVersion | undefined {
  const params = isObject(request.params) ? request.params : undefined;
  if (request.method === 'initialize' && typeof params?.protocolVersion === 'string') {
    return parseProtocolVersion(params.protocolVersion);
  }
  const meta = params && isObject(params._meta) ? params._meta : undefined;
  const declared = meta?.[PROTOCOL_META];
  return typeof declared === 'string' ? parseProtocolVersion(declared) : undefined;
}

/** The version a response settles: `initialize`'s answer, or the newest known one `server/discover` offers. */
export function negotiatedVersion(
  request: JsonObject | undefined,
  result: unknown,
): ProtocolVersion | undefined {
  if (!request || !isObject(result)) return undefined;
  if (request.method === 'initialize' && typeof result.protocolVersion === 'string') {
    return parseProtocolVersion(result.protocolVersion);
  }
  if (request.method === 'server/discover' && Array.isArray(result.supportedVersions)) {
    // The client picks one of the server's versions; until a later request's _meta says which, assume the newest.
    const known = result.supportedVersions
      .filter((v): v is string => typeof v === 'string')
      .map((v) => parseProtocolVersion(v))
      .filter((v): v is ProtocolVersion => v !== undefined)
      .sort();
    return known[known.length - 1];
  }
  return undefined;
}
