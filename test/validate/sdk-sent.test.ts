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

async function received(): Promise<Record<string, unknown>> {
  const server = new McpServer({ name: 'getters', version: '1.0.0' });
  for (const [name, make] of Object.entries(RESULTS)) {
    server.registerTool(name, { description: name }, async () => make() as never);
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'c', version: '1.0.0' });
  await client.connect(clientSide);
  const out: Record<string, unknown> = {};
  try {
    for (const name of Object.keys(RESULTS)) out[name] = await client.callTool({ name, arguments: {} });
  } finally {
    await client.close();
  }
  return out;
}

const rules = (findings: readonly { rule: string; pointer: string }[]) =>
  findings.map((f) => `${f.rule} ${f.pointer}`);

describe('a class instance in a tool result', () => {
  it('is judged as the SDK server sends it, its getters read: the findings of what the client receives', async () => {
    const arrived = await received();
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
