/**
 * Base64 checks for `data` and `blob` fields. The official TypeScript SDK accepts whatever `atob()`
 * accepts (WHATWG forgiving-base64), so anything `atob` rejects is an error; strings `atob` accepts but
 * that are not canonical RFC 4648 (missing padding, embedded whitespace) break stricter decoders such
 * as Python's and are reported separately.
 */

export type Base64Problem =
  /** Starts with `data:<mime>;base64,`: a data URI where raw base64 is required. */
  | 'data-uri'
  /** Uses the URL-safe alphabet (`-`, `_`). */
  | 'base64url'
  /** Not decodable by `atob()`. */
  | 'invalid'
  /** Decodable by `atob()`, but with whitespace or without padding. */
  | 'non-canonical';

const DATA_URI = /^data:([^;,]*)(;[^,]*)?,/i;
const WHITESPACE = /[\t\n\f\r ]+/g;
const URL_SAFE = /^[A-Za-z0-9+/_-]*={0,2}$/;
const FORGIVING_CHARS = /^[A-Za-z0-9+/]*$/;

/** What `atob()` makes of a string, and whether it is canonical. */
export interface Base64Reading {
  readonly problem: Base64Problem | undefined;
  /**
   * The decoded bytes as a binary string, when `atob` accepts the value (valid or non-canonical); of a
   * long canonical value, only its first CHUNK characters' worth (enough for any sniffer).
   */
  readonly binary?: string;
}

/** Characters per `atob` call on long values: a multiple of 4, and 48 KB decoded. */
const CHUNK = 65_536;

/**
 * `atob(value)`, or `undefined` where it throws. The DOMException it throws captures a stack trace,
 * which nobody reads and which cost more than the decode itself on the broken payloads a repairing
 * proxy meets (about a tenth of its time on them), so none is captured.
 */
function tryAtob(value: string): string | undefined {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return atob(value);
  } catch {
    return undefined;
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/**
 * Uncached; a validation asks through `payloadFacts` (./payload.ts), which decodes each payload once per
 * validation however many rules ask.
 */
export function base64Problem(value: string): Base64Problem | undefined {
  return readBase64(value).problem;
}

/**
 * `atob()` itself is the fastest exact test of what the SDK accepts: a regex over the alphabet took
 * seven times as long on a 1 MB image. A string `atob` accepts is canonical exactly when its length is
 * a multiple of 4 and it has no whitespace; `atob` skips whitespace, so the second holds exactly when
 * every character counted in the decoded length, which spares another scan of megabytes.
 */
export function readBase64(value: string): Base64Reading {
  // DATA_URI starts with `data:` in any case: most payloads start with neither `d` nor `D`.
  const first = value.charCodeAt(0) | 0x20;
  if (first === 0x64 && DATA_URI.test(value)) return { problem: 'data-uri' };
  if (value.length > CHUNK) {
    const head = canonicalInChunks(value);
    if (head !== undefined) return { problem: undefined, binary: head };
  }
  const binary = tryAtob(value);
  if (binary === undefined) {
    return { problem: URL_SAFE.test(value) && /[-_]/.test(value) ? 'base64url' : 'invalid' };
  }
  const canonical = value.length % 4 === 0 && binary.length === decodedLength(value);
  return { problem: canonical ? undefined : 'non-canonical', binary };
}

/**
 * readBase64's `binary` for a value it finds canonical (no problem), else `undefined`: the same answer
 * without the reading it returns or the data-URI test (a data URI holds a `:`, which `atob` refuses).
 * For a walk that decodes many small payloads and needs to know only that much.
 */
export function canonicalBinary(value: string): string | undefined {
  if (value.length % 4 !== 0) return undefined;
  if (value.length > CHUNK) {
    // Of a long value readBase64 decodes the first chunk when the value is canonical, and the whole
    // value when it is not, to say what is wrong: then it has bytes too, and a problem. Those bytes
    // were taken for canonical ones, and a payload of 65,537 to 100,000 characters holding whitespace
    // passed the quick answer with no block-base64-non-canonical.
    const reading = readBase64(value);
    return reading.problem === undefined ? reading.binary : undefined;
  }
  const binary = tryAtob(value);
  if (binary === undefined) return undefined;
  // Three bytes for every four characters leaves no room for whitespace or padding: canonical, known
  // without reading the value's last characters for its padding.
  return binary.length * 4 === value.length * 3 || binary.length === decodedLength(value)
    ? binary
    : undefined;
}

/**
 * The decoded first chunk of a long value that is canonical base64, decoded a chunk at a time; else
 * `undefined`, and the caller decodes the whole value to say what is wrong. Decoding a megabyte image in
 * one call allocates a megabyte string that outlives the young generation; 48 KB pieces die young, which
 * made a 1 MB image's check about a tenth cheaper. Exact: a chunk that decodes to exactly three bytes
 * per four characters holds neither whitespace nor `=`, so if every chunk does (the last one less its
 * final padding), the whole value is canonical and `atob` accepts it.
 */
function canonicalInChunks(value: string): string | undefined {
  if (value.length % 4 !== 0) return undefined;
  let head: string | undefined;
  let decoded = 0;
  for (let start = 0; start < value.length; start += CHUNK) {
    const binary = tryAtob(value.slice(start, start + CHUNK));
    if (binary === undefined) return undefined;
    head ??= binary;
    decoded += binary.length;
  }
  return decoded === decodedLength(value) ? head : undefined;
}

/** Splits a data URI into its declared media type and payload. */
export function parseDataUri(
  value: string,
): { mimeType: string; base64: boolean; payload: string } | undefined {
  const match = DATA_URI.exec(value);
  if (!match) return undefined;
  return {
    // Group 1 takes part in every match (it may be empty).
    mimeType: (match[1] as string).toLowerCase(),
    base64: /;base64$/i.test(match[2] ?? ''),
    payload: value.slice(match[0].length),
  };
}

/**
 * Decodes at most the first `maxBytes` bytes. Sniffing needs only a header, and decoding a 5 MB image
 * to look at 4 KB of it would dominate validation time.
 */
export function decodeBase64Prefix(value: string, maxBytes: number): Uint8Array | undefined {
  const chars = Math.ceil(maxBytes / 3) * 4;
  const window = value.slice(0, chars * 2);
  const head = window.replace(WHITESPACE, '');
  // A prefix is cut at a 4-character group; a whole value may end in a short, unpadded group, which
  // atob() decodes as it does when it reads the whole payload.
  const whole = window.length === value.length && head.length <= chars;
  const usable = whole ? head.length : Math.min(chars, head.length - (head.length % 4));
  const binary = tryAtob(head.slice(0, usable));
  return binary === undefined ? undefined : Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** Exact decoded size in bytes of a canonical base64 string. */
export function decodedLength(value: string): number {
  const end = value.length;
  const padding = value.charCodeAt(end - 1) !== 0x3d ? 0 : value.charCodeAt(end - 2) === 0x3d ? 2 : 1;
  return Math.floor((value.length * 3) / 4) - padding;
}

/**
 * Canonical RFC 4648 base64 for a string `atob()` (or a base64url decoder) would accept: whitespace
 * removed, the URL-safe alphabet translated, padding restored. `undefined` when no such reading exists.
 */
export function canonicalBase64(value: string): string | undefined {
  let s = value.replace(WHITESPACE, '').replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  if (s.length % 4 === 1 || !FORGIVING_CHARS.test(s)) return undefined;
  if (s.length % 4 !== 0) s += '='.repeat(4 - (s.length % 4));
  return s;
}

const ALPHABET = Uint8Array.from('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/', (c) =>
  c.charCodeAt(0),
);
const PAD = 0x3d;
const ASCII = new TextDecoder();

/**
 * Base64 of raw bytes, for repairs that re-encode a payload (e.g. a percent-encoded data URI), in any
 * host: the core runs in a browser too, where there is no Buffer, and `Uint8Array.prototype.toBase64`
 * is not in Node 20–24. Written here as a table lookup into bytes, read back as text by one native
 * decode: the usual `btoa(String.fromCharCode(...chunk))` took 210 ms a megabyte on Node 20 (spreading
 * 32 KB of arguments), which a server's 50 MB data URI would have turned into a ten-second stall of the
 * proxy's repair; this takes about 15.
 */
export function encodeBase64(bytes: Uint8Array): string {
  const out = new Uint8Array(Math.ceil(bytes.length / 3) * 4);
  const whole = bytes.length - (bytes.length % 3);
  let o = 0;
  for (let i = 0; i < whole; i += 3) {
    const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8) | (bytes[i + 2] as number);
    out[o++] = ALPHABET[n >> 18] as number;
    out[o++] = ALPHABET[(n >> 12) & 63] as number;
    out[o++] = ALPHABET[(n >> 6) & 63] as number;
    out[o++] = ALPHABET[n & 63] as number;
  }
  const rest = bytes.length - whole;
  if (rest > 0) {
    const n = ((bytes[whole] as number) << 16) | (rest === 2 ? (bytes[whole + 1] as number) << 8 : 0);
    out[o++] = ALPHABET[n >> 18] as number;
    out[o++] = ALPHABET[(n >> 12) & 63] as number;
    out[o++] = rest === 2 ? (ALPHABET[(n >> 6) & 63] as number) : PAD;
    out[o] = PAD;
  }
  return ASCII.decode(out);
}
