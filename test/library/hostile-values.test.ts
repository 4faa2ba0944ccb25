/**
 * The repair path and the validators against hostile values: whatever a handler returns or a server
 * sends (cycles, throwing getters, BigInts, class instances, revoked proxies, 100,000 levels of nesting,
 * shared parts standing for 2^60 values), repair, repairMessage, toolResult, convertWebMcp, cloneJson
 * and the validators return, never throw, and judge the value as it would be sent.
 */

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEPTH_TO_ASK } from '../../src/core/unwritable.js';
import {
  cloneJson,
  cloneJsonExactly,
  isPlainJson,
  isPlainJsonExactly,
  stringifyJson,
  toWire,
} from '../../src/library/repair/clone.js';
import { repair, repairMessage, repairParsedMessage } from '../../src/library/repair/index.js';
import { toolResult } from '../../src/library/tool-result.js';
import { convertWebMcp } from '../../src/library/webmcp/index.js';
import {
  validateMessage,
  validateMessageSync,
  validateToolResult,
  validateToolResultSync,
} from '../../src/validate/index.js';
import { nested } from '../spec/arbitraries.js';
import { bundleScript } from '../support/cli-bundle.js';
import { isMutationRun, runs } from '../support/runs.js';
import { exponential, PLACES, WALKED_TOOL } from './support/hostile-places.js';
import { sdkV1Parse } from './support/oracles.js';

/**
 * Far past any recursion's reach: V8's stack holds about ten thousand frames of a recursive walk. A
 * mutation run (test/support/runs.ts) repeats these tests once per mutant that reaches them, and the
 * repairs alone take seconds at 100,000 levels, so there it is 20,000: still twice what a recursion
 * survives, so a mutant that brings one back still fails them.
 */
const DEEP = isMutationRun() ? 20_000 : 100_000;
const DEEP_TEXT = DEEP.toLocaleString('en-US');

function deepObject(depth: number): unknown {
  let value: unknown = { leaf: true };
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

function deepArray(depth: number): unknown {
  let value: unknown = [];
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

function cyclic(): Record<string, unknown> {
  const block: Record<string, unknown> = { type: 'text', text: 'hi' };
  const value: Record<string, unknown> = { content: [block] };
  value.self = value;
  block.parent = value.content;
  return value;
}

class Account {
  readonly id = 7;
  readonly balance = 12n;
  get secret(): string {
    return 'not sent: a prototype getter is not an own property';
  }
}

function throwingGetter(): Record<string, unknown> {
  return Object.defineProperty({ ok: 1 }, 'boom', {
    enumerable: true,
    get() {
      throw new Error('getter exploded');
    },
  });
}

/**
 * A conformant result whose `then` reads as undefined once (so it is no promise to await) and throws
 * on every later read, as the promise toolResult returns makes when it resolves with an object.
 */
function laterThenThrows(): object {
  let reads = 0;
  return new Proxy(
    { content: [{ type: 'text', text: 'ok' }] },
    {
      get(target, key, receiver) {
        if (key === 'then' && ++reads > 1) throw new Error(`then read ${reads} times`);
        return Reflect.get(target, key, receiver);
      },
    },
  );
}

function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

/**
 * Values that reading makes without end: a getter, a proxy's `get` trap or a toJSON that answers a new
 * object holding the same at each read. JSON.stringify throws a RangeError on each; the copy followed
 * them until the process ran out of memory (4 GB, about 50 s), from toolResult, repair, and the error
 * text of a promise rejected with one.
 */
function getterWithoutEnd(): object {
  return Object.defineProperty({}, 'next', { get: getterWithoutEnd, enumerable: true });
}

function proxyWithoutEnd(): object {
  return new Proxy(
    { next: 1 },
    { get: (target, key) => (key === 'next' ? proxyWithoutEnd() : Reflect.get(target, key)) },
  );
}

function toJsonWithoutEnd(): object {
  return { toJSON: () => ({ next: toJsonWithoutEnd() }) };
}

/** Two getters each answering a new one: a tree that doubles at each level, without end. */
function gettersDoublingWithoutEnd(): object {
  const value = {};
  for (const key of ['a', 'b'])
    Object.defineProperty(value, key, { get: gettersDoublingWithoutEnd, enumerable: true });
  return value;
}

const WITHOUT_END: [string, () => unknown][] = [
  ['a getter that makes a new one at each read', getterWithoutEnd],
  ['a proxy whose get trap makes a new one at each read', proxyWithoutEnd],
  ['a toJSON that makes a new one at each call', toJsonWithoutEnd],
  ['two getters that each make two new ones', gettersDoublingWithoutEnd],
];

const HOSTILE: [string, () => unknown][] = [
  ...WITHOUT_END,
  ...WITHOUT_END.map(([name, make]): [string, () => unknown] => [
    `a result whose structuredContent is ${name}`,
    () => ({ content: [], structuredContent: make() }),
  ]),
  [
    'a promise rejected with a getter that makes a new one at each read',
    () => {
      const promise = Promise.reject(getterWithoutEnd());
      promise.catch(() => {}); // handled where it is awaited; this only keeps the runner quiet
      return promise;
    },
  ],
  ['a cycle', cyclic],
  ['a throwing getter', throwingGetter],
  [
    'a throwing toJSON',
    () => ({
      a: {
        toJSON() {
          throw new Error('toJSON exploded');
        },
      },
    }),
  ],
  ['a BigInt', () => ({ n: 10n ** 30n })],
  ['a class instance', () => new Account()],
  ['a Map, a Date and a Set', () => ({ m: new Map([[1, 2]]), d: new Date(0), s: new Set([1]) })],
  ['a revoked proxy inside', () => ({ x: revokedProxy() })],
  ['a revoked proxy', revokedProxy],
  ['a result whose then throws from its second read on', laterThenThrows],
  ['a symbol, a function and undefined', () => ({ s: Symbol('s'), f: () => 1, u: undefined })],
  ['NaN and Infinity', () => ({ a: Number.NaN, b: [Number.POSITIVE_INFINITY] })],
  ['an own __proto__ key', () => JSON.parse('{"__proto__":{"polluted":true},"content":[]}')],
  [`objects nested ${DEEP_TEXT} deep`, () => deepObject(DEEP)],
  [`arrays nested ${DEEP_TEXT} deep`, () => deepArray(DEEP)],
  [
    `a result whose structuredContent is nested ${DEEP_TEXT} deep`,
    () => ({ content: [], structuredContent: deepObject(DEEP) }),
  ],
  ['shared parts that expand exponentially', exponential],
  // Holds nothing, stands for 2^31 nulls: copying it aborted the process, validating it took 46 s.
  ['a sparse array of 2^31 - 1 items', () => ({ a: new Array(2 ** 31 - 1) })],
  [
    'a rejected promise',
    () => {
      const promise = Promise.reject(new Error('handler failed'));
      promise.catch(() => {}); // handled where it is awaited; this only keeps the runner quiet
      return promise;
    },
  ],
  [
    'a thenable whose then throws',
    () =>
      Object.fromEntries([
        [
          'then',
          () => {
            throw new Error('bad then');
          },
        ],
      ]),
  ],
];

/** `[1, <hole>, 3]`: JSON sends the hole as null. */
function holey(): unknown[] {
  const array = [1, 2, 3];
  delete array[1];
  return array;
}

describe('cloneJson', () => {
  it('copies what JSON.stringify would send, for any JSON-like value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(cloneJson(value)).toEqual(JSON.parse(JSON.stringify(value) ?? 'null'));
        expect(isPlainJson(value)).toBe(true);
      }),
      { numRuns: runs(300) },
    );
  });

  it('copies and judges as the exact iterative walk does (its recursive fast walk is only faster)', () => {
    /** Values around what the fast walk must hand over: -0, `__proto__` keys, depth near its limit. */
    const odd = fc.oneof(
      fc.anything({ withNullPrototype: true, withObjectString: true, withBoxedValues: true }),
      fc.jsonValue(),
      fc.constantFrom<unknown>(-0, [-0], JSON.parse('{"__proto__":{"a":1},"b":[1,-0]}'), holey()),
      fc.integer({ min: 55, max: 75 }).map((depth) => {
        let value: unknown = 'leaf';
        for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { k: value };
        return value;
      }),
    );
    const shared = odd.map((value) => ({ a: value, b: [value, value] }));
    fc.assert(
      fc.property(fc.oneof(odd, shared), (value) => {
        expect(isPlainJson(value)).toBe(isPlainJsonExactly(value));
        const notes: Parameters<typeof cloneJson>[1] = [];
        const exactNotes: Parameters<typeof cloneJson>[1] = [];
        const copy = cloneJson(value, notes);
        expect(copy).toStrictEqual(cloneJsonExactly(value, exactNotes));
        expect(notes).toEqual(exactNotes);
        if (isPlainJson(value)) expect(Object.is(copy, -0)).toBe(false);
      }),
      { numRuns: runs(2000) },
    );
    // A cycle or a value nested past the fast walk's depth goes to the exact walk.
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = { cycle };
    expect(isPlainJson(cycle)).toBe(false);
    expect(cloneJson(cycle)).toEqual({ a: 1, self: {} });
  });

  it('follows JSON.stringify for class instances, toJSON, wrappers and what JSON leaves out', () => {
    const value = {
      a: new Account(),
      d: new Date(0),
      n: Object(3),
      f: () => 1,
      u: undefined,
      x: [undefined, Symbol('s')],
    };
    const copy = cloneJson(value);
    expect(copy).toEqual({
      a: { id: 7, balance: '12' },
      d: '1970-01-01T00:00:00.000Z',
      n: 3,
      x: [null, null],
    });
    expect(Object.getPrototypeOf((copy as { a: object }).a)).toBe(Object.prototype);
    expect(isPlainJson(value)).toBe(false);
  });

  it('leaves out circular references, throwing getters and unreadable objects, and says where', () => {
    const notes: Parameters<typeof cloneJson>[1] = [];
    const copy = cloneJson({ c: cyclic(), g: throwingGetter(), p: revokedProxy(), b: 5n }, notes);
    expect(copy).toEqual({ c: { content: [{ type: 'text', text: 'hi' }] }, g: { ok: 1 }, b: '5' });
    expect(notes).toEqual([
      { pointer: '/c/content/0/parent', description: expect.stringContaining('circular'), lossy: true },
      { pointer: '/c/self', description: expect.stringContaining('circular'), lossy: true },
      { pointer: '/g/boom', description: expect.stringContaining('getter exploded'), lossy: true },
      { pointer: '/p', description: expect.stringContaining('cannot be read'), lossy: true },
      { pointer: '/b', description: 'sent the BigInt 5 as a string (JSON has no BigInt)', lossy: false },
    ]);
    expect(() => JSON.stringify(copy)).not.toThrow();
  });

  it('writes a proxy whose prototype cannot be read as JSON does, and leaves out one whose keys cannot, saying why', () => {
    // Readable members but no prototype: the check for Number, String and Boolean objects fails.
    const noPrototype = new Proxy(
      { a: 1 },
      {
        getPrototypeOf() {
          throw new Error('no prototype here');
        },
      },
    );
    // A readable prototype but no keys: listing the members fails.
    const noKeys = new Proxy(
      { a: 1 },
      {
        ownKeys() {
          throw new Error('no keys here');
        },
      },
    );
    const notes: Parameters<typeof cloneJson>[1] = [];
    // JSON.stringify never reads the prototype, so it writes the first as it is; the second it cannot.
    expect(JSON.stringify({ x: noPrototype })).toBe('{"x":{"a":1}}');
    expect(() => JSON.stringify({ y: noKeys })).toThrow('no keys here');
    expect(cloneJson({ x: noPrototype, y: noKeys, z: 1 }, notes)).toEqual({ x: { a: 1 }, z: 1 });
    expect(notes).toEqual([
      { pointer: '/y', description: 'left out an object that cannot be read (no keys here)', lossy: true },
    ]);
  });

  it(`copies and writes ${DEEP_TEXT} levels of nesting without recursion`, () => {
    for (const value of [deepObject(DEEP), deepArray(DEEP)]) {
      const copy = cloneJson(value);
      expect(copy === value).toBe(false); // toBe's failure message would recurse into both
      const text = stringifyJson(copy);
      // The native writer cannot, which is why stringifyJson has its own.
      expect(() => JSON.stringify(copy)).toThrow(RangeError);
      expect(text.length).toBeGreaterThan(DEEP * 2);
      expect(JSON.parse(text)).toBeTruthy();
      expect(stringifyJson(JSON.parse(text))).toBe(text);
    }
  });

  it('stops copying shared parts that would expand without bound, and says so', () => {
    const { fixes } = toWire(exponential());
    expect(fixes.map((f) => f.description)).toEqual([expect.stringContaining('shared references')]);
  });

  it('stops copying what reading makes without end, and says so; what getters answer within bounds is copied', () => {
    for (const [, make] of WITHOUT_END) {
      const notes: { description: string }[] = [];
      const copy = cloneJson(make(), notes as never);
      expect(notes.map((n) => n.description)).toEqual([
        expect.stringContaining('made more than 100000 objects as they were read'),
      ]);
      expect(() => stringifyJson(copy)).not.toThrow();
    }
    // A getter that answers a new object at each read, but ends, is copied whole.
    const finite = (n: number): object =>
      Object.defineProperty({ n }, 'next', { get: () => (n > 0 ? finite(n - 1) : null), enumerable: true });
    const notes: unknown[] = [];
    const text = stringifyJson(cloneJson(finite(5_000), notes as never));
    let opening = '';
    for (let n = 5_000; n >= 0; n--) opening += `{"n":${n},"next":`;
    expect(text).toBe(`${opening}null${'}'.repeat(5_001)}`);
    expect(notes).toEqual([]);
  });

  it('stringifyJson writes what JSON.stringify writes, also in its iterative writer', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const expected = JSON.stringify(value);
        expect(stringifyJson(value)).toBe(expected);
        // Nest it past the native writer's reach: the iterative writer must agree on the inner text.
        let deep: unknown = value;
        for (let i = 0; i < 20_000; i++) deep = [deep];
        expect(stringifyJson(deep)).toBe(`${'['.repeat(20_000)}${expected}${']'.repeat(20_000)}`);
      }),
      { numRuns: runs(30) },
    );
  });
});

describe('the repair path never throws', () => {
  for (const [name, make] of HOSTILE) {
    it(`toolResult: ${name} becomes a result the SDK client accepts`, async () => {
      const result = await toolResult(make(), { protocolVersion: '2025-11-25' });
      const wire = JSON.parse(stringifyJson(result));
      expect(sdkV1Parse(wire)).toEqual({ ok: true });
    });

    // Three repairs of a value nested 100,000 deep take 12 s of CPU alone; a loaded 2-core machine
    // stretched that past the default 30 s.
    it(`repair, repairMessage and convertWebMcp: ${name}`, { timeout: 120_000 }, async () => {
      const repaired = await repair(make(), { protocolVersion: '2025-11-25' });
      expect(repaired.abandoned).toBeUndefined();
      expect(() => stringifyJson(repaired.result)).not.toThrow();
      const message = await repairMessage({ jsonrpc: '2.0', id: 1, requestId: 'x', result: make() });
      expect(message.abandoned).toBeUndefined();
      expect(message.fixes.map((f) => f.rule)).toContain('envelope-extra-member');
      const converted = await convertWebMcp([{ type: 'table', headers: ['v'], rows: [[make()]] }, make()]);
      expect(() => stringifyJson(converted.result)).not.toThrow();
    });
  }

  it('reports what the wire could not carry as value-not-serializable fixes', async () => {
    const { fixes, result } = await repair(cyclic(), { protocolVersion: '2025-11-25' });
    expect(fixes.filter((f) => f.rule === 'value-not-serializable').map((f) => f.pointer)).toEqual([
      '/content/0/parent',
      '/self',
    ]);
    expect(sdkV1Parse(result)).toEqual({ ok: true });
  });

  it('repairs a deep message that needs a repair (the stdio proxy crash): only the stray member goes', async () => {
    const deepMessage = (depth: number) => {
      const structured = `{"a":${'['.repeat(depth)}${']'.repeat(depth)}}`;
      return `{"jsonrpc":"2.0","id":1,"requestId":"r","result":{"content":[{"type":"text","text":${JSON.stringify(structured)}}],"structuredContent":${structured}}}`;
    };
    const options = { protocolVersion: '2025-06-18' } as const;
    // What the proxy repairs, and writes with stringifyJson, which takes any depth.
    for (const text of [deepMessage(3_000), deepMessage(100_000)]) {
      const { message, fixes } = await repairParsedMessage(JSON.parse(text), options);
      expect(fixes.map((f) => f.rule)).toEqual(['envelope-extra-member']);
      expect(stringifyJson(message)).toBe(text.replace('"requestId":"r",', ''));
    }
    // repairMessage() gives what JSON.stringify must write, whose limit is nearer 4,000 levels, and
    // lower in some states of a process (a 3,000-deep message in this file): 1,500 is well within it.
    const text = deepMessage(1_500);
    const { message, fixes } = await repairMessage(JSON.parse(text), options);
    expect(fixes.map((f) => f.rule)).toEqual(['envelope-extra-member']);
    expect(JSON.stringify(message)).toBe(text.replace('"requestId":"r",', ''));
  });

  it('cuts a value JSON.stringify cannot write for its depth alone, and says so; deep values it can write stay whole', async () => {
    const options = { protocolVersion: '2025-11-25' } as const;
    const tooDeep = { content: [{ type: 'text', text: 'x' }], structuredContent: { v: nested(10_000) } };
    const { result, fixes } = await repair(tooDeep, options);
    expect(fixes[0]).toMatchObject({
      rule: 'value-not-serializable',
      description: `left out what is nested deeper than ${DEPTH_TO_ASK} levels: JSON.stringify runs out of call stack on it`,
      lossy: true,
    });
    expect(fixes[0]?.pointer.split('/').length).toBe(DEPTH_TO_ASK + 2);
    expect(() => JSON.stringify(result)).not.toThrow();
    const built = await toolResult({ v: nested(10_000) }, options);
    expect(() => JSON.stringify(built)).not.toThrow();
    // Past DEPTH_TO_ASK, but writable: as it is.
    const writable = { content: [{ type: 'text', text: 'x' }], _meta: { v: nested(DEPTH_TO_ASK + 200) } };
    expect(JSON.stringify((await repair(writable, options)).result)).toBe(JSON.stringify(writable));
    expect(toWire(writable)).toEqual({ value: writable, fixes: [] });
  });
});

const ROOT = join(import.meta.dirname, '../..');

/**
 * Nesting for the validators' run of the deep values: each is judged 24 ways below, and at 100,000
 * levels that took half a minute of a loaded 2-core machine. 20,000 is still twice what a recursion
 * survives.
 */
const VALIDATED_DEPTH = 20_000;

/** HOSTILE for the validators: shared parts apart (the last test runs them in a process of its own). */
const VALIDATED: [string, () => unknown][] = [
  // Values made without end are left out: the validators followed them until the process ran out of
  // memory too (validate/, another module's to fix).
  ...HOSTILE.filter(
    ([name, make]) => make !== exponential && !name.includes(DEEP_TEXT) && !name.includes('new one'),
  ),
  ['objects nested 20,000 deep', () => deepObject(VALIDATED_DEPTH)],
  ['arrays nested 20,000 deep', () => deepArray(VALIDATED_DEPTH)],
  [
    'a result whose structuredContent is nested 20,000 deep',
    () => ({ content: [], structuredContent: deepObject(VALIDATED_DEPTH) }),
  ],
];

describe('the validators on hostile values', () => {
  for (const [name, make] of VALIDATED) {
    // Each value in each place, with and without an outputSchema, as a result and in a message, by both
    // validators: the deep values take seconds of that on a loaded 2-core machine.
    it(`judge ${name} wherever it is, and never blame themselves`, { timeout: 120_000 }, async () => {
      for (const [place, put] of PLACES) {
        for (const tool of [undefined, WALKED_TOOL]) {
          const label = `${place}${tool ? ' (outputSchema)' : ''}`;
          const options = { protocolVersion: '2025-11-25' as const, tool };
          const message = { jsonrpc: '2.0', id: 1, result: put(make()) };
          const messageOptions = { protocolVersion: '2025-11-25' as const, tools: tool ? [tool] : [] };
          for (const findings of [
            validateToolResultSync(put(make()), options),
            await validateToolResult(put(make()), options),
            validateMessageSync(message, messageOptions),
            await validateMessage(message, messageOptions),
          ]) {
            expect(
              findings.filter((f) => f.rule === 'internal-error'),
              label,
            ).toEqual([]);
          }
        }
      }
    });
  }

  it('say that shared parts standing for 2^60 values cannot be sent, wherever they are, toJSON or not', async () => {
    // JSON.stringify of such a structuredContent never ends, and the validators that called it hung: run
    // in a process of its own, killed past the deadline, so that a hang fails this test.
    const script = await bundleScript(ROOT, 'test/library/support/unwritable-values.ts', 'library');
    const run = spawnSync(process.execPath, [script], { encoding: 'utf8', timeout: 60_000 });
    expect(run.signal, 'killed at the deadline: a validator hung').toBeNull();
    expect(run.stderr).toBe('');
    const answers = JSON.parse(run.stdout) as Record<string, string[]>;
    // 2 values × 4 validators × 3 places × with and without an outputSchema.
    expect(Object.keys(answers)).toHaveLength(48);
    for (const [where, messages] of Object.entries(answers)) {
      expect(messages, where).toEqual([
        expect.stringContaining('longer than the longest string JavaScript can hold'),
      ]);
    }
  });
});

describe('envelope first', () => {
  it('a notification with a stray result is one bounded repair, never treated as a result', {
    timeout: 5_000,
  }, async () => {
    const { message, fixes, remaining } = await repairMessage({
      jsonrpc: '2.0',
      method: 'x',
      result: { content: [] },
    });
    expect(message).toEqual({ jsonrpc: '2.0', method: 'x' });
    expect(fixes).toEqual([
      expect.objectContaining({ rule: 'envelope-result-and-error', pointer: '/result', lossy: true }),
    ]);
    expect(remaining).toEqual([]);
  });

  it('a request with a stray error keeps its id and method; nothing inside the member is repaired', async () => {
    const { message, fixes } = await repairMessage({
      jsonrpc: '2.0',
      id: 4,
      method: 'sampling/createMessage',
      params: {},
      error: { code: 'x', requestId: 1 },
      result: { content: [{ type: 'object' }], structuredContent: [1] },
    });
    expect(message).toEqual({ jsonrpc: '2.0', id: 4, method: 'sampling/createMessage', params: {} });
    expect(fixes.map((f) => f.pointer)).toEqual(['/result', '/error']);
  });

  it('gives up past its work budget, returning the message unchanged', async () => {
    const input = { jsonrpc: '2.0', id: 1, requestId: 'x', result: { content: [{ type: 'object', a: 1 }] } };
    const run = await repairParsedMessage(input, { protocolVersion: '2025-06-18' }, { budget: 1 });
    expect(run.message).toBe(input);
    expect(run.fixes).toEqual([]);
    expect(run.abandoned).toBe('repair needed more than 1 validation passes');
    const unlimited = await repairParsedMessage(input, { protocolVersion: '2025-06-18' });
    expect(unlimited.abandoned).toBeUndefined();
    expect(unlimited.fixes.length).toBeGreaterThan(1);
  });
});

describe('any value at all', () => {
  it('toolResult and repair never throw on fc.anything(), and their output is sendable', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.anything({
          withBigInt: true,
          withDate: true,
          withMap: true,
          withSet: true,
          withTypedArray: true,
          withBoxedValues: true,
          withNullPrototype: true,
          withObjectString: true,
          withSparseArray: true,
        }),
        async (value) => {
          const shaped = await toolResult(value, { protocolVersion: '2025-06-18' });
          expect(sdkV1Parse(JSON.parse(stringifyJson(shaped)))).toEqual({ ok: true });
          const repaired = await repair(value, { protocolVersion: '2025-06-18' });
          expect(repaired.abandoned).toBeUndefined();
          expect(() => stringifyJson(toWire(repaired.result).value ?? null)).not.toThrow();
        },
      ),
      { numRuns: runs(200) },
    );
  });
});
