/**
 * Generators for the documents around a tool result, each with named mutation families of known weight
 * like the result generators of arbitraries.ts: tools/list results (the `tools-list` and `tool` rules),
 * JSON-RPC responses (`message`), raw transport frames (`frame`) and what an audit observes on a live
 * connection (`session`). test/spec/rule-firing.test.ts drives each through the engine entry point of
 * its subject and checks that every rule of the catalog fires.
 */

import fc from 'fast-check';
import { isObject, type JsonObject } from '../../src/core/json.js';
import type { Frame, SessionEvent } from '../../src/rules/types.js';
import { features, PROTOCOL_VERSIONS, type ProtocolVersion } from '../../src/spec/versions.js';
import { anyResult, UNWRITABLE } from './arbitraries.js';

/** A family of edits of a document of type T, drawn with probability weight / (sum of weights). */
export interface Family<T> {
  readonly family: string;
  readonly weight: number;
  readonly arbitrary: fc.Arbitrary<Edit<T>>;
}

export interface Edit<T> {
  readonly name: string;
  /** Returns the edited document (a copy, or the same object edited in place). */
  apply(document: T): T;
}

function family<T>(name: string, edits: fc.Arbitrary<Edit<T>>, weight = 1): Family<T> {
  return { family: name, weight, arbitrary: edits };
}

function edits<T, V>(
  values: readonly V[],
  name: (v: V) => string,
  apply: (d: T, v: V) => T,
): fc.Arbitrary<Edit<T>> {
  return fc.constantFrom(...values).map((v) => ({ name: name(v), apply: (d: T) => apply(d, v) }));
}

/** A valid document broken by up to two edits drawn from `families`. */
function mutated<T>(
  valid: fc.Arbitrary<T>,
  families: readonly Family<T>[],
): fc.Arbitrary<{ document: T; mutations: string[] }> {
  const edit = fc.oneof(...families.map(({ weight, arbitrary }) => ({ weight, arbitrary })));
  return fc.tuple(valid, fc.array(edit, { maxLength: 2 })).map(([document, chosen]) => ({
    document: chosen.reduce((d, e) => e.apply(d), structuredClone(document)),
    mutations: chosen.map((e) => e.name),
  }));
}

// ---------------------------------------------------------------------------------------------------
// tools/list

const toolName = fc.stringMatching(/^[a-z][a-z0-9_]{0,15}$/);

export function validTool(v: ProtocolVersion): fc.Arbitrary<JsonObject> {
  const f = features(v);
  const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
  return fc
    .record({
      name: toolName,
      title: optional(fc.string({ maxLength: 20 })),
      description: optional(fc.string({ maxLength: 40 })),
      inputSchema: fc.constantFrom(
        { type: 'object' },
        { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      ),
      outputSchema:
        f.outputSchema === 'none'
          ? fc.constant(undefined)
          : optional(fc.constant({ type: 'object', properties: { temp: { type: 'number' } } })),
      annotations: optional(
        fc.record({ readOnlyHint: fc.boolean(), title: fc.string({ maxLength: 10 }) }, { requiredKeys: [] }),
      ),
      icons: f.icons
        ? optional(fc.constant([{ src: 'https://example.com/icon.png' }]))
        : fc.constant(undefined),
    })
    .map((tool) => Object.fromEntries(Object.entries(tool).filter(([, value]) => value !== undefined)));
}

export function validToolsList(v: ProtocolVersion): fc.Arbitrary<JsonObject> {
  const f = features(v);
  return fc.uniqueArray(validTool(v), { maxLength: 4, selector: (t) => t.name }).map((tools) => ({
    tools,
    // 2026-07-28 makes tools/list a cacheable result.
    ...(f.resultTypeRequired ? { resultType: 'complete', ttlMs: 60_000, cacheScope: 'public' } : {}),
  }));
}

/** Edits the tool at index n of `tools` (adding one when the list is empty). */
function toolEdit(name: string, edit: (tool: JsonObject) => unknown): fc.Arbitrary<Edit<unknown>> {
  return fc.nat().map((n) => ({
    name,
    apply(list) {
      if (!isObject(list) || !Array.isArray(list.tools)) return list;
      if (list.tools.length === 0) list.tools.push({ name: 'only', inputSchema: { type: 'object' } });
      const i = n % list.tools.length;
      const tool = list.tools[i];
      if (isObject(tool)) list.tools[i] = edit(structuredClone(tool));
      return list;
    },
  }));
}

function set(key: string, value: unknown): (tool: JsonObject) => JsonObject {
  return (tool) => Object.assign(tool, { [key]: value });
}

export const TOOLS_LIST_FAMILIES: readonly Family<unknown>[] = [
  family(
    'tool not an object',
    fc
      .constantFrom<unknown>('get_weather', 3, null, [])
      .chain((value) => toolEdit(`tool → ${JSON.stringify(value)}`, () => value)),
  ),
  family(
    'tool name missing or not a string',
    fc.constantFrom<unknown>(undefined, 7).chain((value) =>
      toolEdit(`name ${JSON.stringify(value) ?? 'deleted'}`, (tool) => {
        if (value === undefined) delete tool.name;
        else tool.name = value;
        return tool;
      }),
    ),
  ),
  family(
    'tool name with characters or length the spec excludes',
    fc
      .constantFrom('get weather!', '', 'x'.repeat(200), 'wetter/überall')
      .chain((name) => toolEdit(`name ${JSON.stringify(name.slice(0, 20))}`, set('name', name))),
  ),
  family(
    'duplicate tool name',
    fc.constant<Edit<unknown>>({
      name: 'second tool with the first one’s name',
      apply(list) {
        if (!isObject(list) || !Array.isArray(list.tools)) return list;
        const first = isObject(list.tools[0])
          ? list.tools[0]
          : { name: 'dup', inputSchema: { type: 'object' } };
        list.tools = [first, structuredClone(first), ...list.tools.slice(1)];
        return list;
      },
    }),
  ),
  family(
    'tool field of the wrong type',
    fc
      .tuple(
        fc.constantFrom('title', 'description', '_meta', 'icons'),
        fc.constantFrom<unknown>(5, 'str', [], null),
      )
      .chain(([key, value]) => toolEdit(`${key} = ${JSON.stringify(value)}`, set(key, value))),
  ),
  family(
    'tool annotations',
    fc
      .constantFrom<unknown>(
        'read-only',
        { readOnlyHint: 'yes' },
        { destructiveHint: 1 },
        { title: 5 },
        // Valid hints that contradict each other (tool-annotations-contradictory).
        { readOnlyHint: true, destructiveHint: true },
      )
      .chain((annotations) =>
        toolEdit(`annotations ${JSON.stringify(annotations)}`, set('annotations', annotations)),
      ),
  ),
  family(
    'inputSchema missing or not an object schema',
    fc
      .constantFrom<unknown>(
        undefined,
        'object',
        { type: 'string' },
        { properties: {} },
        { type: 'object', properties: [] },
      )
      .chain((schema) =>
        toolEdit(`inputSchema ${JSON.stringify(schema) ?? 'deleted'}`, (tool) => {
          if (schema === undefined) delete tool.inputSchema;
          else tool.inputSchema = schema;
          return tool;
        }),
      ),
  ),
  family(
    'outputSchema not an object schema',
    fc
      .constantFrom<unknown>({ type: 'array', items: { type: 'number' } }, { type: 'string' }, 'object')
      .chain((schema) => toolEdit(`outputSchema ${JSON.stringify(schema)}`, set('outputSchema', schema))),
  ),
  family(
    'outputSchema with keywords older clients ignore',
    fc.constant(null).chain(() =>
      toolEdit(
        'outputSchema uses prefixItems',
        set('outputSchema', {
          type: 'object',
          properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] } },
        }),
      ),
    ),
  ),
  family(
    'schema that does not compile',
    fc
      .constantFrom('inputSchema', 'outputSchema')
      .chain((field) =>
        toolEdit(
          `${field} with an unknown type`,
          set(field, { type: 'object', properties: { a: { type: 'nope' } } }),
        ),
      ),
  ),
  family(
    'schema that breaks its meta-schema but compiles',
    fc
      .tuple(
        fc.constantFrom('inputSchema', 'outputSchema'),
        fc.constantFrom<[string, unknown]>(['title', 5], ['description', []], ['required', ['a', 'a']]),
      )
      .chain(([field, [keyword, value]]) =>
        toolEdit(
          `${field} ${keyword} = ${JSON.stringify(value)}`,
          set(field, { type: 'object', properties: { a: { type: 'string' } }, [keyword]: value }),
        ),
      ),
  ),
  family(
    'schema with a remote $ref',
    fc
      .constantFrom('inputSchema', 'outputSchema')
      .chain((field) =>
        toolEdit(
          `${field} $ref to another document`,
          set(field, { type: 'object', properties: { a: { $ref: 'https://example.com/schemas/a.json' } } }),
        ),
      ),
  ),
  family(
    'tools not an array',
    edits<unknown, unknown>(
      [undefined, {}, 'tools', null],
      (value) => `tools ${JSON.stringify(value) ?? 'deleted'}`,
      (list, value) => {
        if (!isObject(list)) return list;
        if (value === undefined) delete list.tools;
        else list.tools = value;
        return list;
      },
    ),
  ),
  family(
    'list not an object',
    edits<unknown, unknown>(
      [[], 'tools', null],
      (value) => `list → ${JSON.stringify(value)}`,
      (_list, value) => value,
    ),
  ),
  family(
    'cache fields of a 2026-07-28 list',
    edits<unknown, [string, unknown]>(
      [
        ['ttlMs', undefined],
        ['ttlMs', -1],
        ['cacheScope', 'shared'],
        ['resultType', 'done'],
      ],
      ([key, value]) => `${key} ${JSON.stringify(value) ?? 'deleted'}`,
      (list, [key, value]) => {
        if (!isObject(list)) return list;
        if (value === undefined) delete list[key];
        else list[key] = value;
        return list;
      },
    ),
  ),
];

export function anyToolsList(v: ProtocolVersion) {
  return mutated<unknown>(validToolsList(v), TOOLS_LIST_FAMILIES);
}

/**
 * A generated tools/list result holding one value JSON cannot write: in a tool's `_meta`, or in a member
 * of the list. What the library's validators may be given, never the wire.
 */
export function unwritableToolsList(v: ProtocolVersion) {
  return fc
    .tuple(anyToolsList(v), fc.nat({ max: UNWRITABLE.length - 1 }), fc.constantFrom('tool', 'member'))
    .map(([{ document }, which, where]) => {
      const value = (UNWRITABLE[which] as () => unknown)();
      if (where === 'tool')
        return { tools: [{ name: 'held', inputSchema: { type: 'object' }, _meta: { value } }] };
      return isObject(document) ? { ...document, nextCursor: value } : { tools: [], nextCursor: value };
    });
}

// ---------------------------------------------------------------------------------------------------
// JSON-RPC responses

/** A response, the request it answers when the reader knows it, and the tool of a tools/call. */
export interface MessageCase {
  message: unknown;
  request?: JsonObject;
  tool?: JsonObject;
}

function validResponse(v: ProtocolVersion): fc.Arbitrary<MessageCase> {
  return fc
    .tuple(
      anyResult(v),
      fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.string({ minLength: 1, maxLength: 8 })),
      fc.boolean(),
    )
    .map(([{ result, tool }, id, knownRequest]) => ({
      message: { jsonrpc: '2.0', id, result },
      ...(knownRequest ? { request: { method: 'tools/call', params: { name: 'generated_tool' } } } : {}),
      ...(tool ? { tool } : {}),
    }));
}

function messageEdit(name: string, apply: (m: JsonObject, c: MessageCase) => unknown): Edit<MessageCase> {
  return {
    name,
    apply(c) {
      if (isObject(c.message)) c.message = apply(c.message, c);
      return c;
    },
  };
}

export const MESSAGE_FAMILIES: readonly Family<MessageCase>[] = [
  family('batch', fc.constant(messageEdit('wrapped in a batch array', (m) => [m]))),
  family(
    'server request or notification malformed',
    fc
      .constantFrom<[string, JsonObject]>(
        ['method 42', { id: 's-1', method: 42 }],
        ['params a string', { method: 'notifications/message', params: 'disk full' }],
        ['params an array', { id: 's-1', method: 'ping', params: [] }],
        ['params._meta a number', { method: 'notifications/progress', params: { _meta: 5 } }],
      )
      .map(([name, message]) => messageEdit(name, () => ({ jsonrpc: '2.0', ...message }))),
  ),
  family(
    'not an object',
    fc
      .constantFrom<unknown>('ok', 1, null, true)
      .map((value) => messageEdit(`message → ${JSON.stringify(value)}`, () => value)),
  ),
  family(
    'jsonrpc member',
    fc.constantFrom<unknown>(undefined, '1.0', 2).map((value) =>
      messageEdit(`jsonrpc ${JSON.stringify(value) ?? 'deleted'}`, (m) => {
        if (value === undefined) delete m.jsonrpc;
        else m.jsonrpc = value;
        return m;
      }),
    ),
  ),
  family(
    'id missing or invalid',
    fc.constantFrom<unknown>(undefined, null, 1.5, { n: 1 }).map((value) =>
      messageEdit(`id ${JSON.stringify(value) ?? 'deleted'}`, (m) => {
        if (value === undefined) delete m.id;
        else m.id = value;
        return m;
      }),
    ),
  ),
  family(
    'extra envelope member',
    fc
      .constantFrom('requestId', 'sessionId', 'meta')
      .map((key) => messageEdit(`extra ${key}`, (m) => Object.assign(m, { [key]: 'abc' }))),
  ),
  family(
    'error object invalid',
    fc
      .constantFrom<unknown>(
        'boom',
        { message: 'm' },
        { code: 'E1', message: 'm' },
        { code: 1 },
        { code: 1, message: 2 },
      )
      .map((error) =>
        messageEdit(`error ${JSON.stringify(error)}`, (m) => {
          delete m.result;
          m.error = error;
          return m;
        }),
      ),
  ),
  family(
    'result and error together, or neither',
    fc.boolean().map((both) =>
      messageEdit(both ? 'result and error' : 'neither result nor error', (m) => {
        if (both) m.error = { code: -32603, message: 'internal' };
        else delete m.result;
        return m;
      }),
    ),
  ),
  family(
    'result of an unknown request not an object',
    fc.constantFrom<unknown>('done', 3, null).map((value) =>
      messageEdit(`result → ${JSON.stringify(value)}, request unknown`, (m, c) => {
        delete c.request;
        m.result = value;
        return m;
      }),
    ),
  ),
  family(
    'a request carrying a result',
    fc.constant(messageEdit('method and result', (m) => Object.assign(m, { method: 'tools/call' }))),
  ),
  family(
    'a script URL in a link, an embedded resource or an icon',
    fc
      .constantFrom<[string, JsonObject]>(
        ['link javascript:', { type: 'resource_link', uri: 'javascript:alert(1)', name: 'x' }],
        ['resource data:text/html', { type: 'resource', resource: { uri: 'data:text/html,hi', text: 'x' } }],
        [
          'icon vbscript:',
          { type: 'resource_link', uri: 'file:///a', name: 'a', icons: [{ src: 'VBScript:msgbox(1)' }] },
        ],
      )
      .map(([name, block]) =>
        messageEdit(name, (m) => {
          if (isObject(m.result) && Array.isArray(m.result.content)) m.result.content.push(block);
          return m;
        }),
      ),
  ),
  family(
    'a lone surrogate in a string of the result',
    fc.constantFrom('Launch day \ud83d', '\udc00 trailing').map((text) =>
      messageEdit(`text ${JSON.stringify(text)}`, (m) => {
        if (isObject(m.result) && Array.isArray(m.result.content))
          m.result.content.push({ type: 'text', text });
        return m;
      }),
    ),
  ),
  family(
    'a lone surrogate outside a tool result',
    fc.constantFrom('error message', 'member name').map((where) =>
      messageEdit(`lone surrogate in the ${where}`, (m) => {
        delete m.result;
        m.error =
          where === 'error message'
            ? { code: -32603, message: 'failed: \ud83d' }
            : { code: -32603, message: 'failed', data: { '\udc00': 1 } };
        return m;
      }),
    ),
  ),
  family(
    "a live value in the result that SDK v1's server refuses",
    fc
      .constantFrom<[string, () => JsonObject]>(
        ['text new String', () => ({ type: 'text', text: new String('hi') as unknown as string })],
        [
          'lastModified a Date',
          () => ({
            type: 'text',
            text: 'hi',
            annotations: { lastModified: new Date(0) as unknown as string },
          }),
        ],
        ['_meta a Map', () => ({ type: 'text', text: 'hi', _meta: new Map() as unknown as JsonObject })],
      )
      .map(([name, block]) =>
        messageEdit(`live: ${name}`, (m) => {
          if (isObject(m.result) && Array.isArray(m.result.content)) m.result.content.push(block());
          return m;
        }),
      ),
  ),
  family(
    "the server's own SDK rejected the handler's result",
    fc
      .constantFrom(
        // TypeScript SDK v1 and v2: a JSON-RPC error for a result that fails CallToolResultSchema…
        {
          error: {
            code: -32602,
            message:
              'MCP error -32602: Invalid tools/call result: [{"expected":"object","code":"invalid_type","path":[],"message":"Invalid input: expected object, received string"}]',
          },
        },
        // …and an isError result for structuredContent that fails the outputSchema; the Python SDK's.
        {
          result: {
            content: [
              {
                type: 'text',
                text: 'Output validation error: Invalid structured content for tool t: n: Invalid input: expected number, received string',
              },
            ],
            isError: true,
          },
        },
        {
          result: {
            content: [{ type: 'text', text: "Output validation error: 'warm' is not of type 'number'" }],
            isError: true,
          },
        },
      )
      .map((answer) =>
        messageEdit(`rejected: ${JSON.stringify(answer).slice(0, 40)}`, (m) => {
          delete m.result;
          return Object.assign(m, structuredClone(answer));
        }),
      ),
  ),
];

export function anyMessage(v: ProtocolVersion) {
  return mutated(validResponse(v), MESSAGE_FAMILIES);
}

/**
 * A generated message holding one value JSON cannot write besides its result: in an error response's
 * `data`, or in a member of its own. What the library's validators may be given, never the wire.
 */
export function unwritableMessage(v: ProtocolVersion) {
  return fc
    .tuple(anyMessage(v), fc.nat({ max: UNWRITABLE.length - 1 }), fc.constantFrom('error data', 'member'))
    .map(([{ document }, which, where]) => {
      const value = (UNWRITABLE[which] as () => unknown)();
      const message: unknown =
        where === 'error data' || !isObject(document.message)
          ? { jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'failed', data: { value } } }
          : { ...document.message, trace: value };
      return { ...document, message };
    });
}

// ---------------------------------------------------------------------------------------------------
// transport frames

function validFrame(v: ProtocolVersion): fc.Arbitrary<Frame> {
  return fc
    .tuple(validResponse(v), fc.constantFrom<Frame['transport']>('stdio', 'http', 'sse'))
    .map(([{ message }, transport]) => {
      const text = JSON.stringify(message);
      return transport === 'http'
        ? { transport, text, contentType: 'application/json' }
        : { transport, text };
    });
}

export const FRAME_FAMILIES: readonly Family<Frame>[] = [
  family(
    'not JSON',
    fc.constantFrom('cut', 'log line', 'empty').map((how) => ({
      name: `frame ${how}`,
      apply: (frame: Frame): Frame => ({
        ...frame,
        text:
          how === 'cut'
            ? frame.text.slice(0, -1)
            : how === 'empty'
              ? ''
              : `[info] server started\n${frame.text}`,
      }),
    })),
  ),
  family(
    'JSON but not a JSON-RPC object',
    fc.constantFrom('42', '"ok"', 'null', 'true').map((text) => ({
      name: `frame ${text}`,
      apply: (frame: Frame): Frame => ({ ...frame, text }),
    })),
  ),
  family(
    'bytes not UTF-8',
    fc.constantFrom(0xe9, 0xff, 0x80, 0xc0).map((byte) => ({
      name: `byte 0x${byte.toString(16)}`,
      apply: (frame: Frame): Frame => ({
        ...frame,
        // What a lenient decoder makes of the byte, and where it stood.
        text: `${frame.text.slice(0, -2)}\uFFFD${frame.text.slice(-2)}`,
        invalidUtf8: { offset: frame.text.length - 2, byte },
      }),
    })),
  ),
  family(
    'HTTP Content-Type',
    fc
      .constantFrom<string | undefined>(undefined, 'text/html', 'text/plain; charset=utf-8')
      .map((contentType) => ({
        name: `Content-Type ${contentType ?? 'missing'}`,
        apply: (frame: Frame): Frame => {
          const { contentType: _old, ...rest } = frame;
          return { ...rest, transport: 'http', ...(contentType === undefined ? {} : { contentType }) };
        },
      })),
  ),
];

export function anyFrame(v: ProtocolVersion) {
  return mutated(validFrame(v), FRAME_FAMILIES);
}

// ---------------------------------------------------------------------------------------------------
// what an audit observes

function initializeResult(version: string): JsonObject {
  return {
    protocolVersion: version,
    capabilities: { tools: {} },
    serverInfo: { name: 'srv', version: '1.0.0' },
  };
}

/** Observations of a healthy server, in the vocabulary of src/audit/events.ts. */
function validEvent(v: ProtocolVersion): fc.Arbitrary<SessionEvent> {
  const handshake: fc.Arbitrary<SessionEvent> =
    features(v).handshake === 'initialize'
      ? fc.constant({ event: 'initialize-result', version: v, result: initializeResult(v) })
      : fc.constant({ event: 'discover-result', supportedVersions: [v] });
  return fc.oneof(
    handshake,
    fc.record({
      event: fc.constant('answered'),
      method: fc.constant('tools/call get_weather'),
      ms: fc.nat(500),
    }),
    fc.record({ event: fc.constant('tools-listed'), count: fc.nat(20), capability: fc.constant(true) }),
  );
}

/** What goes wrong on a live connection: each family replaces the observation with a failure. */
export const SESSION_FAMILIES: readonly Family<SessionEvent>[] = [
  ...(
    [
      ['timeout', { event: 'timeout', method: 'tools/call slow', ms: 15_000 }],
      ['server exited', { event: 'server-exited', method: 'tools/call crash', detail: 'exited with code 1' }],
      ['response too large', { event: 'response-too-large', bytes: 50_000_000, limit: 16_777_216 }],
      ['HTTP error', { event: 'http-error', method: 'tools/list', status: 502, body: 'Bad Gateway' }],
      ['unmatched response', { event: 'response-unmatched', id: '"7"' }],
      ['lost response', { event: 'response-unmatched', id: '1007', waiting: 'tools/call echo (id 7)' }],
      ['second response', { event: 'response-unmatched', id: '7', answered: true }],
      [
        'converted response id',
        { event: 'response-id-converted', id: '"7"', request: '7', method: 'tools/call echo' },
      ],
      [
        'version refused',
        { event: 'version-refused', version: '2024-11-05', detail: 'Unsupported protocol version' },
      ],
      ['discover unsupported', { event: 'discover-unsupported', detail: '-32601 Method not found' }],
      ['discover invalid', { event: 'discover-invalid', problem: 'no supportedVersions array' }],
      ['tools capability missing', { event: 'tools-capability-missing', count: 3 }],
      ['tools/list failed', { event: 'tools-list-failed', detail: '-32603 Internal error' }],
      ['pagination loop', { event: 'pagination-loop', cursor: '"page-2"' }],
      [
        'tool on two pages',
        {
          event: 'tool-name-duplicate',
          name: '"search"',
          page: 2,
          index: 0,
          firstPage: 1,
          firstIndex: 4,
          uses: 'no definition of it has an outputSchema',
        },
      ],
      ['call error', { event: 'call-error', tool: 'get_weather', code: '-32603', detail: 'boom' }],
      ['answered late', { event: 'answered', method: 'tools/call slow', ms: 75_000 }],
      [
        'arguments rejected',
        {
          event: 'arguments-rejected',
          tool: 'get_weather',
          detail: 'arguments.city: missing',
          from: 'synthesized',
        },
      ],
    ] as const
  ).map(([name, observed]) =>
    family<SessionEvent>(name, fc.constant({ name, apply: () => ({ ...observed }) })),
  ),
  family(
    'initialize result incomplete or of an unknown version',
    fc
      .tuple(
        fc.constantFrom(...PROTOCOL_VERSIONS.filter((v) => features(v).handshake === 'initialize')),
        fc.constantFrom(
          'protocolVersion',
          'capabilities',
          'serverInfo',
          'unknown version',
          'discover version',
        ),
      )
      .map(([version, broken]) => ({
        name: `initialize-result ${broken}`,
        apply: (): SessionEvent => {
          const result = initializeResult(version);
          if (broken === 'unknown version') result.protocolVersion = '2099-01-01';
          else if (broken === 'discover version') result.protocolVersion = '2026-07-28';
          else delete result[broken];
          return { event: 'initialize-result', version, result };
        },
      })),
  ),
];

export function anySessionEvent(v: ProtocolVersion) {
  return mutated(validEvent(v), SESSION_FAMILIES);
}

/** Families of every generator with their draw probability, for the rule-firing report. */
export function familyFrequencies(
  families: readonly { readonly family: string; readonly weight: number }[],
): { family: string; probability: number }[] {
  const total = families.reduce((sum, f) => sum + f.weight, 0);
  return families.map((f) => ({ family: f.family, probability: f.weight / total }));
}
