/**
 * A tool's outputSchema, read from the zod shape given to `registerTool` (src/scan/js/zod.ts): the
 * SDK's McpServer validates structuredContent against it before sending, so a return that breaks it
 * fails the call for every client. The model of zod is never stricter than zod: refinements are left
 * out, and a schema it does not know is not checked at all.
 */

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scanPaths } from '../../src/scan/index.js';

const scratch = mkdtempSync(join(tmpdir(), 'mcp-shape-output-schema-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Scans one file; the error findings as `rule line`. */
async function scanFile(name: string, source: string) {
  const dir = mkdtempSync(join(scratch, 'src-'));
  writeFileSync(join(dir, name), source);
  const { verdict, report } = await scanPaths([dir], { cwd: dir });
  const errors = report.findings
    .filter((f) => f.severity === 'error')
    .map((f) => `${f.rule} ${f.location?.line}`);
  return { verdict, report, errors };
}

/** One tool whose handler returns `structured` (mirrored in a text block) on line 6. */
async function scan(outputSchema: string, structured: string, setup = '', inputSchema?: string) {
  const dir = mkdtempSync(join(scratch, 'src-'));
  writeFileSync(
    join(dir, 'server.ts'),
    `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
const server = new McpServer({ name: 's', version: '1' });
${setup}server.registerTool('t', { ${inputSchema ? `inputSchema: ${inputSchema}, ` : ''}outputSchema: ${outputSchema} }, async (args) => {
  const structuredContent = ${structured};
  return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent };
});
`,
  );
  const { verdict, report } = await scanPaths([dir], { cwd: dir });
  const errors = report.findings
    .filter((f) => f.severity === 'error')
    .map((f) => `${f.rule} ${f.pointer} ${f.location?.line}:${f.location?.column}`);
  return { verdict, errors };
}

describe('structuredContent against the zod outputSchema of registerTool', () => {
  it('a member of the wrong type is an error at its literal, and the return is invalid', async () => {
    const { verdict, errors } = await scan(
      '{ temperature: z.number(), city: z.string().describe("where") }',
      `{ temperature: 'warm', city: 'Oslo' }`,
    );
    expect(errors).toEqual(['structured-content-schema-mismatch /structuredContent/temperature 5:44']);
    expect(verdict).toMatchObject({ status: 'fail', invalid: 1 });
  });

  it('a missing required member, an enum, a literal, an integer, nested arrays and objects', async () => {
    const schema = `{
  id: z.number().int(),
  kind: z.literal('point'),
  tags: z.array(z.enum(['a', 'b'])),
  owner: z.object({ name: z.string(), email: z.string().email().optional() }),
}`;
    const good = await scan(schema, `{ id: 1, kind: 'point', tags: ['a'], owner: { name: 'x' } }`);
    expect(good.errors).toEqual([]);
    expect(good.verdict).toMatchObject({ status: 'pass', typed: 1 });
    const bad = await scan(schema, `{ id: 1.5, kind: 'line', tags: ['c'], owner: {} }`);
    expect(bad.errors.map((e) => e.split(' ').slice(0, 2).join(' '))).toEqual([
      'structured-content-schema-mismatch /structuredContent/id',
      'structured-content-schema-mismatch /structuredContent/kind',
      'structured-content-schema-mismatch /structuredContent/tags/0',
      'structured-content-schema-mismatch /structuredContent/owner',
    ]);
  });

  it('a zod object, its .shape, .extend, .partial, optional, nullable and default members', async () => {
    const setup = `const Base = z.object({ a: z.string(), b: z.number().nullable() });\n`;
    for (const schema of ['Base', 'Base.shape', 'Base.extend({ c: z.boolean().optional() })']) {
      const { errors } = await scan(schema, `{ a: 'x', b: null }`, setup);
      expect(errors, schema).toEqual([]);
      const wrong = await scan(schema, `{ a: 1, b: null }`, setup);
      expect(wrong.errors, schema).toEqual(['structured-content-schema-mismatch /structuredContent/a 6:34']);
    }
    const partial = await scan('Base.partial()', '{}', setup);
    expect(partial.errors).toEqual([]);
  });

  it('holds structuredContent to the schema McpServer lists, which the SDK client checks', async () => {
    // zod strips a member an object does not list, but the listed schema says additionalProperties:
    // false, and the client rejects the call (SDK 1.32: "data must NOT have additional properties").
    const extra = await scan('{ n: z.number() }', `{ n: 1, extra: 'x' }`);
    expect(extra.errors).toEqual(['structured-content-schema-mismatch /structuredContent 5:29']);
    const nested = await scan('{ a: z.object({ b: z.string() }) }', `{ a: { b: 'x', c: 1 } }`);
    expect(nested.errors).toEqual(['structured-content-schema-mismatch /structuredContent/a 5:34']);
    // A member with a default is always in zod's output, so the listed schema requires it.
    const defaulted = await scan(`{ r: z.string().default('x') }`, '{}');
    expect(defaulted.errors).toEqual(['structured-content-schema-mismatch /structuredContent 5:29']);
    // Open objects take any other member; optional members may be left out.
    for (const open of [
      'z.object({ n: z.number() }).passthrough()',
      'z.object({ n: z.number() }).loose()',
      'z.looseObject({ n: z.number() })',
      'z.object({ n: z.number() }).catchall(z.string())',
    ]) {
      expect((await scan(open, `{ n: 1, extra: 'x' }`)).errors, open).toEqual([]);
    }
    const wrongCatchall = await scan(
      'z.object({ n: z.number() }).catchall(z.string())',
      '{ n: 1, extra: 2 }',
    );
    expect(wrongCatchall.errors).toEqual([
      'structured-content-schema-mismatch /structuredContent/extra 5:44',
    ]);
    expect((await scan(`{ n: z.number(), o: z.string().optional() }`, '{ n: 1 }')).errors).toEqual([]);
    expect((await scan(`{ r: z.string().default('x').optional() }`, '{}')).errors).toEqual([]);
  });

  it('NaN and the infinities are sent as the null JSON writes for them', async () => {
    for (const value of ['NaN', 'Infinity', '0 / 0', '-1 / 0']) {
      expect((await scan('{ r: z.number() }', `{ r: ${value} }`)).errors, value).toEqual([
        'structured-content-schema-mismatch /structuredContent/r 5:34',
      ]);
    }
    expect((await scan('{ r: z.number() }', '{ r: 6 / 3 - 1 }')).errors).toEqual([]);
    expect((await scan('{ r: z.number().nullable() }', '{ r: NaN }')).errors).toEqual([]);
  });

  it('a tool with an outputSchema must return structuredContent unless isError is true', async () => {
    const dir = mkdtempSync(join(scratch, 'src-'));
    writeFileSync(
      join(dir, 'server.ts'),
      `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('t', { outputSchema: { n: z.number() } }, async (args) => {
  if (args.fail) return { content: [{ type: 'text', text: 'failed' }], isError: true };
  return { content: [{ type: 'text', text: 'no data' }] };
});
`,
    );
    const { verdict, report } = await scanPaths([dir], { cwd: dir });
    expect(report.findings.map((f) => `${f.rule} ${f.location?.line}`)).toEqual([
      'structured-content-missing-for-output-schema 6',
    ]);
    expect(verdict).toMatchObject({ status: 'fail', returns: 2, typed: 1, invalid: 1 });
  });

  it('refinements are not modelled: no error for what only a refinement rejects, and no proof either', async () => {
    const { errors, verdict } = await scan(
      '{ name: z.string().min(5).regex(/^[A-Z]/), n: z.number().positive().max(3) }',
      `{ name: 'ab', n: -7 }`,
    );
    expect(errors).toEqual([]);
    // zod rejects both values, so McpServer fails the call: never "typed".
    expect(verdict).toMatchObject({ status: 'fail', typed: 0, unresolved: 1 });
    expect(verdict.unproven[0]).toContain(
      "structuredContent/name is checked by .regex(), which the analysis does not model, so it is not shown to match the tool's outputSchema",
    );
  });

  it('a refinement proves nothing only where a value meets it: an absent optional member is fine', async () => {
    const schema =
      '{ name: z.string(), email: z.string().email().optional(), tags: z.array(z.string().min(1)) }';
    const absent = await scan(schema, `{ name: 'x', tags: [] }`);
    expect(absent.verdict).toMatchObject({ status: 'pass', typed: 1 });
    const present = await scan(schema, `{ name: 'x', tags: ['a'] }`);
    expect(present.verdict).toMatchObject({ typed: 0, unresolved: 1 });
    expect(present.verdict.unproven[0]).toContain('structuredContent/tags/0 is checked by .min()');
    const email = await scan('{ email: z.email() }', `{ email: 'a@b.c' }`);
    expect(email.verdict).toMatchObject({ typed: 0, unresolved: 1 });
  });

  it('a schema the model does not know proves nothing, and neither does a config it cannot see', async () => {
    for (const schema of ['{ n: z.lazy(() => z.number()) }', 'args.schema']) {
      const { verdict } = await scan(schema, `{ n: 1 }`);
      expect(verdict, schema).toMatchObject({ typed: 0, unresolved: 1 });
      expect(verdict.unproven[0], schema).toContain("the tool's outputSchema is not known statically");
    }
    const dir = mkdtempSync(join(scratch, 'src-'));
    writeFileSync(
      join(dir, 'server.ts'),
      `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
export function register(config: object) {
  server.registerTool('t', config, async () => ({ content: [{ type: 'text', text: 'hi' }] }));
}
`,
    );
    const { verdict } = await scanPaths([dir], { cwd: dir });
    expect(verdict).toMatchObject({ typed: 0, unresolved: 1 });
    expect(verdict.unproven[0]).toContain(
      "the tool's config is not known statically, and may declare an outputSchema",
    );
  });

  it('an unknown part of structuredContent is proven only where the schema asks for its JSON type alone', async () => {
    const typed = await scan(
      '{ n: z.number(), s: z.string(), any: z.unknown() }',
      `{ n: args.n, s: args.s, any: args.x }`,
      '',
      '{ n: z.number(), s: z.string(), x: z.unknown() }',
    );
    expect(typed.verdict).toMatchObject({ status: 'pass', typed: 1 });
    const wider = await scan('{ n: z.number().int() }', `{ n: args.n }`, '', '{ n: z.number() }');
    expect(wider.verdict).toMatchObject({ typed: 0, unresolved: 1 });
    const literal = await scan(`{ kind: z.literal('a') }`, `{ kind: args.k }`, '', '{ k: z.string() }');
    expect(literal.verdict).toMatchObject({ typed: 0, unresolved: 1 });
    expect(literal.verdict.unproven[0]).toContain('structuredContent/kind is');
  });

  it('an unknown of a JSON type the schema refuses by its type alone is a mismatch, at its container', async () => {
    const input = '{ n: z.number(), extra: z.record(z.string(), z.unknown()) }';
    const counted = await scan('{ n: z.number() }', '{ n: String(args.n) }', '', input);
    expect(counted.errors).toEqual(['structured-content-schema-mismatch /structuredContent/n 5:29']);
    expect(counted.verdict).toMatchObject({ status: 'fail', invalid: 1 });
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the scanned source holds a template literal
    const flagged = await scan('{ on: z.boolean() }', '{ on: `${args.n}` }', '', input);
    expect(flagged.errors).toEqual(['structured-content-schema-mismatch /structuredContent/on 5:29']);
    const nested = await scan(
      '{ rows: z.array(z.object({ id: z.string() })) }',
      '{ rows: [{ id: args.n * 2 }] }',
      '',
      input,
    );
    expect(nested.errors).toEqual(['structured-content-schema-mismatch /structuredContent/rows/0/id 5:38']);
    // Not where the type alone does not decide: a union, a member that a spread may replace, or a type
    // the schema allows (an unknown number may be an integer).
    for (const [schema, structured] of [
      ['{ n: z.union([z.number(), z.boolean()]) }', '{ n: String(args.n) }'],
      ['{ n: z.number() }', '{ n: String(args.n), ...args.extra }'],
      ['{ n: z.number().int() }', '{ n: args.n * 2 }'],
      // NaN is written as null; a Date, as a string.
      ['{ n: z.null() }', '{ n: args.n * 2 }'],
      ['{ when: z.string() }', '{ when: new Date() }'],
    ]) {
      const { errors, verdict } = await scan(schema as string, structured as string, '', input);
      expect(errors, schema).toEqual([]);
      expect(verdict.invalid, schema).toBe(0);
    }
  });

  it('a schema the model does not know is not checked', async () => {
    for (const schema of [
      '{ n: z.number().catch(0) }',
      '{ n: z.custom((v) => true) }',
      '{ n: z.lazy(() => z.number()) }',
      'args.schema',
      '{ ...args.shape, n: z.number() }',
    ]) {
      const { errors } = await scan(schema, `{ n: 'not a number' }`);
      expect(errors, schema).toEqual([]);
    }
  });

  it('values known only at run time are never a mismatch, even beside a union that fails', async () => {
    const schema = `{ items: z.array(z.union([z.object({ type: z.literal('a'), v: z.string() }), z.object({ type: z.literal('b'), n: z.number() })])) }`;
    const { errors } = await scan(schema, `{ items: [{ type: 'a', v: args.v }] }`);
    expect(errors).toEqual([]);
    const { errors: certain } = await scan(schema, `{ items: [{ type: 'a', v: 3 }] }`);
    expect(certain.length).toBeGreaterThan(0);
    expect(
      certain.every((e) => e.startsWith('structured-content-schema-mismatch /structuredContent/items/0')),
    ).toBe(true);
  });
});

describe('a switch without default over an input', () => {
  async function run(outputSchema: string, cities = 'string()') {
    const dir = mkdtempSync(join(scratch, 'src-'));
    writeFileSync(
      join(dir, 'server.ts'),
      `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('t', { inputSchema: { city: z.${cities} }${outputSchema} }, async ({ city }) => {
  let weather;
  switch (city) {
    case 'Oslo':
      weather = { temp: 3 };
      break;
    case 'Rome':
      weather = { temp: 20 };
      break;
  }
  return { content: [{ type: 'text', text: weather ? JSON.stringify(weather) : 'no weather for ' + city }], structuredContent: weather };
});
`,
    );
    return scanPaths([dir], { cwd: dir });
  }

  it('leaves a variable only maybe unset: no error; unresolved only where an outputSchema needs it', async () => {
    const plain = await run('');
    expect(plain.report.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(plain.verdict).toMatchObject({ status: 'pass', typed: 1 });
    const declared = await run(', outputSchema: { temp: z.number() }');
    expect(declared.report.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(declared.verdict).toMatchObject({ status: 'fail', typed: 0, unresolved: 1 });
    expect(declared.verdict.unproven[0]).toContain(
      "structuredContent, which the tool's outputSchema requires, is `weather` at server.ts:5 (a value that may be missing at run time)",
    );
  });

  it('over an enum of the inputSchema the switch is exhaustive: the variable is always set', async () => {
    const declared = await run(', outputSchema: { temp: z.number() }', "enum(['Oslo', 'Rome'])");
    expect(declared.report.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(declared.verdict).toMatchObject({ status: 'pass', typed: 1 });
  });
});

describe("a low-level server's tools/list handler", () => {
  const server = (
    schema: string,
    count: string,
  ) => `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
const server = new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [
    { name: 'stock', inputSchema: { type: 'object' }, outputSchema: ${schema} },
    { name: 'echo', inputSchema: { type: 'object' } },
  ],
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  switch (request.params.name) {
    case 'stock': {
      const structuredContent = { count: ${count} };
      return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent };
    }
    case 'echo':
      return { content: [{ type: 'text', text: 'hi' }] };
  }
  throw new Error('unknown tool');
});
`;
  const NUMBER = "{ type: 'object', properties: { count: { type: 'number' } }, required: ['count'] }";

  const run = (source: string) => scanFile('server.ts', source);

  it('gives each listed tool its outputSchema: the dispatch case that breaks it is an error', async () => {
    const bad = await run(server(NUMBER, "'many'"));
    expect(bad.errors).toEqual(['structured-content-schema-mismatch 13']);
    expect(bad.verdict).toMatchObject({ status: 'fail', returns: 2, typed: 1, invalid: 1 });
    const good = await run(server(NUMBER, '3'));
    expect(good.errors).toEqual([]);
    expect(good.verdict).toMatchObject({ status: 'pass', typed: 2 });
  });

  it('a schema the source does not fix is not checked', async () => {
    const { errors } = await run(server('request.params._meta', "'many'"));
    expect(errors).toEqual([]);
  });
});

describe("a Python low-level server's list_tools", () => {
  // python-sdk src/mcp/server/lowlevel/server.py, `Server.call_tool`: with a tool's outputSchema it
  // validates the structured content (jsonschema) and answers "Output validation error" as an error
  // result, also when no structured content was returned.
  const server = (stock: string) => `import mcp.types as types
from mcp.server.lowlevel import Server

server = Server("s")

@server.list_tools()
async def list_tools():
    return [
        types.Tool(name="stock", inputSchema={"type": "object"}, outputSchema={"type": "object", "properties": {"count": {"type": "number"}}, "required": ["count"]}),
        types.Tool(name="echo", inputSchema={"type": "object"}),
    ]

@server.call_tool()
async def call_tool(name, arguments):
    if name == "stock":
        return ${stock}
    if name == "echo":
        return [types.TextContent(type="text", text="hi")]
    raise ValueError(name)
`;

  const run = (source: string) => scanFile('server.py', source);

  it('a returned dict (the structured content) is checked against the listed schema', async () => {
    const bad = await run(server('{"count": "many"}'));
    expect(bad.errors).toEqual(['structured-content-schema-mismatch 16']);
    expect(bad.verdict).toMatchObject({ status: 'fail', returns: 2, typed: 1, invalid: 1 });
    const good = await run(server('{"count": 3}'));
    expect(good.errors).toEqual([]);
    expect(good.verdict).toMatchObject({ status: 'pass', typed: 2 });
  });

  it('a list of blocks is no structured content: the tool with a schema fails', async () => {
    const { errors } = await run(server('[types.TextContent(type="text", text="3")]'));
    expect(errors).toEqual(['structured-content-missing-for-output-schema 16']);
  });
});

describe('a server that checks structuredContent itself, in a version without structuredContent', () => {
  // McpServer (CallTool handler) and python-sdk's low-level `Server.call_tool` check structuredContent
  // against the outputSchema before answering, whatever version was negotiated; the TypeScript SDK's
  // low-level `Server` leaves the check to clients, which before 2025-06-18 know no outputSchema.
  const sources: Record<string, [string, string, number]> = {
    McpServer: [
      'server.ts',
      `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('t', { outputSchema: { n: z.number() } }, async () => ({
  content: [{ type: 'text', text: '{"n":"x"}' }], structuredContent: { n: 'x' } }));
`,
      5,
    ],
    'python-sdk low-level': [
      'server.py',
      `import mcp.types as types
from mcp.server.lowlevel import Server
server = Server("s")

@server.list_tools()
async def list_tools():
    return [types.Tool(name="t", inputSchema={"type": "object"}, outputSchema={"type": "object", "properties": {"n": {"type": "number"}}})]

@server.call_tool()
async def call_tool(name, arguments):
    if name == "t":
        return {"n": "x"}
    raise ValueError(name)
`,
      12,
    ],
  };

  it('still fails the tool: the mismatch is an error', async () => {
    for (const [kind, [file, source, line]] of Object.entries(sources)) {
      for (const protocolVersion of ['2024-11-05', '2025-03-26'] as const) {
        const dir = mkdtempSync(join(scratch, 'src-'));
        writeFileSync(join(dir, file), source);
        const { verdict, report } = await scanPaths([dir], { cwd: dir, protocolVersion });
        const errors = report.findings.filter((f) => f.severity === 'error');
        expect(
          errors.map((f) => `${f.rule} ${f.location?.line}`),
          `${kind} ${protocolVersion}`,
        ).toEqual([`structured-content-schema-mismatch ${line}`]);
        expect(verdict).toMatchObject({ status: 'fail', invalid: 1 });
      }
    }
  });

  it("the TypeScript SDK's low-level Server, whose clients check, is not judged by a schema they do not know", async () => {
    const dir = mkdtempSync(join(scratch, 'src-'));
    writeFileSync(
      join(dir, 'server.ts'),
      `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
const server = new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [{ name: 't', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { n: { type: 'number' } } } }],
}));
server.setRequestHandler(CallToolRequestSchema, async () => ({ content: [{ type: 'text', text: 'x' }], structuredContent: { n: 'x' } }));
`,
    );
    const { report } = await scanPaths([dir], { cwd: dir, protocolVersion: '2025-03-26' });
    expect(report.findings.filter((f) => f.rule === 'structured-content-schema-mismatch')).toEqual([]);
  });
});
