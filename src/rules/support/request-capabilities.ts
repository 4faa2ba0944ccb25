/**
 * What the client declared for one 2026-07-28 request. That version declares client capabilities per
 * request, in `params._meta["io.modelcontextprotocol/clientCapabilities"]`, and "servers MUST NOT infer
 * capabilities from prior requests": a result is judged by the capabilities of the request it answers.
 */

import { isObject, type JsonObject } from '../../core/json.js';
import type { CheckContext } from '../types.js';

const CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';

/**
 * The client capabilities the answered request declared: `undefined` when the request is not known or
 * declares none in the 2026-07-28 way (then nothing can be told), `{}` for a client that declared none.
 */
export function requestClientCapabilities(ctx: Pick<CheckContext, 'request'>): JsonObject | undefined {
  const params = ctx.request?.params;
  const meta = isObject(params) ? params._meta : undefined;
  const capabilities = isObject(meta) ? meta[CAPABILITIES_KEY] : undefined;
  return isObject(capabilities) ? capabilities : undefined;
}
