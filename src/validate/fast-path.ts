/**
 * The shape most tool results have: `content` holding only text blocks (`{ type, text }`), optionally
 * `isError`, and `resultType: "complete"` where the version requires it. On such a result most rules of
 * the catalog have nothing to say, and calling each of them costs more than the SDK's whole parse of
 * the result. One walk recognises the shape; the rules listed below are then skipped, because for this
 * shape they provably report nothing. Every other rule, including any rule added later, still runs.
 *
 * The lists are claims about the rules' checks. test/validate/fast-path.test.ts holds them to it: on
 * generated results of this shape (and near it) each covered rule, run on its own, reports nothing,
 * and the rule modules are fingerprinted so that editing a covered rule fails that test until the claim
 * is checked again.
 */

import { canonicalBinary } from '../core/base64.js';
import type { JsonObject } from '../core/json.js';
import {
  payloadFactsAt,
  pngHeadLimit,
  pngHeadWithin,
  pngSideOver,
  sniffDecoded,
  startsLikePng,
} from '../core/payload.js';
import {
  agreesWithBytes,
  canonicalMimeType,
  isWellFormedMimeType,
  type Sniffed,
  wellFormedFamily,
} from '../core/sniff.js';
import { MAX_STRING_LENGTH } from '../core/unwritable.js';
import { isAbsoluteUri } from '../core/uri.js';
import { isWellFormed } from '../core/well-formed.js';
import { isScriptUrl } from '../library/script-url.js';
import type { BlockType, VersionFeatures } from '../spec/versions.js';

/**
 * The standard block types on which each block rule can report; a rule not listed may report on any
 * block. A block that is an object with one of these types is checked only by the rules listed for its
 * type (and the unlisted ones): an image block never meets the resource-link rule. Non-objects and other
 * types meet every rule. Claims about the rules, tested and fingerprinted like the lists below.
 */
export const BLOCK_RULE_TYPES: Readonly<Record<string, readonly BlockType[]>> = {
  'block-annotations-in-resource': ['resource'],
  'block-base64-data-uri': ['image', 'audio', 'resource'],
  'block-base64-invalid': ['image', 'audio', 'resource'],
  'block-base64-non-canonical': ['image', 'audio', 'resource'],
  'block-base64-url-alphabet': ['image', 'audio', 'resource'],
  'block-data-invalid': ['image', 'audio'],
  'block-mime-type-malformed': ['image', 'audio', 'resource_link', 'resource'],
  'block-mime-type-mismatch': ['image', 'audio', 'resource'],
  'block-mime-type-missing': ['image', 'audio'],
  'block-mime-type-wrong-family': ['image', 'audio'],
  'block-not-object': [],
  'block-resource-invalid': ['resource'],
  'block-resource-link-invalid': ['resource_link'],
  'block-resource-text-and-blob': ['resource'],
  'block-text-base64-image': ['text'],
  'block-text-invalid': ['text'],
  'block-type-unknown': [],
  'block-type-unsupported-in-version': ['audio', 'resource_link'],
  'block-uri-invalid': ['resource_link', 'resource'],
  'block-uri-script': ['resource_link', 'resource'],
};

/** Result rules that report nothing on the shape. */
export const COVERED_RESULT_RULES: ReadonlySet<string> = new Set([
  'result-content-missing',
  'result-content-not-array',
  'result-error-without-is-error',
  'result-input-required-invalid',
  'result-is-error-not-boolean',
  'result-legacy-tool-result',
  'result-lone-surrogate',
  'result-media-with-structured-content',
  'result-meta-key-invalid',
  'result-meta-not-object',
  'result-not-object',
  'result-not-serializable',
  'result-over-client-limits',
  'result-server-info-invalid',
  'result-type-invalid',
  'result-value-refused-by-sdk',
  'structured-content-in-block',
  'structured-content-missing-for-output-schema',
  'structured-content-not-object',
  'structured-content-not-object-old-clients',
  'structured-content-schema-mismatch',
  'structured-content-text-mirror-missing',
  'structured-content-text-mismatch',
  'structured-content-unsupported-version',
]);

/** Block rules that report nothing on a `{ type: "text", text: string }` block. */
export const COVERED_BLOCK_RULES: ReadonlySet<string> = new Set([
  'block-annotations-in-resource',
  'block-annotations-invalid',
  'block-base64-data-uri',
  'block-base64-invalid',
  'block-base64-non-canonical',
  'block-base64-url-alphabet',
  'block-data-invalid',
  'block-meta-not-object',
  'block-mime-type-malformed',
  'block-mime-type-mismatch',
  'block-mime-type-missing',
  'block-mime-type-wrong-family',
  'block-not-object',
  'block-resource-invalid',
  'block-resource-link-invalid',
  'block-resource-text-and-blob',
  'block-text-invalid',
  'block-type-unknown',
  'block-type-unsupported-in-version',
  'block-uri-invalid',
  'block-uri-script',
]);

/**
 * Block rules that report nothing on a plain media block (see `isPlainMediaBlock`): an image or audio
 * block of exactly `{ type, data, mimeType }`, its type known to the version, its `data` canonical
 * base64, its mimeType well formed, of the block's family and not contradicted by the bytes. That is
 * every block rule listed for image or audio blocks in BLOCK_RULE_TYPES, plus the unlisted ones, which
 * read only members such a block does not have.
 */
export const COVERED_MEDIA_BLOCK_RULES: ReadonlySet<string> = new Set([
  'block-annotations-invalid',
  'block-base64-data-uri',
  'block-base64-invalid',
  'block-base64-non-canonical',
  'block-base64-url-alphabet',
  'block-data-invalid',
  'block-meta-not-object',
  'block-mime-type-malformed',
  'block-mime-type-mismatch',
  'block-mime-type-missing',
  'block-mime-type-wrong-family',
  'block-not-object',
  'block-type-unknown',
  'block-type-unsupported-in-version',
]);

/**
 * Block rules that report nothing on a plain resource link (see `isPlainLinkBlock`): every block rule
 * listed for resource_link blocks in BLOCK_RULE_TYPES, plus the unlisted ones, which read only members
 * such a block does not have.
 */
export const COVERED_LINK_BLOCK_RULES: ReadonlySet<string> = new Set([
  'block-annotations-invalid',
  'block-meta-not-object',
  'block-mime-type-malformed',
  'block-resource-link-invalid',
  'block-type-unsupported-in-version',
  'block-uri-invalid',
  'block-uri-script',
]);

/**
 * Block rules that report nothing on a plain embedded resource (see `isPlainResourceBlock`): every block
 * rule listed for resource blocks in BLOCK_RULE_TYPES, plus the unlisted ones.
 */
export const COVERED_RESOURCE_BLOCK_RULES: ReadonlySet<string> = new Set([
  'block-annotations-in-resource',
  'block-annotations-invalid',
  'block-base64-data-uri',
  'block-base64-invalid',
  'block-base64-non-canonical',
  'block-base64-url-alphabet',
  'block-meta-not-object',
  'block-mime-type-malformed',
  'block-mime-type-mismatch',
  'block-resource-invalid',
  'block-resource-text-and-blob',
  'block-uri-invalid',
  'block-uri-script',
]);

/**
 * Which plain block a block is (see plainBlock); each is also a bit of the mask that says which kinds
 * of block the caller of isSmallPlainMediaResult asks about.
 */
export enum PlainKind {
  /** `{ type: "text", text }`, the text shorter than SHORT_TEXT. */
  ShortText = 0,
  /** `{ type: "text", text }`, a longer text. */
  Text = 1,
  /** A plain media block, of type image: on it the rules of COVERED_MEDIA_BLOCK_RULES are silent. */
  Image = 2,
  /** A plain media block, of type audio. */
  Audio = 3,
  /** A plain resource link: on it the rules of COVERED_LINK_BLOCK_RULES are silent. */
  Link = 4,
  /** A plain embedded resource: on it the rules of COVERED_RESOURCE_BLOCK_RULES are silent. */
  Resource = 5,
}

/**
 * Whether the base64 payload `value`, found at `holder[key]`, is canonical and its bytes do not
 * contradict `mimeType` (when one is declared): the facts the covered base64 and type rules read.
 * `image`: the payload is an image block's `data`.
 */
export type PayloadCheck = (
  holder: object,
  key: string,
  value: string,
  mimeType: string | undefined,
  image: boolean,
) => boolean;

/**
 * The non-text block types a version allows (VersionFeatures.blockTypes), as bits: plainBlock asks of
 * every block, and `blockTypes.includes` took a seventh of the walk of 100 mixed blocks, `atob` aside.
 */
const IMAGE_ALLOWED = 1;
const AUDIO_ALLOWED = 2;
const LINK_ALLOWED = 4;
const RESOURCE_ALLOWED = 8;

/** allowedTypes' answer for the last features asked about: a walk asks once, of one version. */
let allowedOf: VersionFeatures | undefined;
let allowedBits = 0;

function allowedTypes(features: VersionFeatures): number {
  if (features !== allowedOf) {
    const types = features.blockTypes;
    allowedBits =
      (types.includes('image') ? IMAGE_ALLOWED : 0) |
      (types.includes('audio') ? AUDIO_ALLOWED : 0) |
      (types.includes('resource_link') ? LINK_ALLOWED : 0) |
      (types.includes('resource') ? RESOURCE_ALLOWED : 0);
    allowedOf = features;
  }
  return allowedBits;
}

/** plainBlock's answer for a block that is none of the plain ones. */
const NOT_PLAIN = -1;
/**
 * The kind of the block plainBlock last answered for (its answer is the block's units): a second
 * answer beside the first, where packing both into one number cost a division for every block.
 */
let foundKind: PlainKind = PlainKind.ShortText;

// The members a block was enumerated with, as bits.
const TYPE = 1;
const TEXT = 2;
const DATA = 4;
const MIME_TYPE = 8;
const URI = 16;
const NAME = 32;
const TITLE = 64;
const DESCRIPTION = 128;
const RESOURCE = 256;
const LINK_MEMBERS = TYPE | URI | NAME | TITLE | DESCRIPTION | MIME_TYPE;

/**
 * Which plain block `block` is, and the UTF-16 units of its JSON text (escapes not counted, as
 * result-over-client-limits counts them), its kind left in `foundKind`; or NOT_PLAIN. One enumeration of
 * its members for every kind; then only the members of that kind are read by name (see resultShape),
 * also those a rule reads though JSON would leave them out (not enumerable). `budget`: the most units
 * the block may have; a longer one is NOT_PLAIN before its payload is decoded.
 *
 * - Text: `{ type: "text", text }` and nothing else.
 * - Media: exactly `{ type, data, mimeType }`, its type known to the version, its `data` canonical
 *   base64, its mimeType well formed, of the block's family and not contradicted by the bytes
 *   (payloadOk).
 * - Link: `{ type: "resource_link", uri, name }` with an absolute `uri` that runs no script
 *   (runsScript), optionally a string `title`
 *   and `description` and a well-formed `mimeType`, and nothing else (no `size`, `icons`, annotations
 *   or `_meta`), in a version that has resource links.
 * - Resource: `{ type: "resource", resource }` and nothing else, its `resource` a plain object of an
 *   absolute `uri` that runs no script, either a string `text` or a canonical base64 `blob` (not both),
 *   and optionally a
 *   well-formed `mimeType` that the blob's bytes do not contradict (plainContents).
 */
function plainBlock(block: unknown, allowed: number, budget: number, payloadOk: PayloadCheck): number {
  if (typeof block !== 'object' || block === null) return NOT_PLAIN;
  let seen = 0;
  let members = 0;
  let units = 2;
  let type: unknown;
  let text: unknown;
  let data: unknown;
  let mimeType: unknown;
  let resource: unknown;
  for (const key in block) {
    const value = (block as JsonObject)[key];
    members++;
    if (key === 'resource') {
      seen |= RESOURCE;
      resource = value;
      units += key.length + 3;
      continue;
    }
    if (key === 'type') {
      seen |= TYPE;
      type = value;
    } else if (key === 'text') {
      seen |= TEXT;
      text = value;
    } else if (key === 'data') {
      seen |= DATA;
      data = value;
    } else if (key === 'mimeType') {
      seen |= MIME_TYPE;
      mimeType = value;
    } else if (key === 'uri') seen |= URI;
    else if (key === 'name') seen |= NAME;
    else if (key === 'title') seen |= TITLE;
    else if (key === 'description') seen |= DESCRIPTION;
    else return NOT_PLAIN;
    // Every member of a plain block but `resource` is a string.
    if (typeof value !== 'string') return NOT_PLAIN;
    units += key.length + value.length + 5;
  }
  // The commas between members.
  if (members > 1) units += members - 1;
  if (units > budget) return NOT_PLAIN;
  if (type === 'text') {
    if (
      seen !== (TYPE | TEXT) ||
      !isWellFormed(text as string) ||
      // biome-ignore lint/suspicious/noProto: the cheap exact test (see PLAIN_OBJECTS), its own site for text blocks
      (block as { __proto__?: unknown }).__proto__ !== Object.prototype ||
      (block as JsonObject).annotations !== undefined ||
      (block as JsonObject)._meta !== undefined ||
      (block as JsonObject).structuredContent !== undefined
    ) {
      return NOT_PLAIN;
    }
    foundKind = (text as string).length < SHORT_TEXT ? PlainKind.ShortText : PlainKind.Text;
    return units;
  }
  if (type === 'image' || type === 'audio') {
    if (
      seen !== (TYPE | DATA | MIME_TYPE) ||
      (allowed & (type === 'image' ? IMAGE_ALLOWED : AUDIO_ALLOWED)) === 0 ||
      // biome-ignore lint/suspicious/noProto: the cheap exact test (see PLAIN_OBJECTS), its own site for media blocks
      (block as { __proto__?: unknown }).__proto__ !== Object.prototype ||
      (block as JsonObject).annotations !== undefined ||
      (block as JsonObject)._meta !== undefined
    ) {
      return NOT_PLAIN;
    }
    const declared = mimeType as string;
    if (wellFormedFamily(declared) !== type) return NOT_PLAIN;
    if (!payloadOk(block, 'data', data as string, declared, type === 'image')) return NOT_PLAIN;
    foundKind = type === 'image' ? PlainKind.Image : PlainKind.Audio;
    return units;
  }
  if (type === 'resource_link') {
    if ((seen & ~LINK_MEMBERS) !== 0 || (allowed & LINK_ALLOWED) === 0 || !isPlainLink(block as JsonObject))
      return NOT_PLAIN;
    foundKind = PlainKind.Link;
    return units;
  }
  if (type !== 'resource' || seen !== (TYPE | RESOURCE) || (allowed & RESOURCE_ALLOWED) === 0) {
    return NOT_PLAIN;
  }
  if (
    typeof resource !== 'object' ||
    resource === null ||
    // biome-ignore lint/suspicious/noProto: the cheap exact test (see PLAIN_OBJECTS), its own site for resource blocks
    (block as { __proto__?: unknown }).__proto__ !== Object.prototype ||
    (block as JsonObject).annotations !== undefined ||
    (block as JsonObject)._meta !== undefined
  ) {
    return NOT_PLAIN;
  }
  const inner = plainContents(resource, budget - units, payloadOk);
  if (inner === NOT_PLAIN) return NOT_PLAIN;
  foundKind = PlainKind.Resource;
  return units + inner;
}

/** The checks of a plain resource link after its members were enumerated (plainBlock). */
function isPlainLink(link: JsonObject): boolean {
  if (
    // biome-ignore lint/suspicious/noProto: the cheap exact test (see PLAIN_OBJECTS), its own site for links
    (link as { __proto__?: unknown }).__proto__ !== Object.prototype ||
    link.annotations !== undefined ||
    link._meta !== undefined ||
    link.icons !== undefined ||
    link.size !== undefined
  ) {
    return false;
  }
  const { uri, name, title, description, mimeType } = link;
  if (typeof uri !== 'string' || typeof name !== 'string' || !isAbsoluteUri(uri) || runsScript(uri))
    return false;
  if (
    (title !== undefined && (typeof title !== 'string' || !isWellFormed(title))) ||
    (description !== undefined && (typeof description !== 'string' || !isWellFormed(description))) ||
    !isWellFormed(name)
  ) {
    return false;
  }
  return mimeType === undefined || (typeof mimeType === 'string' && isWellFormedMimeType(mimeType));
}

/**
 * The units of the JSON text of an embedded resource's contents (see plainBlock), or NOT_PLAIN. A
 * member JSON leaves out (`text: undefined`) is not counted.
 */
function plainContents(contents: object, budget: number, payloadOk: PayloadCheck): number {
  let members = 0;
  let units = 2;
  for (const key in contents) {
    if (key !== 'uri' && key !== 'mimeType' && key !== 'text' && key !== 'blob') return NOT_PLAIN;
    const value = (contents as JsonObject)[key];
    // A member of plain contents is a string, or absent (the checks below read each one by name).
    if (value === undefined) continue;
    if (typeof value !== 'string') return NOT_PLAIN;
    members++;
    units += key.length + value.length + 5;
  }
  if (members > 1) units += members - 1;
  const resource = contents as JsonObject;
  if (
    units > budget ||
    // biome-ignore lint/suspicious/noProto: the cheap exact test (see PLAIN_OBJECTS), its own site for resource contents
    (resource as { __proto__?: unknown }).__proto__ !== Object.prototype ||
    Object.hasOwn(resource, 'annotations') ||
    resource._meta !== undefined
  ) {
    return NOT_PLAIN;
  }
  const { uri, mimeType, text, blob } = resource;
  if (typeof uri !== 'string' || !isAbsoluteUri(uri) || runsScript(uri)) return NOT_PLAIN;
  if (mimeType !== undefined && (typeof mimeType !== 'string' || !isWellFormedMimeType(mimeType)))
    return NOT_PLAIN;
  if (blob === undefined) return typeof text === 'string' && isWellFormed(text) ? units : NOT_PLAIN;
  if (text !== undefined || typeof blob !== 'string') return NOT_PLAIN;
  return payloadOk(resource, 'blob', blob, mimeType as string | undefined, false) ? units : NOT_PLAIN;
}

/**
 * Whether block-uri-script finds that `uri` runs script (isScriptUrl), asked only of a URI that could:
 * that test drops C0 controls and spaces and ignores case before it looks for `javascript:`,
 * `vbscript:` or `data:text/html`, so a URI whose first character is none of those and no j, v or d
 * of either case (no other character lowers to one) runs none, found without copying it twice.
 */
function runsScript(uri: string): boolean {
  const first = uri.charCodeAt(0);
  const lower = first | 0x20;
  if (first > 0x20 && first !== 0x7f && lower !== 0x6a && lower !== 0x76 && lower !== 0x64) return false;
  return isScriptUrl(uri);
}

/** The payload check of a run: the run's payload facts (payloadFactsAt) and sniffer. */
function checkedBy(sniffed: (holder: object, key: string) => Sniffed | undefined): PayloadCheck {
  return (holder, key, _value, mimeType) => {
    if (payloadFactsAt(holder, key)?.problem !== undefined) return false;
    const bytes = mimeType === undefined ? undefined : sniffed(holder, key);
    return bytes === undefined || agreesWithBytes(mimeType as string, bytes);
  };
}

/** The kind of plain block `block` is by plainBlock; `undefined` for none. */
function plainKind(
  block: unknown,
  features: VersionFeatures,
  sniffed: (holder: object, key: string) => Sniffed | undefined,
): PlainKind | undefined {
  const found = plainBlock(block, allowedTypes(features), Number.POSITIVE_INFINITY, checkedBy(sniffed));
  return found === NOT_PLAIN ? undefined : foundKind;
}

/** Whether `block` is a plain media block (image or audio) by the run's payload facts and sniffer. */
export function isPlainMediaBlock(
  block: unknown,
  features: VersionFeatures,
  sniffed: (holder: object, key: string) => Sniffed | undefined,
): boolean {
  const kind = plainKind(block, features, sniffed);
  return kind === PlainKind.Image || kind === PlainKind.Audio;
}

/** Whether `block` is a plain resource link. */
export function isPlainLinkBlock(block: unknown, features: VersionFeatures): boolean {
  return plainKind(block, features, NO_SNIFFER) === PlainKind.Link;
}

/** Whether `block` is a plain embedded resource by the run's payload facts and sniffer. */
export function isPlainResourceBlock(
  block: unknown,
  features: VersionFeatures,
  sniffed: (holder: object, key: string) => Sniffed | undefined,
): boolean {
  return plainKind(block, features, sniffed) === PlainKind.Resource;
}

const NO_SNIFFER = (): undefined => undefined;

/** Which plain non-text block `block` is, if any. */
export enum PlainBlock {
  None = 0,
  Media = 1,
  Link = 2,
  Resource = 3,
}

export function plainBlockKind(
  block: unknown,
  features: VersionFeatures,
  sniffed: (holder: object, key: string) => Sniffed | undefined,
): PlainBlock {
  switch (plainKind(block, features, sniffed)) {
    case PlainKind.Image:
    case PlainKind.Audio:
      return PlainBlock.Media;
    case PlainKind.Link:
      return PlainBlock.Link;
    case PlainKind.Resource:
      return PlainBlock.Resource;
    default:
      return PlainBlock.None;
  }
}

/**
 * Text, plus a generous allowance for each block's own JSON, is at most this long in all: far below every
 * size limit result-over-client-limits knows (25,000 tokens at 4 characters each, 1 MiB), even if every
 * character were escaped into six bytes.
 */
const MAX_SIZE = 10_000;
const BLOCK_ALLOWANCE = 40;

/**
 * Shorter texts cannot hold an image either: block-text-base64-image looks for a data: URL with at
 * least 64 base64 characters, `data:image/x;base64,` and those 64 at the least (84 characters), or for
 * 256 characters of bare base64. A text of 64 to 83 characters (a table row, a sentence) was probed by
 * the rule in every quick answer, which could never report on it.
 */
const SHORT_TEXT = 84;

/** Also covered when every text is shorter than SHORT_TEXT. */
export const COVERED_FOR_SHORT_TEXT: ReadonlySet<string> = new Set(['block-text-base64-image']);

export enum Shape {
  Other = 0,
  PlainText = 1,
  /** Plain text, every text shorter than SHORT_TEXT. */
  ShortPlainText = 2,
}

/**
 * Whether `result` has the plain-text shape, for a tool with no outputSchema. Members are enumerated,
 * so a member the shape does not name (structuredContent, `_meta`, annotations, anything else) means
 * another shape, and the full set of rules runs. Only plain objects qualify (their prototype is
 * Object.prototype, so enumeration sees exactly their own members); the members the covered rules read
 * are also read directly, as the rules do, so a non-enumerable one is not missed.
 *
 * The order is for speed on the proxy's path, where results and blocks of every shape pass through
 * here: a named property read that has met many object shapes is a slow, megamorphic read in V8, while
 * enumeration costs the same whatever the shape. So members are enumerated first, and only an object
 * that passed (one of the few shapes a plain-text result or block has) meets the named reads. That
 * made a small text result's check three times cheaper once the validator had seen other results.
 */
export function resultShape(result: unknown, features: VersionFeatures, tool: JsonObject | undefined): Shape {
  const content = plainResultContent(result, features, tool);
  if (content === undefined) return Shape.Other;
  let size = 0;
  let longest = 0;
  let text: string | undefined;
  for (let i = 0; i < content.length; i++) {
    text = plainText(content[i]);
    if (text === undefined) return Shape.Other;
    const length = text.length;
    size += length + BLOCK_ALLOWANCE;
    if (length > longest) longest = length;
  }
  if (size > MAX_SIZE) return Shape.Other;
  // A lone block's text, as it was read: reading `content[0].text` again is a named read that has met
  // every shape of block on the proxy's path (see above).
  if (content.length === 1 && mayCarryErrorText(text as string)) return Shape.Other;
  return longest < SHORT_TEXT ? Shape.ShortPlainText : Shape.PlainText;
}

/**
 * resultShape of `{ content: [{ type: "text", text }] }` (with `resultType: "complete"` where the version
 * requires it), for a caller that built that result itself (toolResult) and so need not enumerate its
 * members to know them. A property test holds the two to the same answer.
 */
export function builtTextShape(text: string): Shape {
  const length = text.length;
  if (length + BLOCK_ALLOWANCE > MAX_SIZE || mayCarryErrorText(text) || !isWellFormed(text))
    return Shape.Other;
  return length < SHORT_TEXT ? Shape.ShortPlainText : Shape.PlainText;
}

/**
 * The content of a result whose members are those of the plain shapes (see resultShape: `content`, a
 * boolean `isError`, `resultType: "complete"` where the version requires it, a plain object, no tool
 * outputSchema); `undefined` for any other result.
 */
function plainResultContent(
  result: unknown,
  features: VersionFeatures,
  tool: JsonObject | undefined,
): unknown[] | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  if (tool !== undefined && tool.outputSchema !== undefined) return undefined;
  let content: unknown;
  let hasResultType = false;
  for (const key in result) {
    const value = (result as JsonObject)[key];
    if (key === 'content') content = value;
    else if (key === 'isError') {
      if (typeof value !== 'boolean') return undefined;
    } else if (key === 'resultType') {
      if (!features.resultTypeRequired || value !== 'complete') return undefined;
      hasResultType = true;
    } else return undefined;
  }
  if (!Array.isArray(content) || hasResultType !== features.resultTypeRequired) return undefined;
  // JSON.stringify writes what an array's toJSON returns, not its items: result-over-client-limits
  // measures that, so such content is not the plain shape whose size the items bound.
  if (typeof (content as { toJSON?: unknown }).toJSON === 'function') return undefined;
  if (
    // biome-ignore lint/suspicious/noProto: the cheap exact test (see PLAIN_OBJECTS), written out so this site's feedback sees only results
    (result as { __proto__?: unknown }).__proto__ !== Object.prototype ||
    (result as JsonObject).structuredContent !== undefined ||
    (result as JsonObject)._meta !== undefined ||
    (result as JsonObject).toolResult !== undefined
  ) {
    return undefined;
  }
  return content;
}

/**
 * Result rules that report nothing on a plain media result (see isPlainMediaResult): those silent on
 * the plain-text shape, except the one that reads what a media result may hold, its size (and images'
 * size). result-error-without-is-error stays covered because a result whose lone text block may carry
 * an error payload is no plain media result; result-not-serializable, because every member of such a
 * result is a string, a boolean, or a plain object or array of them, which JSON writes whenever its text
 * fits in a string, as it does in a plain media result (MAX_PLAIN_MEDIA_UNITS).
 */
export const COVERED_MEDIA_RESULT_RULES: ReadonlySet<string> = new Set(
  [...COVERED_RESULT_RULES].filter((id) => id !== 'result-over-client-limits'),
);

/**
 * Result rules that report nothing on a small plain media result (isSmallPlainMediaResult): those of
 * COVERED_MEDIA_RESULT_RULES, and result-over-client-limits, which its size and its images' size leave
 * silent (see MAX_QUIET_UNITS and MAX_IMAGE_PIXELS).
 */
export const COVERED_SMALL_MEDIA_RESULT_RULES: ReadonlySet<string> = new Set([
  ...COVERED_MEDIA_RESULT_RULES,
  'result-over-client-limits',
]);

/**
 * The most UTF-16 units (escapes not counted) a plain media result has: a unit JSON escapes is at most
 * six characters (`\u001f`), so its text is then at most MAX_STRING_LENGTH long, and JSON.stringify
 * writes it. Two texts of 2^28 units each passed as a plain media result, and result-not-serializable
 * was skipped on a result JSON.stringify throws on.
 */
const MAX_PLAIN_MEDIA_UNITS = Math.floor(MAX_STRING_LENGTH / 6);

/**
 * Whether `result` has the members of the plain shapes and every block is a plain text block or a
 * plain media block, resource link or embedded resource (plainBlock), of at most MAX_PLAIN_MEDIA_UNITS
 * in all (some 89 million): the commonest result that carries an image or a file. On it the rules of
 * COVERED_MEDIA_RESULT_RULES are silent, and their checks cost about as much as checking a 10 KB
 * image's base64. Payloads are judged by the run's payload facts and sniffer.
 */
export function isPlainMediaResult(
  result: unknown,
  features: VersionFeatures,
  tool: JsonObject | undefined,
  sniffed: (holder: object, key: string) => Sniffed | undefined,
): boolean {
  return (
    plainMediaUnits(result, features, tool, MAX_PLAIN_MEDIA_UNITS, checkedBy(sniffed), 0, NEVER_ASKED) !==
    NOT_PLAIN
  );
}

/**
 * result-over-client-limits reports a result over 25,000 tokens, estimated at 4 UTF-16 units each (as
 * it counts them: escapes not counted), so over 100,000 units; and over 1 MiB of UTF-8, which a text of
 * at most 100,000 units cannot be: it counts at most 6 bytes a unit, 600,000 in all. Nor can it hold an
 * image of over 5 MB.
 */
const MAX_QUIET_UNITS = 100_000;
/** result-over-client-limits: a PNG image over 8000 pixels a side (as its header says). */
const MAX_IMAGE_PIXELS = 8000;
const PNG_HEAD_LIMIT = pngHeadLimit(MAX_IMAGE_PIXELS);

/** Whether the rules still to run on a plain block of a small plain media result find nothing. */
export type QuietBlock = (block: object, kind: PlainKind) => boolean;

const NEVER_ASKED: QuietBlock = () => true;

/**
 * Whether `result` is a plain media result (see isPlainMediaResult) on which the rules of
 * COVERED_SMALL_MEDIA_RESULT_RULES are silent: of at most MAX_QUIET_UNITS, with no PNG image over
 * MAX_IMAGE_PIXELS a side. One walk of the result, computing each fact once and keeping none: each
 * payload is decoded once, by the validation's own `atob` (smallPayloadOk), and sniffed from the
 * decoded string. For every block of a kind whose bit is set in `ask`, `quiet` says whether the rules
 * still to run on it find nothing; the first that does not ends the walk.
 */
export function isSmallPlainMediaResult(
  result: unknown,
  features: VersionFeatures,
  tool: JsonObject | undefined,
  ask: number,
  quiet: QuietBlock,
): boolean {
  return plainMediaUnits(result, features, tool, MAX_QUIET_UNITS, smallPayloadOk, ask, quiet) !== NOT_PLAIN;
}

/**
 * The units of the JSON text of a plain media result (see plainBlock), or NOT_PLAIN: also when it has
 * more than `budget`, found before the payload that takes it past the budget is decoded.
 */
export function plainMediaUnits(
  result: unknown,
  features: VersionFeatures,
  tool: JsonObject | undefined,
  budget: number,
  payloadOk: PayloadCheck,
  ask: number,
  quiet: QuietBlock,
): number {
  const content = plainResultContent(result, features, tool);
  if (content === undefined) return NOT_PLAIN;
  // The content array's brackets and commas, and the result's members.
  let units = (content.length === 0 ? 2 : content.length + 1) + resultMemberUnits(result as object);
  const allowed = allowedTypes(features);
  for (let i = 0; i < content.length; i++) {
    const block = content[i];
    const found = plainBlock(block, allowed, budget - units, payloadOk);
    if (found === NOT_PLAIN) return NOT_PLAIN;
    const kind = foundKind;
    units += found;
    if (((ask >> kind) & 1) === 1 && !quiet(block as object, kind)) return NOT_PLAIN;
  }
  // Its blocks are of known types and it has no structuredContent or `error` member, so the only error
  // payload result-error-without-is-error could find is in a lone text block.
  return mayCarryErrorPayload(content as JsonObject[]) ? NOT_PLAIN : units;
}

/**
 * The units of a plain result's members (plainResultContent) but for the value of `content`: each
 * member's name, quotes and colon, the commas between them, the braces, and the value of `isError` (a
 * boolean) and of `resultType` (a string).
 */
function resultMemberUnits(result: object): number {
  let units = 1;
  for (const key in result) {
    const value = (result as JsonObject)[key];
    units += key.length + 4;
    if (typeof value === 'string') units += value.length + 2;
    else if (typeof value === 'boolean') units += value ? 4 : 5;
  }
  return units;
}

/**
 * The payload check of isSmallPlainMediaResult: one `atob` of the payload (canonicalBinary), nothing
 * remembered. A PNG image's header must state no side over MAX_IMAGE_PIXELS. The bytes are sniffed as
 * the payload facts sniff them (sniffDecoded), except that bytes starting with the PNG signature agree
 * with a declared PNG whatever follows (test/core/payload.test.ts holds the sniffer to it): that is the
 * commonest payload, and sniffing it was a tenth of validating a result of small images.
 */
function smallPayloadOk(
  _holder: object,
  _key: string,
  value: string,
  mimeType: string | undefined,
  image: boolean,
): boolean {
  const binary = canonicalBinary(value);
  if (binary === undefined) return false;
  // An image's PNG header, the commonest payload, in one comparison (pngHeadWithin), else byte by byte.
  if (image && pngHeadWithin(binary, MAX_IMAGE_PIXELS, PNG_HEAD_LIMIT))
    return agreesWithPng(mimeType, binary);
  if (!startsLikePng(binary))
    return mimeType === undefined || agreesWithBytes(mimeType, sniffDecoded(binary));
  if (image && pngSideOver(binary, MAX_IMAGE_PIXELS)) return false;
  return agreesWithPng(mimeType, binary);
}

/** Whether `mimeType` (when declared) agrees with `binary`, bytes that start with the PNG signature. */
function agreesWithPng(mimeType: string | undefined, binary: string): boolean {
  return (
    mimeType === undefined ||
    mimeType === 'image/png' ||
    canonicalMimeType(mimeType) === 'image/png' ||
    agreesWithBytes(mimeType, sniffDecoded(binary))
  );
}

/**
 * result-error-without-is-error reads a lone text block as a possible `{"error": …}` payload when it
 * names an "error" member; such a result takes the full path.
 */
function mayCarryErrorPayload(content: readonly JsonObject[]): boolean {
  const only = content.length === 1 ? content[0]?.text : undefined;
  return typeof only === 'string' && mayCarryErrorText(only);
}

function mayCarryErrorText(only: string): boolean {
  // The rule parses only a text that is a JSON object once trimmed. One that starts with a printable
  // ASCII character other than `{` (so neither whitespace `trim` removes nor `{`) is none, found
  // without searching the text: most texts start with a letter.
  const first = only.charCodeAt(0);
  if (first > 0x20 && first < 0x7f && first !== 0x7b) return false;
  return only.includes('"error"');
}

/** The shape of one block on its own: plain text (short or not), or Other. */
export function textBlockShape(block: unknown): Shape {
  const length = plainTextBlock(block);
  if (length < 0) return Shape.Other;
  return length < SHORT_TEXT ? Shape.ShortPlainText : Shape.PlainText;
}

/*
 * PLAIN_OBJECTS: only objects whose prototype is Object.prototype take a fast path. The `__proto__`
 * accessor is read because V8 inlines it, where Object.getPrototypeOf is a call; an own `__proto__`
 * member (JSON.parse makes one) is enumerated, so such an object never gets that far. Each fast path
 * writes the test out at its own site rather than calling one helper: V8 keeps what a read has met per
 * function, and one helper used for results and blocks of every kind would make it a slow,
 * megamorphic read everywhere.
 */

/**
 * The text's length for a `{ type: "text", text: string }` block with nothing else; -1 otherwise.
 * Enumerated first, then read by name, as resultShape is and for the same reason.
 */
function plainTextBlock(block: unknown): number {
  const text = plainText(block);
  return text === undefined ? -1 : text.length;
}

/** The text of a `{ type: "text", text: string }` block with nothing else; `undefined` otherwise. */
function plainText(block: unknown): string | undefined {
  if (typeof block !== 'object' || block === null) return undefined;
  let text: string | undefined;
  let typed = false;
  for (const key in block) {
    const value = (block as JsonObject)[key];
    if (key === 'type') {
      if (value !== 'text') return undefined;
      typed = true;
    } else if (key === 'text') {
      // result-lone-surrogate reports a text with a lone surrogate.
      if (typeof value !== 'string' || !isWellFormed(value)) return undefined;
      text = value;
    } else return undefined;
  }
  if (
    !typed ||
    // biome-ignore lint/suspicious/noProto: the cheap exact test (see PLAIN_OBJECTS), its own site for blocks
    (block as { __proto__?: unknown }).__proto__ !== Object.prototype ||
    (block as JsonObject).annotations !== undefined ||
    (block as JsonObject)._meta !== undefined ||
    (block as JsonObject).structuredContent !== undefined
  ) {
    return undefined;
  }
  return text;
}
