/**
 * shaped() on a real SDK v1 McpServer, called by the SDK's own Client over InMemoryTransport, at every
 * protocol version the v1 client can negotiate. In memory, as in a stdio server, the SDK server checks
 * the handler's result with its CallToolResultSchema before anything is written: what matters is the
 * JS value shaped() answers, not only its JSON. Every kind of value a handler returns must reach the
 * client as a result (no -32602 or -32603, no hang) that our validator passes for that version.
 */

import { StreamableHTTPClientTransport, Client as V2Client } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  createMcpHandler,
  SUPPORTED_PROTOCOL_VERSIONS,
  McpServer as V2McpServer,
} from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { repair, repairMessage } from '../../src/library/repair/index.js';
import { shaped } from '../../src/library/shaped.js';
import { toolResult } from '../../src/library/tool-result.js';
import type { ProtocolVersion } from '../../src/spec/versions.js';
import { validateToolResultSync } from '../../src/validate/index.js';
import { sdkV1Parse } from './support/oracles.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

class Point {
  readonly x = 1;
  readonly y = 2;
}

const SYMBOL = Symbol('internal');

/** A block kept in a class, its text behind a getter: JSON.stringify sends no `text` for it. */
class TextBlock {
  readonly type = 'text';
  readonly #text: string;
  constructor(text: string) {
    this.#text = text;
  }
  get text(): string {
    return this.#text;
  }
}

/** A whole result of class instances, every protocol member a getter on a prototype. */
class ImageResult {
  get content(): unknown[] {
    return [
      new (class {
        get type() {
          return 'image';
        }
        get data() {
          return PNG.toString('base64');
        }
        get mimeType() {
          return 'image/png';
        }
      })(),
      new TextBlock('a pixel'),
    ];
  }
}

/** A proxy whose getPrototypeOf trap throws: `instanceof` throws on it, JSON.stringify never asks. */
function protoless(): object {
  return new Proxy(
    { a: 1 },
    {
      getPrototypeOf() {
        throw new Error('no prototype for you');
      },
    },
  );
}

/** Bytes whose buffer was transferred: their memory is gone. */
function detached(): Uint8Array {
  const bytes = new Uint8Array(8);
  structuredClone(bytes.buffer, { transfer: [bytes.buffer] });
  return bytes;
}

const DETACHED_TEXT =
  'The tool returned bytes whose ArrayBuffer is detached (transferred), so they could not be read.';

/** What handlers return, and the content the client must get at 2025-11-25 (undefined: not asserted). */
const VALUES: readonly (readonly [string, () => unknown, unknown?])[] = [
  ['a string', () => 'hi', { content: [{ type: 'text', text: 'hi' }] }],
  [
    'a number',
    () => 42,
    { content: [{ type: 'text', text: '{"result":42}' }], structuredContent: { result: 42 } },
  ],
  [
    'null',
    () => null,
    { content: [{ type: 'text', text: '{"result":null}' }], structuredContent: { result: null } },
  ],
  ['undefined', () => undefined, { content: [] }],
  [
    'a Date',
    () => new Date(0),
    {
      content: [{ type: 'text', text: '{"result":"1970-01-01T00:00:00.000Z"}' }],
      structuredContent: { result: '1970-01-01T00:00:00.000Z' },
    },
  ],
  [
    'a PNG Buffer',
    () => PNG,
    { content: [{ type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' }] },
  ],
  [
    'a plain object',
    () => ({ a: 1 }),
    { content: [{ type: 'text', text: '{"a":1}' }], structuredContent: { a: 1 } },
  ],
  ['an array', () => [1, 2]],
  ['a Map and a Set', () => ({ m: new Map([[1, 2]]), s: new Set([1]) })],
  ['a class instance', () => new Point()],
  [
    'a thrown Error',
    () => Promise.reject(new Error('boom')),
    { content: [{ type: 'text', text: 'boom' }], isError: true },
  ],
  ['a toJSON', () => ({ toJSON: () => ({ t: 1 }) })],
  ['a BigInt', () => ({ n: 10n })],
  [
    'a cycle',
    () => {
      const value: Record<string, unknown> = { a: 1 };
      value.self = value;
      return value;
    },
  ],
  // What a handler throws need not be an Error, nor printable: String() of these threw, shaped()
  // rejected with that TypeError, and the SDK answered its text ("Cannot convert object to primitive
  // value") in place of the tool's error.
  [
    'a thrown object without a prototype',
    () => {
      throw Object.create(null);
    },
    { content: [{ type: 'text', text: '{}' }], isError: true },
  ],
  [
    'a thrown Error whose code getter throws',
    () => {
      throw Object.defineProperty(new Error('down'), 'code', {
        get() {
          throw new Error('no code');
        },
      });
    },
    { content: [{ type: 'text', text: 'down' }], isError: true },
  ],
  [
    'a thrown proxy whose prototype cannot be read',
    () => {
      throw protoless();
    },
    { content: [{ type: 'text', text: '[object Object]' }], isError: true },
  ],
  // Sent as JSON.stringify writes it; answered "could not be shaped (no prototype for you)" before.
  [
    'a proxy whose prototype cannot be read',
    protoless,
    { content: [{ type: 'text', text: '{"a":1}' }], structuredContent: { a: 1 } },
  ],
  ['detached bytes', detached, { content: [{ type: 'text', text: DETACHED_TEXT }], isError: true }],
  // The SDK's schema reads each member it names, a getter on the prototype too, and sends what it read
  // (see 'a class instance's getters' below); judged as JSON, the block had no text and was dropped.
  [
    'a result whose block keeps its text behind a getter',
    () => ({ content: [new TextBlock('hi')] }),
    { content: [{ type: 'text', text: 'hi' }] },
  ],
  ['a block of a class, alone', () => new TextBlock('hi'), { content: [{ type: 'text', text: 'hi' }] }],
  [
    'a result of class instances with getters only',
    () => new ImageResult(),
    {
      content: [
        { type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' },
        { type: 'text', text: 'a pixel' },
      ],
    },
  ],
  // JSON leaves symbol keys out, but the SDK server's schema reads structuredContent's keys with
  // Reflect.ownKeys and answered -32602 ("Invalid key in record").
  [
    'an object with a symbol key',
    () => ({ a: 1, [SYMBOL]: 'not sent' }),
    { content: [{ type: 'text', text: '{"a":1}' }], structuredContent: { a: 1 } },
  ],
  [
    'a result whose structuredContent and _meta have symbol keys',
    () => ({
      content: [{ type: 'text', text: '{"a":1}' }],
      structuredContent: { a: 1, [SYMBOL]: 1 },
      _meta: { [SYMBOL]: 2 },
    }),
    { content: [{ type: 'text', text: '{"a":1}' }], structuredContent: { a: 1 }, _meta: {} },
  ],
];

/**
 * Tools with an outputSchema: the value, and the structuredContent the client must get at every
 * version. The SDK server refuses a success without structuredContent whatever the version negotiated:
 * before 2025-06-18 the client got its -32602 "has an output schema but no structured content" as an
 * error result in place of the data.
 */
const STRUCTURED: readonly (readonly [string, z.ZodObject, () => unknown, unknown])[] = [
  [
    'an object',
    z.object({ city: z.string(), celsius: z.number() }),
    () => ({ city: 'Lyon', celsius: 21 }),
    { city: 'Lyon', celsius: 21 },
  ],
  ['a number, wrapped', z.object({ result: z.number() }), () => 42, { result: 42 }],
  [
    'a Date, as its ISO string',
    z.object({ at: z.string() }),
    () => ({ at: new Date(0) }),
    { at: '1970-01-01T00:00:00.000Z' },
  ],
];

/** Registers a tool per VALUES (t0, t1…) and per STRUCTURED (s0, s1…) on an SDK v1 or v2 server. */
function registerAll(
  server: object,
  register: (
    name: string,
    description: string,
    schema: z.ZodObject | undefined,
    handler: () => Promise<never>,
  ) => void,
): void {
  VALUES.forEach(([name, make], i) => {
    register(`t${i}`, name, undefined, shaped(async () => make(), { server }) as () => Promise<never>);
  });
  STRUCTURED.forEach(([name, schema, make], i) => {
    const outputSchema = z.toJSONSchema(schema);
    register(
      `s${i}`,
      name,
      schema,
      shaped(async () => make(), { server, outputSchema }) as () => Promise<never>,
    );
  });
}

const VERSIONS: readonly ProtocolVersion[] = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];

describe.each(VERSIONS)('shaped() on an SDK v1 McpServer, negotiated %s', (version) => {
  let client: Client;

  beforeAll(async () => {
    const server = new McpServer({ name: 'shaped', version: '1.0.0' });
    registerAll(server, (name, description, schema, handler) => {
      const config = schema ? { description, outputSchema: schema.shape } : { description };
      server.registerTool(name, config, handler);
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    // The v1 client asks for its latest version; the server answers any version it supports.
    const send = clientSide.send.bind(clientSide);
    clientSide.send = (message, options) => {
      const m = message as { method?: string; params?: Record<string, unknown> };
      return send(
        m.method === 'initialize'
          ? ({ ...m, params: { ...m.params, protocolVersion: version } } as never)
          : message,
        options,
      );
    };
    await server.connect(serverSide);
    client = new Client({ name: 'c', version: '1.0.0' });
    await client.connect(clientSide);
  });

  afterAll(async () => {
    await client?.close();
  });

  it.each(VALUES.map(([name, , expected], i) => [name, i, expected] as const))(
    '%s reaches the client as a conformant result',
    async (_name, i, expected) => {
      const result = await client.callTool({ name: `t${i}`, arguments: {} });
      const errors = validateToolResultSync(result, { protocolVersion: version }).filter(
        (f) => f.severity === 'error',
      );
      expect(errors).toEqual([]);
      if (version === '2025-11-25' && expected !== undefined) expect(result).toEqual(expected);
    },
  );

  it.each(STRUCTURED.map(([name, , , expected], i) => [name, i, expected] as const))(
    'a tool with an outputSchema returning %s gets its data, not an error',
    async (_name, i, expected) => {
      const { tools } = await client.listTools();
      const result = await client.callTool({ name: `s${i}`, arguments: {} });
      expect(result.isError).toBeUndefined();
      expect(result.structuredContent).toEqual(expected);
      const tool = tools.find((t) => t.name === `s${i}`);
      const errors = validateToolResultSync(result, { protocolVersion: version, tool }).filter(
        (f) => f.severity === 'error',
      );
      expect(errors).toEqual([]);
    },
  );
});

describe('shaped() on an SDK v2 McpServer, its web-standard HTTP handler, negotiated 2026-07-28', () => {
  let client: V2Client;

  beforeAll(async () => {
    const handler = createMcpHandler(() => {
      const server = new V2McpServer(
        { name: 'shaped', version: '1.0.0' },
        { supportedProtocolVersions: ['2026-07-28', ...SUPPORTED_PROTOCOL_VERSIONS] },
      );
      registerAll(server, (name, description, schema, handler) => {
        server.registerTool(name, schema ? { description, outputSchema: schema } : { description }, handler);
      });
      return server;
    });
    client = new V2Client(
      { name: 'c', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    const fetch = (input: string | URL | Request, init?: RequestInit) =>
      handler.fetch(new Request(input, init));
    await client.connect(new StreamableHTTPClientTransport(new URL('http://shaped.test/mcp'), { fetch }));
  });

  afterAll(async () => {
    await client?.close();
  });

  it.each([
    ...VALUES.map(([name], i) => [name, `t${i}`] as const),
    ...STRUCTURED.map(([name], i) => [`${name} (outputSchema)`, `s${i}`] as const),
  ])('%s reaches the client as a conformant result', async (_name, tool) => {
    const { tools } = await client.listTools();
    const result = await client.callTool({ name: tool, arguments: {} });
    // The client hands back the result without the resultType it checked.
    const sent = { ...result, resultType: 'complete' };
    const listed = tools.find((t) => t.name === tool);
    const errors = validateToolResultSync(sent, { protocolVersion: '2026-07-28', tool: listed }).filter(
      (f) => f.severity === 'error',
    );
    expect(errors).toEqual([]);
  });
});

describe("a class instance's getters", () => {
  it('the SDK v1 McpServer sends the members its schema names, getters included; shaped() keeps them too', async () => {
    const server = new McpServer({ name: 'raw', version: '1.0.0' });
    const make = () => ({ content: [new TextBlock('hi')] });
    server.registerTool('raw', {}, (async () => make()) as () => Promise<never>);
    server.registerTool('shaped', {}, shaped(async () => make(), { server }) as () => Promise<never>);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'c', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      const expected = { content: [{ type: 'text', text: 'hi' }] };
      expect(await client.callTool({ name: 'raw', arguments: {} })).toEqual(expected);
      expect(await client.callTool({ name: 'shaped', arguments: {} })).toEqual(expected);
    } finally {
      await client.close();
    }
    // What toolResult and repair answer is plain JSON that holds the text, so any transport sends it.
    for (const answered of [(await toolResult(make())) as unknown, (await repair(make())).result]) {
      expect(JSON.parse(JSON.stringify(answered))).toEqual({ content: [{ type: 'text', text: 'hi' }] });
      expect(validateToolResultSync(answered)).toEqual([]);
    }
  });
});

describe('symbol keys where the SDK reads a record', () => {
  it('toolResult, repair and repairMessage answer a value the SDK server schema accepts, without them', async () => {
    const structured = { a: 1, [SYMBOL]: 1 };
    expect(sdkV1Parse(await toolResult(structured))).toEqual({ ok: true });
    const built = {
      content: [{ type: 'text', text: '{"a":1}', _meta: { [SYMBOL]: 3 } }],
      structuredContent: structured,
      _meta: { [SYMBOL]: 2 },
    };
    const repaired = await repair(built);
    expect(sdkV1Parse(repaired.result)).toEqual({ ok: true });
    expect(Object.getOwnPropertySymbols(built.structuredContent)).toEqual([SYMBOL]);
    const message = await repairMessage({ jsonrpc: '2.0', id: 1, result: built });
    expect(sdkV1Parse((message.message as { result: unknown }).result)).toEqual({ ok: true });
  });
});

describe('values that instanceof cannot ask about, and bytes that are gone', () => {
  it('toolResult answers them without failing itself', async () => {
    const failed = (await toolResult(Promise.reject(protoless()))) as { isError?: boolean; content: unknown };
    expect(failed.isError).toBe(true);
    expect(JSON.stringify(failed.content)).not.toContain('could not be shaped');
    expect(await toolResult(protoless())).toEqual({
      content: [{ type: 'text', text: '{"a":1}' }],
      structuredContent: { a: 1 },
    });
    const buffer = detached().buffer;
    for (const value of [detached(), buffer]) {
      expect(await toolResult(value, { protocolVersion: '2026-07-28' })).toEqual({
        content: [{ type: 'text', text: DETACHED_TEXT }],
        isError: true,
        resultType: 'complete',
      });
    }
    // An empty buffer is not a detached one.
    expect(await toolResult(new Uint8Array(0))).toMatchObject({ content: [{ type: 'resource' }] });
  });
});

/** `value` with `key` defined on it as a member JSON.stringify does not send (not enumerable). */
function hidden<T extends object>(value: T, key: string, member: unknown): T {
  return Object.defineProperty(value, key, { value: member, enumerable: false });
}

/**
 * Values whose JSON is not what reading their members gives: members that are not enumerable (the SDK
 * servers read each member their schema names, JSON.stringify sends only enumerable ones) and an array
 * of its own toJSON (JSON.stringify sends what it answers, the SDK servers read the items). With the
 * content the client must get from shaped(), toolResult() and repair() alike.
 */
const HIDDEN: readonly (readonly [string, () => unknown, unknown])[] = [
  [
    'a block whose text is not enumerable',
    () => ({ content: [hidden({ type: 'text' }, 'text', 'hi')] }),
    [{ type: 'text', text: 'hi' }],
  ],
  [
    'a block whose type is not enumerable',
    () => ({ content: [hidden({ text: 'hi' }, 'type', 'text')] }),
    [{ type: 'text', text: 'hi' }],
  ],
  [
    'a result whose content is not enumerable',
    () => hidden({}, 'content', [{ type: 'text', text: 'hi' }]),
    [{ type: 'text', text: 'hi' }],
  ],
  [
    'embedded contents whose text is not enumerable',
    () => ({ content: [{ type: 'resource', resource: hidden({ uri: 'file:///a.txt' }, 'text', 'hi') }] }),
    [{ type: 'resource', resource: { uri: 'file:///a.txt', text: 'hi' } }],
  ],
  [
    'content of its own toJSON',
    () => ({
      content: Object.assign([{ type: 'text', text: 'items' }], {
        toJSON: () => [{ type: 'text', text: 'json' }],
      }),
    }),
    [{ type: 'text', text: 'json' }],
  ],
];

describe('members JSON does not send as they are read', () => {
  it('shaped(), and the results of toolResult() and repair(), reach the client as their JSON says, over an SDK v1 McpServer that writes JSON', async () => {
    const server = new McpServer({ name: 'hidden', version: '1.0.0' });
    const answered = new Map<string, unknown>();
    HIDDEN.forEach(([, make], i) => {
      server.registerTool(`shaped${i}`, {}, shaped(async () => make(), { server }) as () => Promise<never>);
      server.registerTool(`toolResult${i}`, {}, (async () => {
        const result = await toolResult(make());
        answered.set(`toolResult${i}`, result);
        return result;
      }) as () => Promise<never>);
      server.registerTool(`repair${i}`, {}, (async () => {
        const { result } = await repair(make());
        answered.set(`repair${i}`, result);
        return result;
      }) as () => Promise<never>);
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    // Written as JSON, as stdio and HTTP write it: the in-memory pair hands the object itself over.
    const send = serverSide.send.bind(serverSide);
    serverSide.send = (message, options) => send(JSON.parse(JSON.stringify(message)), options);
    await server.connect(serverSide);
    const client = new Client({ name: 'c', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      for (const [i, [name, , content]] of HIDDEN.entries()) {
        for (const via of ['shaped', 'toolResult', 'repair']) {
          const received = await client.callTool({ name: `${via}${i}`, arguments: {} });
          expect(received, `${via}: ${name}`).toEqual({ content });
          // What the library answered is plain JSON: written as it is, it says what the server sent.
          if (via !== 'shaped') {
            expect(JSON.parse(JSON.stringify(answered.get(`${via}${i}`))), `${via}: ${name}`).toEqual({
              content,
            });
          }
        }
      }
    } finally {
      await client.close();
    }
  });
});
