/**
 * A handler's class instance as the official SDK's server sends it. SDK v1's `Server` (under
 * `McpServer`) parses a tools/call result with CallToolResultSchema and sends the parse's output, whose
 * object parsers read the members they name as properties, getters on the prototype included: a block
 * `new B()` whose `type` and `text` are getters arrives as `{"type":"text","text":"hi"}`, where
 * JSON.stringify of it writes `{}`. The validators judged `{}` (a block of no known type); they judge
 * what arrives. Held here to a real McpServer and Client over an in-memory transport: the findings on
 * the handler's value are the findings on the result the client receives.
 */

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { validateToolResult, validateToolResultSync } from '../../src/validate/index.js';

class TextBlock {
  get type() {
    return 'text';
  }
  get text() {
    return 'hi';
  }
}

/** An object of `own` members whose prototype has a getter for each of `getters`. */
function withGetters(getters: Record<string, unknown>, own: Record<string, unknown> = {}): object {
  const proto = {};
  for (const [key, value] of Object.entries(getters)) Object.defineProperty(proto, key, { get: () => value });
  return Object.assign(Object.create(proto) as object, own);
}

/** An image block of getters, its mimeType of another family. */
const wrongImage = () => withGetters({ data: 'iVBORw0KGgo=', mimeType: 'text/plain' }, { type: 'image' });

/** A link whose uri and annotations are getters, and the annotations' priority too. */
const link = () =>
  withGetters(
    { uri: 'https://example.com/r.pdf', annotations: withGetters({ priority: 0.5 }) },
    { type: 'resource_link', name: 'report' },
  );

class Result {
  get content() {
    return [new TextBlock()];
  }
}

const RESULTS: Record<string, () => unknown> = {
  text: () => ({ content: [new TextBlock()] }),
  image: () => ({ content: [wrongImage()] }),
  link: () => ({ content: [link()] }),
  result: () => new Result(),
  resource: () => ({
    content: [
      {
        type: 'resource',
        resource: withGetters({ text: '# A' }, { uri: 'file:///a.md' }),
      },
    ],
  }),
};

const V = { protocolVersion: '2025-11-25' } as const;

/** What a real McpServer's client receives of each tool's result: the result as JSON carries it, or `{ refused }`. */
async function called(cases: Record<string, () => unknown>): Promise<Record<string, unknown>> {
  const server = new McpServer({ name: 'live', version: '1.0.0' });
  for (const [name, make] of Object.entries(cases)) {
    server.registerTool(name, { description: name }, async () => make() as never);
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'c', version: '1.0.0' });
  await client.connect(clientSide);
  const out: Record<string, unknown> = {};
  try {
    for (const name of Object.keys(cases)) {
      out[name] = await client.callTool({ name, arguments: {} }).then(
        // As the wire carries it: the in-memory transport hands over the parse's output as it is.
        (result) => JSON.parse(JSON.stringify(result)),
        (error: Error) => ({ refused: error.message }),
      );
    }
  } finally {
    await client.close();
  }
  return out;
}

const rules = (findings: readonly { rule: string; pointer: string }[]) =>
  findings.map((f) => `${f.rule} ${f.pointer}`);

describe('a class instance in a tool result', () => {
  it('is judged as the SDK server sends it, its getters read: the findings of what the client receives', async () => {
    const arrived = await called(RESULTS);
    expect(arrived.text).toEqual({ content: [{ type: 'text', text: 'hi' }] });
    for (const [name, make] of Object.entries(RESULTS)) {
      const expected = rules(validateToolResultSync(arrived[name], V));
      expect(rules(validateToolResultSync(make(), V)), name).toEqual(expected);
      expect(rules(await validateToolResult(make(), V)), name).toEqual(expected);
    }
    expect(rules(validateToolResultSync(RESULTS.image?.(), V))).toEqual([
      'block-mime-type-wrong-family /content/0/mimeType',
    ]);
  });
});

/**
 * Live values SDK v1's server refuses though JSON.stringify writes them as the schema asks: its
 * CallToolResultSchema parse reads the live value, and a result that fails it is answered with error
 * -32602 in its place. Each is held to a real McpServer: the call fails, and the validators report an
 * error; the values the server sends are judged as what the client receives.
 */
const sym = Symbol('id');
class Row {
  a = 1;
}
class Rendered {
  toJSON() {
    return { type: 'text', text: 'rendered' };
  }
}
const text = (extra: Record<string, unknown>) => ({ content: [{ type: 'text', text: 'hi', ...extra }] });
const LIVE: Record<string, () => unknown> = {
  boxedText: () => ({ content: [{ type: 'text', text: new String('hi') }] }),
  dateText: () => ({ content: [{ type: 'text', text: new Date(0) }] }),
  boxedType: () => ({ content: [{ type: new String('text'), text: 'hi' }] }),
  dateLastModified: () => text({ annotations: { lastModified: new Date(0) } }),
  boxedPriority: () => text({ annotations: { priority: new Number(0.5) } }),
  boxedAudience: () => text({ annotations: { audience: [new String('user')] } }),
  boxedIsError: () => ({ ...text({}), isError: new Boolean(false) }),
  toJSONBlock: () => ({ content: [new Rendered()] }),
  toJSONContent: () => ({ content: { toJSON: () => [{ type: 'text', text: 'x' }] } }),
  mapStructured: () => ({ ...text({}), structuredContent: new Map([['a', 1]]) }),
  classStructured: () => ({ content: [{ type: 'text', text: '{"a":1}' }], structuredContent: new Row() }),
  symbolStructured: () => ({ content: [{ type: 'text', text: '{}' }], structuredContent: { [sym]: 1 } }),
  mapBlockMeta: () => text({ _meta: new Map() }),
  symbolBlockMeta: () => text({ _meta: { [sym]: 1 } }),
  boxedUri: () => ({ content: [{ type: 'resource_link', uri: new String('file:///a'), name: 'a' }] }),
  boxedSize: () => ({
    content: [{ type: 'resource_link', uri: 'file:///a', name: 'a', size: new Number(3) }],
  }),
  boxedIconSize: () => ({
    content: [
      {
        type: 'resource_link',
        uri: 'file:///a',
        name: 'a',
        icons: [{ src: 'https://x/a.png', sizes: [new String('48x48')] }],
      },
    ],
  }),
  boxedBlob: () => ({
    content: [{ type: 'resource', resource: { uri: 'file:///a', blob: new String('aGk=') } }],
  }),
  mapResourceMeta: () => ({
    content: [{ type: 'resource', resource: { uri: 'file:///a', text: 'a', _meta: new Map() } }],
  }),
  boxedData: () => ({
    content: [{ type: 'image', data: new String('iVBORw0KGgo='), mimeType: 'image/png' }],
  }),
};
/** Live values the server sends: symbols, functions and a Map where JSON's `{}` is taken, a nested Date. */
const SENT: Record<string, () => unknown> = {
  symbolInBlock: () => text({ [sym]: 1 }),
  symbolInResult: () => ({ ...text({}), [sym]: 1 }),
  mapLinkMeta: () => ({
    content: [{ type: 'resource_link', uri: 'file:///a', name: 'a', _meta: new Map() }],
  }),
  mapAnnotations: () => text({ annotations: new Map() }),
  nestedDate: () => ({
    content: [{ type: 'text', text: '{"d":"1970-01-01T00:00:00.000Z"}' }],
    structuredContent: { d: new Date(0) },
  }),
  nullPrototype: () => ({ ...text({}), structuredContent: Object.assign(Object.create(null), { a: 1 }) }),
};

describe('a live value the SDK v1 server refuses', () => {
  it('fails the call, and the validators report an error where JSON alone would pass', async () => {
    const arrived = await called(LIVE);
    for (const [name, make] of Object.entries(LIVE)) {
      expect(arrived[name], name).toEqual({ refused: expect.stringContaining('Invalid tools/call result') });
      const findings = validateToolResultSync(make(), V);
      expect(findings.filter((f) => f.severity === 'error').length, name).toBeGreaterThan(0);
      expect(rules(await validateToolResult(make(), V)), name).toEqual(rules(findings));
    }
    expect(rules(validateToolResultSync(LIVE.dateLastModified?.(), V))).toEqual([
      'result-value-refused-by-sdk /content/0/annotations/lastModified',
    ]);
    expect(validateToolResultSync(LIVE.boxedText?.(), V)[0]?.message).toContain(
      'a String object (new String)',
    );
    expect(rules(validateToolResultSync(LIVE.toJSONBlock?.(), V))).toEqual([
      'block-type-unknown /content/0/type',
    ]);
  });

  it('that the server sends is judged as what the client receives', async () => {
    const arrived = await called(SENT);
    for (const [name, make] of Object.entries(SENT)) {
      expect(arrived[name], name).not.toHaveProperty('refused');
      expect(rules(validateToolResultSync(make(), V)), name).toEqual(
        rules(validateToolResultSync(arrived[name], V)),
      );
    }
  });
});

/**
 * McpServer checks structuredContent against a tool's outputSchema before sending, as the live value:
 * a Date where the schema asks for a string is refused (an isError result `Output validation error`),
 * though JSON writes its ISO string, which the schema accepts. Where the schema asks for nothing there,
 * the Date passes and is sent as its string.
 */
describe('a live value in structuredContent, against the outputSchema', () => {
  const when = () => new Date(0);
  const iso = '1970-01-01T00:00:00.000Z';
  const CASES = {
    stringDate: { schema: { d: z.string() }, value: () => ({ d: when() }), refused: true },
    nestedBoxed: {
      schema: { rows: z.array(z.object({ name: z.string() })) },
      value: () => ({ rows: [{ name: 'a' }, { name: new String('b') }] }),
      refused: true,
    },
    anyDate: { schema: { d: z.any() }, value: () => ({ d: when() }), refused: false },
    plain: { schema: { d: z.string() }, value: () => ({ d: iso }), refused: false },
  } as const;

  it('is refused where the schema refuses an object, and reported there; passes where it does not', async () => {
    const server = new McpServer({ name: 'structured', version: '1.0.0' });
    for (const [name, { schema, value }] of Object.entries(CASES)) {
      server.registerTool(name, { description: name, outputSchema: schema }, async () => {
        const structuredContent = value();
        return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent };
      });
    }
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'c', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      const { tools } = await client.listTools();
      for (const [name, { value, refused }] of Object.entries(CASES)) {
        const got = await client.callTool({ name, arguments: {} });
        const tool = tools.find((t) => t.name === name);
        const result = {
          content: [{ type: 'text', text: JSON.stringify(value()) }],
          structuredContent: value(),
        };
        const findings = rules(validateToolResultSync(result, { ...V, tool }));
        expect(findings, name).toEqual(rules(await validateToolResult(result, { ...V, tool })));
        if (refused) {
          expect(got.isError, name).toBe(true);
          expect(JSON.stringify(got.content), name).toContain('Output validation error');
          expect(findings, name).toEqual([
            `result-value-refused-by-sdk /structuredContent/${name === 'stringDate' ? 'd' : 'rows/1/name'}`,
          ]);
        } else {
          expect(got.isError, name).toBeUndefined();
          expect(findings, name).toEqual([]);
        }
      }
    } finally {
      await client.close();
    }
  });
});
