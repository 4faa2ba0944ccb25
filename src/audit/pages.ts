/**
 * The pages of one tools/list walk, and what the official TypeScript clients keep of them.
 *
 * The SDK v2 client's `listTools()` walks every page itself and keeps them all in one list; a result
 * is checked against the last definition of its tool that has an outputSchema
 * (@modelcontextprotocol/client 2.4.0 `ClientResponseCache.outputValidator`, as src/core/client-tools.ts
 * orders them). The v1 client does not follow cursors: each `listTools({ cursor })` fetches one page,
 * and `Client.cacheToolMetadata` clears its output validators before it caches those of that page
 * (@modelcontextprotocol/sdk 1.32.2 dist/esm/client/index.js), so a caller that walks every page keeps
 * the outputSchemas of the last page only, and `callTool` checks no other tool's result.
 */

import type { Finding } from '../core/finding.js';
import { isObject, type JsonObject } from '../core/json.js';
import { affectedClients } from '../report/clients.js';
import type { AuditEvent } from './events.js';

interface Place {
  /** 1-based. */
  readonly page: number;
  readonly index: number;
}

/**
 * Clients whose check of a result rests on the v1 client's cache of one page: the v1 client itself,
 * and the clients built on it whose walk of the pages is not known (Gemini CLI is built on SDK 1.23;
 * how Claude Code lists pages is not known). A finding that only an outputSchema the last page lacks
 * makes is no proven failure in any of them.
 */
const PAGE_CACHE_CLIENTS: ReadonlySet<string> = new Set(['ts-sdk-v1', 'gemini-cli', 'claude-code']);

export class ToolPages {
  /** Pages taken. */
  private pages: unknown[][] = [];
  /** Where each name was first listed. */
  private readonly first = new Map<string, Place>();
  /**
   * The first listing of a name on a later page than its first, by name, and on how many more pages
   * after that it is listed: a server that lists its tools on every page is one finding a tool.
   */
  private readonly duplicates = new Map<string, Place & { readonly first: Place; more: number }>();
  /** Names the last page gives an outputSchema (what the v1 client keeps); built when first asked. */
  private lastPageSchemas: Set<string> | undefined;

  /**
   * Takes the tools of the next page. Answers the indexes of those that repeat, unchanged, the
   * definition of their name on an earlier page: their findings are that definition's, said already.
   */
  take(tools: unknown): Set<number> {
    const page = this.pages.length + 1;
    const list = Array.isArray(tools) ? tools : [];
    this.pages.push(list);
    this.lastPageSchemas = undefined;
    const repeats = new Set<number>();
    const onThisPage = new Set<string>();
    list.forEach((tool, index) => {
      if (!isObject(tool) || typeof tool.name !== 'string') return;
      const name = tool.name;
      const first = this.first.get(name);
      if (!first) {
        this.first.set(name, { page, index });
        return;
      }
      // A name twice on one page is tool-name-duplicate's, which judges the page.
      if (first.page === page || onThisPage.has(name)) return;
      onThisPage.add(name);
      const seen = this.duplicates.get(name);
      if (seen) seen.more++;
      else this.duplicates.set(name, { page, index, first, more: 0 });
      if (JSON.stringify(tool) === JSON.stringify(this.pages[first.page - 1]?.[first.index]))
        repeats.add(index);
    });
    return repeats;
  }

  /**
   * One event for each name listed again on a later page, saying which definition the clients use,
   * with the tool and the pointer (into its page) it is reported at.
   */
  events(): { event: AuditEvent; tool: string; pointer: string }[] {
    if (this.duplicates.size === 0) return [];
    const names = this.duplicates;
    // The last definition of each duplicated name with an outputSchema (truthy, as the clients test it).
    const checked = new Map<string, Place>();
    this.pages.forEach((tools, p) => {
      tools.forEach((tool, index) => {
        if (isObject(tool) && typeof tool.name === 'string' && names.has(tool.name) && tool.outputSchema)
          checked.set(tool.name, { page: p + 1, index });
      });
    });
    const last = this.pages.length;
    return [...this.duplicates].map(([name, d]) => {
      const place = checked.get(name);
      const at = place && `the one on page ${place.page} (tool ${place.index})`;
      const uses = !place
        ? 'no definition of it has an outputSchema'
        : place.page === last
          ? `the TypeScript SDK v1 and v2 clients check its results against the outputSchema of ${at}`
          : `the TypeScript SDK v2 client checks its results against the outputSchema of ${at}; the v1 client, which keeps the outputSchemas of the last page it lists (page ${last}), checks none`;
      const event: AuditEvent = {
        event: 'tool-name-duplicate',
        name: JSON.stringify(name),
        page: d.page,
        index: d.index,
        firstPage: d.first.page,
        firstIndex: d.first.index,
        more: d.more,
        uses,
      };
      return { event, tool: name, pointer: `/result/tools/${d.index}/name` };
    });
  }

  /**
   * Whether the v1 client, having walked every page, keeps no outputSchema for a tool that the v2
   * client checks against one (declared on an earlier page only).
   */
  v1LacksSchema(name: string, definitions: readonly JsonObject[]): boolean {
    if (this.pages.length < 2) return false;
    if (!definitions.some((tool) => tool.name === name && tool.outputSchema)) return false;
    this.lastPageSchemas ??= new Set(
      (this.pages.at(-1) ?? []).flatMap((tool) =>
        isObject(tool) && typeof tool.name === 'string' && tool.outputSchema ? [tool.name] : [],
      ),
    );
    return !this.lastPageSchemas.has(name);
  }
}

/** The definitions with those of `name` stripped of their outputSchema: what the v1 client checks by. */
export function withoutOutputSchema(definitions: readonly JsonObject[], name: string): JsonObject[] {
  return definitions.map((tool) => {
    if (tool.name !== name || !Object.hasOwn(tool, 'outputSchema')) return tool;
    const { outputSchema: _, ...rest } = tool;
    return rest;
  });
}

/**
 * The findings of a result judged with the outputSchema the v2 client checks it by (`v2`) and without
 * it, as the v1 client (having walked the pages) checks it (`v1`): each one made only by that schema
 * names no client whose check rests on the v1 client's page cache; one made only without it names
 * only those.
 */
export function splitByPageCache(v2: readonly Finding[], v1: readonly Finding[]): Finding[] {
  const key = (f: Finding) => `${f.rule}\u0000${f.pointer}\u0000${f.message}`;
  const inV1 = new Set(v1.map(key));
  const inV2 = new Set(v2.map(key));
  return [
    ...v2.map((f) => (inV1.has(key(f)) ? f : narrowed(f, (client) => !PAGE_CACHE_CLIENTS.has(client)))),
    ...v1.filter((f) => !inV2.has(key(f))).map((f) => narrowed(f, (client) => client === 'ts-sdk-v1')),
  ];
}

/** The finding naming only those of its clients that `keep` keeps (`data.affected`, src/report/clients.ts). */
export function narrowed(finding: Finding, keep: (client: string) => boolean): Finding {
  const { data } = finding as Finding & { data?: unknown };
  const affected = affectedClients(finding)
    .filter((c) => keep(c.client))
    .map((c) => c.client)
    .join(',');
  return { ...finding, data: { ...(isObject(data) ? data : {}), affected } } as Finding;
}
