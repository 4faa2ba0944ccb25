/** Ids as they were written, read from a frame's text (id-text.ts). */

import { describe, expect, it } from 'vitest';
import { idTexts, numberIdTexts } from '../../src/proxy/id-text.js';
import { parseFrame } from '../../src/proxy/parse.js';

const texts = (text: string) => idTexts(text, parseFrame(text));

describe('numberIdTexts', () => {
  it("reads each message's number id by its place, the last of a name, escaped names too", () => {
    expect(numberIdTexts('{"id":1e400}')).toEqual(new Map([[0, '1e400']]));
    expect(numberIdTexts('{"id":1,"id":-2.5E+3}')).toEqual(new Map([[0, '-2.5E+3']]));
    expect(numberIdTexts('{"\\u0069d" : 12345678901234567890}')).toEqual(
      new Map([[0, '12345678901234567890']]),
    );
    expect(numberIdTexts('[{"id":"1e400"},{"x":{"id":7}, "id" :\n 1e999}, 3, {"id":1E400}]')).toEqual(
      new Map([
        [1, '1e999'],
        [3, '1E400'],
      ]),
    );
  });

  it('skips strings holding quotes, brackets and "id":, and ids of nested objects', () => {
    const text = '{"a":"\\\\\\"id\\":5 {[","b":{"id":6},"id":1e400,"c":["}"]}';
    expect(JSON.parse(text).id).toBe(Number.POSITIVE_INFINITY);
    expect(numberIdTexts(text)).toEqual(new Map([[0, '1e400']]));
  });

  it('reads a frame nested 200,000 deep', () => {
    const deep = `{"jsonrpc":"2.0","id":1e400,"result":${'['.repeat(200_000)}${']'.repeat(200_000)}}`;
    expect(numberIdTexts(deep)).toEqual(new Map([[0, '1e400']]));
  });
});

describe('idTexts', () => {
  it('gives safe integers and other ids as JSON.stringify writes them, other numbers as written, nothing for messages without one', () => {
    expect(texts('{"id":"a\\u0062"}')).toEqual(['"ab"']);
    expect(texts('[{"id":1.50},{"method":"n"},{"id":1e400},{"id":null},{"id":9007199254740993}]')).toEqual([
      '1.50',
      undefined,
      '1e400',
      'null',
      '9007199254740993',
    ]);
  });
});
