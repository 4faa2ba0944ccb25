/**
 * readBase64 decodes a long canonical value a chunk at a time (src/core/base64.ts). It must say exactly
 * what one `atob` of the whole value says: the same problem, and decoded bytes that begin the same.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  base64Problem,
  canonicalBase64,
  canonicalBinary,
  decodeBase64Prefix,
  decodedLength,
  encodeBase64,
  parseDataUri,
  readBase64,
} from '../../src/core/base64.js';
import { runs } from '../support/runs.js';

/** The definition readBase64 implements, by one `atob` of the whole value. */
function whole(value: string): { problem: string | undefined; binary?: string } {
  let binary: string;
  try {
    binary = atob(value);
  } catch {
    return { problem: 'invalid-or-base64url' };
  }
  const canonical = value.length % 4 === 0 && binary.length === decodedLength(value);
  return { problem: canonical ? undefined : 'non-canonical', binary };
}

const CHUNK = 65_536;
const bytes = (n: number) => Buffer.from(Uint8Array.from({ length: n }, (_, i) => (i * 7919 + 13) & 0xff));

/**
 * The five canonical values the edits start from, encoded once: building 200 KB of bytes for each of
 * hundreds of draws took most of this file's time (about 25 s on 2 cores) and drew nothing new.
 */
const canonicalValues = new Map<number, string>();
function canonicalOfSize(size: number): string {
  let value = canonicalValues.get(size);
  if (value === undefined) {
    value = bytes(size).toString('base64');
    canonicalValues.set(size, value);
  }
  return value;
}

/** A long canonical value, with one edit: a character at a chunk boundary or anywhere. */
const edited = fc
  .record({
    size: fc.constantFrom(CHUNK * 0.75 - 2, CHUNK * 0.75, CHUNK * 0.75 + 1, 3 * CHUNK * 0.75 + 2, 200_000),
    at: fc.oneof(
      fc.constantFrom(CHUNK - 1, CHUNK, CHUNK - 2, 2 * CHUNK - 1, 2 * CHUNK),
      fc.nat({ max: 270_000 }),
    ),
    edit: fc.constantFrom('none', '=', '==', ' ', '\n', '-', '%', 'drop', 'A'),
  })
  .map(({ size, at, edit }) => {
    const value = canonicalOfSize(size);
    const i = Math.min(at, value.length);
    if (edit === 'none') return value;
    if (edit === 'drop') return value.slice(0, i) + value.slice(i + 1);
    return value.slice(0, i) + edit + value.slice(i + 1);
  });

describe('canonicalBinary', () => {
  it("is readBase64's bytes where it finds no problem, else undefined", () => {
    fc.assert(
      fc.property(
        fc.oneof(edited, fc.string({ maxLength: 40 }), fc.base64String({ maxLength: 40 })),
        (value) => {
          const reading = readBase64(value);
          expect(canonicalBinary(value)).toBe(reading.problem === undefined ? reading.binary : undefined);
        },
      ),
      { numRuns: runs(300) },
    );
    expect(canonicalBinary('data:image/png;base64,AAAA')).toBeUndefined();
    expect(canonicalBinary('')).toBe('');
  });

  it('is undefined for a long value atob accepts that is not canonical', () => {
    // Longer than a chunk, of a length divisible by 4, one character a space or a line break: readBase64
    // decodes the whole value to say it is non-canonical, and those bytes are no canonical bytes.
    const value = canonicalOfSize(60_000);
    for (const at of [0, 1000, CHUNK - 1, CHUNK, value.length - 5]) {
      for (const blank of [' ', '\n']) {
        const spaced = value.slice(0, at) + blank + value.slice(at + 1);
        expect(readBase64(spaced).problem).toBe('non-canonical');
        expect(canonicalBinary(spaced)).toBeUndefined();
      }
    }
    expect(canonicalBinary(value)?.length).toBe((CHUNK * 3) / 4);
  });
});

describe('readBase64 on long values', () => {
  it('says what one atob of the whole value says', () => {
    fc.assert(
      fc.property(edited, (value) => {
        const reading = readBase64(value);
        const expected = whole(value);
        if (expected.problem === 'invalid-or-base64url') {
          expect(['invalid', 'base64url']).toContain(reading.problem);
          expect(reading.binary).toBeUndefined();
          return;
        }
        expect(reading.problem).toBe(expected.problem);
        const head = reading.binary ?? '';
        expect(head.length).toBeGreaterThan(Math.min(4100, (expected.binary ?? '').length) - 1);
        expect(expected.binary?.startsWith(head)).toBe(true);
      }),
      { numRuns: runs(400) },
    );
  });

  it('decodes only the first chunk of a long canonical value', () => {
    const value = bytes(300_000).toString('base64');
    const reading = readBase64(value);
    expect(reading.problem).toBeUndefined();
    expect(reading.binary?.length).toBe((CHUNK * 3) / 4);
  });
});

const text = (s: string) => Buffer.from(s).toString('base64');
const decoded = (bytes: Uint8Array | undefined) =>
  bytes === undefined ? undefined : Buffer.from(bytes).toString();

describe('readBase64 problems', () => {
  it('names a data URI, which is never raw base64', () => {
    expect(readBase64('data:image/png;base64,iVBORw0KGgo=')).toEqual({ problem: 'data-uri' });
    expect(base64Problem('DATA:text/plain,hi')).toBe('data-uri');
  });

  it('tells the URL-safe alphabet apart from garbage', () => {
    expect(base64Problem('Pz8_Pz8-')).toBe('base64url');
    // A URL-safe character among characters no alphabet has is garbage, not base64url.
    expect(base64Problem('Pz8_Pz%-')).toBe('invalid');
    // Five characters: no alphabet decodes a lone sixth bit, and there is no URL-safe character.
    expect(base64Problem('abcde')).toBe('invalid');
  });

  it('accepts canonical base64 and reports what atob only forgives', () => {
    expect(readBase64(text('hello'))).toEqual({ problem: undefined, binary: 'hello' });
    expect(readBase64('aGVsbG8')).toEqual({ problem: 'non-canonical', binary: 'hello' });
    expect(readBase64('aGVs bG8=')).toEqual({ problem: 'non-canonical', binary: 'hello' });
    // Whitespace in a value whose length is a multiple of 4 is still not canonical.
    expect(readBase64('aGVs bG8')).toEqual({ problem: 'non-canonical', binary: 'hello' });
    expect(readBase64('YQ==')).toEqual({ problem: undefined, binary: 'a' });
    expect(base64Problem('')).toBeUndefined();
  });
});

describe('decodedLength', () => {
  it('is the byte count of canonical base64, less its padding', () => {
    expect(['', 'YQ==', 'YWI=', 'YWJj', 'YWJjZA=='].map(decodedLength)).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('atob failures', () => {
  it('leave the stack trace limit as it was, for every other error', () => {
    const limit = Error.stackTraceLimit;
    try {
      // A limit of its own: a failure earlier in this process must not hide one here.
      Error.stackTraceLimit = 17;
      expect(readBase64('%%%').problem).toBe('invalid');
      expect(Error.stackTraceLimit).toBe(17);
      expect(readBase64('aGVsbG8=').problem).toBeUndefined();
      expect(Error.stackTraceLimit).toBe(17);
    } finally {
      Error.stackTraceLimit = limit;
    }
  });
});

describe('parseDataUri', () => {
  it('splits the media type (lower case), the base64 flag and the payload', () => {
    expect(parseDataUri('data:Image/PNG;base64,iVBORw0KGgo=')).toEqual({
      mimeType: 'image/png',
      base64: true,
      payload: 'iVBORw0KGgo=',
    });
    expect(parseDataUri('data:text/plain;charset=utf-8,a%20b')).toEqual({
      mimeType: 'text/plain',
      base64: false,
      payload: 'a%20b',
    });
    expect(parseDataUri('data:,x')).toEqual({ mimeType: '', base64: false, payload: 'x' });
  });

  it('takes ;base64 only as the last parameter, as RFC 2397 places it', () => {
    expect(parseDataUri('data:text/plain;base64x,aGk=')?.base64).toBe(false);
    expect(parseDataUri('data:text/plain;base64;charset=utf-8,aGk=')?.base64).toBe(false);
    expect(parseDataUri('data:text/plain;charset=utf-8;BASE64,aGk=')?.base64).toBe(true);
  });

  it('is undefined for anything but a data URI', () => {
    expect(parseDataUri('aGk=')).toBeUndefined();
    expect(parseDataUri('data:text/plain')).toBeUndefined();
  });
});

describe('decodeBase64Prefix', () => {
  it('decodes whole 3-byte groups up to the limit, never more', () => {
    expect(decoded(decodeBase64Prefix(text('hello world'), 6))).toBe('hello ');
    expect(decoded(decodeBase64Prefix(text('x'.repeat(100)), 12))).toBe('x'.repeat(12));
    expect(decoded(decodeBase64Prefix(text('hello world'), 100))).toBe('hello world');
  });

  it('decodes a whole value with a short unpadded last group, as atob does', () => {
    expect(decoded(decodeBase64Prefix('aGVsbG8', 100))).toBe('hello');
  });

  it('skips whitespace, and cuts a prefix at a whole group', () => {
    expect(decoded(decodeBase64Prefix('aGVs\nbG8g\r\nd29y bGQ=', 100))).toBe('hello world');
    const spaced = `  ${text('abcdefghijklmnopqrstuvwxyz').split('').join(' ')}`;
    // The first 32 characters hold 15 base64 characters: three whole groups, nine bytes.
    expect(decoded(decodeBase64Prefix(spaced, 12))).toBe('abcdefghi');
  });

  it('reads at most twice the characters the limit needs, whatever whitespace precedes the data', () => {
    // A bound on the work per payload: a value that is mostly whitespace yields what its head holds.
    expect(decoded(decodeBase64Prefix(`${' '.repeat(40)}${text('hello world')}`, 12))).toBe('');
  });

  it('is undefined where atob rejects the prefix', () => {
    expect(decodeBase64Prefix('a%bc', 100)).toBeUndefined();
  });
});

describe('canonicalBase64', () => {
  it('removes whitespace, translates the URL-safe alphabet and restores padding', () => {
    expect(canonicalBase64('aGVs bG8\n')).toBe('aGVsbG8=');
    expect(canonicalBase64('Pz8_Pz8-')).toBe('Pz8/Pz8+');
    expect(canonicalBase64('YQ')).toBe('YQ==');
    expect(canonicalBase64('YWI')).toBe('YWI=');
  });

  it('leaves canonical base64 as it is, and drops excess padding', () => {
    expect(canonicalBase64('YQ==')).toBe('YQ==');
    expect(canonicalBase64('aGVsbG8=')).toBe('aGVsbG8=');
    expect(canonicalBase64('YQ===')).toBe('YQ==');
  });

  it('is undefined where no decoder could read the value', () => {
    expect(canonicalBase64('abcde')).toBeUndefined();
    expect(canonicalBase64('ab%c')).toBeUndefined();
    // Padding inside the value ends the data for atob: not a value to repair.
    expect(canonicalBase64('YQ==YQ')).toBeUndefined();
  });
});

describe('encodeBase64', () => {
  it('encodes as Buffer does, small and large payloads alike', () => {
    for (const size of [0, 1, 2, 3, 0x8000, 0x8000 * 2 + 5]) {
      const input = Uint8Array.from(bytes(size));
      expect(encodeBase64(input), `${size} bytes`).toBe(Buffer.from(input).toString('base64'));
    }
  });

  it("writes what Buffer's encoder writes, for any bytes, padding included", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.nat(7), (bytes, offset) => {
        // A view that does not start at its buffer's start, as a decoded payload may be.
        const view = new Uint8Array(offset + bytes.length);
        view.set(bytes, offset);
        const part = view.subarray(offset);
        expect(encodeBase64(part)).toBe(Buffer.from(bytes).toString('base64'));
      }),
      { numRuns: runs(2000) },
    );
  });
});
