/**
 * Builders for content blocks and error results. They produce blocks that are valid in every version
 * that has the block type; choosing blocks a version lacks is `toolResult()`/`repair()`'s job. What the
 * validator would report on a block is a mistake of the caller's, and they throw a TypeError saying
 * what it is rather than build it: a declared mimeType the bytes contradict, a URI that is not one.
 *
 * `image()` and `audio()` are synchronous when given a mimeType and return a Promise when they must sniff
 * it from the bytes (sniffing uses file-type, which is asynchronous):
 *
 *     image(png, 'image/png')        // ImageContent
 *     await image(png)               // ImageContent, mimeType sniffed; throws if the bytes are no image
 */

import { decodeBase64Prefix } from '../core/base64.js';
import type { JsonObject } from '../core/json.js';
import { SNIFF_HEADER_BYTES } from '../core/magic.js';
import {
  agreesWithBytes,
  canonicalMimeType,
  isWellFormedMimeType,
  sniffedMediaType,
  sniffSync,
} from '../core/sniff.js';
import { isAbsoluteUri } from '../core/uri.js';
import { isWellFormed, LONE_SURROGATE } from '../core/well-formed.js';
import { DEFAULT_PROTOCOL_VERSION, features, type ProtocolVersion } from '../spec/versions.js';
import { validateToolResultSync } from '../validate/index.js';
import { type BinaryInput, normalizeBinary, sniffMediaType } from './bytes.js';
import { checkedOptions } from './options.js';
import { safeJson } from './repair/clone.js';
import { isScriptUrl } from './script-url.js';
import type {
  Annotations,
  AudioContent,
  BlobResourceContents,
  CallToolResult,
  EmbeddedResource,
  ImageContent,
  ResourceLink,
  Role,
  TextContent,
  TextResourceContents,
} from './types.js';

/** Optional members every block may carry. */
export interface BlockOptions {
  annotations?: Annotations;
  _meta?: Record<string, unknown>;
}

function withOptions<T extends object>(block: T, options: BlockOptions | undefined): T {
  if (options?.annotations) Object.assign(block, { annotations: options.annotations });
  if (options?._meta) Object.assign(block, { _meta: options._meta });
  return block;
}

/**
 * Throws a TypeError naming the first finding the validator makes on `probe`, a block as built but for
 * its payload (text and bytes are checked apart, or need no check): an annotation out of range, a
 * `_meta` that is no object or holds a BigInt, a link's `size` that is no integer. A caller outside
 * TypeScript may give any of them, and the block would be built for the validator to reject.
 */
function checkWithRules(probe: object, who: string): void {
  const finding = validateToolResultSync(
    { content: [probe] },
    { protocolVersion: DEFAULT_PROTOCOL_VERSION },
  ).find(
    // The block's own findings, and what JSON cannot carry; not the result's (a 10 MB URI is over
    // client limits, as a 10 MB text() is, which is the caller's call).
    (f) =>
      f.severity !== 'info' && (f.pointer.startsWith('/content/0') || f.rule === 'result-not-serializable'),
  );
  if (finding === undefined) return;
  const at = finding.pointer.replace(/^\/content\/0/, '') || '/';
  throw new TypeError(`${who}: ${finding.message} (${finding.rule} at ${at})`);
}

/** withOptions() of the options checked with the rules, on a text block standing for the block. */
function withCheckedOptions<T extends object>(block: T, options: BlockOptions | undefined, who: string): T {
  const probe = withOptions({ type: 'text', text: '' }, options);
  if (Object.keys(probe).length > 2) checkWithRules(probe, who);
  return withOptions(block, options);
}

/**
 * Throws a TypeError for text holding a lone surrogate (half of a pair, as `text.slice()` leaves when
 * it cuts through an emoji), which result-lone-surrogate reports: strict JSON readers refuse it.
 */
function checkWellFormed(value: string, who: string): void {
  if (isWellFormed(value)) return;
  const at = value.search(LONE_SURROGATE);
  throw new TypeError(
    `${who}: the text holds a lone surrogate at index ${at} (half of a character, as cutting through an emoji leaves); cut text at whole characters or call text.toWellFormed()`,
  );
}

/** A text block. Throws a TypeError for text that is no string, or holds a lone surrogate. */
export function text(value: string, options?: BlockOptions): TextContent {
  if (typeof value !== 'string') throw new TypeError(`text(): expected a string, got ${typeof value}`);
  checkWellFormed(value, 'text()');
  return withCheckedOptions({ type: 'text', text: value }, options, 'text()');
}

type MediaKind = 'image' | 'audio';

function mediaBlock<K extends MediaKind>(kind: K, data: string, mimeType: string, options?: BlockOptions) {
  return withCheckedOptions({ type: kind, data, mimeType }, options, `${kind}()`);
}

function checkFamily(kind: MediaKind, mimeType: string, who: string): void {
  if (!canonicalMimeType(mimeType).startsWith(`${kind}/`)) {
    throw new TypeError(
      `${who}: ${mimeType} is not an ${kind} type; use embeddedResource() for other binary data`,
    );
  }
}

/**
 * Throws when the bytes contradict the declared type, as the validator's block-mime-type-mismatch
 * would report (with the synchronous sniffer validateToolResultSync uses): PNG bytes declared
 * `image/jpeg`, or bytes without the signature every file of the declared type begins with (text, an
 * error page, no bytes at all). Bytes of no known type agree with a type that has no fixed signature.
 */
function checkBytes(base64: string, declared: string, who: string): void {
  const header = decodeBase64Prefix(base64, SNIFF_HEADER_BYTES) ?? new Uint8Array(0);
  const sniffed = sniffSync(header);
  if (agreesWithBytes(declared, sniffed)) return;
  const shown = sniffedMediaType(sniffed);
  const what =
    shown !== undefined
      ? `are ${shown}, not ${declared}`
      : header.length === 0
        ? `are empty, no ${declared}`
        : `are no ${declared}: they do not begin with its signature`;
  throw new TypeError(`${who}: the bytes ${what}; pass the type they are, or no mimeType to have it sniffed`);
}

/** Throws unless `mimeType` is a well-formed media type, as block-mime-type-malformed checks it. */
function checkMimeType(mimeType: unknown, who: string): void {
  if (typeof mimeType !== 'string' || !isWellFormedMimeType(mimeType)) {
    throw new TypeError(
      `${who}: mimeType must be a media type such as image/png, got ${JSON.stringify(mimeType)}`,
    );
  }
}

function media<K extends MediaKind>(
  kind: K,
  data: BinaryInput,
  mimeType: string | undefined,
  options: BlockOptions | undefined,
) {
  const who = `${kind}()`;
  const { base64, declaredMimeType } = normalizeBinary(data, who);
  const declared = mimeType ?? declaredMimeType;
  if (declared !== undefined) {
    checkMimeType(declared, who);
    checkFamily(kind, declared, who);
    checkBytes(base64, declared, who);
    return mediaBlock(kind, base64, declared, options);
  }
  return sniffMediaType(base64).then((sniffed) => {
    if (sniffed === undefined) {
      throw new TypeError(`${who}: the bytes are not a recognised ${kind} format; pass a mimeType`);
    }
    checkFamily(kind, sniffed, who);
    return mediaBlock(kind, base64, sniffed, options);
  });
}

/**
 * An image block from bytes, base64 or a data URI. Sniffs the type (async) when `mimeType` is absent.
 * A `mimeType` given (or a data URI's) is kept as written, and must be an image type the bytes agree
 * with: `image(pngBytes, 'image/jpeg')` throws a TypeError naming the type the bytes are, rather than
 * build a block whose type clients would trust and decode the bytes with. Not base64, or not an image
 * type, throws too; the Promise of the sniffing form rejects when the bytes are no image.
 */
export function image(data: BinaryInput, mimeType: string, options?: BlockOptions): ImageContent;
export function image(data: BinaryInput, mimeType?: undefined, options?: BlockOptions): Promise<ImageContent>;
export function image(
  data: BinaryInput,
  mimeType?: string,
  options?: BlockOptions,
): ImageContent | Promise<ImageContent> {
  return media('image', data, mimeType, options);
}

/**
 * An audio block (2025-03-26 on). Sniffs the type (async) when `mimeType` is absent. A `mimeType` the
 * bytes contradict throws a TypeError, as for image(): `audio(wavBytes, 'audio/ogg')` does.
 */
export function audio(data: BinaryInput, mimeType: string, options?: BlockOptions): AudioContent;
export function audio(data: BinaryInput, mimeType?: undefined, options?: BlockOptions): Promise<AudioContent>;
export function audio(
  data: BinaryInput,
  mimeType?: string,
  options?: BlockOptions,
): AudioContent | Promise<AudioContent> {
  return media('audio', data, mimeType, options);
}

/**
 * The URI, checked as the validator's block-uri-invalid checks it (the official schemas' `format:
 * "uri"`, which the Python SDK and Zed enforce); throws a TypeError otherwise.
 */
function checkUri(uri: unknown, who: string): string {
  if (typeof uri !== 'string' || !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(uri)) {
    throw new TypeError(`${who}: uri must be an absolute URI with a scheme, got ${JSON.stringify(uri)}`);
  }
  if (!isAbsoluteUri(uri)) {
    throw new TypeError(
      `${who}: uri ${JSON.stringify(uri.length > 200 ? `${uri.slice(0, 200)}…` : uri)} is not a valid URI; characters such as spaces must be percent-encoded (encodeURI does it)`,
    );
  }
  return uri;
}

/** A value as an error message shows it: a string quoted, anything else as String() writes it. */
function shown(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : errorText(value);
}

/** `input` when it is an object; a TypeError naming what it is otherwise (null, a number…). */
function objectInput<T>(input: T, who: string): T {
  if (typeof input !== 'object' || input === null) {
    throw new TypeError(`${who}: expected an object, got ${input === null ? 'null' : typeof input}`);
  }
  return input;
}

/** The last path segment of a URI, percent-decoded where it decodes. */
function decodedName(uri: string): string {
  const segment =
    uri
      .replace(/[?#].*$/, '')
      .replace(/\/+$/, '')
      .split('/')
      .pop() ?? '';
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export interface ResourceLinkInput extends BlockOptions {
  uri: string;
  /** Defaults to the last path segment of the URI. */
  name?: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
}

/**
 * A resource_link block (2025-06-18 on); `repair()` turns it into text for older versions. Throws a
 * TypeError for a URI the validator rejects (not absolute, or not a valid URI), and for a `javascript:`,
 * `vbscript:` or `data:text/html` URI: no resource a client can read, and script when a client renders
 * the link (the library's WebMCP link conversion and HTML sanitizer refuse them too).
 */
export function resourceLink(input: ResourceLinkInput | string): ResourceLink {
  const spec = typeof input === 'string' ? { uri: input } : objectInput(input, 'resourceLink()');
  const uri = checkUri(spec.uri, 'resourceLink()');
  if (isScriptUrl(uri)) {
    throw new TypeError(
      `resourceLink(): ${JSON.stringify(uri.slice(0, 60))} runs script where a client renders the link; a resource link must name a resource`,
    );
  }
  if (spec.mimeType !== undefined) checkMimeType(spec.mimeType, 'resourceLink()');
  const name = spec.name ?? (decodedName(uri) || uri);
  const block: ResourceLink = { type: 'resource_link', uri, name };
  for (const key of ['title', 'description', 'mimeType', 'size'] as const) {
    if (spec[key] !== undefined) Object.assign(block, { [key]: spec[key] });
  }
  withOptions(block, spec);
  checkWithRules(block, 'resourceLink()');
  return block;
}

export type EmbeddedResourceInput = BlockOptions & {
  uri: string;
  mimeType?: string;
  /** Contents `_meta`, distinct from the block's `_meta`. */
  contentsMeta?: Record<string, unknown>;
} & ({ text: string; blob?: undefined } | { blob: BinaryInput; text?: undefined });

/**
 * An embedded resource block holding text or a blob (bytes, base64 or a data URI). Throws a TypeError
 * for a URI the validator rejects or reports as running script (`javascript:`, `vbscript:`,
 * `data:text/html`: block-uri-script), for both or neither of text and blob, and for a blob whose bytes
 * contradict its mimeType (as image() does).
 */
export function embeddedResource(input: EmbeddedResourceInput): EmbeddedResource {
  objectInput(input, 'embeddedResource()');
  const uri = checkUri(input.uri, 'embeddedResource()');
  // A caller outside TypeScript may give both: one would be dropped without a word.
  if (input.text !== undefined && input.blob !== undefined)
    throw new TypeError('embeddedResource(): give exactly one of text or blob, not both');
  let resource: TextResourceContents | BlobResourceContents;
  if (typeof input.text === 'string') {
    checkWellFormed(input.text, 'embeddedResource()');
    resource = { uri, text: input.text };
  } else if (input.blob !== undefined) {
    const { base64, declaredMimeType } = normalizeBinary(input.blob, 'embeddedResource()');
    resource = { uri, blob: base64 };
    if (input.mimeType === undefined && declaredMimeType) resource.mimeType = declaredMimeType;
  } else {
    throw new TypeError('embeddedResource(): give exactly one of text or blob');
  }
  if (input.mimeType !== undefined) resource.mimeType = input.mimeType;
  if (resource.mimeType !== undefined) checkMimeType(resource.mimeType, 'embeddedResource()');
  if ('blob' in resource && resource.mimeType !== undefined)
    checkBytes(resource.blob, resource.mimeType, 'embeddedResource()');
  if (input.contentsMeta) resource._meta = input.contentsMeta;
  // The payload and its type are checked above; the rest is held to the rules.
  const { text: _text, blob: _blob, mimeType: _mimeType, ...rest } = resource as JsonObject;
  checkWithRules(
    withOptions({ type: 'resource', resource: { ...rest, text: '' } }, input),
    'embeddedResource()',
  );
  return withOptions({ type: 'resource', resource }, input);
}

export interface AnnotationsInput {
  audience?: Role | Role[];
  priority?: number;
  lastModified?: Date | string;
}

/** Annotations with their ranges checked: priority in 0–1, audience user/assistant, ISO 8601 dates. */
export function annotations(input: AnnotationsInput): Annotations {
  objectInput(input, 'annotations()');
  const out: Annotations = {};
  if (input.audience !== undefined) {
    const audience = Array.isArray(input.audience) ? input.audience : [input.audience];
    for (const role of audience) {
      if (role !== 'user' && role !== 'assistant') {
        throw new RangeError(`annotations(): audience must be "user" or "assistant", got ${shown(role)}`);
      }
    }
    out.audience = [...new Set(audience)];
  }
  if (input.priority !== undefined) {
    if (typeof input.priority !== 'number' || !(input.priority >= 0 && input.priority <= 1)) {
      throw new RangeError(
        `annotations(): priority must be a number from 0 to 1, got ${shown(input.priority)}`,
      );
    }
    out.priority = input.priority;
  }
  if (input.lastModified !== undefined) {
    const given: unknown = input.lastModified;
    if (!(given instanceof Date) && typeof given !== 'string') {
      throw new TypeError(
        `annotations(): lastModified must be a Date or an ISO 8601 string, got ${typeof given}`,
      );
    }
    const date = given instanceof Date ? given : new Date(given);
    if (Number.isNaN(date.getTime())) {
      throw new RangeError(`annotations(): lastModified is not a date: ${String(input.lastModified)}`);
    }
    out.lastModified = date.toISOString();
  }
  return out;
}

/** The readable text of an error value: its message, with its name when that adds something. */
export function errorText(error: unknown): string {
  // Never throws, whatever was thrown: `instanceof` throws on a revoked proxy, a message getter may
  // throw, String() of an object without a prototype throws. Empty when nothing readable is left.
  let isError = false;
  try {
    isError = error instanceof Error;
  } catch {
    // a proxy whose prototype cannot be read: written as JSON writes it, below
  }
  if (isError) {
    try {
      const { name, message } = error as Error;
      // Without a message, String() is the name alone ("TypeError", not "TypeError: TypeError").
      if (!message) return String(error);
      return name && name !== 'Error' ? `${String(name)}: ${String(message)}` : String(message);
    } catch {
      return '';
    }
  }
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    // a cycle, a BigInt, a getter or toJSON that throws, a revoked proxy
  }
  try {
    return String(error);
  } catch {
    return safeJson(error);
  }
}

/**
 * A tool execution error: `isError: true` and the message as text (what the model reads and can act on).
 * Takes anything a handler may throw and never throws for it; throws a TypeError for options that are
 * no object and a RangeError for an unknown protocolVersion.
 */
export function errorResult(
  error: unknown,
  options: { protocolVersion?: ProtocolVersion } = {},
): CallToolResult<ProtocolVersion> {
  options = checkedOptions(options, 'errorResult()');
  // Built as the latest shape, then trimmed: resultType exists only where the version requires it.
  const version = options.protocolVersion ?? DEFAULT_PROTOCOL_VERSION;
  const result: CallToolResult<'2026-07-28'> = {
    content: [{ type: 'text', text: errorText(error) || 'The tool failed.' }],
    isError: true,
    resultType: 'complete',
  };
  if (!features(version).resultTypeRequired) delete (result as { resultType?: string }).resultType;
  return result;
}
