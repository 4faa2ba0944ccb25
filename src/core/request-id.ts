/**
 * Request ids as clients match them. JSON-RPC wants a response to carry its request's id unchanged,
 * but the official SDK clients convert a string id before they look the request up: the TypeScript
 * SDK takes `Number(response.id)`, the Python SDK and rmcp parse a numeric string as an integer. So a
 * server that sends `"3"` back for `3` still lands there, and both the audit (which judges it) and the
 * proxy (which restores the id) match such an answer as the TypeScript SDK does.
 */

/** The number the TypeScript SDK client matches a string response id as, or undefined if none. */
export function convertedId(id: string): number | undefined {
  const n = Number(id);
  return Number.isFinite(n) ? n : undefined;
}
