/**
 * fast-check generators for the proof tests: conformant CallToolResults for each protocol version (some
 * with the tool definition they answer, whose outputSchema describes their structuredContent, and a text
 * mirror of it), and the same results broken by up to two mutations from the catalogue of real-world
 * mistakes (client-compat.md §4) and of type slips in every field the official schemas define.
 *
 * Every mutation belongs to a named family with a weight, so each family is drawn with a known
 * frequency (`MUTATION_FAMILIES`); test/spec/rule-firing.test.ts checks that together they make every
 * result and block rule of the catalog fire.
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

/** A generated case: a result and, sometimes, the tool definition it answers. */
export interface ResultCase {
  result: unknown;
  tool?: JsonObject;
}

/**
 * A JSON Schema the value satisfies: its JSON type. Kept to a handful of distinct schemas because each
 * new one costs an Ajv compilation, which would dominate a run of thousands of cases.
 */
export function schemaOf(value: unknown): JsonObject {
  if (Array.isArray(value)) return { type: 'array' };
  if (value === null) return { type: 'null' };
  return { type: typeof value === 'number' ? 'number' : typeof value };
}

function toolFor(outputSchema: unknown): JsonObject {
  return { name: 'generated_tool', inputSchema: { type: 'object' }, outputSchema };
}

/**
 * A conformant result; when it has structuredContent, often a text block that mirrors it (as the spec
 * asks) and the tool whose outputSchema it conforms to.
 */
export function validCase(v: ProtocolVersion): fc.Arbitrary<ResultCase> {
  const f = features(v);
  return fc.tuple(validResult(v), fc.boolean(), fc.boolean()).map(([result, mirror, withTool]) => {
    const structured = result.structuredContent;
    if (structured === undefined) return { result };
    if (mirror && Array.isArray(result.content)) {
      result.content = [...result.content, { type: 'text', text: JSON.stringify(structured) }];
    }
    const describable = f.outputSchema === 'any-root' || isObject(structured);
    return withTool && describable ? { result, tool: toolFor(schemaOf(structured)) } : { result };
  });
}

/**
 * A mutation: a name (for failure messages) and an in-place edit of a deep copy of the case's result;
 * it may also give the case a tool or replace the result outright.
 */
export interface Mutation {
  readonly name: string;
  apply(result: JsonObject, theCase: ResultCase): void;
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
  { inputRequests: {} },
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

/** A 1×1 PNG whose header claims 9000×10 pixels: over Claude's 8000-pixel limit without the bytes. */
const WIDE_PNG = (() => {
  const bytes = Uint8Array.from(atob(PNG), (c) => c.charCodeAt(0));
  new DataView(bytes.buffer).setUint32(16, 9000);
  new DataView(bytes.buffer).setUint32(20, 10);
  return toBase64(bytes);
})();

export interface MutationFamily {
  readonly family: string;
  /** Relative frequency: the family is drawn with probability weight / (sum of weights) per mutation. */
  readonly weight: number;
  readonly arbitrary: fc.Arbitrary<Mutation>;
}

const block = (name: string, edit: (b: JsonObject) => void) => blockMutation(name, edit);

function result(name: string, apply: Mutation['apply'], last = false): Mutation {
  return last ? { name, apply, last } : { name, apply };
}

/** Families of block mutations (weight 3) and result mutations (weight 4). */
export const MUTATION_FAMILIES: readonly MutationFamily[] = [
  ...blockFamilies().map(([family, arbitrary]) => ({ family, weight: 3, arbitrary })),
  ...resultFamilies().map(([family, arbitrary]) => ({ family, weight: 4, arbitrary })),
];

export function mutation(): fc.Arbitrary<Mutation> {
  return fc.oneof(...MUTATION_FAMILIES.map(({ weight, arbitrary }) => ({ weight, arbitrary })));
}

function blockFamilies(): [string, fc.Arbitrary<Mutation>][] {
  return [
    [
      'block not an object',
      fc.tuple(fc.nat(), pick(NON_OBJECTS)).map(([n, value]) => ({
        name: `block → ${JSON.stringify(value)}`,
        apply(r: JsonObject) {
          const content = r.content;
          if (Array.isArray(content)) content[content.length === 0 ? 0 : n % content.length] = value;
        },
      })),
    ],
    [
      'unknown type',
      pick(UNKNOWN_TYPES).chain((type) =>
        block(`type "${type}"`, (b) => {
          b.type = type;
        }),
      ),
    ],
    [
      'type missing or not a string',
      pick<unknown>([undefined, 3]).chain((type) =>
        block(`type ${JSON.stringify(type) ?? 'deleted'}`, (b) => {
          if (type === undefined) delete b.type;
          else b.type = type;
        }),
      ),
    ],
    [
      'required member deleted',
      pick(['text', 'data', 'mimeType', 'uri', 'name', 'resource']).chain((key) =>
        block(`delete ${key}`, (b) => {
          delete b[key];
          if (key === 'uri' && isObject(b.resource)) delete b.resource.uri;
        }),
      ),
    ],
    [
      // 'required member deleted' reaches mimeType only on a media block one draw in six: its own
      // family keeps block-mime-type-missing and -malformed firing dozens of times per run.
      'mimeType missing or malformed',
      pick<string | undefined>([undefined, 'png', 'image', 'image/ png', 'image/png;', '/png']).chain(
        (mimeType) =>
          block(`mimeType ${mimeType === undefined ? 'deleted' : JSON.stringify(mimeType)}`, (b) => {
            if (b.type !== 'image' && b.type !== 'audio') Object.assign(b, { type: 'image', data: PNG });
            if (mimeType === undefined) delete b.mimeType;
            else b.mimeType = mimeType;
          }),
      ),
    ],
    [
      'member of the wrong type',
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
    ],
    [
      'broken payload',
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
          else {
            // Only media carry a payload: a text or link block becomes an image for this defect.
            if (b.type !== 'image' && b.type !== 'audio')
              Object.assign(b, { type: 'image', mimeType: 'image/png' });
            b.data = data;
          }
        }),
      ),
    ],
    [
      'annotations',
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
    ],
    [
      'block _meta',
      pick<unknown>(['m', [], null, 1]).chain((m) =>
        block(`_meta ${JSON.stringify(m)}`, (b) => {
          b._meta = m;
        }),
      ),
    ],
    [
      'embedded resource',
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
    ],
    [
      'annotations inside an embedded resource',
      fc.constant(null).chain(() =>
        block('resource.annotations', (b) => {
          for (const key of Object.keys(b)) delete b[key];
          Object.assign(b, { type: 'resource', resource: { uri: 'file:///a', text: 'x', annotations: {} } });
        }),
      ),
    ],
    [
      'uri not absolute',
      pick(['relative/path', '/abs/path', 'not a uri', 'http://x.org/a b', '']).chain((u) =>
        block(`uri ${JSON.stringify(u)}`, (b) => {
          if (isObject(b.resource)) b.resource.uri = u;
          else b.uri = u;
        }),
      ),
    ],
    [
      'icons',
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
    ],
    [
      'wrong or malformed mimeType',
      pick(['png', 'application/pdf', 'image/jpeg', 'text/plain']).chain((m) =>
        block(`mimeType ${m}`, (b) => {
          b.mimeType = m;
        }),
      ),
    ],
    [
      'extra block member',
      fc.constant(null).chain(() =>
        block('extra member', (b) => {
          b.extra = { x: 1 };
        }),
      ),
    ],
    [
      'text under another name',
      fc.constant(null).chain(() =>
        block('text uses data', (b) => {
          if (b.type === 'text') {
            b.data = b.text;
            delete b.text;
          }
        }),
      ),
    ],
    [
      'image as base64 in text',
      pick([`data:image/png;base64,${PNG}`, PNG, `{"plot": "data:image/png;base64,${PNG}"}`]).chain((text) =>
        block(`text holds an image ${JSON.stringify(text.slice(0, 16))}`, (b) => {
          for (const key of Object.keys(b)) delete b[key];
          Object.assign(b, { type: 'text', text });
        }),
      ),
    ],
    [
      'structuredContent inside a block',
      fc.constant(null).chain(() =>
        block('block.structuredContent', (b) => {
          b.structuredContent = { a: 1 };
        }),
      ),
    ],
    [
      'block type newer than the version',
      pick<JsonObject>([
        {
          type: 'audio',
          data: 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=',
          mimeType: 'audio/wav',
        },
        { type: 'resource_link', uri: 'file:///project/a.txt', name: 'a.txt' },
      ]).map((added) => ({
        name: `add a ${added.type} block`,
        apply(r: JsonObject) {
          if (Array.isArray(r.content)) r.content.push(structuredClone(added));
        },
      })),
    ],
  ];
}

function resultFamilies(): [string, fc.Arbitrary<Mutation>][] {
  return [
    [
      'content missing or not an array',
      pick<unknown>([undefined, 'hello', { type: 'text', text: 'x' }, null, 5]).map((c) =>
        result(`content ${JSON.stringify(c) ?? 'deleted'}`, (r) => {
          if (c === undefined) delete r.content;
          else r.content = c;
        }),
      ),
    ],
    [
      'isError not a boolean',
      pick<unknown>(['true', 1, null]).map((e) =>
        result(`isError ${JSON.stringify(e)}`, (r) => {
          r.isError = e;
        }),
      ),
    ],
    [
      'structuredContent not an object',
      pick<unknown>([[1, 2], null, 'str', 3, true]).map((s) =>
        result(`structuredContent ${JSON.stringify(s)}`, (r) => {
          r.structuredContent = s;
        }),
      ),
    ],
    [
      'result _meta',
      pick<unknown>([
        'm',
        [],
        null,
        { progressToken: { id: 1 } },
        { progressToken: 1.5 },
        { 'io.modelcontextprotocol/related-task': { taskId: 5 } },
      ]).map((m) =>
        result(`result _meta ${JSON.stringify(m)}`, (r) => {
          r._meta = m;
        }),
      ),
    ],
    [
      'resultType',
      pick<unknown>([undefined, 3, 'complete', 'weird']).map((t) =>
        result(`resultType ${JSON.stringify(t) ?? 'deleted'}`, (r) => {
          if (t === undefined) delete r.resultType;
          else r.resultType = t;
        }),
      ),
    ],
    [
      'serverInfo in _meta',
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
      ]).map((info) =>
        result(`_meta serverInfo ${JSON.stringify(info)}`, (r) => {
          r._meta = { ...(isObject(r._meta) ? r._meta : {}), [SERVER_INFO]: info };
        }),
      ),
    ],
    [
      'input_required result',
      pick(INPUT_REQUIRED).map((members) =>
        result(
          `input_required ${JSON.stringify(members)}`,
          (r) => {
            for (const key of ['content', 'structuredContent', 'isError', 'toolResult']) delete r[key];
            Object.assign(r, structuredClone(members), { resultType: 'input_required' });
          },
          true,
        ),
      ),
    ],
    [
      'legacy toolResult',
      fc.boolean().map((alone) =>
        result(alone ? 'toolResult instead of content' : 'toolResult beside content', (r) => {
          r.toolResult = r.content ?? [];
          if (alone) delete r.content;
        }),
      ),
    ],
    [
      'extra result member',
      fc.constant(
        result('extra result member', (r) => {
          r.extra = 1;
        }),
      ),
    ],
    [
      'result not an object',
      pick<unknown>(['a plain string', 42, null, [{ type: 'text', text: 'x' }], true]).map((value) =>
        result(
          `result → ${JSON.stringify(value)}`,
          (_r, theCase) => {
            theCase.result = value;
          },
          true,
        ),
      ),
    ],
    [
      'error payload without isError',
      pick(['structuredContent', 'member', 'text', 'object', 'json', 'data']).map((where) =>
        result(`error in ${where}, isError unset`, (r) => {
          delete r.isError;
          if (where === 'structuredContent') r.structuredContent = { error: 'quota exceeded' };
          else if (where === 'member') r.error = { code: 429, message: 'quota exceeded' };
          else if (where === 'text') r.content = [{ type: 'text', text: '{"error": "quota exceeded"}' }];
          // A gateway's made-up block holding the error dict: the only content.
          else r.content = [{ type: where, [where]: { error: 'quota exceeded' } }];
        }),
      ),
    ],
    [
      'oversize result',
      pick(['tokens', 'bytes', 'pixels']).map((how) =>
        result(`oversize (${how})`, (r) => {
          const content = Array.isArray(r.content) ? r.content : [];
          r.content = content;
          if (how === 'pixels') content.push({ type: 'image', data: WIDE_PNG, mimeType: 'image/png' });
          else content.push({ type: 'text', text: 'x'.repeat(how === 'tokens' ? 110_000 : 1_100_000) });
        }),
      ),
    ],
    [
      'text mirror disagrees',
      fc.constant(
        result('mirror {"a":2} of structuredContent {"a":1}', (r) => {
          r.structuredContent = { a: 1 };
          r.content = [...(Array.isArray(r.content) ? r.content : []), { type: 'text', text: '{"a":2}' }];
        }),
      ),
    ],
    [
      'structuredContent breaks the outputSchema',
      fc.constant(
        result('outputSchema wants n: number, structuredContent has n: "x"', (r, theCase) => {
          theCase.tool = toolFor({ type: 'object', properties: { n: { type: 'number' } }, required: ['n'] });
          r.structuredContent = { n: 'x' };
          r.content = [{ type: 'text', text: '{"n":"x"}' }];
        }),
      ),
    ],
    [
      'structuredContent missing for an outputSchema',
      fc.constant(
        result('tool has an outputSchema, result has no structuredContent', (r, theCase) => {
          theCase.tool ??= toolFor({ type: 'object' });
          delete r.structuredContent;
          delete r.isError;
        }),
      ),
    ],
  ];
}

/**
 * A valid case, or one broken by one or two mutations; `mutations` names what was done. The result is
 * usually an object, but a mutation may replace it with anything.
 */
export function anyResult(
  v: ProtocolVersion,
): fc.Arbitrary<{ result: unknown; tool?: JsonObject; mutations: string[] }> {
  return fc.tuple(validCase(v), fc.array(mutation(), { maxLength: 2 })).map(([valid, mutations]) => {
    const theCase: ResultCase = structuredClone(valid);
    const ordered = [...mutations.filter((m) => !m.last), ...mutations.filter((m) => m.last)];
    for (const m of ordered) if (isObject(theCase.result)) m.apply(theCase.result, theCase);
    return { ...theCase, mutations: mutations.map((m) => m.name) };
  });
}

/** What JSON.stringify throws on, each as a fresh value: only a handler's JS value can hold one. */
export const UNWRITABLE: readonly (() => unknown)[] = [
  () => 12n,
  () => {
    const loop: Record<string, unknown> = { name: 'loop' };
    loop.self = loop;
    return loop;
  },
  () => ({
    toJSON() {
      throw new Error('not today');
    },
  }),
  // Code that runs when the value is read, as JSON.stringify reads it.
  () => ({
    get member() {
      throw new Error('not readable');
    },
  }),
  () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  },
  // Nested past the native writer's call stack (about 4,100 levels on Node 20, 4,450 on Node 24).
  () => nested(10_000),
];

/** Arrays and objects nested `depth` levels deep, alternately. */
export function nested(depth: number): unknown {
  let value: unknown = { leaf: true };
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { down: value };
  return value;
}

/**
 * A generated result with one value JSON cannot write put somewhere in it (structuredContent, `_meta`,
 * or a member of a block): what a handler may give the library's validators, which judge JS values as
 * given. Kept apart from anyResult, whose documents are JSON as it arrives on the wire.
 */
export function unwritableResult(v: ProtocolVersion): fc.Arbitrary<{ result: unknown; tool?: JsonObject }> {
  return fc
    .tuple(
      anyResult(v),
      fc.nat({ max: UNWRITABLE.length - 1 }),
      fc.constantFrom('structured', 'meta', 'block'),
    )
    .map(([{ result, tool }, which, where]) => {
      const value = (UNWRITABLE[which] as () => unknown)();
      if (!isObject(result)) return { result: { content: [], _meta: { value } }, tool };
      const content = Array.isArray(result.content) ? result.content : [];
      const block = content.find(isObject);
      if (where === 'structured') result.structuredContent = { value };
      else if (where === 'block' && block) block.extra = value;
      else result._meta = { value };
      return { result, ...(tool ? { tool } : {}) };
    });
}
