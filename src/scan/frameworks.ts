/**
 * What each server framework sends for what a tool handler returns. The scanner checks the
 * CallToolResult the client will receive, so a framework that wraps a bare string into a text block
 * is not flagged for it, and one that passes the return value through is.
 */

import { isOpaque } from '../core/opaque.js';
import type { Site, StringFormat } from './abstract/value.js';
import type { ReturnAnnotation } from './pydantic-lax.js';
import { isFullyKnown, kindOf, modelName, raisesWhy, SerializedOpaque, UnknownValue } from './values.js';

export type Framework =
  /** TypeScript SDK v1/v2 `McpServer.tool/registerTool` and low-level `setRequestHandler`: no wrapping. */
  | 'mcp-sdk'
  /** FastMCP for TypeScript (`addTool({ execute })`). */
  | 'fastmcp-ts'
  /** Python SDK FastMCP (`@mcp.tool()`), and the standalone `fastmcp` package. */
  | 'fastmcp-python'
  /** Python SDK low-level `Server` (`@server.call_tool()`). */
  | 'mcp-python-lowlevel'
  /** Hand-rolled JSON-RPC: the value is sent as built. */
  | 'gateway';

export const FRAMEWORK_NAMES: Record<Framework, string> = {
  'mcp-sdk': 'MCP TypeScript SDK',
  'fastmcp-ts': 'FastMCP (TypeScript)',
  'fastmcp-python': 'FastMCP (Python)',
  'mcp-python-lowlevel': 'MCP Python SDK low-level server',
  gateway: 'hand-rolled JSON-RPC',
};

export interface WrapOptions {
  /** Python: the function's return annotation is `dict[str, …]`, so FastMCP also sends it as structuredContent. */
  readonly structuredDict?: boolean;
  /** Python: the tool is registered on the standalone `fastmcp` package's server, not the SDK's FastMCP. */
  readonly standalone?: boolean;
  /** Python: the return annotation is `CallToolResult` (see `fastmcpPython` for what each FastMCP makes of it). */
  readonly declaresCallToolResult?: boolean;
  /**
   * Python: the return annotation of an SDK FastMCP tool that FastMCP builds an output model from and
   * validates the value against before sending anything (`-> int`, `-> list[str]`; pydantic-lax.ts).
   */
  readonly annotation?: ReturnAnnotation;
}

/**
 * Standalone `fastmcp` with `-> CallToolResult`: the value it sends as structuredContent is checked
 * against the outputSchema generated from that annotation (CallToolResult's own schema), so it has to
 * be a valid CallToolResult itself.
 */
export function structuredMustBeResult(options: WrapOptions | undefined): boolean {
  return options?.standalone === true && options.declaresCallToolResult === true;
}

/** What a framework model needs to describe the values it builds. */
export interface WrapContext {
  /** The return the value comes from. */
  readonly site: Site;
  /** The abstract identity of a concrete value, so a serialized mirror is recognised. */
  keyOf(value: unknown): string | undefined;
  /** Places a container built of `from` where `from` is, with the members named (ValuePositions.adopt). */
  adopt(to: object, from: object, members: Readonly<Record<string, string>>): void;
}

/** Python SDK models that are content blocks (`isinstance(x, ContentBlock)`). */
const BLOCK_MODELS = new Set([
  'TextContent',
  'ImageContent',
  'AudioContent',
  'EmbeddedResource',
  'ResourceLink',
]);

/** The text block a framework makes of a string it was given. */
function text(value: unknown, ctx: WrapContext): unknown {
  return {
    type: 'text',
    text:
      typeof value === 'string'
        ? value
        : new UnknownValue(sourceOf(value), 'a string known only at run time', ctx.site, 'string'),
  };
}

/** The text block a framework serializes a value into: exact when the value is fully known. */
function jsonText(value: unknown, source: string, ctx: WrapContext): unknown {
  const known = isFullyKnown(value) && value !== undefined;
  return {
    type: 'text',
    text: known
      ? JSON.stringify(value)
      : new SerializedOpaque(source, ctx.site, [ctx.keyOf(value) ?? source], value),
  };
}

function sourceOf(value: unknown): string {
  return isOpaque(value) ? value.source : (JSON.stringify(value) ?? String(value));
}

/** The CallToolResult a client receives when the handler returns `value`. */
export function asCallToolResult(
  framework: Framework,
  value: unknown,
  ctx: WrapContext,
  options: WrapOptions = {},
): unknown {
  switch (framework) {
    case 'mcp-sdk':
    case 'gateway':
      return value;
    case 'fastmcp-ts':
      return fastmcpTs(value, ctx);
    case 'fastmcp-python':
      return fastmcpPython(value, options, ctx);
    case 'mcp-python-lowlevel':
      return lowlevelPython(value, ctx);
  }
}

/** FastMCP TS `tool.execute` dispatch: nullish → no content, string → text, `{type}` → one block, else as is. */
function fastmcpTs(value: unknown, ctx: WrapContext): unknown {
  const kind = kindOf(value);
  if (kind === 'null' || kind === 'undefined') return { content: [] };
  if (kind === 'string') return { content: [text(value, ctx)] };
  if (kind === 'object' && !isOpaque(value) && Object.hasOwn(value as object, 'type'))
    return { content: [value] };
  return value;
}

/**
 * Python SDK FastMCP `_convert_to_content`: None → [], a ContentBlock model → [it], `Image` → an image
 * block, lists and tuples flattened item by item, anything else serialized to a text block. With a
 * `dict[str, …]` return annotation the dict is also sent as structuredContent.
 *
 * What each FastMCP makes of a `CallToolResult` (read in python-sdk v1.29.0,
 * src/mcp/server/fastmcp/utilities/func_metadata.py, `FuncMetadata.convert_result` and
 * `func_metadata`; and jlowin/fastmcp at b14b137f, src/fastmcp/tools/tool.py, `Tool.convert_result`
 * and `_convert_to_content`, with src/fastmcp/tools/function_parsing.py, `ParsedFunction.from_function`):
 * - the SDK's FastMCP passes a `CallToolResult` instance through; a bare `-> CallToolResult`
 *   annotation gives the tool no outputSchema, so a plain dict returned under it is serialized to one
 *   JSON text block, as any dict is, and sent without structuredContent;
 * - the standalone `fastmcp` passes only its own `ToolResult` through: a `CallToolResult` instance is
 *   serialized to a JSON text block like any other object. Under `-> CallToolResult` the tool's
 *   outputSchema is CallToolResult's schema and the returned value (a dict, or the instance) is also
 *   sent as structuredContent, which clients check against that schema (`structuredMustBeResult`).
 */
function fastmcpPython(value: unknown, options: WrapOptions, ctx: WrapContext): unknown {
  const model = modelName(value);
  if (model === 'ToolResult' || (model === 'CallToolResult' && !options.standalone)) return value;
  const result: Record<string, unknown> = {
    content: fastmcpPythonContent(value, options.standalone === true, ctx),
  };
  if (structuredMustBeResult(options) && kindOf(value) === 'object') result.structuredContent = value;
  else if (options.structuredDict && kindOf(value) === 'object' && model === undefined)
    result.structuredContent = value;
  return result;
}

function fastmcpPythonContent(value: unknown, standalone: boolean, ctx: WrapContext): unknown[] {
  const model = modelName(value);
  if (value === null || value === undefined) return [];
  if (model && BLOCK_MODELS.has(model)) return [value];
  if (model === 'Image' || model === 'Audio' || model === 'File')
    return [fastmcpMedia(model, value, standalone, ctx)];
  if (Array.isArray(value)) return value.flatMap((item) => fastmcpPythonContent(item, standalone, ctx));
  return [
    kindOf(value) === 'string' ? text(value, ctx) : jsonText(value, 'pydantic_core.to_json(result)', ctx),
  ];
}

/**
 * FastMCP's `Image`/`Audio`/`File` helpers become a block with the mimeType FastMCP derives from the
 * `format` or the path's suffix (known where the source tells it: python/fastmcp-helpers.ts). One
 * that surely raises (ObjState.raises) becomes no block: the call gets an error result, which analyze.ts
 * reports at the call (raisingHelpers, as result-rejected-by-server).
 */
function fastmcpMedia(model: string, value: unknown, standalone: boolean, ctx: WrapContext): unknown {
  const raises = raisesWhy(value);
  if (raises !== undefined) return new UnknownValue(`${model}(…)`, raises, ctx.site);
  // The type the source tells (python/fastmcp-helpers.ts), a string placed at the argument it comes from.
  const derivedKey = standalone ? '_standalone_mime_type' : '_mime_type';
  const derived = (value as Record<string, unknown>)[derivedKey];
  // FastMCP encodes the bytes with `base64.b64encode(…).decode()`, and builds the File's uri into a
  // pydantic `AnyUrl`, which parses it or raises.
  const media = (reason: string, format?: StringFormat) =>
    new UnknownValue(`${model}(…)`, reason, ctx.site, 'string', { format });
  const mimeType =
    typeof derived === 'string' ? derived : media(`the MIME type FastMCP derives for ${model}`);
  // Placed where the call is, its mimeType where the argument it comes from is.
  const derivedAt = { mimeType: derivedKey };
  if (model === 'File') {
    // A text/* file is sent decoded, as text; any other as base64 in blob.
    const text = typeof derived === 'string' && derived.startsWith('text/');
    const resource = {
      uri: media('a file URI', 'uri'),
      ...(text
        ? { text: media('the file decoded as text') }
        : { blob: media('file bytes FastMCP encodes as base64', 'base64') }),
      mimeType,
    };
    ctx.adopt(resource, value as object, derivedAt);
    return { type: 'resource', resource };
  }
  const type = model === 'Image' ? 'image' : 'audio';
  const block = { type, data: media('base64 data FastMCP encodes', 'base64'), mimeType };
  ctx.adopt(block, value as object, derivedAt);
  return block;
}

/**
 * Python SDK low-level `call_tool` decorator: a CallToolResult passes through, a 2-tuple is
 * (content, structured), a dict is structured content mirrored as JSON text, any other iterable is the
 * content list. A `str` is iterable too, but its characters are not content blocks: the call fails.
 */
function lowlevelPython(value: unknown, ctx: WrapContext): unknown {
  const model = modelName(value);
  if (model === 'CallToolResult' || model === 'ToolResult') return value;
  if (isOpaque(value)) {
    // Anything but a dict, a 2-tuple or a CallToolResult is iterated as the content list.
    const result =
      value instanceof UnknownValue && (value.kind === 'object' || value.declared?.proves === 'result');
    return result ? value : { content: value };
  }
  if (model === 'tuple' && Array.isArray(value) && value.length === 2) {
    return { content: value[0], structuredContent: value[1] };
  }
  if (kindOf(value) === 'object' && model === undefined) {
    return { content: [jsonText(value, 'json.dumps(result)', ctx)], structuredContent: value };
  }
  if (Array.isArray(value)) return { content: value };
  return value;
}
