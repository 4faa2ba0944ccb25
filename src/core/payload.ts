/**
 * Facts about one base64 payload (`data` of an image or audio block, `blob` of an embedded resource),
 * computed from a single `atob()` and shared by every rule that asks: whether it is base64 at all, and
 * what its bytes are. Within a validation each distinct payload string is decoded once (see
 * ./run-memo.ts); outside one, every call decodes.
 */

import { type Base64Problem, readBase64 } from './base64.js';
import { memoByHolder } from './run-memo.js';
import { type Sniffed, sniffSync } from './sniff.js';

export interface PayloadFacts {
  readonly problem: Base64Problem | undefined;
  /**
   * What the bytes are, by the synchronous sniffer, when `atob` decodes them (the payload is valid or
   * non-canonical base64); `undefined` otherwise, and for an empty payload.
   */
  readonly sniffed: Sniffed | undefined;
  /** Width and height from a PNG header (IHDR is always the first chunk, at a fixed offset). */
  readonly pngSize?: { readonly width: number; readonly height: number };
}

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
  if (!binary) return { problem, sniffed: undefined };
  const pngSize = pngHeaderSize(binary);
  return pngSize ? { problem, sniffed: sniffSync(binary), pngSize } : { problem, sniffed: sniffSync(binary) };
}

function pngHeaderSize(binary: string): { width: number; height: number } | undefined {
  if (binary.length < 24 || binary.charCodeAt(0) !== 0x89 || !binary.startsWith('PN', 1)) return undefined;
  return { width: uint32(binary, 16), height: uint32(binary, 20) };
}

function uint32(binary: string, at: number): number {
  return (
    binary.charCodeAt(at) * 0x1000000 +
    ((binary.charCodeAt(at + 1) << 16) | (binary.charCodeAt(at + 2) << 8) | binary.charCodeAt(at + 3))
  );
}
