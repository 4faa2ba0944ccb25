/**
 * Expressions that give `undefined` on some path, which JSON leaves out: a text block built from one
 * is sent without `text`. An optional chain (`q?.trim()`, `a?.b.c()`, `f?.()`) is `undefined` as a
 * whole where an optional link finds its object nullish; the scan once called the method on
 * `undefined` as on a value from outside the project, and the chain was a string: typed.
 */

import { describe, expect, it } from 'vitest';
import { judged } from './judged.js';

const server = (body: string) => `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
const server = new McpServer({ name: 's', version: '1' });
const rows = [{ id: 1, name: 'a' }, { id: 2, name: 'b' }];
const fmt: ((s: string) => string) | undefined = Math.random() > 0.5 ? (s: string) => s : undefined;
server.registerTool('t', { inputSchema: { q: z.string().optional(), r: z.string(), id: z.number() } }, async ({ q, r, id }) => {
  ${body}
});
`;

const verdict = (body: string) => judged('server.ts', server(body));

describe('optional chains', () => {
  it.each([
    [
      'a method called through ?. on what a lookup may not find',
      "return { content: [{ type: 'text', text: rows.find((row) => row.id === id)?.name.trim() }] };",
    ],
    ['an optional call of what may be undefined', "return { content: [{ type: 'text', text: fmt?.(r) }] };"],
  ])('%s may give undefined: an error', async (_, body) => {
    expect(await verdict(body)).toEqual(['invalid', 'block-text-invalid']);
  });

  it.each([
    ['a method called through ?.', "return { content: [{ type: 'text', text: q?.toUpperCase() }] };"],
    [
      'a chain going on past the optional link',
      "return { content: [{ type: 'text', text: q?.trim().toUpperCase() }] };",
    ],
  ])('%s on an argument the client may leave out: not proven', async (_, body) => {
    expect(await verdict(body)).toEqual(['unresolved']);
  });

  it.each([
    [
      'a default after the chain',
      "return { content: [{ type: 'text', text: q?.toUpperCase() ?? 'none' }] };",
    ],
    [
      'a chain on a value that is never nullish',
      "return { content: [{ type: 'text', text: r?.trim().toUpperCase() }] };",
    ],
    [
      'a chain under a test',
      "if (q) return { content: [{ type: 'text', text: q?.trim() }] };\n  return { content: [] };",
    ],
  ])('%s: typed', async (_, body) => {
    expect(new Set(await verdict(body))).toEqual(new Set(['typed']));
  });
});

describe('JSON.stringify', () => {
  it.each([
    [
      'of what a lookup may not find',
      "return { content: [{ type: 'text', text: JSON.stringify(rows.find((row) => row.id === id)) }] };",
    ],
    ['of a function', "return { content: [{ type: 'text', text: JSON.stringify(() => r) }] };"],
    [
      'of an argument or undefined',
      "return { content: [{ type: 'text', text: JSON.stringify(id > 1 ? r : undefined) }] };",
    ],
    [
      'with a replacer, of what may be undefined',
      "return { content: [{ type: 'text', text: JSON.stringify(rows.find((row) => row.id === id), null, 2) }] };",
    ],
  ])('%s gives undefined: an error', async (_, body) => {
    expect(await verdict(body)).toEqual(['invalid', 'block-text-invalid']);
  });

  it('of an argument the client may leave out: not proven', async () => {
    expect(await verdict("return { content: [{ type: 'text', text: JSON.stringify(q) }] };")).toEqual([
      'unresolved',
    ]);
  });

  it.each([
    ['of a string', "return { content: [{ type: 'text', text: JSON.stringify(r) }] };"],
    [
      'of a lookup with a default',
      "return { content: [{ type: 'text', text: JSON.stringify(rows.find((row) => row.id === id) ?? null) }] };",
    ],
  ])('%s: typed', async (_, body) => {
    expect(new Set(await verdict(body))).toEqual(new Set(['typed']));
  });
});
