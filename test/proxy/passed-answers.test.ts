/**
 * The requests a message passed on unjudged answers, read as it passes (src/proxy/passed-answers.ts):
 * for any message, cut anywhere, as text or as UTF-8 bytes, or as the data of an SSE event, the reader
 * finds exactly the ids JSON.parse finds in its response objects, and none in a message that has not
 * ended well.
 */

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createParser } from 'eventsource-parser';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AnswerReader, EventAnswerReader, ID_LIMIT, KEY_LIMIT } from '../../src/proxy/passed-answers.js';
import { runs } from '../support/runs.js';

/** The oracle: the ids of the response objects in a parsed message (an object, or a batch of them). */
function answersOf(message: unknown): unknown[] {
  const isObject = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  const out: unknown[] = [];
  for (const item of Array.isArray(message) ? message : [message]) {
    if (!isObject(item) || Object.hasOwn(item, 'method')) continue;
    if (!isObject(item.result) && !isObject(item.error)) continue;
    if (typeof item.id === 'string' || typeof item.id === 'number') out.push(item.id);
  }
  return out;
}

function read(pieces: readonly (string | Buffer)[]): unknown[] {
  const reader = new AnswerReader();
  for (const piece of pieces) reader.feed(piece);
  return reader.answers();
}

/** `text` cut at the given fractions of its length. */
function cut<T extends string | Buffer>(text: T, at: readonly number[]): T[] {
  const points = [...new Set(at.map((f) => Math.floor(f * text.length)))].sort((a, b) => a - b);
  const out: T[] = [];
  let from = 0;
  for (const point of [...points, text.length]) {
    out.push(text.slice(from, point) as T);
    from = point;
  }
  return out;
}

describe('AnswerReader', () => {
  it('reads the id wherever it stands among the members of a response', () => {
    const text = 'x'.repeat(10_000);
    const cases: [string, unknown[]][] = [
      [`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"${text}"}]}}`, [1]],
      [` { "id" : "a\\"b" , "error": {"code":1,"message":"m"} }\n`, ['a"b']],
      [`{"result":{"content":[],"structuredContent":{"id":3}},"id":3}`, [3]],
      [`{"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"${text}"}]},"id":6,"_meta":{}}`, [6]],
      [`{"error":{"code":1,"message":"m"} , "id" : "x" , "jsonrpc":"2.0" }`, ['x']],
      // An escaped key is the same key; an id may be a string of any characters.
      [`{"\\u0069d":-2.5e1,"result":{}}`, [-25]],
      [`{"id":"é\\u00e9\\\\","result":{}}`, ['éé\\']],
      // A batch: each response of it.
      [`[{"id":1,"result":{}},{"id":2,"method":"x"},{"id":3,"error":{"code":1,"message":"m"}},7]`, [1, 3]],
    ];
    for (const [message, ids] of cases) {
      expect(answersOf(JSON.parse(message))).toEqual(ids);
      expect(read([message])).toEqual(ids);
      expect(read([Buffer.from(message)])).toEqual(ids);
    }
  });

  it('finds no answer in a request, an id inside the result, or an id escaped inside a string', () => {
    for (const message of [
      '{"jsonrpc":"2.0","id":8,"method":"sampling/createMessage","params":{"x":"y"}}',
      '{"jsonrpc":"2.0","result":{"content":[],"meta":{"id":7}}}',
      '{"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"xx \\",\\"id\\":9}"}]}}',
      '{"jsonrpc":"2.0","id":{"n":1},"result":{}}',
      '{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"m"}}',
      '{"jsonrpc":"2.0","id":1,"result":"not an object"}',
      '{"jsonrpc":"2.0","id":1,"result":[]}',
      // The last of two results counts, as in JSON.parse.
      '{"jsonrpc":"2.0","id":1,"result":{},"result":3}',
    ]) {
      expect(answersOf(JSON.parse(message))).toEqual([]);
      expect(read([message])).toEqual([]);
    }
  });

  it('answers nothing for a message that has not ended, or that is no JSON value', () => {
    for (const message of [
      '{"jsonrpc":"2.0","id":3',
      '{"jsonrpc":"2.0","id":3,"result":{"content":[]}',
      '{"jsonrpc":"2.0","id":3,"result":{"content":[]}]',
      '{"jsonrpc":"2.0","id":3,"result":{"content":[]}} trailing',
      'x{"jsonrpc":"2.0","id":3,"result":{"content":[]}}',
      '{"jsonrpc":"2.0","id":3,"result":{"content":[]},"text":"unclosed}',
    ]) {
      expect(() => JSON.parse(message)).toThrow();
      expect(read([message])).toEqual([]);
    }
  });

  it(`reads an id written in up to ${ID_LIMIT} characters, quotes included, and leaves a longer one unread`, () => {
    const id = (length: number) => 'i'.repeat(length - 2);
    for (const [length, ids] of [
      [ID_LIMIT, [id(ID_LIMIT)]],
      [ID_LIMIT + 1, []],
    ] as const) {
      const message = `{"id":"${id(length)}","result":{}}`;
      // Cut inside the id, so that it is gathered from two pieces.
      expect(read([message.slice(0, 20), message.slice(20)])).toEqual(ids);
      expect(read([Buffer.from(message.slice(0, 20)), Buffer.from(message.slice(20))])).toEqual(ids);
    }
    // A number too, and an id of characters whose bytes a piece boundary splits.
    expect(read([`{"result":{},"id":${'9'.repeat(ID_LIMIT + 1)}}`])).toEqual([]);
    const accented = Buffer.from('{"id":"éé","result":{}}');
    expect(read([accented.subarray(0, 8), accented.subarray(8)])).toEqual(['éé']);
  });

  it(`knows a key in its longest spelling, ${KEY_LIMIT} characters: method in six escapes`, () => {
    const method = [...'method'].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    expect(method).toHaveLength(KEY_LIMIT);
    const message = `{"jsonrpc":"2.0","id":1,"${method}":"sampling/createMessage","result":{}}`;
    expect(answersOf(JSON.parse(message))).toEqual([]);
    expect(read([message])).toEqual([]);
  });

  it('follows escapes across pieces, wherever a piece ends in a run of backslashes', () => {
    for (const [message, ids] of [
      [String.raw`{"text":"\\\"","x":"\"}","id":"\\\\\"","result":{"y":"\\"}}`, [String.raw`\\"`]],
      [String.raw`{"result":{"t":"\\\"\\\",\"id\":9}"},"id":10}`, [10]],
    ] as const) {
      expect(answersOf(JSON.parse(message))).toEqual(ids);
      for (let at = 0; at <= message.length; at++) {
        expect(read([message.slice(0, at), message.slice(at)])).toEqual(ids);
        expect(read([Buffer.from(message.slice(0, at)), Buffer.from(message.slice(at))])).toEqual(ids);
      }
      expect(read([...message])).toEqual(ids);
    }
  });

  it('counts the depth below the message objects, holding nothing per level: 32 million levels', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    gc();
    const before = process.memoryUsage().heapUsed;
    const reader = new AnswerReader();
    reader.feed('{"jsonrpc":"2.0","id":1,"result":{"deep":');
    const open = Buffer.alloc(1 << 20, '[');
    const close = Buffer.alloc(1 << 20, ']');
    for (let i = 0; i < 32; i++) reader.feed(open);
    // An array of a boolean per level held 8 bytes a level: 256 MB here.
    gc();
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(16 * 2 ** 20);
    for (let i = 0; i < 32; i++) reader.feed(close);
    reader.feed('}}');
    expect(reader.answers()).toEqual([1]);
  });

  it('takes a byte order mark before the message, as bytes or as a character', () => {
    const message = '{"id":4,"result":{}}';
    expect(read(['\uFEFF', message])).toEqual([4]);
    expect(
      read([Buffer.from(`\uFEFF${message}`).subarray(0, 2), Buffer.from(`\uFEFF${message}`).subarray(2)]),
    ).toEqual([4]);
  });

  it('reads the id after 64 MB of string fed in 64 KB pieces, as a stdio line arrives', () => {
    const piece = Buffer.alloc(64 * 1024, 'A');
    const reader = new AnswerReader();
    reader.feed('{"jsonrpc":"2.0","result":{"content":[{"type":"image","mimeType":"image/png","data":"');
    for (let i = 0; i < 1024; i++) reader.feed(piece);
    reader.feed('"}]},"id":"last"}\n');
    expect(reader.answers()).toEqual(['last']);
  });

  /** Any JSON-RPC-like message: members in any order, some of them keys escaped or repeated. */
  const member = fc.oneof(
    fc.tuple(fc.constant('jsonrpc'), fc.constant('"2.0"')),
    fc.tuple(
      fc.constant('id'),
      fc
        .oneof(
          fc.integer(),
          fc.double({ noNaN: true, noDefaultInfinity: true }),
          fc.string(),
          fc.constant(null),
          fc.object(),
        )
        .map((id) => JSON.stringify(id)),
    ),
    fc.tuple(
      fc.constantFrom('result', 'error'),
      fc.jsonValue().map((value) => JSON.stringify(value)),
    ),
    fc.tuple(
      fc.constantFrom('result', 'error'),
      fc.object().map((value) => JSON.stringify(value)),
    ),
    fc.tuple(
      fc.constant('method'),
      fc.string().map((value) => JSON.stringify(value)),
    ),
    fc.tuple(
      fc.constantFrom('_meta', 'ids', 'i"d', 'resultx'),
      fc.jsonValue().map((value) => JSON.stringify(value)),
    ),
  );
  const space = fc.constantFrom('', ' ', '\n', '\t', '\r\n  ');
  const key = (name: string, escaped: boolean) =>
    escaped
      ? `"${[...name].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"`
      : JSON.stringify(name);
  const object = fc
    .array(fc.tuple(member, fc.boolean(), space, space), { maxLength: 6 })
    .map(
      (members) =>
        `{${members.map(([[name, value], escaped, a, b]) => `${a}${key(name, escaped)}${b}:${a}${value}${b}`).join(',')}}`,
    );
  const message = fc.oneof(
    object,
    fc
      .array(
        fc.oneof(
          { weight: 4, arbitrary: object },
          { weight: 1, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
        ),
        {
          minLength: 1,
          maxLength: 4,
        },
      )
      .map((items) => `[${items.join(' , ')}]`),
  );
  const cuts = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 8 });

  it('finds what JSON.parse finds, for any message cut anywhere, as text or as bytes', () => {
    fc.assert(
      fc.property(message, space, cuts, (text, after, at) => {
        const whole = `${text}${after}`;
        const expected = answersOf(JSON.parse(whole));
        expect(read(cut(whole, at))).toEqual(expected);
        expect(read(cut(Buffer.from(whole), at))).toEqual(expected);
      }),
      { numRuns: runs(3000) },
    );
  });

  it('finds nothing in a message cut short', () => {
    fc.assert(
      fc.property(
        message,
        fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
        cuts,
        (text, end, at) => {
          const short = text.slice(0, Math.floor(end * text.length));
          expect(read(cut(short, at))).toEqual([]);
        },
      ),
      { numRuns: runs(1000) },
    );
  });

  describe('EventAnswerReader', () => {
    /**
     * The message as one SSE event: a data line per line of it, each ended by any terminator, with
     * other fields and comments between, whose values would break the JSON if they were read as data.
     */
    const event = fc.record({
      terminators: fc.array(fc.constantFrom('\n', '\r', '\r\n'), { minLength: 1, maxLength: 8 }),
      spaced: fc.boolean(),
      extra: fc.array(
        fc.constantFrom('event: message', 'id: 7', ': comment ]}', 'retry: 5', 'datax: {}', 'dat: [', 'data'),
        { maxLength: 3 },
      ),
      at: fc.integer({ min: 0, max: 8 }),
    });
    const manyCuts = fc.oneof(cuts, fc.constant('every character' as const));

    it("finds what JSON.parse finds in the event's data, whatever its lines' terminators and pieces", () => {
      fc.assert(
        fc.property(message, event, manyCuts, (text, { terminators, spaced, extra, at }, where) => {
          const lines = text.split(/\r\n|\r|\n/).map((line) => `data:${spaced ? ' ' : ''}${line}`);
          lines.splice(Math.min(at, lines.length), 0, ...extra);
          const sse = lines.map((line, i) => `${line}${terminators[i % terminators.length]}`).join('');
          // eventsource-parser's own reading of the event, as a client reads it (the LF after the blank
          // line shows it that a CR ending that line is no CRLF's first half).
          let data: string | undefined;
          createParser({ onEvent: (e) => (data = e.data) }).feed(`${sse}\n\n`);
          const expected = answersOf(JSON.parse(data as string));
          const reader = new EventAnswerReader();
          for (const piece of where === 'every character' ? [...sse] : cut(sse, where)) reader.feed(piece);
          expect(reader.answers()).toEqual(expected);
        }),
        { numRuns: runs(2000) },
      );
    });

    it('reads only data fields, however a line is cut: a field name, a colon, a value, each in its own piece', () => {
      const pieces = [
        'dat',
        'ax: {',
        '\n',
        'eve',
        'nt',
        ': ]',
        '\r\n',
        ': {"id":',
        '2\r',
        'da',
        'ta',
        ':',
        ' {"id":1,',
        '\n',
        'data:"result":{}}',
        '\r',
      ];
      const reader = new EventAnswerReader();
      for (const piece of pieces) reader.feed(piece);
      expect(reader.answers()).toEqual([1]);
    });
  });
});
