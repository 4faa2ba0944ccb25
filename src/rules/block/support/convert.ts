/**
 * Conversions from broken or unsupported blocks to standard ones, shared by the repairs of
 * block-type-unknown and block-type-unsupported-in-version.
 */

import { canonicalBase64, parseDataUri } from '../../../core/base64.js';
import { isObject, type JsonObject } from '../../../core/json.js';
import { canonicalMimeType, mediaFamily } from '../../../core/sniff.js';
import { isAbsoluteUri, lastPathSegment } from '../../../core/uri.js';
import { scriptUrlKind } from '../../../library/script-url.js';
import type { RepairContext } from '../../types.js';
import { replaceBlock, syntheticUri, textBlock } from './block.js';

/** Members every standard block may carry; conversions keep them. */
const CARRIED = ['annotations', '_meta'] as const;

/** Copies `annotations` (and `_meta` where the version has it) from the old block to the new one. */
export function carryCommon(from: JsonObject, to: JsonObject, ctx: RepairContext): JsonObject {
  for (const key of CARRIED) {
    if (!Object.hasOwn(from, key)) continue;
    if (key === '_meta' && !ctx.features.blockMeta) continue;
    to[key] = from[key];
  }
  return to;
}

/** The first member among `keys` whose value is a non-empty string. */
export function firstString(block: JsonObject, keys: readonly string[]): [string, string] | undefined {
  for (const key of keys) {
    const value = block[key];
    if (typeof value === 'string' && value.length > 0) return [key, value];
  }
  return undefined;
}

/**
 * The text block that stands for a link whose URL runs script (see block-uri-script): it names the link
 * but not the URL, which a Markdown renderer would make a link again (`<javascript:…>` is an autolink).
 */
export function scriptLinkText(name: string | undefined, kind: string): JsonObject {
  const label = name ? ` ${JSON.stringify(name)}` : '';
  return textBlock(`Link${label} removed: its ${kind} URL runs script.`);
}

/**
 * A link as a resource_link where the version has it, else a text block naming it; a link whose URL
 * runs script becomes the text that says so.
 */
export function linkBlock(
  uri: string,
  name: string | undefined,
  description: string | undefined,
  ctx: RepairContext,
): JsonObject {
  const kind = scriptUrlKind(uri);
  if (kind !== undefined) return scriptLinkText(name, kind);
  const label = name ?? lastPathSegment(uri) ?? uri;
  if (ctx.features.blockTypes.includes('resource_link') && isAbsoluteUri(uri)) {
    const link: JsonObject = { type: 'resource_link', uri, name: label };
    if (description !== undefined) link.description = description;
    return link;
  }
  const text = label === uri ? `Link: ${uri}` : `Link: ${label} <${uri}>`;
  return textBlock(description === undefined ? text : `${text} — ${description}`);
}

/**
 * Base64 bytes as the most specific standard block the version allows: image, audio, or an embedded
 * blob resource (which also takes audio in 2024-11-05, and any other media type).
 */
export function bytesBlock(
  base64: string,
  mimeType: string | undefined,
  uri: string | undefined,
  ctx: RepairContext,
  kind = 'blob',
): JsonObject {
  const resourceUri = uri !== undefined && isAbsoluteUri(uri) ? uri : syntheticUri(kind, ctx);
  if (!/^[A-Za-z0-9+/=\r\n_-]*$/.test(base64) || canonicalBase64(base64) === undefined) {
    // Not base64 at all: people put plain text in `content` of `file` blocks. Keep it as text.
    const resource: JsonObject = { uri: resourceUri, text: base64 };
    if (mimeType !== undefined) resource.mimeType = mimeType;
    return { type: 'resource', resource };
  }
  const family = mimeType === undefined ? undefined : mediaFamily(mimeType);
  if (mimeType !== undefined && family === 'image') return { type: 'image', data: base64, mimeType };
  if (mimeType !== undefined && family === 'audio' && ctx.features.blockTypes.includes('audio')) {
    return { type: 'audio', data: base64, mimeType };
  }
  const resource: JsonObject = { uri: resourceUri, blob: base64 };
  if (mimeType !== undefined) resource.mimeType = mimeType;
  return { type: 'resource', resource };
}

/** Splits a `data:` URL into base64 payload and media type, when it is a base64 data URL. */
export function dataUrlBytes(url: string): { base64: string; mimeType: string | undefined } | undefined {
  const parsed = parseDataUri(url);
  if (!parsed?.base64) return undefined;
  return { base64: parsed.payload, mimeType: parsed.mimeType === '' ? undefined : parsed.mimeType };
}

/** Sets structuredContent on the result when it has none and the version can hold the value. */
export function adoptStructuredContent(
  result: JsonObject | undefined,
  value: unknown,
  ctx: RepairContext,
): boolean {
  if (!result || Object.hasOwn(result, 'structuredContent')) return false;
  const allowed = ctx.features.structuredContent;
  if (allowed === 'none' || (allowed === 'object' && !isObject(value))) return false;
  result.structuredContent = value;
  return true;
}

export function isJsonMediaType(mimeType: string): boolean {
  const bare = canonicalMimeType(mimeType);
  return bare === 'application/json' || bare.endsWith('+json') || bare === 'text/json';
}

/**
 * Makes a block agree with the media type sniffed from its bytes: sets `mimeType` when the family fits
 * the block type, else turns the block into the block type the bytes call for.
 */
export function applySniffedType(ctx: RepairContext, block: JsonObject, sniffed: string): string | undefined {
  if (block.type === 'resource' && isObject(block.resource)) {
    block.resource.mimeType = sniffed;
    return `set resource.mimeType to ${sniffed}, sniffed from the bytes`;
  }
  if (block.type !== 'image' && block.type !== 'audio') return undefined;
  if (mediaFamily(sniffed) === block.type) {
    block.mimeType = sniffed;
    return `set mimeType to ${sniffed}, sniffed from the bytes`;
  }
  if (typeof block.data !== 'string') return undefined;
  const converted = carryCommon(block, bytesBlock(block.data, sniffed, undefined, ctx), ctx);
  replaceBlock(ctx, converted);
  return `replaced the ${block.type} block with ${describeBlock(converted)} of type ${sniffed}, sniffed from the bytes`;
}

/** The block a repair made, as its description names it: "an image block", "an embedded resource". */
export function describeBlock(block: JsonObject): string {
  if (block.type === 'resource') return 'an embedded resource';
  const type = String(block.type);
  return `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type} block`;
}
