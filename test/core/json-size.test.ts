/**
 * src/core/json-size.ts counts the UTF-8 bytes of JSON text without building it. The definition it
 * must match: Buffer.byteLength of JSON.stringify.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  jsonOfJsonTextBytes,
  jsonOfJsonTextUnits,
  jsonStringBytes,
  jsonStringUnits,
  jsonTextBytes,
} from '../../src/core/json-size.js';
import { runs } from '../support/runs.js';

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

/** Strings that mix every class of character the counter treats apart, short and long. */
const tricky = fc
  .array(
    fc.oneof(
      fc.constantFrom('a', ' ', '~', '"', '\\', '\b', '\t', '\n', '\f', '\r', '\u0000', '\u001f', '\u007f'),
      fc.constantFrom('\u0080', '\u07ff', '\u0800', '\uffff', '\ud83d\ude00', '\ud800', '\udfff', '\udc00x'),
      fc.string({ unit: 'binary', maxLength: 3 }),
    ),
    { maxLength: 60 },
  )
  .map((parts) => parts.join(''));

describe('jsonStringUnits', () => {
  it('is the length of what JSON.stringify writes, for every class of character', () => {
    fc.assert(
      fc.property(tricky, (value) => {
        expect(jsonStringUnits(value)).toBe(JSON.stringify(value).length);
        const json = JSON.stringify({ value });
        expect(jsonOfJsonTextUnits(json, json.length)).toBe(JSON.stringify(json).length);
      }),
      { numRuns: runs(500) },
    );
  });
});

describe('jsonStringBytes', () => {
  it('counts what JSON.stringify writes, character class by character class', () => {
    const cases: [string, number][] = [
      ['', 2],
      ['a', 3],
      ['"', 4],
      ['\\', 4],
      ['\b\t\n\f\r', 12],
      ['\u0000', 8],
      ['\u001f', 8],
      [' ', 3],
      ['\u007f', 3],
      ['\u0080', 4],
      ['\u07ff', 4],
      ['\u0800', 5],
      ['\ud7ff', 5],
      ['\ue000', 5],
      ['\ud83d\ude00', 6],
      ['\ud800', 8],
      ['\udbff', 8],
      ['\udc00', 8],
      ['\udfff', 8],
      ['\ud800a', 9],
      ['\ud800\ud800', 14],
    ];
    for (const [value, expected] of cases) {
      expect(bytesOf(value), JSON.stringify(value)).toBe(expected);
      expect(jsonStringBytes(value), JSON.stringify(value)).toBe(expected);
    }
  });

  it('counts long plain ASCII by its length, and long text with escapes exactly', () => {
    const plain = 'x'.repeat(31);
    for (const value of [
      plain,
      `${plain}y`,
      `${plain}"`,
      `"${plain}`,
      `${plain}\\`,
      `${plain}\u00e9`,
      `${plain}\n`,
    ]) {
      expect(jsonStringBytes(value), JSON.stringify(value)).toBe(bytesOf(value));
    }
  });

  it('agrees with Buffer.byteLength(JSON.stringify()) on any string', () => {
    fc.assert(
      fc.property(
        fc.oneof(tricky, fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' })),
        (value) => {
          expect(jsonStringBytes(value)).toBe(bytesOf(value));
        },
      ),
      { numRuns: runs(2000) },
    );
  });
});

describe('jsonTextBytes and jsonOfJsonTextBytes', () => {
  it('count JSON text, and JSON of JSON text, as written', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), tricky), (value) => {
        const json = JSON.stringify(value);
        const bytes = jsonTextBytes(json);
        expect(bytes).toBe(Buffer.byteLength(json, 'utf8'));
        expect(jsonOfJsonTextBytes(json, bytes)).toBe(bytesOf(json));
      }),
      { numRuns: runs(2000) },
    );
  });

  it('counts ASCII JSON by its length and non-ASCII JSON by its bytes', () => {
    expect(jsonTextBytes('{"a":"b\\"c"}')).toBe(12);
    expect(jsonTextBytes('"caf\u00e9 \\\\ \\""')).toBe(Buffer.byteLength('"caf\u00e9 \\\\ \\""'));
    expect(jsonOfJsonTextBytes('{"a":"\\\\"}', 10)).toBe(bytesOf('{"a":"\\\\"}'));
  });
});
