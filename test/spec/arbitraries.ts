/**
 * fast-check generators for the proof tests: conformant CallToolResults for each protocol version, and
 * the same results broken by one mutation from the catalogue of real-world mistakes (client-compat.md §4)
 * and of type slips in every field the official schemas define.
 */

import fc from 'fast-check';
import { isObject, type JsonObject } from '../../src/core/json.js';
import { features, type ProtocolVersion } from '../../src/spec/versions.js';

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

function toBase64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}

const base64 = fc.oneof(fc.constant(PNG), fc.uint8Array({ minLength: 0, maxLength: 48 }).map(toBase64));
const uri = fc.constantFrom(
  'file:///project/src/main.rs',
  'https://example.com/a/b.txt?x=1#y',
  'ui://widget/1',
  'urn:isbn:0451450523',
  'mcp://server/thing',
);
const text = fc.string({ maxLength: 30 });
const imageMime = fc.constantFrom('image/png', 'image/jpeg', 'image/gif', 'image/webp');
const audioMime = fc.constantFrom('audio/wav', 'audio/mpeg', 'audio/ogg');
const anyMime = fc.constantFrom('text/plain', 'application/json', 'text/x-rust', 'application/pdf');
const isoDate = fc
  .date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2090-01-01T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString());
const meta = fc.dictionary(fc.constantFrom('com.example/a', 'b', 'io.x/y'), fc.jsonValue({ maxDepth: 1 }), {
  maxKeys: 2,
});

function optional<T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> {
  return fc.option(arb, { nil: undefined, freq: 2 });
}

/** Drops `undefined` members so generated objects are plain JSON. */
function compact(o: Record<string, unknown>): JsonObject {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

function annotations(v: ProtocolVersion): fc.Arbitrary<JsonObject> {
  return fc
    .record({
      audience: optional(fc.subarray(['user', 'assistant'])),
      priority: optional(fc.double({ min: 0, max: 1, noNaN: true })),
      lastModified: features(v).annotationsLastModified ? optional(isoDate) : fc.constant(undefined),
    })
    .map(compact);
}

export function validBlock(v: ProtocolVersion): fc.Arbitrary<JsonObject> {
  const f = features(v);
  const common = {
    annotations: optional(annotations(v)),
    _meta: f.blockMeta ? optional(meta) : fc.constant(undefined),
  };
  const blocks: fc.Arbitrary<JsonObject>[] = [
    fc.record({ type: fc.constant('text'), text, ...common }).map(compact),
    fc.record({ type: fc.constant('image'), data: base64, mimeType: imageMime, ...common }).map(compact),
    fc
      .record({
        type: fc.constant('resource'),
        resource: fc.oneof(
          fc.record({ uri, text, mimeType: optional(anyMime) }).map(compact),
          fc.record({ uri, blob: base64, mimeType: optional(anyMime) }).map(compact),
        ),
        ...common,
      })
      .map(compact),
  ];
  if (f.blockTypes.includes('audio')) {
    blocks.push(
      fc.record({ type: fc.constant('audio'), data: base64, mimeType: audioMime, ...common }).map(compact),
    );
  }
  if (f.blockTypes.includes('resource_link')) {
    blocks.push(
      fc
        .record({
          type: fc.constant('resource_link'),
          uri,
          name: text,
          title: optional(text),
          description: optional(text),
          mimeType: optional(anyMime),
          size: optional(fc.nat()),
          icons: f.icons
            ? optional(
                fc.array(
                  fc.record({ src: uri, sizes: optional(fc.array(fc.constant('48x48'))) }).map(compact),
                  { maxLength: 2 },
                ),
              )
            : fc.constant(undefined),
          ...common,
        })
        .map(compact),
    );
  }
  return fc.oneof(...blocks);
}

export function validResult(v: ProtocolVersion): fc.Arbitrary<JsonObject> {
  const f = features(v);
  const structured =
    f.structuredContent === 'none'
      ? fc.constant(undefined)
      : f.structuredContent === 'object'
        ? optional(fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }))
        : optional(fc.jsonValue({ maxDepth: 2 }));
  return fc
    .record({
      content: fc.array(validBlock(v), { maxLength: 4 }),
      isError: optional(fc.boolean()),
      structuredContent: structured,
      _meta: optional(meta),
      resultType: f.resultTypeRequired ? fc.constant('complete') : fc.constant(undefined),
    })
    .map(compact);
}

/** A mutation: a name (for failure messages) and an in-place edit of a deep copy. */
export interface Mutation {
  readonly name: string;
  apply(result: JsonObject): void;
  /** Turns the result into another kind of result, so it is applied after every other mutation. */
  readonly last?: boolean;
}

const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

/** 2026-07-28 InputRequiredResults, well-formed and broken: a tools/call may answer with one. */
const INPUT_REQUIRED: readonly JsonObject[] = [
  {},
  { requestState: 'eyJzdGVwIjoyfQ' },
  { requestState: 7 },
  { inputRequests: { a: { method: 'roots/list' } } },
  {
    inputRequests: {
      a: {
        method: 'elicitation/create',
        params: { message: 'm', requestedSchema: { type: 'object', properties: {} } },
      },
    },
  },
  { inputRequests: { a: { method: 'tools/call', params: {} } }, requestState: 's' },
  { inputRequests: { a: { method: 'elicitation/create' } } },
  { inputRequests: { a: 'roots/list' } },
  { inputRequests: ['roots/list'] },
  { inputRequests: null, requestState: 's' },
];

const NON_OBJECTS: unknown[] = ['str', 42, null, [1], true];
const UNKNOWN_TYPES = [
  'object',
  'json',
  'error',
  'blob',
  'file',
  'binary',
  'html',
  'table',
  'link',
  'url',
  'markdown',
  'image_url',
  'application/json',
  'tool_use',
  'tool_result',
  'Text',
  'video',
  '',
];

function blockMutation(name: string, edit: (block: JsonObject) => void): fc.Arbitrary<Mutation> {
  return fc.nat().map((n) => ({
    name,
    apply(result: JsonObject) {
      // An earlier mutation may have broken content or the block; then this one does nothing.
      const content = result.content;
      if (!Array.isArray(content)) return;
      if (content.length === 0) content.push({ type: 'text', text: 'x' });
      const i = n % content.length;
      if (!isObject(content[i])) return;
      const block = structuredClone(content[i]);
      edit(block);
      content[i] = block;
    },
  }));
}

function pick<T>(values: readonly T[]): fc.Arbitrary<T> {
  return fc.constantFrom(...values);
}

export function mutation(): fc.Arbitrary<Mutation> {
  const block = (name: string, edit: (b: JsonObject) => void) => blockMutation(name, edit);
  const blockLevel: fc.Arbitrary<Mutation>[] = [
    fc.tuple(fc.nat(), pick(NON_OBJECTS)).map(([n, value]) => ({
      name: `block → ${JSON.stringify(value)}`,
      apply(r: JsonObject) {
        const content = r.content;
        if (Array.isArray(content)) content[content.length === 0 ? 0 : n % content.length] = value;
      },
    })),
    pick(UNKNOWN_TYPES).chain((type) =>
      block(`type "${type}"`, (b) => {
        b.type = type;
      }),
    ),
    block('type deleted', (b) => {
      delete b.type;
    }),
    block('type number', (b) => {
      b.type = 3;
    }),
    pick(['text', 'data', 'mimeType', 'uri', 'name', 'resource']).chain((key) =>
      block(`delete ${key}`, (b) => {
        delete b[key];
        if (key === 'uri' && isObject(b.resource)) delete b.resource.uri;
      }),
    ),
    fc
      .tuple(
        pick(['text', 'data', 'mimeType', 'uri', 'name', 'title', 'description', 'size']),
        pick([5, 1.5, null, {}, [], 'str', true]),
      )
      .chain(([key, value]) =>
        block(`${key} = ${JSON.stringify(value)}`, (b) => {
          b[key] = value;
        }),
      ),
    pick([
      'not base64!',
      `data:image/png;base64,${PNG}`,
      'a-b_c',
      PNG.replace(/=+$/, ''),
      `${PNG.slice(0, 8)}\n${PNG.slice(8)}`,
      'A',
      '!!!\nAAAA',
    ]).chain((data) =>
      block(`payload ${JSON.stringify(data.slice(0, 20))}`, (b) => {
        if (b.type === 'resource' && isObject(b.resource)) b.resource.blob = data;
        else b.data = data;
      }),
    ),
    pick<unknown>([
      'x',
      [],
      null,
      3,
      { audience: 'user' },
      { audience: ['model'] },
      { audience: [1] },
      { priority: 2 },
      { priority: -0.1 },
      { priority: '0.5' },
      { priority: null },
      { lastModified: '2025-01-12' },
      { lastModified: 'yesterday' },
      { lastModified: 5 },
      { lastModified: '2025-01-12T15:00:58Z' },
    ]).chain((a) =>
      block(`annotations ${JSON.stringify(a)}`, (b) => {
        b.annotations = a;
      }),
    ),
    pick<unknown>(['m', [], null, 1]).chain((m) =>
      block(`_meta ${JSON.stringify(m)}`, (b) => {
        b._meta = m;
      }),
    ),
    pick<unknown>([
      'file:///a',
      null,
      3,
      { text: 'x' },
      { uri: 'file:///a' },
      { uri: 'file:///a', text: 1 },
      { uri: 'file:///a', blob: 2 },
      { uri: 'file:///a', text: 'x', blob: PNG },
      { uri: 'file:///a', text: 'x', mimeType: 7 },
      { uri: 'file:///a', text: 'x', _meta: 'm' },
      { uri: 'rel/a', text: 'x' },
      { uri: 'file:///a', text: 'x', annotations: { priority: 0.5 } },
    ]).chain((resource) =>
      block(`resource ${JSON.stringify(resource)}`, (b) => {
        b.resource = resource;
      }),
    ),
    pick(['relative/path', '/abs/path', 'not a uri', 'http://x.org/a b', '']).chain((u) =>
      block(`uri ${JSON.stringify(u)}`, (b) => {
        if (isObject(b.resource)) b.resource.uri = u;
        else b.uri = u;
      }),
    ),
    pick<unknown>([
      'i',
      [{}],
      [{ src: 'icon.png' }],
      [{ src: 'https://x/i.png', theme: 'blue' }],
      [{ src: 'https://x/i.png', sizes: '48' }],
      [{ src: 'https://x/i.png', mimeType: 1 }],
    ]).chain((icons) =>
      block(`icons ${JSON.stringify(icons)}`, (b) => {
        b.icons = icons;
      }),
    ),
    pick(['png', 'application/pdf', 'image/jpeg', 'text/plain']).chain((m) =>
      block(`mimeType ${m}`, (b) => {
        b.mimeType = m;
      }),
    ),
    block('extra member', (b) => {
      b.extra = { x: 1 };
    }),
    block('text uses data', (b) => {
      if (b.type === 'text') {
        b.data = b.text;
        delete b.text;
      }
    }),
  ];
  const resultLevel: fc.Arbitrary<Mutation>[] = [
    pick<unknown>([undefined, 'hello', { type: 'text', text: 'x' }, null, 5]).map((c) => ({
      name: `content ${JSON.stringify(c) ?? 'deleted'}`,
      apply(r: JsonObject) {
        if (c === undefined) delete r.content;
        else r.content = c;
      },
    })),
    pick<unknown>(['true', 1, null]).map((e) => ({
      name: `isError ${JSON.stringify(e)}`,
      apply(r: JsonObject) {
        r.isError = e;
      },
    })),
    pick<unknown>([[1, 2], null, 'str', 3, true]).map((s) => ({
      name: `structuredContent ${JSON.stringify(s)}`,
      apply(r: JsonObject) {
        r.structuredContent = s;
      },
    })),
    pick<unknown>(['m', [], null]).map((m) => ({
      name: `result _meta ${JSON.stringify(m)}`,
      apply(r: JsonObject) {
        r._meta = m;
      },
    })),
    pick<unknown>([undefined, 3, 'complete', 'weird']).map((t) => ({
      name: `resultType ${JSON.stringify(t) ?? 'deleted'}`,
      apply(r: JsonObject) {
        if (t === undefined) delete r.resultType;
        else r.resultType = t;
      },
    })),
    pick<unknown>([
      { name: 1 },
      { name: 'srv' },
      'srv',
      null,
      { name: 'srv', version: '1.0.0' },
      { name: 'srv', version: 1 },
      { name: 'srv', version: '1', title: 2 },
      { name: 'srv', version: '1', websiteUrl: 'not a uri' },
      { name: 'srv', version: '1', websiteUrl: 'https://example.com' },
      { name: 'srv', version: '1', icons: [{ src: 'https://example.com/i.png' }] },
      { name: 'srv', version: '1', icons: [{ sizes: ['48x48'] }] },
      { name: 'srv', version: '1', icons: 'i.png' },
    ]).map((info) => ({
      name: `_meta serverInfo ${JSON.stringify(info)}`,
      apply(r: JsonObject) {
        r._meta = { ...(isObject(r._meta) ? r._meta : {}), [SERVER_INFO]: info };
      },
    })),
    pick(INPUT_REQUIRED).map((members) => ({
      name: `input_required ${JSON.stringify(members)}`,
      last: true,
      apply(r: JsonObject) {
        for (const key of ['content', 'structuredContent', 'isError', 'toolResult']) delete r[key];
        Object.assign(r, structuredClone(members), { resultType: 'input_required' });
      },
    })),
    fc.constant({
      name: 'legacy toolResult',
      apply(r: JsonObject) {
        r.toolResult = r.content;
      },
    }),
    fc.constant({
      name: 'extra result member',
      apply(r: JsonObject) {
        r.extra = 1;
      },
    }),
  ];
  return fc.oneof(
    { arbitrary: fc.oneof(...blockLevel), weight: 3 },
    { arbitrary: fc.oneof(...resultLevel), weight: 1 },
  );
}

/** A valid result, or one broken by one or two mutations; `mutations` names what was done. */
export function anyResult(v: ProtocolVersion): fc.Arbitrary<{ result: JsonObject; mutations: string[] }> {
  return fc.tuple(validResult(v), fc.array(mutation(), { maxLength: 2 })).map(([valid, mutations]) => {
    const result = structuredClone(valid);
    const ordered = [...mutations.filter((m) => !m.last), ...mutations.filter((m) => m.last)];
    for (const m of ordered) m.apply(result);
    return { result, mutations: mutations.map((m) => m.name) };
  });
}
