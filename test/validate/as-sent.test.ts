/**
 * The validators judge a handler's JS value as the wire carries it (src/validate/as-sent.ts): a Date as
 * its ISO string, NaN as null, undefined members left out, a class instance as its own members. Before,
 * a Date in structuredContent passed an outputSchema asking for an object, which the official SDK client
 * rejects once the server has sent the string.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/core/finding.js';
import { isObject, type JsonObject } from '../../src/core/json.js';
import { PROTOCOL_VERSIONS } from '../../src/spec/versions.js';
import { asSent } from '../../src/validate/as-sent.js';
import {
  validateMessage,
  validateMessageSync,
  validateToolResult,
  validateToolResultSync,
} from '../../src/validate/index.js';
import { anyResult } from '../spec/arbitraries.js';
import { runs } from '../support/runs.js';

const V = { protocolVersion: '2025-11-25' } as const;

function tool(outputSchema: JsonObject): JsonObject {
  return { name: 't', inputSchema: { type: 'object' }, outputSchema };
}

function summary(findings: readonly { rule: string; pointer: string; severity: string }[]): string[] {
  return findings.map((f) => `${f.severity} ${f.rule} ${f.pointer}`);
}

class Reading {
  constructor(readonly celsius: number) {}
  /** On the prototype: a reader sees it, JSON.stringify does not. */
  get fahrenheit(): number {
    return this.celsius * 1.8 + 32;
  }
}

describe('judging what JSON sends', () => {
  it('reports a Date where the outputSchema asks for an object, and NaN where it asks for a number', () => {
    const structured = { when: new Date(0), n: Number.NaN };
    const result = {
      content: [{ type: 'text', text: JSON.stringify(structured) }],
      structuredContent: structured,
    };
    const schema = tool({
      type: 'object',
      properties: { when: { type: 'object' }, n: { type: 'number' } },
      required: ['when', 'n'],
    });
    expect(summary(validateToolResultSync(result, { ...V, tool: schema }))).toEqual([
      'error structured-content-schema-mismatch /structuredContent/when',
      'error structured-content-schema-mismatch /structuredContent/n',
    ]);
  });

  it('judges a Date where the outputSchema asks for a date-time string as its string, which the SDK client passes', async () => {
    const structured = { when: new Date(0) };
    const result = {
      content: [{ type: 'text', text: JSON.stringify(structured) }],
      structuredContent: structured,
    };
    const schema = tool({ type: 'object', properties: { when: { type: 'string', format: 'date-time' } } });
    const sent = JSON.parse(JSON.stringify(result));
    expect(validateToolResultSync(sent, { ...V, tool: schema })).toEqual([]);
    // …but McpServer checks the live Date against the schema, an object where a string is asked for
    // (test/validate/sdk-sent.test.ts): that alone is found of the value.
    const refused = ['error result-value-refused-by-sdk /structuredContent/when'];
    expect(summary(validateToolResultSync(result, { ...V, tool: schema }))).toEqual(refused);
    expect(summary(await validateToolResult(result, { ...V, tool: schema }))).toEqual(refused);
  });

  it('judges a class instance by its own members: a getter on its prototype is not sent', () => {
    const structured = new Reading(20);
    const result = {
      content: [{ type: 'text', text: JSON.stringify(structured) }],
      structuredContent: structured,
    };
    const schema = tool({ type: 'object', required: ['celsius', 'fahrenheit'] });
    expect(summary(validateToolResultSync(result, { ...V, tool: schema }))).toEqual([
      'error structured-content-schema-mismatch /structuredContent',
      // SDK v1's server refuses a class instance as structuredContent (z.record asks for a plain object).
      'error result-value-refused-by-sdk /structuredContent',
    ]);
  });

  it('reports a Date as structuredContent itself: it is sent as a string, which is no object', () => {
    const result = {
      content: [{ type: 'text', text: '"1970-01-01T00:00:00.000Z"' }],
      structuredContent: new Date(0),
    };
    expect(summary(validateToolResultSync(result, V))).toContain(
      'error structured-content-not-object /structuredContent',
    );
  });

  it('leaves out a block member holding undefined, and a message member too', () => {
    const block = { type: 'text', text: 'hi', annotations: undefined, _meta: undefined };
    expect(validateToolResultSync({ content: [block] }, V)).toEqual([]);
    const message = { jsonrpc: '2.0', id: 1, result: { content: [block] }, requestId: undefined };
    expect(validateMessageSync(message, V)).toEqual([]);
  });
});

/** The sent form alone; Sent.bounded has tests of its own. */
function sentForm(document: unknown, structuredShallow?: boolean): unknown {
  return asSent(document, structuredShallow).document;
}

describe('asSent', () => {
  it('returns plain JSON itself, uncopied', () => {
    const parsed = JSON.parse(
      '{"content":[{"type":"text","text":"x"}],"isError":false,"structuredContent":{"a":[1.5,{"b":null}]}}',
    );
    expect(sentForm(parsed)).toBe(parsed);
    expect(sentForm(parsed, true)).toBe(parsed);
    const bare = Object.assign(Object.create(null), { a: 1 });
    expect(sentForm(bare)).toBe(bare);
  });

  it('copies what JSON changes, as JSON.parse(JSON.stringify(…)) would', () => {
    const sparse: unknown[] = [1];
    sparse[2] = 3;
    const value = {
      d: new Date(0),
      n: Number.POSITIVE_INFINITY,
      u: undefined,
      f: () => 1,
      sparse,
      m: new Map(),
    };
    expect(sentForm(value)).toEqual({ d: '1970-01-01T00:00:00.000Z', n: null, sparse: [1, null, 3], m: {} });
  });

  it('keeps what JSON cannot write as it is: result-not-serializable reports it', () => {
    const loop: JsonObject = { a: 1 };
    loop.self = loop;
    expect(sentForm(loop)).toBe(loop);
    const big = { n: 12n };
    expect(sentForm(big)).toBe(big);
  });

  it('copies a document nested deeper than it walks, and keeps one too deep for JSON.stringify', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 200; i++) deep = [deep];
    const copy = sentForm(deep);
    expect(copy).not.toBe(deep);
    expect(copy).toEqual(deep);
    let deeper: unknown = 'leaf';
    for (let i = 0; i < 200_000; i++) deeper = [deeper];
    expect(sentForm(deeper)).toBe(deeper);
  });

  it('copies what only a closer look shows JSON changes', () => {
    // A member inherited from a prototype that is not Object.prototype: readers see it, JSON does not.
    const base = Object.assign(Object.create(null) as object, { isError: 'yes' });
    const inheriting = Object.assign(Object.create(base) as object, { content: [] });
    const sent = sentForm(inheriting) as object;
    expect(sent).not.toBe(inheriting);
    expect('isError' in sent).toBe(false);
    expect(sent).toEqual({ content: [] });
    expect(sentForm({ r: new Reading(3) })).toEqual({ r: { celsius: 3 } });
    // toJSON that for…in does not see: not enumerable on an object, an own member of an array.
    const hidden = Object.defineProperty({ a: 1 }, 'toJSON', { value: () => 'hidden', enumerable: false });
    expect(sentForm({ hidden })).toEqual({ hidden: 'hidden' });
    expect(sentForm({ list: Object.assign([1], { toJSON: () => 'list' }) })).toEqual({ list: 'list' });
    class List extends Array<number> {}
    const listed = { list: List.from([1, 2]) };
    const copy = sentForm(listed) as { list: unknown };
    expect(Object.getPrototypeOf(copy.list)).toBe(Array.prototype);
    expect(copy.list).toEqual([1, 2]);
    expect(sentForm(new Date(0), true)).toBe('1970-01-01T00:00:00.000Z');
  });

  it('keeps what JSON sends nothing for, or cannot read, as it is', () => {
    expect(sentForm(undefined)).toBeUndefined();
    const f = () => 1;
    expect(sentForm(f)).toBe(f);
    const unreadable = {
      get a(): never {
        throw new Error('not readable');
      },
    };
    expect(sentForm(unreadable)).toBe(unreadable);
    expect(sentForm(unreadable, true)).toBe(unreadable);
  });

  it('copies nesting deeper than it walks, in objects as in arrays', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100; i++) deep = { deeper: deep };
    const copy = sentForm(deep);
    expect(copy).not.toBe(deep);
    expect(copy).toEqual(deep);
    // 65 objects: the innermost at depth 64, the deepest the walk goes; one more and it copies.
    let shallow: unknown = 'leaf';
    for (let i = 0; i < 65; i++) shallow = { deeper: shallow };
    expect(sentForm(shallow)).toBe(shallow);
    const past = { deeper: shallow };
    expect(sentForm(past)).not.toBe(past);
  });

  it('judges as given a value of more objects and arrays than it walks (shared parts standing for 2^40)', () => {
    let shared: unknown = [new Date(0)];
    for (let i = 0; i < 40; i++) shared = [shared, shared];
    const document = { structuredContent: { shared } };
    expect(sentForm(document)).toBe(document);
    // Under the bound, the same kind of value is walked and copied.
    let small: unknown = [new Date(0)];
    for (let i = 0; i < 4; i++) small = [small, small];
    expect(sentForm({ small })).toEqual({ small: JSON.parse(JSON.stringify(small)) });
  });

  // A million rows copied and written twice: 3 s alone, over 30 s once with a loaded machine.
  it('says the size is bounded only of what it walked whole (Sent.bounded)', { timeout: 120_000 }, () => {
    const parsed = JSON.parse('{"content":[],"structuredContent":{"a":[1]},"_meta":{"b":{}}}');
    expect(asSent(parsed)).toEqual({ document: parsed, bounded: true });
    const copied = asSent({ structuredContent: { at: new Date(0) } });
    expect(copied).toEqual({
      document: { structuredContent: { at: '1970-01-01T00:00:00.000Z' } },
      bounded: true,
    });
    // Shallow: the members of structuredContent, not walked for plainness, are counted all the same.
    expect(asSent(parsed, true).bounded).toBe(true);
    for (const structured of ['text', 3, null, undefined, [1]]) {
      expect(asSent({ content: [], structuredContent: structured }, true).bounded).toBe(true);
    }
    expect(asSent(null, true)).toEqual({ document: null, bounded: true });
    let shared: unknown = [1];
    for (let i = 0; i < 40; i++) shared = [shared, shared];
    expect(asSent({ content: [], structuredContent: { shared } }, true).bounded).toBe(false);
    expect(asSent({ shared }).bounded).toBe(false);
    expect(asSent({ at: { toJSON: () => shared } }).bounded).toBe(false);
    // Past the containers it walks, yet writable: copied, and bounded.
    const wide = { rows: Array.from({ length: 1_100_000 }, () => [0]) };
    const wideSent = asSent(wide);
    expect(wideSent.bounded).toBe(true);
    expect(wideSent.document).not.toBe(wide);
    // Compared as JSON text, which is exact for rows of numbers: toEqual took seconds on a million rows.
    expect(JSON.stringify(wideSent.document)).toBe(JSON.stringify(wide));
    const unreadable = {
      get a(): never {
        throw new Error('not readable');
      },
    };
    expect(asSent(unreadable).bounded).toBe(false);
  });

  it('judges a value past the containers it walks as sent, not as given (a Date among a million rows)', () => {
    // Such a value was judged as given: the Date passed `{"type": "object"}`, while the wire carries a
    // string, which the official SDK client rejects against the outputSchema.
    const rows = Array.from({ length: 1_100_000 }, (_, i) => [i]);
    const result = {
      content: [{ type: 'text', text: 'rows' }],
      // The rows first: the walk's budget runs out before it meets the Date.
      structuredContent: { rows, at: new Date(0) },
    };
    const tool = {
      name: 't',
      inputSchema: { type: 'object' },
      outputSchema: { type: 'object', properties: { at: { type: 'object' } } },
    };
    const findings = validateToolResultSync(result, { protocolVersion: '2025-11-25', tool });
    expect(
      findings.filter((f) => f.rule === 'structured-content-schema-mismatch').map((f) => f.pointer),
    ).toEqual(['/structuredContent/at']);
  });

  it('walks structuredContent shallowly only where asked, and then still its error member', () => {
    const structured: JsonObject = { rows: [{ at: new Date(0) }] };
    const shallow = { structuredContent: structured };
    expect(sentForm(shallow, true)).toBe(shallow);
    for (const kind of [[1, { at: new Date(0) }], 'text', 3, true, null]) {
      const other = { structuredContent: kind };
      expect(sentForm(other, true)).toBe(other);
    }
    // Its kind as sent: an array's toJSON may send an object, a subclass is sent as a plain array.
    const objectOfArray = { structuredContent: Object.assign([1], { toJSON: () => ({ a: 1 }) }) };
    expect(sentForm(objectOfArray, true)).toEqual({ structuredContent: { a: 1 } });
    class Rows extends Array<number> {}
    const subclassed = { structuredContent: Rows.from([1]) };
    const copy = sentForm(subclassed, true) as { structuredContent: unknown };
    expect(Object.getPrototypeOf(copy.structuredContent)).toBe(Array.prototype);
    expect(sentForm({ structuredContent: structured })).toEqual({
      structuredContent: { rows: [{ at: '1970-01-01T00:00:00.000Z' }] },
    });
    structured.error = new Date(0);
    expect(sentForm({ structuredContent: structured }, true)).toEqual({
      structuredContent: { rows: [{ at: '1970-01-01T00:00:00.000Z' }], error: '1970-01-01T00:00:00.000Z' },
    });
  });
});

/** Values a handler may return that JSON sends as something else, or not at all. */
const JS_ONLY: readonly (() => unknown)[] = [
  () => new Date(86_400_000),
  () => Number.NaN,
  () => Number.NEGATIVE_INFINITY,
  () => undefined,
  () => () => 'f',
  () => Symbol('s'),
  () => new Map([['a', 1]]),
  () => new Set([1]),
  () => new Reading(3),
  () => ({ toJSON: () => ({ type: 'text', text: 'from toJSON' }) }),
  () => ({ toJSON: () => 'json' }),
  () => new Number(2),
  () => new String('s'),
  () => new Boolean(false),
  // A hole: JSON writes null in its place.
  () => {
    const holed: unknown[] = [1];
    holed[2] = 'x';
    return holed;
  },
  () => [undefined, 1],
];

/** Where in a result a JS-only value is put. */
const PLACES: readonly ((result: JsonObject, value: unknown) => void)[] = [
  (r, v) => {
    r.structuredContent = v;
  },
  (r, v) => {
    r.structuredContent = { ...(isObject(r.structuredContent) ? r.structuredContent : {}), value: v };
  },
  (r, v) => {
    r.structuredContent = { nested: { deeper: [v] } };
  },
  (r, v) => {
    r.structuredContent = { error: v };
  },
  (r, v) => {
    r._meta = { value: v };
  },
  (r, v) => {
    r.isError = v;
  },
  (r, v) => {
    r.extra = v;
  },
  (r, v) => {
    if (Array.isArray(r.content)) r.content.push(v);
  },
  (r, v) => {
    const block = Array.isArray(r.content) ? r.content.find(isObject) : undefined;
    if (block) block.annotations = { lastModified: v, priority: v };
  },
  (r, v) => {
    const block = Array.isArray(r.content) ? r.content.find(isObject) : undefined;
    if (block) block[['text', 'data', 'mimeType', 'uri', 'type'][String(v).length % 5] as string] = v;
  },
];

describe('the validators judge any value as they judge its sent form', () => {
  it('for results with and without an outputSchema, sync and async, and in a message', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .constantFrom(...PROTOCOL_VERSIONS)
          .chain((v) =>
            fc.tuple(
              fc.constant(v),
              anyResult(v),
              fc.nat({ max: JS_ONLY.length - 1 }),
              fc.nat({ max: PLACES.length - 1 }),
            ),
          ),
        async ([version, { result, tool }, which, where]) => {
          if (!isObject(result)) return;
          (PLACES[where] as (r: JsonObject, v: unknown) => void)(result, (JS_ONLY[which] as () => unknown)());
          const sent = JSON.parse(JSON.stringify(result)) as unknown;
          const options = { protocolVersion: version, ...(tool ? { tool } : {}) };
          const expected = validateToolResultSync(sent, options);
          // Besides what SDK v1's server refuses of the live value, which its sent form cannot show.
          const ofSent = (findings: readonly Finding[]) =>
            findings.filter((f) => f.rule !== 'result-value-refused-by-sdk');
          expect(ofSent(validateToolResultSync(result, options))).toEqual(expected);
          expect(ofSent(await validateToolResult(result, options))).toEqual(
            await validateToolResult(sent, options),
          );
          const message = { jsonrpc: '2.0', id: 7, result };
          const messageOptions = {
            protocolVersion: version,
            request: { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 't' } },
            tools: tool ? [{ ...tool, name: 't' }] : [],
          };
          const sentMessage = JSON.parse(JSON.stringify(message)) as unknown;
          expect(validateMessageSync(message, messageOptions)).toEqual(
            validateMessageSync(sentMessage, messageOptions),
          );
          expect(await validateMessage(message, messageOptions)).toEqual(
            await validateMessage(sentMessage, messageOptions),
          );
        },
      ),
      { numRuns: runs(300) },
    );
  });
});
