/**
 * WebMCP's proposed content blocks → standard MCP blocks.
 *
 * | proposed block                                  | becomes                                                  |
 * |-------------------------------------------------|----------------------------------------------------------|
 * | `{type:"html", html}`                           | embedded `text/html` resource, after the safety pass     |
 * | `{type:"link", url, title?}`                    | resource_link (http and https only; others become text)  |
 * | `{type:"table", headers, rows}`                 | structuredContent `{headers, rows}` + a Markdown table   |
 * | `{type:"error", message}`                       | `isError: true` + a text block                           |
 *
 * The proposal's field names are still moving, so common spellings are accepted: `html`/`content`/`text`
 * for html, `url`/`href`/`uri` and `title`/`text`/`name` for links, `headers`/`columns` for tables,
 * `message`/`error`/`text` for errors. Images over `maxImageBytes` are reported, not changed. The result
 * then goes through `repair()`, so it is conformant for the version (a resource_link becomes text before
 * 2025-06-18, for example).
 */

import { decodedLength } from '../../core/base64.js';
import { isObject, type JsonObject } from '../../core/json.js';
import { features, LATEST_PROTOCOL_VERSION, type ProtocolVersion } from '../../spec/versions.js';
import { cloneJson, safeJson } from '../repair/clone.js';
import type { Fix } from '../repair/engine.js';
import { repair } from '../repair/index.js';
import type { CallToolResult } from '../types.js';
import { sanitizeHtml } from './html.js';

export { type HtmlRemoval, type SanitizedHtml, sanitizeHtml } from './html.js';

/** 5 MB: Claude Code's per-image limit (client-compat.md §1). */
export const DEFAULT_MAX_IMAGE_BYTES = 5 * 1024 * 1024;

export interface WebMcpOptions {
  readonly protocolVersion?: ProtocolVersion;
  /** Images whose decoded size exceeds this are reported. Default 5 MB. */
  readonly maxImageBytes?: number;
}

/** Something the conversion did or noticed; the `rule` names start with `webmcp-`. */
export type WebMcpReport = Fix;

export interface WebMcpResult<V extends ProtocolVersion = ProtocolVersion> {
  readonly result: CallToolResult<V>;
  /** Conversions, removals by the HTML safety pass, and the repairs that followed. */
  readonly fixes: readonly WebMcpReport[];
  /** Problems left as they are (images over the size limit). */
  readonly warnings: readonly WebMcpReport[];
}

function firstString(block: JsonObject, keys: readonly string[]): string | undefined {
  for (const key of keys) if (typeof block[key] === 'string') return block[key] as string;
  return undefined;
}

function cell(value: unknown): string {
  const text = typeof value === 'string' ? value : (safeJson(value) ?? '');
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, '<br>');
}

export function markdownTable(headers: readonly unknown[], rows: readonly (readonly unknown[])[]): string {
  const width = Math.max(headers.length, ...rows.map((r) => r.length), 1);
  const pad = (row: readonly unknown[]) => Array.from({ length: width }, (_, i) => cell(row[i] ?? ''));
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [
    line(pad(headers)),
    line(Array.from({ length: width }, () => '---')),
    ...rows.map((r) => line(pad(r))),
  ].join('\n');
}

interface Converted {
  readonly blocks: JsonObject[];
  readonly fixes: WebMcpReport[];
  readonly table?: { headers: unknown[]; rows: unknown[][] };
  readonly isError?: boolean;
}

function convertHtml(block: JsonObject, pointer: string, index: number): Converted {
  const html = firstString(block, ['html', 'content', 'text']) ?? '';
  const { html: safe, removed } = sanitizeHtml(html);
  const fixes: WebMcpReport[] = removed.map((r) => ({
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
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
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
        description:
          'converted the table block to a Markdown table, with { headers, rows } as structuredContent',
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

function convertBlock(block: unknown, index: number): Converted | undefined {
  if (!isObject(block)) return undefined;
  const pointer = `/content/${index}`;
  switch (block.type) {
    case 'html':
      return convertHtml(block, pointer, index);
    case 'link':
      return convertLink(block, pointer);
    case 'table':
      return convertTable(block, pointer);
    case 'error':
      return convertError(block, pointer);
    default:
      return undefined;
  }
}

function imageWarnings(content: readonly unknown[], maxBytes: number): WebMcpReport[] {
  const warnings: WebMcpReport[] = [];
  content.forEach((block, index) => {
    if (isObject(block) && block.type === 'image' && typeof block.data === 'string') {
      const bytes = decodedLength(block.data);
      if (bytes > maxBytes) {
        warnings.push({
          rule: 'webmcp-image-too-large',
          pointer: `/content/${index}`,
          description: `image of ${bytes} bytes is over the ${maxBytes}-byte limit`,
        });
      }
    }
  });
  return warnings;
}

/**
 * Converts a result that may hold WebMCP's proposed blocks into a conformant CallToolResult. A bare
 * array of blocks is accepted as the content.
 */
export async function convertWebMcp<V extends ProtocolVersion = ProtocolVersion>(
  input: unknown,
  options: WebMcpOptions & { protocolVersion?: V } = {},
): Promise<WebMcpResult<V>> {
  const version = options.protocolVersion ?? LATEST_PROTOCOL_VERSION;
  const source = Array.isArray(input) ? { content: input } : isObject(input) ? input : { content: [input] };
  const result = cloneJson(source) as JsonObject;
  const fixes: WebMcpReport[] = [];
  if (Array.isArray(result.content)) {
    const content: unknown[] = [];
    let table: Converted['table'];
    result.content.forEach((block, index) => {
      const converted = convertBlock(block, index);
      if (!converted) {
        content.push(block);
        return;
      }
      content.push(...converted.blocks);
      fixes.push(...converted.fixes);
      if (converted.isError) result.isError = true;
      table ??= converted.table;
    });
    result.content = content;
    if (table && features(version).structuredContent !== 'none' && result.structuredContent === undefined) {
      result.structuredContent = table;
    }
  }
  const warnings = Array.isArray(result.content)
    ? imageWarnings(result.content, options.maxImageBytes ?? DEFAULT_MAX_IMAGE_BYTES)
    : [];
  if (features(version).resultTypeRequired && result.resultType === undefined) result.resultType = 'complete';
  const repaired = await repair(result, { protocolVersion: version });
  return { result: repaired.result as CallToolResult<V>, fixes: [...fixes, ...repaired.fixes], warnings };
}
