/**
 * Calling an async function gives a Promise (in Python a coroutine), which only `await` (or `then`,
 * `Promise.all`) turns into what the function returns. A Promise nobody awaited is sent as `{}`: the
 * scan once judged it as the value it resolves to, and passed the call every client rejects.
 */

import { describe, expect, it } from 'vitest';
import { judged } from './judged.js';

const server = (body: string) => `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
const server = new McpServer({ name: 's', version: '1' });
async function label(p: string) { return 'file ' + p; }
async function block(p: string) { return { type: 'text' as const, text: p }; }
server.registerTool('t', { inputSchema: { p: z.string(), items: z.array(z.string()) } }, async ({ p, items }) => {
  ${body}
});
`;

const verdict = (body: string) => judged('server.ts', server(body));

describe('Promises', () => {
  it.each([
    [
      'text that is a Promise',
      "return { content: [{ type: 'text', text: label(p) }] };",
      'block-text-invalid',
    ],
    ['a block that is a Promise', 'return { content: [block(p)] };', 'block-type-unknown'],
    [
      'blocks mapped by an async callback, never awaited',
      "return { content: items.map(async (i) => ({ type: 'text' as const, text: i })) };",
      'block-type-unknown',
    ],
    [
      'a then callback whose Promise is sent',
      'return { content: [block(p).then((b) => b)] };',
      'block-type-unknown',
    ],
  ])('%s is sent as {}: an error', async (_, body, rule) => {
    expect(await verdict(body)).toEqual(['invalid', rule]);
  });

  it.each([
    ['await', "return { content: [{ type: 'text', text: await label(p) }] };"],
    [
      'Promise.all of an async map',
      "return { content: await Promise.all(items.map(async (i) => ({ type: 'text' as const, text: i }))) };",
    ],
    [
      'Promise.all of a list',
      'const [a, b] = await Promise.all([block(p), block(p)]);\n  return { content: [a, b] };',
    ],
    ['Promise.race', 'return { content: [await Promise.race([block(p), block(p)])] };'],
    ['then', 'return block(p).then((b) => ({ content: [b] }));'],
    [
      'catch',
      'return block(p).then((b) => ({ content: [b] })).catch(() => ({ content: [], isError: true }));',
    ],
    ['Promise.resolve', 'return Promise.resolve({ content: [await block(p)] });'],
    ['a returned Promise, which the SDK awaits', 'return block(p).then((b) => ({ content: [b] }));'],
  ])('%s gives the resolved value: typed', async (_, body) => {
    expect(await verdict(body)).toEqual(['typed']);
  });
});
