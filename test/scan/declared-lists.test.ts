/**
 * A list the source declares as blocks (`const blocks: TextContent[] = await load()`) is proven by
 * its declaration while the analysis cannot see it. The declaration once stood for the whole
 * variable, so what was pushed onto it later past the compiler (`as any`, an untyped helper) was
 * never judged: `blocks.push({ type: 'image', data: 'x' } as any)` was typed by declaration.
 */

import { describe, expect, it } from 'vitest';
import { scanSource } from '../../src/scan/index.js';

const server = (body: string) => `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { TextContent } from '@modelcontextprotocol/sdk/types.js';
import { load } from 'some-store';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('t', {}, async () => {
  const blocks: TextContent[] = await load();
  ${body}
  return { content: blocks };
});
`;

async function verdict(body: string) {
  const file = await scanSource('server.ts', server(body));
  const returns = file.handlers.flatMap((h) => h.returns);
  return {
    statuses: returns.map((r) => r.status),
    byDeclaration: returns.map((r) => r.byDeclaration === true),
    rules: file.findings.map((f) => f.rule),
  };
}

describe('a list of blocks proven by its declaration', () => {
  it('with a block of another kind pushed past the compiler: an error', async () => {
    const { statuses, rules } = await verdict("blocks.push({ type: 'markdown', text: 'x' } as any);");
    expect(statuses).toEqual(['invalid']);
    expect(rules).toEqual(['block-type-unknown']);
  });

  it.each([
    ['as it is', ''],
    ['with a valid block pushed', "blocks.push({ type: 'text', text: 'done' });"],
  ])('%s: typed by declaration', async (_, body) => {
    const { statuses, byDeclaration, rules } = await verdict(body);
    expect(statuses).toEqual(['typed']);
    expect(byDeclaration).toEqual([true]);
    expect(rules).toEqual([]);
  });
});

describe('Python: a list of blocks proven by a helper’s annotation', () => {
  const low = (line: string) => `import somelib
import mcp.types as types
from mcp.server.lowlevel import Server

server = Server("demo")


def load() -> list[types.TextContent]:
    return somelib.fetch()


@server.call_tool()
async def call(name: str, arguments: dict):
    blocks = load()
    ${line}
    return blocks
`;

  it('with a dict of another type appended: an error', async () => {
    const file = await scanSource('server.py', low('blocks.append({"type": "row", "text": "x"})'));
    expect(file.handlers.flatMap((h) => h.returns.map((r) => r.status))).toEqual(['invalid']);
    expect(file.findings.map((f) => f.rule)).toEqual(['block-type-unknown']);
  });

  it('with a block appended: typed by declaration', async () => {
    const file = await scanSource(
      'server.py',
      low('blocks.append(types.TextContent(type="text", text="x"))'),
    );
    const returns = file.handlers.flatMap((h) => h.returns);
    expect(returns.map((r) => [r.status, r.byDeclaration])).toEqual([['typed', true]]);
    expect(file.findings).toEqual([]);
  });
});
