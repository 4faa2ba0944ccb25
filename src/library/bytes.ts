/**
 * Bytes in and out of base64, and what kind of media they are. The library runs in browsers too, so it
 * uses `btoa`/`atob` rather than Node's Buffer (a Buffer is a Uint8Array, so it is accepted as input).
 */

import {
  base64Problem,
  decodeBase64Prefix,
  encodeBase64 as encodeBase64Portably,
  parseDataUri,
} from '../core/base64.js';
import { SNIFF_HEADER_BYTES } from '../core/magic.js';
import { type Sniffed, sniffBytes } from '../core/sniff.js';

/**
 * Node's Buffer, when the host has one: its native encoder is ~10× faster than btoa on megabyte images.
 * Looked up on globalThis, not imported, so browsers simply take the portable path.
 */
const NativeBuffer = (
  globalThis as {
    Buffer?: {
      from(
        buffer: ArrayBufferLike,
        byteOffset: number,
        length: number,
      ): { toString(encoding: 'base64'): string };
    };
  }
).Buffer;

export function encodeBase64(bytes: Uint8Array): string {
  // A view of the same memory: Buffer.from(bytes) would copy a megabyte image first.
  if (NativeBuffer)
    return NativeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  return encodeBase64Portably(bytes);
}

export function decodeBase64(value: string): Uint8Array {
  return decodeBase64Prefix(value, Math.ceil((value.length * 3) / 4)) ?? new Uint8Array(0);
}

export function isBytes(value: unknown): value is Uint8Array {
  return value instanceof Uint8Array;
}

/** What a caller may pass as binary data: bytes, canonical base64, or a `data:` URI. */
export type BinaryInput = Uint8Array | ArrayBuffer | string;

export interface NormalizedBinary {
  /** Canonical base64. */
  readonly base64: string;
  /** The media type a `data:` URI declared, if any. */
  readonly declaredMimeType?: string;
}

/**
 * Turns bytes, base64 or a data URI into canonical base64. Throws a TypeError on a string that is not
 * base64: a builder given garbage is a programming error, and the message says what was wrong.
 */
export function normalizeBinary(input: BinaryInput, who: string): NormalizedBinary {
  if (input instanceof ArrayBuffer || isBytes(input)) {
    let bytes: Uint8Array;
    try {
      bytes = isBytes(input) ? input : new Uint8Array(input);
      // A view of a detached buffer reads as empty; making a view of its buffer tells the two apart.
      if (bytes.byteLength === 0) new Uint8Array(bytes.buffer);
    } catch {
      throw new TypeError(`${who}: the bytes' ArrayBuffer is detached (transferred), so they cannot be read`);
    }
    return { base64: encodeBase64(bytes) };
  }
  if (typeof input !== 'string') {
    throw new TypeError(
      `${who}: expected a Uint8Array, an ArrayBuffer, base64 or a data: URI, got ${kindOf(input)}`,
    );
  }
  const dataUri = parseDataUri(input);
  if (dataUri) {
    const base64 = dataUri.base64
      ? canonicalBase64(dataUri.payload, who)
      : encodeBase64(new TextEncoder().encode(decodeURIComponent(dataUri.payload)));
    return dataUri.mimeType ? { base64, declaredMimeType: dataUri.mimeType } : { base64 };
  }
  return { base64: canonicalBase64(input, who) };
}

/** What a value is, for an error message: its type, or the name of its class (Uint16Array, DataView…). */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value;
  try {
    const name = Object.getPrototypeOf(value)?.constructor?.name;
    return typeof name === 'string' && name !== '' && name !== 'Object' ? `a ${name}` : 'an object';
  } catch {
    return 'an object';
  }
}

function canonicalBase64(value: string, who: string): string {
  const problem = base64Problem(value);
  if (problem === undefined) return value;
  if (problem === 'base64url') return canonicalBase64(value.replace(/-/g, '+').replace(/_/g, '/'), who);
  if (problem === 'non-canonical') return encodeBase64(decodeBase64(value));
  throw new TypeError(`${who}: the string is not base64 (${problem})`);
}

/**
 * The media type of some bytes: file-type's signatures, plus SVG, which is text and has no signature.
 * `undefined` when nothing matched.
 */
export async function sniffMediaType(base64: string): Promise<string | undefined> {
  const bytes = decodeBase64Prefix(base64, SNIFF_HEADER_BYTES);
  return bytes ? mediaTypeOfBytes(bytes) : undefined;
}

/** sniffMediaType of the bytes themselves, for a caller that has them (not only their base64). */
export async function mediaTypeOfBytes(bytes: Uint8Array): Promise<string | undefined> {
  if (bytes.length === 0) return undefined;
  return mediaTypeOf(await sniffBytes(bytes.subarray(0, SNIFF_HEADER_BYTES)));
}

export function mediaTypeOf(sniffed: Sniffed | undefined): string | undefined {
  if (!sniffed) return undefined;
  if (sniffed.mimeType && sniffed.mimeType !== 'application/xml') return sniffed.mimeType;
  if (sniffed.text && /<svg[\s>]/i.test(sniffed.head ?? '')) return 'image/svg+xml';
  return sniffed.mimeType;
}
