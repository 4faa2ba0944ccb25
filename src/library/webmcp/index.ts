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

import { appendAll } from '../../core/append.js';
import { decodedLength } from '../../core/base64.js';
import { isObject, type JsonObject } from '../../core/json.js';
import { DEFAULT_PROTOCOL_VERSION, features, type ProtocolVersion } from '../../spec/versions.js';
import { checkedOptions } from '../options.js';
import { cloneJson } from '../repair/clone.js';
import type { Fix } from '../repair/engine.js';
import { repair } from '../repair/index.js';
import type { CallToolResult } from '../types.js';
import { type Converted, convertBlock } from './blocks.js';

export { markdownTable } from '../../core/markdown-table.js';
export { type HtmlRemoval, type SanitizedHtml, sanitizeHtml } from './html.js';

/** 5 MB: Claude Code's per-image limit (client-compat.md §1). */
export const DEFAULT_MAX_IMAGE_BYTES = 5 * 1024 * 1024;

export interface WebMcpOptions {
  /** The negotiated protocol version; default: DEFAULT_PROTOCOL_VERSION (2025-11-25). */
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
  options = checkedOptions(options, 'convertWebMcp()');
  const version = options.protocolVersion ?? DEFAULT_PROTOCOL_VERSION;
  const source = Array.isArray(input) ? { content: input } : isObject(input) ? input : { content: [input] };
  const result = cloneJson(source) as JsonObject;
  const fixes: WebMcpReport[] = [];
  if (Array.isArray(result.content)) {
    const content: unknown[] = [];
    let table: Converted['table'];
    // Where the fix of the first table is: only that table becomes structuredContent, and only when the
    // version has it and the result has none of its own, so only its fix says so.
    let tableFix = -1;
    result.content.forEach((block, index) => {
      const converted = convertBlock(block, index);
      if (!converted) {
        content.push(block);
        return;
      }
      appendAll(content, converted.blocks);
      if (converted.table && table === undefined) {
        table = converted.table;
        tableFix = fixes.length;
      }
      appendAll(fixes, converted.fixes);
      if (converted.isError) result.isError = true;
    });
    result.content = content;
    const fix = fixes[tableFix];
    if (
      table &&
      fix &&
      features(version).structuredContent !== 'none' &&
      result.structuredContent === undefined
    ) {
      result.structuredContent = table;
      fixes[tableFix] = {
        ...fix,
        description: `${fix.description}, with { headers, rows } as structuredContent`,
      };
    }
  }
  const warnings = Array.isArray(result.content)
    ? imageWarnings(result.content, options.maxImageBytes ?? DEFAULT_MAX_IMAGE_BYTES)
    : [];
  if (features(version).resultTypeRequired && result.resultType === undefined) result.resultType = 'complete';
  const repaired = await repair(result, { protocolVersion: version });
  return { result: repaired.result as CallToolResult<V>, fixes: [...fixes, ...repaired.fixes], warnings };
}
