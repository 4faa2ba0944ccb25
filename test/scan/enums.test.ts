/**
 * A TypeScript `enum` is an object at run time, which the scan took for a type: `type: Kind.Text`
 * was "known only at run time", so a block typed by an enum was never proven, and one of a wrong
 * type (`Kind.Json`, a numeric member as `text`) never reported.
 */

import { describe, expect, it } from 'vitest';
import { judged } from './judged.js';

const server = (block: string, enums = "enum Kind { Text = 'text', Json = 'json' }") =>
  `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
${enums}
server.registerTool('t', {}, async () => ({ content: [${block}] }));
`;

describe('enums', () => {
  it.each<[string, string, string?]>([
    ['a string member', "{ type: Kind.Text, text: 'x' }"],
    ['a const enum member', "{ type: Mode.Text, text: 'x' }", "const enum Mode { Text = 'text' }"],
    ['a numeric member by its name', "{ type: 'text', text: Level[Level.High] }", 'enum Level { Low, High }'],
  ])('%s that is valid: typed', async (_, block, enums) => {
    expect(await judged('server.ts', server(block, enums))).toEqual(['typed']);
  });

  it.each<[string, string, string, string?]>([
    ['a string member of another type', "{ type: Kind.Json, text: 'x' }", 'block-type-unknown'],
    [
      'a numeric member as text',
      "{ type: 'text', text: Level.High }",
      'block-text-invalid',
      'enum Level { Low, High = 5 }',
    ],
  ])('%s: an error', async (_, block, rule, enums) => {
    expect(await judged('server.ts', server(block, enums))).toEqual(['invalid', rule]);
  });

  it('a declared enum has no object the source shows: not proven', async () => {
    expect(
      await judged(
        'server.ts',
        server("{ type: Kind.Text, text: 'x' }", "declare enum Kind { Text = 'text' }"),
      ),
    ).toEqual(['unresolved']);
  });
});
