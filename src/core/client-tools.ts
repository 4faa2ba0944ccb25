/**
 * Which definition of a tool the official SDK clients check a tools/call result against. A tools/list
 * may name a tool twice (tool-name-duplicate); the clients then keep the outputSchema of the last
 * definition that has one (TypeScript SDK v1 `Client.cacheToolMetadata`, v2 `outputValidator`: a tool
 * without one sets nothing), so `[{a, outputSchema}, {a}]` still makes `callTool("a")` demand
 * structuredContent. A by-name map in which the last definition wins (validate's `toolsByName`, the
 * proxy's learnt tools) holds that definition when built from the list this returns.
 */

import type { JsonObject } from './json.js';

/** The tools reordered, stably, so that for every name the last one is the definition the clients use. */
export function inClientOrder(tools: readonly JsonObject[]): JsonObject[] {
  // The clients test `tool.outputSchema` for truth, not for presence.
  const without = tools.filter((tool) => !tool.outputSchema);
  if (without.length === tools.length || without.length === 0) return [...tools];
  return [...without, ...tools.filter((tool) => tool.outputSchema)];
}
