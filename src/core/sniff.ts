/**
 * What the bytes of a base64 payload are. The formats clients handle are recognised synchronously
 * (./magic.ts), so the synchronous validators sniff every payload without waiting; `file-type` (which is
 * asynchronous) is asked only for bytes the fast sniffer cannot place, by the asynchronous entry points.
 */

import { fileTypeFromBuffer } from 'file-type/core';
import { type ByteSource, SNIFF_HEADER_BYTES, sniffMagicAnswer } from './magic.js';
import { memoByString } from './run-memo.js';

/** What the bytes are. `mimeType` is `undefined` when no known signature matched. */
export interface Sniffed {
  readonly mimeType: string | undefined;
  /**
   * `mimeType` is file-type's answer too, so there is nothing to ask it: true for every type the
   * synchronous sniffer names, and where it knows file-type finds none; and for file-type's own answers.
   */
  readonly settled?: boolean;
  /** The bytes look like text (UTF-8 without control characters), e.g. SVG or JSON. */
  readonly text: boolean;
  /** The first bytes as text when `text` is true, for SVG and XML checks. */
  readonly head?: string;
  /**
   * The first SIGNATURE_BYTES bytes as a binary string, for `lacksSignature`, where no type was
   * recognised (`mimeType` undefined): only then is it read, so it is not copied out of the others.
   */
  readonly signature?: string;
}

/** Sniffs bytes (a Uint8Array, or a binary string as `atob` returns) with the synchronous sniffer only. */
export function sniffSync(bytes: ByteSource): Sniffed {
  const answer = sniffMagicAnswer(bytes);
  return withText(answer ?? undefined, bytes, answer !== undefined);
}

/**
 * Sniffs bytes with the synchronous sniffer, then with file-type when it has no answer: file-type knows
 * formats outside the fast sniffer's list (TIFF, PSD, AIFF, archives…).
 */
export async function sniffBytes(bytes: Uint8Array): Promise<Sniffed> {
  const fast = sniffSync(bytes);
  return fast.settled ? fast : withText(await fileTypeMime(bytes), bytes, true);
}

/** file-type's answer for the first bytes; a detector that throws on a corrupt container means "unknown". */
export async function fileTypeMime(bytes: Uint8Array): Promise<string | undefined> {
  const header = bytes.subarray(0, SNIFF_HEADER_BYTES);
  try {
    return (await fileTypeFromBuffer(header))?.mime;
  } catch {
    return undefined;
  }
}

function withText(mimeType: string | undefined, bytes: ByteSource, settled: boolean): Sniffed {
  const head = looksLikeText(bytes);
  if (mimeType !== undefined)
    return head === undefined ? { mimeType, settled, text: false } : { mimeType, settled, text: true, head };
  const signature = signatureOf(bytes);
  return head === undefined
    ? { mimeType, settled, text: false, signature }
    : { mimeType, settled, text: true, head, signature };
}

/** Bytes enough for every signature in SIGNATURES. */
const SIGNATURE_BYTES = 12;

function signatureOf(bytes: ByteSource): string {
  // A slice this short is a copy, which keeps no large decoded payload alive.
  return typeof bytes === 'string'
    ? bytes.slice(0, SIGNATURE_BYTES)
    : String.fromCharCode(...bytes.subarray(0, SIGNATURE_BYTES));
}

/**
 * Formats every file of which begins with a fixed signature: bytes that do not are no such file,
 * whatever else they are (text, a format no sniffer knows, a truncated payload). Left out are formats
 * whose first bytes vary: MP3 (an ID3 tag or a bare frame), the MP4 family, FLAC after an ID3 tag, a PDF
 * after the leading bytes some readers skip, and SVG, which is markup.
 */
const SIGNATURES: Readonly<Record<string, (bytes: string) => boolean>> = {
  'image/png': (b) => b.startsWith('\x89PNG\r\n\x1a\n'),
  'image/jpeg': (b) => b.startsWith('\xff\xd8\xff'),
  'image/gif': (b) => b.startsWith('GIF8'),
  'image/webp': (b) => b.startsWith('RIFF') && b.startsWith('WEBP', 8),
  'image/bmp': (b) => b.startsWith('BM'),
  // RF64 and BW64 are WAVE files past 4 GB, written with the same form type.
  'audio/wav': (b) =>
    (b.startsWith('RIFF') || b.startsWith('RF64') || b.startsWith('BW64')) && b.startsWith('WAVE', 8),
  'audio/ogg': (b) => b.startsWith('OggS'),
};

/**
 * The signature-bearing format `declared` names, when the bytes lack its signature (`image/png` on bytes
 * that do not begin with the PNG signature); `undefined` when they have it, when the type has none, or
 * when the bytes were recognised as some type (which agreesWithBytes compares instead).
 */
export function lacksSignature(declared: string, sniffed: Sniffed): string | undefined {
  const bare = canonicalMimeType(declared);
  const has = Object.hasOwn(SIGNATURES, bare) ? SIGNATURES[bare] : undefined;
  // No signature kept: the bytes were recognised as some type, which decides instead.
  if (!has || sniffed.signature === undefined) return undefined;
  return has(sniffed.signature) ? undefined : bare;
}

const TEXT_SAMPLE = 512;

function byteAt(bytes: ByteSource, i: number): number {
  return typeof bytes === 'string' ? bytes.charCodeAt(i) : (bytes[i] as number);
}

function looksLikeText(bytes: ByteSource): string | undefined {
  const length = Math.min(bytes.length, TEXT_SAMPLE);
  for (let i = 0; i < length; i++) {
    const b = byteAt(bytes, i);
    if (b < 0x09 || (b > 0x0d && b < 0x20) || b === 0x7f) return undefined;
  }
  const sample = Uint8Array.from({ length }, (_, i) => byteAt(bytes, i));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(sample);
  } catch {
    // A sample cut from longer bytes may end inside a multi-byte character: retry without its last 3
    // bytes. Bytes that end there themselves are not UTF-8 (and 1 to 3 bytes of binary are not text).
    if (bytes.length <= length) return undefined;
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(sample.subarray(0, length - 3));
    } catch {
      return undefined;
    }
  }
}

/**
 * Spellings that name the same format. Clients compare exact strings, but a declared `audio/x-wav` for
 * bytes sniffed as `audio/wav` is not a contradiction.
 */
export const ALIASES: Readonly<Record<string, string>> = {
  'audio/x-wav': 'audio/wav',
  'audio/wave': 'audio/wav',
  'audio/vnd.wave': 'audio/wav',
  'audio/mp3': 'audio/mpeg',
  'audio/x-flac': 'audio/flac',
  'audio/x-m4a': 'audio/mp4',
  'audio/m4a': 'audio/mp4',
  'audio/x-aac': 'audio/aac',
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'image/x-png': 'image/png',
  'image/apng': 'image/png',
  'image/x-icon': 'image/vnd.microsoft.icon',
  'image/x-ms-bmp': 'image/bmp',
  'application/ogg': 'audio/ogg',
};

/**
 * Types already in canonical form (lower case, no parameters, no alias), with their family: the types
 * servers declare most, answered by one lookup. Folding `image/png` took more time than anything else
 * of a small image block's check but its base64.
 */
const CANONICAL_FAMILY: ReadonlyMap<string, string> = new Map(
  [
    'image/png',
    'image/jpeg',
    'image/gif',
    'image/webp',
    'image/svg+xml',
    'image/bmp',
    'image/avif',
    'audio/wav',
    'audio/mpeg',
    'audio/ogg',
    'audio/flac',
    'audio/mp4',
    'audio/aac',
    'audio/webm',
    'text/plain',
    'text/markdown',
    'text/csv',
    'text/html',
    'application/json',
    'application/pdf',
    'application/octet-stream',
  ].map((type) => [type, type.slice(0, type.indexOf('/'))]),
);

/** Canonical form of a MIME type for comparison: lower case, no parameters, aliases folded. */
export function canonicalMimeType(mimeType: string): string {
  if (CANONICAL_FAMILY.has(mimeType)) return mimeType;
  const semicolon = mimeType.indexOf(';');
  const bare = (semicolon < 0 ? mimeType : mimeType.slice(0, semicolon)).trim().toLowerCase();
  return Object.hasOwn(ALIASES, bare) ? (ALIASES[bare] as string) : bare;
}

export function sameMediaType(declared: string, sniffed: string): boolean {
  if (declared === sniffed) return true;
  const a = canonicalMimeType(declared);
  const b = canonicalMimeType(sniffed);
  if (a === b) return true;
  // Ogg is a container: audio/ogg, audio/opus and audio/vorbis all sniff as Ogg.
  return a.startsWith('audio/') && b === 'audio/ogg' && /ogg|opus|vorbis/.test(a);
}

/**
 * `type/subtype` with RFC 6838 restricted-name tokens, optionally followed by `; name=value`
 * parameters (RFC 2045 token or quoted-string values).
 */
const MIME_TYPE =
  /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}(?:[ \t]*;[ \t]*[A-Za-z0-9!#$%&'*+.^_`|~-]+=(?:[A-Za-z0-9!#$%&'*+.^_`|~-]+|"(?:[^"\\]|\\.)*"))*$/;

/** Memoized per validation: three block rules ask about each mimeType. */
export const matchesMimeTypeSyntax = memoByString((value: string): boolean => MIME_TYPE.test(value));

/** The media types isWellFormedMimeType answers without the regex (a test holds them to it). */
export const COMMON_MEDIA_TYPES: readonly string[] = [...CANONICAL_FAMILY.keys()];

/**
 * Whether `value` is a well-formed media type. The types servers declare most are well formed by
 * construction (CANONICAL_FAMILY): one lookup, where the memo costs a map and the regex on the first
 * ask of each validation, a tenth of a small image's check.
 */
export function isWellFormedMimeType(value: string): boolean {
  return CANONICAL_FAMILY.has(value) || matchesMimeTypeSyntax(value);
}

const OCTET_STREAM = 'application/octet-stream';

/** `image`, `audio`, `text`… of a media type (lower case), or `undefined` for a malformed one. */
export function mediaFamily(mimeType: string): string | undefined {
  const known = CANONICAL_FAMILY.get(mimeType);
  if (known !== undefined) return known;
  const bare = canonicalMimeType(mimeType);
  const slash = bare.indexOf('/');
  return slash > 0 ? bare.slice(0, slash) : undefined;
}

/**
 * mediaFamily of a well-formed media type (isWellFormedMimeType), `undefined` for a malformed one: one
 * lookup for the types servers declare most, where asking the two took two.
 */
export function wellFormedFamily(mimeType: string): string | undefined {
  // The commonest by far, answered without the lookup: a plain media walk asks of every image.
  if (mimeType === 'image/png') return 'image';
  const known = CANONICAL_FAMILY.get(mimeType);
  if (known !== undefined) return known;
  return matchesMimeTypeSyntax(mimeType) ? mediaFamily(mimeType) : undefined;
}

/**
 * SVG is XML text, so file-type finds no signature in it (or only `application/xml`); bytes that start
 * like an SVG document are consistent with a declared `image/svg+xml`.
 */
export function looksLikeSvg(sniffed: Sniffed): boolean {
  if (!sniffed.text || sniffed.head === undefined) return false;
  // trimStart() removes a byte order mark too (U+FEFF is white space to ECMAScript).
  const head = sniffed.head.trimStart();
  if (head.startsWith('<svg')) return true;
  return /^<(\?xml|!--|!DOCTYPE svg)/i.test(head) && head.includes('<svg');
}

/** The media type the bytes show, with SVG recognised; `undefined` when nothing is recognised. */
export function sniffedMediaType(sniffed: Sniffed): string | undefined {
  return looksLikeSvg(sniffed) ? 'image/svg+xml' : sniffed.mimeType;
}

/**
 * Whether a declared media type agrees with the sniffed bytes. Bytes of no known type agree with
 * anything, except with a type whose every file begins with a signature they lack (lacksSignature).
 * `application/octet-stream` is "arbitrary binary data" (RFC 2046): it agrees with any bytes, and says
 * only that the sender does not name their type (on an image or audio block, that is the wrong family).
 */
export function agreesWithBytes(declared: string, sniffed: Sniffed): boolean {
  if (declared === OCTET_STREAM || canonicalMimeType(declared) === OCTET_STREAM) return true;
  const shown = sniffedMediaType(sniffed);
  if (shown === undefined) return lacksSignature(declared, sniffed) === undefined;
  if (sameMediaType(declared, shown)) return true;
  // An SVG file is also XML; declaring it as generic XML is not a contradiction.
  const bare = canonicalMimeType(declared);
  return shown === 'image/svg+xml' && (bare === 'application/xml' || bare === 'text/xml');
}
