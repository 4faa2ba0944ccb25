/**
 * `a + b` of two numbers known only by their type (arguments the inputSchema makes numbers,
 * `Number(x)`) is a number: `text: a + b` is a number where a string must be, an error by its type
 * alone. It was left unresolved, "known only at run time".
 */

import { describe, expect, it } from 'vitest';
import { judged } from './judged.js';

const server = (text: string) => `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('t', { inputSchema: { a: z.number(), b: z.number(), s: z.string() } }, async ({ a, b, s }) => ({
  content: [{ type: 'text', text: ${text} }],
}));
`;

describe('+', () => {
  it.each([
    ['two number arguments', 'a + b'],
    ['Number() of a string and a number', 'Number(s) + a'],
  ])('of %s is a number: an error', async (_, text) => {
    expect(await judged('server.ts', server(text))).toEqual(['invalid', 'block-text-invalid']);
  });

  it.each([
    ['a string and a number', 's + a'],
    ['String() of a sum', 'String(a + b)'],
  ])('of %s is a string: typed', async (_, text) => {
    expect(await judged('server.ts', server(text))).toEqual(['typed']);
  });
});
