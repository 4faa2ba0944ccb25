/**
 * Array methods that take items out of an array the source writes out item by item (`slice`, `splice`,
 * `shift`, `pop`, `length = n`, `at(i)`, `items[items.length - 1]`) are followed item by item: a block
 * they remove never reaches the client, and was reported as if it did. Where the array may be another
 * one, or the removal may not happen, every item it may hold is still judged.
 */

import { describe, expect, it } from 'vitest';
import { scanSource } from '../../src/scan/index.js';

const MD = "{ type: 'markdown', text: p }";
const TEXT = "{ type: 'text', text: p }";

async function judged(body: string): Promise<string[]> {
  const file = await scanSource(
    'server.ts',
    `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('t', { inputSchema: { p: z.string(), items: z.array(z.string()) } }, async ({ p, items }) => {
  const c: any[] = ${body.split('\n')[0]};
  ${body.split('\n').slice(1).join('\n  ')}
});
`,
  );
  return [
    ...file.handlers.flatMap((h) => h.returns.map((r) => r.status)),
    ...file.findings.map((f) => f.rule),
  ];
}

describe('array methods that remove items', () => {
  it.each([
    ['slice', `[${MD}, ${TEXT}]\nreturn { content: c.slice(1) };`],
    ['slice from the end', `[${MD}, ${TEXT}]\nreturn { content: c.slice(-1) };`],
    ['splice', `[${TEXT}, ${MD}]\nc.splice(1, 1);\nreturn { content: c };`],
    ['splice inserting', `[${MD}]\nc.splice(0, 1, ${TEXT});\nreturn { content: c };`],
    ['shift', `[${MD}, ${TEXT}]\nc.shift();\nreturn { content: c };`],
    ['pop', `[${TEXT}, ${MD}]\nc.pop();\nreturn { content: c };`],
    ['length = 0', `[${MD}]\nc.length = 0;\nc.push(${TEXT});\nreturn { content: c };`],
    ['the last item by index', `[${TEXT}, ${TEXT}]\nreturn { content: [c[c.length - 1]] };`],
    ['at(-1) and at(0)', `[${TEXT}, ${TEXT}]\nreturn { content: [c.at(-1), c.at(0)] };`],
    [
      'flatMap',
      `[]\nreturn { content: items.flatMap((i) => [{ type: 'text', text: i }, { type: 'text', text: i + '!' }]) };`,
    ],
  ])('%s: what is left is judged, and it is typed', async (_, body) => {
    expect(await judged(body)).toEqual(['typed']);
  });

  it.each([
    ['the item pop gives', `[${TEXT}, ${MD}]\nreturn { content: [c.pop()] };`],
    ['what slice keeps', `[${MD}, ${TEXT}]\nreturn { content: c.slice(-2, 1) };`],
    ['what splice removes', `[${TEXT}, ${MD}]\nreturn { content: c.splice(1) };`],
    ['a removal in one branch', `[${MD}, ${TEXT}]\nif (p.length > 3) c.shift();\nreturn { content: c };`],
    [
      'a removal from an array that may be another',
      `[${MD}, ${TEXT}]\nconst d = p ? c : [];\nd.shift();\nreturn { content: c };`,
    ],
    [
      'a block in what flatMap gives',
      `[]\nreturn { content: items.flatMap((i) => [{ type: 'text', text: i }, { type: 'markdown', text: i }]) };`,
    ],
  ])('%s: still reported', async (_, body) => {
    expect(await judged(body)).toEqual(['invalid', 'block-type-unknown']);
  });
});
