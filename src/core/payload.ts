/**
 * Facts about one base64 payload (`data` of an image or audio block, `blob` of an embedded resource),
 * computed from a single `atob()` and shared by every rule that asks: whether it is base64 at all, and
 * what its bytes are. Within a validation each distinct payload string is decoded once (see
 * ./run-memo.ts); outside one, every call decodes.
 */

import { type Base64Problem, readBase64 } from './base64.js';
import { type FactScope, memoByHolder } from './run-memo.js';
import { type Sniffed, sniffSync } from './sniff.js';

export interface PayloadFacts {
  readonly problem: Base64Problem | undefined;
  /**
   * What the bytes are, by the synchronous sniffer, when `atob` decodes them (the payload is valid or
   * non-canonical base64), EMPTY for an empty payload; `undefined` otherwise.
   */
  readonly sniffed: Sniffed | undefined;
  /** Width and height from a PNG's IHDR chunk (always the first chunk, at a fixed offset). */
  readonly pngSize?: { readonly width: number; readonly height: number };
}

/**
 * What no bytes are: nothing, for certain (file-type has nothing to read either). Not text: an empty
 * payload declared as a PNG contradicts it for lack of the signature, not for looking like text.
 */
export const EMPTY: Sniffed = { mimeType: undefined, settled: true, text: false, signature: '' };

/**
 * The facts of the payload at `holder[key]` (a block's `data`, a resource's `blob`), computed once per
 * validation (see memoByHolder); `undefined` when it is no string.
 */
export const payloadFactsAt = memoByHolder(readPayload);

/**
 * Sniffed from the decoded string itself, so the bytes are not decoded a second time: the sniffer reads
 * a few header bytes, and at most 512 when they look like text.
 */
export function readPayload(value: string): PayloadFacts {
  const { problem, binary } = readBase64(value);
  if (binary === undefined) return { problem, sniffed: undefined };
  const pngSize = pngHeaderSize(binary);
  return pngSize
    ? { problem, sniffed: sniffDecoded(binary), pngSize }
    : { problem, sniffed: sniffDecoded(binary) };
}

/** What the decoded bytes of a payload are (PayloadFacts.sniffed): EMPTY for none. */
export function sniffDecoded(binary: string): Sniffed {
  return binary === '' ? EMPTY : sniffSync(binary);
}

/**
 * What `readPayload` finds in the canonical base64 of `bytes`, found from the bytes themselves: for a
 * caller that encodes bytes it holds (toolResult), so that the validation of its result need not decode
 * the payload again. A test holds the two to the same answer.
 */
export function payloadFactsOfBytes(bytes: Uint8Array): PayloadFacts {
  if (bytes.length === 0) return { problem: undefined, sniffed: EMPTY };
  const header = bytes.length >= 24 ? String.fromCharCode(...bytes.subarray(0, 24)) : '';
  const pngSize = pngHeaderSize(header);
  const sniffed = sniffSync(bytes);
  return pngSize ? { problem: undefined, sniffed, pngSize } : { problem: undefined, sniffed };
}

/**
 * Tells the validations run in `scope` the facts of the payload at `holder[key]`, which the caller made
 * by encoding bytes whose facts it found with payloadFactsOfBytes.
 */
export function rememberPayloadFacts(
  scope: FactScope,
  holder: object,
  key: string,
  facts: PayloadFacts,
): void {
  payloadFactsAt.remember(scope, holder, key, facts);
}

/**
 * The size the IHDR chunk states, which a PNG must start with right after its signature. Bytes that
 * only start like a PNG state no size: read at the same offsets, they once made a result "117901063×
 * 117901063 px", over every client's limit, out of a signature followed by filler.
 */
function pngHeaderSize(binary: string): { width: number; height: number } | undefined {
  if (!hasPngHeader(binary)) return undefined;
  return { width: uint32(binary, 16), height: uint32(binary, 20) };
}

/**
 * The longer side of a PNG image as its header states it (pngHeaderSize), for bytes that start with the
 * PNG signature (startsLikePng); -1 where the header is not there.
 */
export function pngLongestSide(binary: string): number {
  return hasHeaderChunk(binary) ? Math.max(uint32(binary, 16), uint32(binary, 20)) : -1;
}

/**
 * `pngLongestSide(binary) > max`, for a `max` below 65,535, in 32-bit integers: a side of at most 65,535
 * pixels has its first two bytes zero.
 */
export function pngSideOver(binary: string, max: number): boolean {
  if (!hasHeaderChunk(binary)) return false;
  if ((binary.charCodeAt(16) | binary.charCodeAt(17) | binary.charCodeAt(20) | binary.charCodeAt(21)) !== 0)
    return true;
  return (
    ((binary.charCodeAt(18) << 8) | binary.charCodeAt(19)) > max ||
    ((binary.charCodeAt(22) << 8) | binary.charCodeAt(23)) > max
  );
}

/**
 * The first 18 bytes of a PNG whose header is where it must be and states a width below 65,536 pixels:
 * the signature, the IHDR chunk's length (13) and type, and the width's first two bytes.
 */
const PNG_HEAD = '\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0';

/**
 * The least string above every PNG header that pngHeadWithin(…, max) takes: PNG_HEAD, then `max + 1` in
 * two bytes. For `max` below 65,535.
 */
export function pngHeadLimit(max: number): string {
  return PNG_HEAD + String.fromCharCode((max + 1) >> 8, (max + 1) & 0xff);
}

/**
 * Whether the bytes start like a PNG (startsLikePng) whose header states no side over `max`
 * (!pngSideOver), as far as a quick test can say: `true` only for a header laid out as PNG_HEAD says
 * with both sides at most `max`; `false` says nothing (the other tests tell). `limit` is
 * pngHeadLimit(max). The signature, the chunk and the width are one string comparison: strings of bytes
 * compare as the numbers they spell, so the bytes start with PNG_HEAD and a width of at most `max`
 * exactly when they are at least PNG_HEAD and below `limit`. Each `charCodeAt` first asks what kind of
 * string it reads: the 20 of startsLikePng and pngSideOver were two thirds of the instructions the walk
 * ran on a small image, `atob`'s aside (100 mixed blocks, counted with callgrind).
 */
export function pngHeadWithin(binary: string, max: number, limit: string): boolean {
  return (
    binary.length >= 24 &&
    binary >= PNG_HEAD &&
    binary < limit &&
    (binary.charCodeAt(20) | binary.charCodeAt(21)) === 0 &&
    ((binary.charCodeAt(22) << 8) | binary.charCodeAt(23)) <= max
  );
}

/**
 * Whether the bytes start with the PNG signature, `\x89PNG\r\n\x1a\n`. Compared code by code: on the
 * strings `atob` returns, `startsWith` took three times as long.
 */
export function startsLikePng(binary: string): boolean {
  return (
    binary.charCodeAt(0) === 0x89 &&
    binary.charCodeAt(1) === 0x50 &&
    binary.charCodeAt(2) === 0x4e &&
    binary.charCodeAt(3) === 0x47 &&
    binary.charCodeAt(4) === 0x0d &&
    binary.charCodeAt(5) === 0x0a &&
    binary.charCodeAt(6) === 0x1a &&
    binary.charCodeAt(7) === 0x0a
  );
}

/** The PNG signature, then `IHDR` where the first chunk's type is: 24 bytes at least. */
function hasPngHeader(binary: string): boolean {
  return startsLikePng(binary) && hasHeaderChunk(binary);
}

/** `IHDR` where the first chunk's type is, after a PNG signature: 24 bytes at least. */
function hasHeaderChunk(binary: string): boolean {
  return (
    binary.length >= 24 &&
    binary.charCodeAt(12) === 0x49 &&
    binary.charCodeAt(13) === 0x48 &&
    binary.charCodeAt(14) === 0x44 &&
    binary.charCodeAt(15) === 0x52
  );
}

function uint32(binary: string, at: number): number {
  return (
    binary.charCodeAt(at) * 0x1000000 +
    ((binary.charCodeAt(at + 1) << 16) | (binary.charCodeAt(at + 2) << 8) | binary.charCodeAt(at + 3))
  );
}
