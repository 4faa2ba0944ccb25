/**
 * What TypeScript types `any` passes every declared type: `await res.json()` (Response.json returns
 * Promise<any>), `JSON.parse(s)`, `x as any`, and their members. A `Promise<CallToolResult>` was the
 * proof of such a value ("typed by declaration"), so `text: data.temperature`, a number at run time,
 * passed the verdict. No declaration proves it now: it is unresolved, as any value known only at run
 * time; what the source makes of it (`String(data.temperature)`) is proven as before.
 */

import { describe, expect, it } from 'vitest';
import { scanSource } from '../../src/scan/index.js';

const server = (returned: string) => `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, type CallToolResult, type TextContent } from '@modelcontextprotocol/sdk/types.js';
import { lookup } from 'some-store';
const server = new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } });
server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
  const res = await fetch('https://api.example.com/x');
  const data = await res.json();
  const known: TextContent = await lookup();
  return ${returned};
});
`;

async function judged(returned: string) {
  const file = await scanSource('server.ts', server(returned));
  const returns = file.handlers.flatMap((h) => h.returns);
  return {
    statuses: returns.map((r) => r.status),
    reasons: returns.map((r) => r.reason ?? ''),
    byDeclaration: returns.map((r) => r.byDeclaration === true),
    errors: file.findings.filter((f) => f.severity === 'error').map((f) => f.rule),
  };
}

describe('a value TypeScript types `any` under a declared result type', () => {
  it.each([
    ['a member of res.json()', "{ content: [{ type: 'text', text: data.temperature }] }", 'data.temperature'],
    ['a member read deeper', "{ content: [{ type: 'text', text: data.main.temp }] }", 'data.main.temp'],
    ['res.json() itself', 'await res.json()', 'res.json()'],
    ['x as any', "{ content: [{ type: 'text', text: (known.text as any) }] }", 'known.text'],
    [
      'JSON.parse as structuredContent (it may be an array)',
      "{ content: [{ type: 'text', text: 'ok' }], structuredContent: JSON.parse(known.text) }",
      'JSON.parse(known.text)',
    ],
  ])('%s: unresolved, not typed by declaration', async (_, returned, named) => {
    const { statuses, reasons, errors } = await judged(returned);
    expect(errors).toEqual([]);
    expect(statuses).toEqual(['unresolved']);
    expect(reasons[0]).toContain(named);
    expect(reasons[0]).toContain('TypeScript types it any, which no declared type checks');
  });

  it.each([
    ['made a string', "{ content: [{ type: 'text', text: String(data.temperature) }] }"],
    ['joined to text', "{ content: [{ type: 'text', text: data.temperature + ' °C' }] }"],
  ])('%s: typed', async (_, returned) => {
    const { statuses, byDeclaration, errors } = await judged(returned);
    expect(errors).toEqual([]);
    expect(statuses).toEqual(['typed']);
    expect(byDeclaration).toEqual([false]);
  });

  it.each([
    ['given a type', "{ content: [{ type: 'text', text: (data as { temp: string }).temp }] }"],
    [
      'through satisfies, which keeps it any',
      "{ content: [{ type: 'text', text: data.temp satisfies string }] }",
    ],
  ])('%s', async (name, returned) => {
    const { statuses, byDeclaration } = await judged(returned);
    const typed = name === 'given a type';
    expect(statuses).toEqual([typed ? 'typed' : 'unresolved']);
    expect(byDeclaration).toEqual([typed]);
  });

  it('a parameter declared any: unresolved, not typed by declaration', async () => {
    const source = server('{ content: [] }').replace(
      'async (request): Promise<CallToolResult> => {',
      "async (request: any): Promise<CallToolResult> => {\n  return { content: [{ type: 'text', text: request.params.arguments.count }] };",
    );
    const file = await scanSource('server.ts', source);
    const [first] = file.handlers.flatMap((h) => h.returns);
    expect(first).toMatchObject({ status: 'unresolved' });
    expect(first?.reason).toContain('request.params.arguments.count');
  });

  it('a value of a declared type the compiler checked is still proven by it', async () => {
    const { statuses, byDeclaration } = await judged(
      "{ content: [known, { type: 'text', text: known.text }] }",
    );
    expect(statuses).toEqual(['typed']);
    expect(byDeclaration).toEqual([true]);
  });
});
