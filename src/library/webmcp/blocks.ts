/**
 * The converters of WebMCP's proposed blocks, one block at a time. Shared by `convertWebMcp()` and by
 * `repair()`, which must not let an `html` block through unsanitized or a `javascript:` link through
 * as a resource_link just because it met the block in a result rather than through convertWebMcp().
 */

import { isObject, type JsonObject } from '../../core/json.js';
import { markdownTable } from '../../core/markdown-table.js';
import { cloneJson } from '../repair/clone.js';
import type { Fix } from '../repair/engine.js';
import { sanitizeHtml } from './html.js';

function firstString(block: JsonObject, keys: readonly string[]): string | undefined {
  for (const key of keys) if (typeof block[key] === 'string') return block[key] as string;
  return undefined;
}

export interface Converted {
  readonly blocks: JsonObject[];
  readonly fixes: Fix[];
  readonly table?: { headers: unknown[]; rows: unknown[][] };
  readonly isError?: boolean;
}

function convertHtml(block: JsonObject, pointer: string, index: number): Converted {
  const html = firstString(block, ['html', 'content', 'text']) ?? '';
  const { html: safe, removed } = sanitizeHtml(html);
  const fixes: Fix[] = removed.map((r) => ({
    rule: 'webmcp-html-unsafe',
    pointer,
    description: `removed ${r.what} (${r.reason})`,
    lossy: true,
  }));
  fixes.push({
    rule: 'webmcp-html',
    pointer,
    description: 'converted the html block to an embedded text/html resource',
  });
  return {
    blocks: [
      {
        type: 'resource',
        resource: { uri: `urn:mcp-shape:html:${index}`, mimeType: 'text/html', text: safe },
      },
    ],
    fixes,
  };
}

function convertLink(block: JsonObject, pointer: string): Converted {
  const url = firstString(block, ['url', 'href', 'uri']) ?? '';
  const label = firstString(block, ['title', 'text', 'name']);
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    return {
      blocks: [
        { type: 'text', text: `${label ?? 'Link'} (not linked: only http and https URLs are allowed)` },
      ],
      fixes: [
        {
          rule: 'webmcp-link-unsafe',
          pointer,
          description: `dropped the link to ${JSON.stringify(url.slice(0, 60))}: only http and https URLs are allowed`,
          lossy: true,
        },
      ],
    };
  }
  const link: JsonObject = { type: 'resource_link', uri: parsed.href, name: label ?? parsed.href };
  if (label !== undefined) link.title = label;
  return {
    blocks: [link],
    fixes: [{ rule: 'webmcp-link', pointer, description: 'converted the link block to a resource_link' }],
  };
}

function convertTable(block: JsonObject, pointer: string): Converted {
  const headersValue = Array.isArray(block.headers)
    ? block.headers
    : Array.isArray(block.columns)
      ? block.columns
      : [];
  const headers = cloneJson(headersValue) as unknown[];
  const rows = (Array.isArray(block.rows) ? block.rows : []).map((row) =>
    Array.isArray(row) ? (cloneJson(row) as unknown[]) : [cloneJson(row) ?? null],
  );
  return {
    blocks: [{ type: 'text', text: markdownTable(headers, rows) }],
    fixes: [
      {
        rule: 'webmcp-table',
        pointer,
        // convertWebMcp adds ", with { headers, rows } as structuredContent" to the one table that is.
        description: 'converted the table block to a Markdown table',
      },
    ],
    table: { headers, rows },
  };
}

function convertError(block: JsonObject, pointer: string): Converted {
  const message = firstString(block, ['message', 'error', 'text']) ?? 'The tool reported an error.';
  return {
    blocks: [{ type: 'text', text: message }],
    fixes: [
      {
        rule: 'webmcp-error',
        pointer,
        description: 'converted the error block to isError with a text block',
      },
    ],
    isError: true,
  };
}

/**
 * One WebMCP block as standard blocks, or `undefined` for any other block. `contentPointer` is where the
 * content array sits in the document (`/content` for a bare result), for the fixes' pointers.
 */
export function convertBlock(
  block: unknown,
  index: number,
  contentPointer = '/content',
): Converted | undefined {
  if (!isObject(block)) return undefined;
  const pointer = `${contentPointer}/${index}`;
  switch (block.type) {
    case 'html':
      return convertHtml(block, pointer, index);
    case 'link':
      return convertLink(block, pointer);
    case 'table':
      return convertTable(block, pointer);
    case 'error':
      return convertError(block, pointer);
  }
  return undefined;
}
