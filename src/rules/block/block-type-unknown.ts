import { isObject, type JsonObject, jsonTypeOf } from '../../core/json.js';
import { markdownTable } from '../../core/markdown-table.js';
import { mediaFamily } from '../../core/sniff.js';
import { isAbsoluteUri } from '../../core/uri.js';
import { ALL_VERSIONS, BLOCK_TYPES, type BlockType } from '../../spec/versions.js';
import { serialize } from '../support/call-tool-result.js';
import { defineRule, type RepairContext, type RepairOutcome } from '../types.js';
import { blockAt, replaceBlock, resultAt, syntheticUri, textBlock } from './support/block.js';
import { PYTHON_SDK_REJECTS, RMCP_CLIENTS, SDK_BASED_CLIENTS, tsSdkRejects } from './support/clients.js';
import {
  adoptStructuredContent,
  bytesBlock,
  carryCommon,
  dataUrlBytes,
  describeBlock,
  firstString,
  isJsonMediaType,
  linkBlock,
} from './support/convert.js';

/**
 * What people put in `type` instead of a standard block, mapped to the migration hint (a message id).
 * Sources: client-compat.md §4 (#13 `json`, #14 `error`, #15 `json`, #16 `application/json`, #17 `blob`)
 * and WebMCP's proposed `html`/`link`/`table`/`error` blocks.
 */
type Hint =
  | 'structured'
  | 'error'
  | 'binary'
  | 'html'
  | 'table'
  | 'link'
  | 'textLike'
  | 'imageUrl'
  | 'sampling'
  | 'mimeType'
  | 'case'
  | 'default';

const HINTS: Readonly<Record<string, Hint>> = {
  object: 'structured',
  json: 'structured',
  structured: 'structured',
  data: 'structured',
  error: 'error',
  blob: 'binary',
  file: 'binary',
  binary: 'binary',
  bytes: 'binary',
  base64: 'binary',
  document: 'binary',
  html: 'html',
  table: 'table',
  link: 'link',
  url: 'link',
  uri: 'link',
  markdown: 'textLike',
  md: 'textLike',
  string: 'textLike',
  plain: 'textLike',
  input_text: 'textLike',
  output_text: 'textLike',
  image_url: 'imageUrl',
  tool_use: 'sampling',
  tool_result: 'sampling',
};

function hintFor(type: string): Hint {
  const known = HINTS[type];
  if (known) return known;
  if ((BLOCK_TYPES as readonly string[]).includes(type.toLowerCase())) return 'case';
  if (mediaFamily(type) !== undefined && type.includes('/')) return 'mimeType';
  const lower = type.toLowerCase();
  return HINTS[lower] ?? 'default';
}

function isStandard(type: unknown): type is BlockType {
  return typeof type === 'string' && (BLOCK_TYPES as readonly string[]).includes(type);
}

export default defineRule({
  id: 'block-type-unknown',
  subject: 'block',
  severity: 'error',
  title: 'Content blocks must have a standard type',
  rationale: [
    '`CallToolResult.content` items are a closed union discriminated by `type`: `text`, `image`,',
    '`resource` in 2024-11-05, plus `audio` from 2025-03-26 and `resource_link` from 2025-06-18. Any other',
    'value (`object`, `json`, `error`, `blob`, `html`, a MIME type…) fails the official schema, and clients',
    'with closed unions (the official SDKs, rmcp in Codex and Goose, Zed) reject the whole result, so every',
    'block of the call is lost. `tool_use` and `tool_result` exist only in sampling messages.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [
    tsSdkRejects(),
    {
      client: 'claude-code',
      effect: 'rejects-call',
      detail: '`MCP error -32602: Invalid tools/call result`',
      source: 'ElliotPadfield/unpaywall-mcp #4 (`type: "json"`)',
    },
    {
      client: 'cline',
      effect: 'rejects-call',
      detail: 'zod `invalid_union`, received `"application/json"`',
      source: 'waldzellai/waldzell-mcp #44',
    },
    ...RMCP_CLIENTS,
    {
      client: 'zed',
      effect: 'rejects-call',
      detail: 'serde `unknown variant` (closed tagged enum `ToolResponseContent`)',
      source: 'zed crates/context_server/src/types.rs (inferred)',
    },
    PYTHON_SDK_REJECTS,
    ...SDK_BASED_CLIENTS,
  ],
  messages: {
    default:
      'unknown content block type "{{type}}"; the standard types are text, image, audio, resource_link and resource',
    missing: 'content block has no "type"',
    notString: 'content block "type" must be a string, got {{actual}}',
    structured:
      'unknown content block type "{{type}}": return JSON as structuredContent and mirror it in a text block',
    error:
      'unknown content block type "error": set `isError: true` on the result and explain the error in a text block',
    binary:
      'unknown content block type "{{type}}": send bytes as an image or audio block, or as an embedded resource with `blob`',
    html: 'unknown content block type "html": send HTML as an embedded resource with mimeType text/html',
    table:
      'unknown content block type "table": put the rows in structuredContent and a Markdown table in a text block',
    link: 'unknown content block type "{{type}}": use a resource_link block (2025-06-18 on) or a text block with the URL',
    textLike: 'unknown content block type "{{type}}": use a text block; Markdown goes in `text`',
    imageUrl:
      'unknown content block type "image_url": send an image block with base64 data, or a resource_link to the URL',
    sampling:
      'content block type "{{type}}" exists only in sampling messages, not in tool results; send its content as text',
    mimeType:
      'content block type "{{type}}" is a MIME type: use a standard block type and put the media type in `mimeType`',
    case: 'content block type "{{type}}" must be lower case "{{expected}}"',
  },
  fix: 'Use one of the standard block types; see the message for the closest one.',
  examples: {
    wrong: { value: { type: 'json', json: { temperature: 21 } } },
    right: { value: { type: 'text', text: '{"temperature":21}' } },
  },
  check(block, ctx) {
    if (!isObject(block)) return;
    if (!Object.hasOwn(block, 'type') || block.type === undefined) {
      ctx.report({ messageId: 'missing', path: ['type'] });
      return;
    }
    const type = block.type;
    if (typeof type !== 'string') {
      ctx.report({ messageId: 'notString', path: ['type'], data: { actual: jsonTypeOf(type) } });
      return;
    }
    if (isStandard(type)) return;
    const hint = hintFor(type);
    ctx.report({
      messageId: hint,
      path: ['type'],
      data: hint === 'case' ? { type, expected: type.toLowerCase() } : { type },
    });
  },
  repair(ctx) {
    const block = blockAt(ctx);
    if (!block || isStandard(block.type)) return undefined;
    const type = typeof block.type === 'string' ? block.type : '';
    const hint = type === '' ? 'default' : hintFor(type);
    const converted = convert(hint, type, block, ctx);
    if (converted) return converted;
    return fallbackToText(block, ctx);
  },
});

function convert(hint: Hint, type: string, block: JsonObject, ctx: RepairContext): RepairOutcome | undefined {
  switch (hint) {
    case 'case':
      block.type = type.toLowerCase();
      return { description: `changed type "${type}" to "${type.toLowerCase()}"` };
    case 'structured':
      return structured(type, block, ctx);
    case 'error':
      return errorBlock(block, ctx);
    case 'binary':
      return binary(type, block, ctx);
    case 'html':
      return html(block, ctx);
    case 'link':
      return link(type, block, ctx);
    case 'imageUrl':
      return imageUrl(block, ctx);
    case 'table':
      return table(block, ctx);
    case 'mimeType':
      return mimeTyped(type, block, ctx);
    default:
      return undefined;
  }
}

/** Members that hold the payload of an ad-hoc JSON block, in order of preference. */
const PAYLOAD_KEYS = ['json', 'object', 'data', 'value', 'content', 'structuredContent', 'result'];

function structured(type: string, block: JsonObject, ctx: RepairContext): RepairOutcome {
  const key = [type, ...PAYLOAD_KEYS].find((k) => k !== 'type' && Object.hasOwn(block, k));
  let value: unknown;
  if (key === undefined) {
    const { type: _type, annotations: _a, _meta: _m, ...rest } = block;
    value = rest;
  } else {
    value = block[key];
  }
  let text: string;
  if (typeof value === 'string') {
    text = value;
    try {
      value = JSON.parse(value);
    } catch {
      // Not JSON: the string stays text and is not adopted as structuredContent.
      value = undefined;
    }
  } else {
    text = serialize(value);
  }
  const result = resultAt(ctx);
  if (
    value !== undefined &&
    !isObject(value) &&
    ctx.features.structuredContent === 'object' &&
    result !== undefined &&
    !Object.hasOwn(result, 'structuredContent')
  ) {
    // An array or scalar cannot be structuredContent before 2026-07-28; wrap it the way toolResult()
    // and the SDK v2 do for 2025-era peers, and mirror the wrapped value.
    value = { result: value };
    text = serialize(value);
  }
  replaceBlock(ctx, carryCommon(block, textBlock(text), ctx));
  const adopted = value !== undefined && adoptStructuredContent(result, value, ctx);
  return {
    description: `replaced the "${type}" block with a text block holding its JSON${
      adopted ? ' and set structuredContent to it' : ''
    }`,
    lossy: key !== undefined && droppedKeys(block, [key]).length > 0,
  };
}

function errorBlock(block: JsonObject, ctx: RepairContext): RepairOutcome {
  const nested = isObject(block.error) ? block.error : undefined;
  const found =
    firstString(block, ['error', 'message', 'text', 'detail']) ??
    (nested ? firstString(nested, ['message', 'detail']) : undefined);
  const text = found?.[1] ?? JSON.stringify(block.error ?? block);
  replaceBlock(ctx, carryCommon(block, textBlock(text), ctx));
  const result = resultAt(ctx);
  if (result) result.isError = true;
  return {
    description: `replaced the "error" block with a text block${result ? ' and set isError: true' : ''}`,
    lossy: found !== undefined && !nested && droppedKeys(block, [found[0]]).length > 0,
  };
}

const BASE64_KEYS = ['data', 'blob', 'base64', 'bytes', 'content'];
const MIME_KEYS = ['mimeType', 'mime_type', 'mediaType', 'media_type', 'contentType', 'content_type'];

function binary(type: string, block: JsonObject, ctx: RepairContext): RepairOutcome | undefined {
  const payload = firstString(block, BASE64_KEYS);
  if (!payload) return undefined;
  const fromDataUrl = dataUrlBytes(payload[1]);
  const base64 = fromDataUrl?.base64 ?? payload[1];
  const mimeType =
    firstString(block, MIME_KEYS)?.[1] ??
    fromDataUrl?.mimeType ??
    ctx.sniffed([...ctx.subjectPath, payload[0]])?.mimeType;
  const uri = firstString(block, ['uri', 'url'])?.[1];
  const converted = carryCommon(block, bytesBlock(base64, mimeType, uri, ctx, type), ctx);
  replaceBlock(ctx, converted);
  return { description: `replaced the "${type}" block with ${describeBlock(converted)}` };
}

function html(block: JsonObject, ctx: RepairContext): RepairOutcome | undefined {
  const found = firstString(block, ['html', 'text', 'content', 'value']);
  if (!found) return undefined;
  const uri = firstString(block, ['uri', 'url'])?.[1];
  const resource: JsonObject = {
    uri: uri !== undefined && isAbsoluteUri(uri) ? uri : syntheticUri('html', ctx),
    mimeType: 'text/html',
    text: found[1],
  };
  replaceBlock(ctx, carryCommon(block, { type: 'resource', resource }, ctx));
  return {
    description: 'replaced the "html" block with an embedded text/html resource (the HTML was not sanitized)',
  };
}

function link(type: string, block: JsonObject, ctx: RepairContext): RepairOutcome | undefined {
  const url = firstString(block, ['url', 'uri', 'href', 'link']);
  if (!url) return undefined;
  const name = firstString(block, ['name', 'title', 'text', 'label'])?.[1];
  const description = firstString(block, ['description'])?.[1];
  const converted = carryCommon(block, linkBlock(url[1], name, description, ctx), ctx);
  replaceBlock(ctx, converted);
  return { description: `replaced the "${type}" block with ${describeBlock(converted)}` };
}

function imageUrl(block: JsonObject, ctx: RepairContext): RepairOutcome | undefined {
  const raw = block.image_url;
  const url =
    typeof raw === 'string'
      ? raw
      : isObject(raw) && typeof raw.url === 'string'
        ? raw.url
        : firstString(block, ['url'])?.[1];
  if (url === undefined) return undefined;
  const bytes = dataUrlBytes(url);
  const converted = bytes
    ? bytesBlock(bytes.base64, bytes.mimeType, undefined, ctx, 'image')
    : linkBlock(url, undefined, undefined, ctx);
  replaceBlock(ctx, carryCommon(block, converted, ctx));
  return { description: `replaced the "image_url" block with ${describeBlock(converted)}` };
}

function table(block: JsonObject, ctx: RepairContext): RepairOutcome | undefined {
  const headers = Array.isArray(block.headers)
    ? block.headers
    : Array.isArray(block.columns)
      ? block.columns
      : undefined;
  const rows = Array.isArray(block.rows) ? block.rows : undefined;
  if (!headers || !rows?.every(Array.isArray)) return undefined;
  replaceBlock(ctx, carryCommon(block, textBlock(markdownTable(headers, rows as unknown[][])), ctx));
  const adopted = adoptStructuredContent(resultAt(ctx), { headers, rows }, ctx);
  return {
    description: `replaced the "table" block with a Markdown table in a text block${
      adopted ? ' and set structuredContent to { headers, rows }' : ''
    }`,
  };
}

function mimeTyped(type: string, block: JsonObject, ctx: RepairContext): RepairOutcome | undefined {
  if (isJsonMediaType(type)) return structured(type, block, ctx);
  const family = mediaFamily(type);
  if (family === 'text') {
    const found = firstString(block, ['text', 'content', 'data', 'value']);
    if (!found) return undefined;
    replaceBlock(ctx, carryCommon(block, textBlock(found[1]), ctx));
    return { description: `replaced the "${type}" block with a text block` };
  }
  const payload = firstString(block, BASE64_KEYS);
  if (!payload) return undefined;
  const uri = firstString(block, ['uri', 'url'])?.[1];
  const converted = carryCommon(block, bytesBlock(payload[1], type, uri, ctx), ctx);
  replaceBlock(ctx, converted);
  return { description: `replaced the "${type}" block with ${describeBlock(converted)}` };
}

/** Anything else: keep a `text` string when there is one, else the whole block as JSON text. */
function fallbackToText(block: JsonObject, ctx: RepairContext): RepairOutcome {
  const label = typeof block.type === 'string' ? `"${block.type}"` : 'untyped';
  if (typeof block.text === 'string') {
    replaceBlock(ctx, carryCommon(block, textBlock(block.text), ctx));
    const dropped = droppedKeys(block, ['text']);
    return {
      description: `replaced the ${label} block with a text block keeping its text${
        dropped.length > 0 ? ` (dropped ${dropped.join(', ')})` : ''
      }`,
      lossy: dropped.length > 0,
    };
  }
  replaceBlock(ctx, carryCommon(block, textBlock(serialize(block)), ctx));
  return { description: `replaced the ${label} block with a text block holding its JSON` };
}

/** Members lost by a conversion that kept only `kept` (plus type, annotations and _meta). */
function droppedKeys(block: JsonObject, kept: readonly string[]): string[] {
  return Object.keys(block).filter((k) => !['type', 'annotations', '_meta', ...kept].includes(k));
}
