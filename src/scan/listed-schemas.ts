/**
 * The outputSchema a low-level server's tools/list handler gives each tool (TS
 * `setRequestHandler(ListToolsRequestSchema, …)`, Python `@server.list_tools()`), read from the
 * documents its returns may be: clients (and python-sdk's low-level server itself) check
 * structuredContent against what tools/list said. A name listed with two different schemas, or with a
 * schema the source does not fix, gets none.
 */

import { isObject } from '../core/json.js';
import type { HandlerSite } from './analyze.js';
import { isFullyKnown } from './values.js';

/** Tool name → its schema, or null when no single schema is known. */
export type ListedSchemas = Map<string, Record<string, unknown> | null>;

/** Records what one listed tool (a `Tool` of a concrete document) says of its outputSchema. */
export function noteListedSchema(listed: ListedSchemas, tool: unknown): void {
  if (!isObject(tool) || typeof tool.name !== 'string' || !Object.hasOwn(tool, 'outputSchema')) return;
  const schema = tool.outputSchema;
  const known = isObject(schema) && isFullyKnown(schema) ? schema : null;
  const before = listed.get(tool.name);
  const same = before && known && JSON.stringify(before) === JSON.stringify(known);
  listed.set(tool.name, before === undefined || same ? known : null);
}

/**
 * The handlers, each tool listed with a known schema given it (unless it has one already).
 * `serverChecksOutput`: the server checks structuredContent against the listed schema itself
 * (python-sdk's low-level server does; the TypeScript SDK's low-level `Server` leaves it to clients).
 */
export function withSchemas(
  handlers: HandlerSite[],
  listed: ListedSchemas,
  serverChecksOutput = false,
): HandlerSite[] {
  if (listed.size === 0) return handlers;
  const checks = serverChecksOutput ? { serverChecksOutput } : {};
  return handlers.map((h) => {
    if (h.outputSchema || h.outputSchemaUnproven) return h;
    const schema = listed.get(h.tool);
    if (schema === null)
      return {
        ...h,
        ...checks,
        outputSchemaUnproven: 'the outputSchema tools/list gives the tool is not known statically',
      };
    return schema ? { ...h, ...checks, outputSchema: schema } : h;
  });
}
