/**
 * Helpers shared by the block rules. This folder holds no rules: the rule index only picks up the .ts
 * files directly inside src/rules/block.
 */

import { canonicalBase64 } from '../../../core/base64.js';
import { isObject, type JsonObject } from '../../../core/json.js';
import { type PayloadFacts, payloadFactsAt } from '../../../core/payload.js';
import { getIn, type PathSegment, setIn } from '../../../core/pointer.js';
import type { CheckContext, RepairContext } from '../../types.js';

/** The block a repair acts on, when it still is an object. */
export function blockAt(ctx: RepairContext): JsonObject | undefined {
  const block = getIn(ctx.root, ctx.subjectPath);
  return isObject(block) ? block : undefined;
}

/** The CallToolResult that holds the block, when there is one. */
export function resultAt(ctx: RepairContext): JsonObject | undefined {
  if (!ctx.resultPath) return undefined;
  const result = getIn(ctx.root, ctx.resultPath);
  return isObject(result) ? result : undefined;
}

export function replaceBlock(ctx: RepairContext, block: JsonObject): void {
  setIn(ctx.root, ctx.subjectPath, block);
}

export function textBlock(text: string): JsonObject {
  return { type: 'text', text };
}

/**
 * A URI for content that had none (a converted audio block, a bare blob). `urn:` URIs are absolute, so
 * they pass `format: uri`, and the index keeps them unique within the result.
 */
export function syntheticUri(kind: string, ctx: RepairContext): string {
  const index = ctx.subjectPath[ctx.subjectPath.length - 1];
  return `urn:mcp-shape:${kind}:${String(index ?? 0)}`;
}

export interface Base64Field {
  readonly path: PathSegment[];
  readonly value: string;
  /** The base64 check and sniffed type, computed once per validation for all the rules that ask. */
  readonly facts: PayloadFacts;
}

const NO_FIELDS: readonly Base64Field[] = [];

/** Where a block carries base64: `data` of image and audio blocks, `resource.blob` of embedded ones. */
export function base64Fields(block: unknown): readonly Base64Field[] {
  if (!isObject(block)) return NO_FIELDS;
  if ((block.type === 'image' || block.type === 'audio') && typeof block.data === 'string') {
    return [{ path: ['data'], value: block.data, facts: payloadFactsAt(block, 'data') as PayloadFacts }];
  }
  // With a string `text` the contents already parse as TextResourceContents and clients ignore the
  // blob; block-resource-text-and-blob reports the pair instead.
  const resource = block.type === 'resource' && isObject(block.resource) ? block.resource : undefined;
  if (resource && typeof resource.blob === 'string' && typeof resource.text !== 'string') {
    const facts = payloadFactsAt(resource, 'blob') as PayloadFacts;
    return [{ path: ['resource', 'blob'], value: resource.blob, facts }];
  }
  return NO_FIELDS;
}

/** The object that holds the payload's `mimeType`: the block itself, or `resource` for embedded blobs. */
export function mimeHolder(block: JsonObject, payloadPath: readonly PathSegment[]): JsonObject | undefined {
  const holder = getIn(block, payloadPath.slice(0, -1));
  return isObject(holder) ? holder : undefined;
}

/** A short, safe rendering of a value for messages. */
export function preview(value: unknown, max = 40): string {
  let text: string;
  try {
    text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    // Nesting too deep to write (String() of a deep array recurses as far), a cycle or a BigInt: the
    // preview is only a hint, so a container shows as its brackets.
    if (Array.isArray(value)) text = '[…]';
    else if (typeof value === 'object' && value !== null) text = '{…}';
    else text = String(value);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export interface MimeTypeField {
  /** Path of `mimeType`, relative to the block. */
  readonly path: PathSegment[];
  readonly value: unknown;
  /** Path of the base64 bytes it describes, when there are any. */
  readonly payloadPath?: PathSegment[];
  /** `mimeType` is required here (image and audio blocks). */
  readonly required: boolean;
}

/** The `mimeType` members of a block: on image, audio and resource_link blocks, and in `resource`. */
export function mimeTypeFields(block: unknown): MimeTypeField[] {
  if (!isObject(block)) return [];
  if (block.type === 'image' || block.type === 'audio') {
    return [{ path: ['mimeType'], value: block.mimeType, payloadPath: ['data'], required: true }];
  }
  if (block.type === 'resource_link' && Object.hasOwn(block, 'mimeType')) {
    return [{ path: ['mimeType'], value: block.mimeType, required: false }];
  }
  if (block.type === 'resource' && isObject(block.resource) && Object.hasOwn(block.resource, 'mimeType')) {
    const payloadPath = typeof block.resource.blob === 'string' ? ['resource', 'blob'] : undefined;
    return [{ path: ['resource', 'mimeType'], value: block.resource.mimeType, payloadPath, required: false }];
  }
  return [];
}

/** Rewrites the base64 string a finding points at in canonical form; shared by two base64 repairs. */
export function canonicalizeBase64At(ctx: RepairContext, what: string): { description: string } | undefined {
  const value = getIn(ctx.root, ctx.findingPath);
  const canonical = typeof value === 'string' ? canonicalBase64(value) : undefined;
  if (canonical === undefined || canonical === value) return undefined;
  setIn(ctx.root, ctx.findingPath, canonical);
  return { description: `${what} ${ctx.findingPath.slice(ctx.subjectPath.length).join('.')}` };
}

/** The URI-valued strings of a block: link and resource `uri`, and icon `src` where icons exist. */
export function uriFields(
  block: unknown,
  ctx: Pick<CheckContext, 'features'>,
): { path: PathSegment[]; value: string }[] {
  if (!isObject(block)) return [];
  const fields: { path: PathSegment[]; value: string }[] = [];
  if (block.type === 'resource_link' && typeof block.uri === 'string')
    fields.push({ path: ['uri'], value: block.uri });
  if (block.type === 'resource' && isObject(block.resource) && typeof block.resource.uri === 'string') {
    fields.push({ path: ['resource', 'uri'], value: block.resource.uri });
  }
  if (block.type === 'resource_link' && ctx.features.icons && Array.isArray(block.icons)) {
    block.icons.forEach((icon, i) => {
      if (isObject(icon) && typeof icon.src === 'string')
        fields.push({ path: ['icons', i, 'src'], value: icon.src });
    });
  }
  return fields;
}
