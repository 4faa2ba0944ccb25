/**
 * A function a handler passes to code outside the project (a library's `each`, a Promise's executor,
 * a stream's `on`) may be called there, and what it does to the values it closes over shows in the
 * result. The scan once dropped such a callback, so a block it pushed onto the returned list was never
 * judged: `_.forEach(rows, (r) => content.push({ type: 'row', … }))` was typed.
 */

import { describe, expect, it } from 'vitest';
import { judged } from './judged.js';

const server = (body: string) => `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import _ from 'lodash';
import { spawn } from 'node:child_process';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('t', { inputSchema: { rows: z.array(z.string()) } }, async ({ rows }) => {
  const content: any[] = [];
  ${body}
  return { content };
});
`;

const verdict = (body: string) => judged('server.ts', server(body));

describe('callbacks given to code outside the project', () => {
  it.each([
    ["a library's iteration", "_.forEach(rows, (r) => content.push({ type: 'row', text: r }));"],
    [
      "a Promise's executor",
      "await new Promise<void>((resolve) => {\n    content.push({ type: 'row', text: 'x' });\n    resolve();\n  });",
    ],
    [
      "a stream's listener",
      "const child = spawn('ls');\n  child.stdout.on('data', (chunk) => content.push({ type: 'row', text: String(chunk) }));\n  await new Promise((r) => child.on('close', r));",
    ],
  ])('%s that pushes a bad block: an error', async (_, body) => {
    expect(await verdict(body)).toEqual(['invalid', 'block-type-unknown']);
  });

  it.each([
    ["a library's iteration", "_.forEach(rows, (r) => content.push({ type: 'text', text: String(r) }));"],
    [
      "a stream's listener",
      "const child = spawn('ls');\n  child.stdout.on('data', (chunk) => content.push({ type: 'text', text: String(chunk) }));\n  await new Promise((r) => child.on('close', r));",
    ],
    ['a timer', "content.push({ type: 'text', text: 'a' });\n  await new Promise((r) => setTimeout(r, 10));"],
  ])('%s, where only good blocks are pushed: typed', async (_, body) => {
    expect(await verdict(body)).toEqual(['typed']);
  });
});

/**
 * Functions that set a member of the object they are given (`Object.defineProperty`, `Reflect.set`,
 * lodash's `_.set`) were taken as pure (`set` as a Map's), so the block they changed was judged as
 * written and typed.
 */
describe('members set by a function', () => {
  it.each([
    ['Object.defineProperty', "Object.defineProperty(b, 'type', { value: 'row', enumerable: true });"],
    ['Reflect.set', "Reflect.set(b, 'type', 'row');"],
    ['lodash set', "_.set(b, 'type', 'row');"],
  ])('%s may change any member: not proven', async (_, line) => {
    expect(
      await verdict(`const b: any = { type: 'text', text: 'x' };\n  ${line}\n  content.push(b);`),
    ).toEqual(['unresolved']);
  });

  it("a Map's set changes the map alone: typed", async () => {
    expect(
      await verdict(
        "const b = { type: 'text' as const, text: 'x' };\n  const seen = new Map();\n  seen.set('b', b);\n  content.push(b);",
      ),
    ).toEqual(['typed']);
  });
});

describe('Python: callbacks given to code outside the project', () => {
  const low = (body: string) => `import asyncio
import somelib
from mcp.server.lowlevel import Server

server = Server("demo")


@server.call_tool()
async def call(name: str, arguments: dict):
    content = []
    ${body}
    return content
`;

  it.each([
    [
      "a library's iteration",
      'somelib.each(arguments["rows"], lambda r: content.append({"type": "row", "text": r}))',
    ],
    ['a thread', 'await asyncio.to_thread(lambda: content.append({"type": "row", "text": "x"}))'],
    [
      'an executor, given a function by name',
      'def add(r):\n        content.append({"type": "row", "text": str(r)})\n\n    await asyncio.get_running_loop().run_in_executor(None, add, 1)',
    ],
  ])('%s that appends a bad block: an error', async (_, body) => {
    expect(await judged('server.py', low(body))).toEqual(['invalid', 'block-type-unknown']);
  });

  it('a thread that appends a good block: typed', async () => {
    expect(
      await judged(
        'server.py',
        low('await asyncio.to_thread(lambda: content.append({"type": "text", "text": "x"}))'),
      ),
    ).toEqual(['typed']);
  });
});
