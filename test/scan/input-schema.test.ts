/**
 * A tool's inputSchema types its handler's arguments (src/scan/abstract/input-value.ts): McpServer and
 * FastMCP parse the arguments with it before the handler runs, so `text: args.text` with
 * `text: z.string()` is proven, while what the schema does not guarantee (an optional member, a
 * transformed value, the format of a `uri`) stays unresolved, never typed.
 */

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { FrozenHeap, Heap } from '../../src/scan/abstract/heap.js';
import { inputValue } from '../../src/scan/abstract/input-value.js';
import type { Site, Value, Variant } from '../../src/scan/abstract/value.js';
import { scanPaths } from '../../src/scan/index.js';
import { runs } from '../support/runs.js';

const scratch = mkdtempSync(join(tmpdir(), 'mcp-shape-input-schema-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Scans one server.ts; the verdict and the findings as `rule pointer line`. */
async function scanSource(source: string) {
  const dir = mkdtempSync(join(scratch, 'src-'));
  writeFileSync(
    join(dir, 'server.ts'),
    `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
const server = new McpServer({ name: 's', version: '1' });
${source}`,
  );
  const { verdict, report } = await scanPaths([dir], { cwd: dir });
  const findings = report.findings.map((f) => `${f.rule} ${f.pointer} ${f.location?.line}`);
  return { verdict, findings };
}

/** One registerTool whose handler returns `result` for the inputSchema `shape`. */
function registered(shape: string, result: string, params = 'args') {
  return scanSource(
    `server.registerTool('t', { description: 'd', inputSchema: ${shape} }, async (${params}) => (${result}));\n`,
  );
}

describe('arguments typed by the inputSchema of registerTool', () => {
  it('a string argument proves a text block, destructured or read as a member', async () => {
    for (const [params, text] of [
      ['args', 'args.text'],
      ['{ text }', 'text'],
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the handler's source holds a template literal
      ['{ text: t }', '`${t}!`'],
    ] as const) {
      const { verdict, findings } = await registered(
        '{ text: z.string() }',
        `{ content: [{ type: 'text', text: ${text} }] }`,
        params,
      );
      expect(findings).toEqual([]);
      expect(verdict).toMatchObject({ status: 'pass', typed: 1, unresolved: 0 });
    }
  });

  it('a destructuring default applies only where the argument may be missing', async () => {
    // A required string is never undefined, so `= null` never applies (this was an error).
    const required = await registered(
      '{ text: z.string() }',
      `{ content: [{ type: 'text', text }] }`,
      '{ text = null }',
    );
    expect(required.findings).toEqual([]);
    expect(required.verdict).toMatchObject({ status: 'pass', typed: 1 });
    // An optional one may be: then the default is what the block gets.
    const optional = await registered(
      '{ text: z.string().optional() }',
      `{ content: [{ type: 'text', text }] }`,
      '{ text = null }',
    );
    expect(optional.findings).toEqual(['block-text-invalid /content/0/text 4']);
    const fine = await registered(
      '{ text: z.string().optional() }',
      `{ content: [{ type: 'text', text }] }`,
      "{ text = 'none' }",
    );
    expect(fine.verdict).toMatchObject({ status: 'pass', typed: 1 });
  });

  it('a z.object schema, numbers, booleans and arrays of strings', async () => {
    const { verdict, findings } = await registered(
      'z.object({ n: z.number().int(), flag: z.boolean(), lines: z.array(z.string()) })',
      `{ content: [{ type: 'text', text: String(args.n) + args.flag }, ...args.lines.map((line) => ({ type: 'text', text: line }))] }`,
    );
    expect(findings).toEqual([]);
    expect(verdict).toMatchObject({ status: 'pass', typed: 1 });
  });

  it('an enum argument is each of its values: a block type it can be that is no block type is an error', async () => {
    const good = await registered(
      `{ kind: z.enum(['text']) }`,
      `{ content: [{ type: args.kind, text: 'x' }] }`,
    );
    expect(good.verdict).toMatchObject({ status: 'pass', typed: 1 });
    const bad = await registered(
      `{ kind: z.enum(['text', 'record']) }`,
      `{ content: [{ type: args.kind, text: 'x' }] }`,
    );
    expect(bad.findings).toContain('block-type-unknown /content/0/type 4');
    expect(bad.verdict).toMatchObject({ status: 'fail', invalid: 1 });
  });

  it('what the schema does not guarantee stays unresolved: optional, transformed, unknown, a uri', async () => {
    for (const [shape, result] of [
      ['{ note: z.string().optional() }', `{ content: [{ type: 'text', text: args.note }] }`],
      ['{ n: z.string().transform((s) => s.length) }', `{ content: [{ type: 'text', text: args.n }] }`],
      ['{ n: z.string().pipe(z.coerce.number()) }', `{ content: [{ type: 'text', text: args.n }] }`],
      ['{ v: z.any() }', `{ content: [{ type: 'text', text: args.v }] }`],
      ['{ text: z.string() }', `{ content: [{ type: 'text', text: args.other }] }`],
      ['{ url: z.string().url() }', `{ content: [{ type: 'resource_link', uri: args.url, name: 'n' }] }`],
      ['{ text: z.lazy(() => z.string()) }', `{ content: [{ type: 'text', text: args.text }] }`],
    ] as const) {
      const { verdict, findings } = await registered(shape, result);
      expect({ shape, findings }).toEqual({ shape, findings: [] });
      expect({ shape, verdict }).toMatchObject({
        shape,
        verdict: { status: 'fail', typed: 0, unresolved: 1 },
      });
    }
  });

  it('a member with a default is always there: zod fills it in before the handler runs', async () => {
    const { verdict, findings } = await registered(
      '{ note: z.string().default("x") }',
      `{ content: [{ type: 'text', text: args.note }] }`,
    );
    expect(findings).toEqual([]);
    expect(verdict).toMatchObject({ status: 'pass', typed: 1 });
  });

  it('a transform anywhere inside the schema leaves every argument unknown', async () => {
    const { verdict } = await registered(
      '{ text: z.string(), n: z.array(z.string().transform((s) => s.length)) }',
      `{ content: [{ type: 'text', text: args.text }] }`,
    );
    expect(verdict).toMatchObject({ typed: 0, unresolved: 1 });
  });

  it('a config that may lack the inputSchema (a spread in it) types nothing', async () => {
    const { verdict } = await scanSource(
      `const base = JSON.parse(process.argv[2] ?? '{}');
server.registerTool('t', { ...base, inputSchema: { text: z.string() } }, async (args) => ({ content: [{ type: 'text', text: args.text }] }));\n`,
    );
    expect(verdict).toMatchObject({ typed: 0, unresolved: 1 });
  });

  it('the second parameter is the request context, not an argument', async () => {
    const { verdict } = await registered(
      '{ text: z.string() }',
      `{ content: [{ type: 'text', text: extra.sessionId }] }`,
      'args, extra',
    );
    expect(verdict).toMatchObject({ typed: 0, unresolved: 1 });
  });

  it('a string argument in structuredContent against a numeric outputSchema is never typed: it always fails', async () => {
    // The SDK checks the arguments before the handler runs, so `t` is a string on every call, and no
    // string fits `z.number()`: every call ends in the SDK's own output check.
    const { verdict, findings } = await scanSource(
      `server.registerTool('t', { inputSchema: { t: z.string() }, outputSchema: { t: z.number() } }, async ({ t }) => ({
  content: [{ type: 'text', text: JSON.stringify({ t }) }], structuredContent: { t },
}));\n`,
    );
    expect(verdict).toMatchObject({ typed: 0, invalid: 1 });
    expect(findings).toEqual(['structured-content-schema-mismatch /structuredContent/t 5']);
  });
});

describe('arguments typed by server.tool() and FastMCP parameters', () => {
  it('server.tool(name, shape, cb), with a description, and with annotations after the shape', async () => {
    for (const args of [
      `{ text: z.string() }`,
      `'says it back', { text: z.string() }`,
      `'says it back', { text: z.string() }, { readOnlyHint: true }`,
      `{ text: z.string() }, { readOnlyHint: true }`,
    ]) {
      const { verdict } = await scanSource(
        `server.tool('echo', ${args}, async ({ text }) => ({ content: [{ type: 'text', text }] }));\n`,
      );
      expect({ args, verdict }).toMatchObject({ args, verdict: { status: 'pass', typed: 1 } });
    }
  });

  it('server.tool(name, cb) and server.tool(name, annotations, cb): the first parameter is the context', async () => {
    for (const args of [`'echo'`, `'echo', { readOnlyHint: true }`, `'echo', 'a description'`]) {
      const { verdict } = await scanSource(
        `server.tool(${args}, async (extra) => ({ content: [{ type: 'text', text: extra.text }] }));\n`,
      );
      expect({ args, verdict }).toMatchObject({ args, verdict: { typed: 0, unresolved: 1 } });
    }
  });

  it('FastMCP addTool with zod parameters', async () => {
    const dir = mkdtempSync(join(scratch, 'fastmcp-'));
    writeFileSync(
      join(dir, 'server.ts'),
      `import { FastMCP } from 'fastmcp';
import { z } from 'zod';
const server = new FastMCP({ name: 's', version: '1.0.0' });
server.addTool({
  name: 'echo',
  parameters: z.object({ text: z.string() }),
  execute: async (args) => ({ content: [{ type: 'text', text: args.text }] }),
});
server.addTool({
  name: 'loose',
  execute: async (args) => ({ content: [{ type: 'text', text: args.text }] }),
});
`,
    );
    const { verdict } = await scanPaths([dir], { cwd: dir });
    expect(verdict).toMatchObject({ typed: 1, unresolved: 1 });
  });
});

describe("arguments typed by a Python low-level server's listed inputSchema", () => {
  // python-sdk src/mcp/server/lowlevel/server.py, `Server.call_tool(validate_input=True)`: before the
  // handler runs, the arguments are checked (jsonschema) against the inputSchema `list_tools` gives the
  // tool; a call that fails gets an "Input validation error" result. A tool `list_tools` does not name
  // is called unchecked.
  const CITY = '{"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}';
  const server = (options: {
    decorator?: string;
    listing?: string;
    returned?: string;
    dispatch?: string;
  }) => {
    const listing = options.listing ?? `return [types.Tool(name="echo", inputSchema=${CITY})]`;
    const returned = options.returned ?? '{"type": "text", "text": arguments["city"]}';
    const dispatch =
      options.dispatch ??
      `    if name == "echo":
        return [${returned}]
    raise ValueError(name)`;
    return `from mcp.server.lowlevel import Server
import mcp.types as types

server = Server("s")

@server.list_tools()
async def list_tools():
    ${listing}

@server.call_tool(${options.decorator ?? ''})
async def call_tool(name: str, arguments: dict):
${dispatch}
`;
  };
  async function scanPy(source: string) {
    const dir = mkdtempSync(join(scratch, 'py-'));
    writeFileSync(join(dir, 'server.py'), source);
    const { verdict, report } = await scanPaths([dir], { cwd: dir });
    return { verdict, findings: report.findings.map((f) => `${f.rule} ${f.pointer} ${f.location?.line}`) };
  }

  it('a required string argument proves a text block, by subscript or .get(), after if or match', async () => {
    for (const source of [
      server({}),
      server({ decorator: 'validate_input=True' }),
      server({ returned: '{"type": "text", "text": arguments.get("city")}' }),
      server({ returned: '{"type": "text", "text": "in " + arguments["city"]}' }),
      server({
        dispatch: `    match name:
        case "echo":
            return [{"type": "text", "text": arguments["city"]}]
    raise ValueError(name)`,
      }),
    ]) {
      const { verdict, findings } = await scanPy(source);
      expect(findings).toEqual([]);
      expect(verdict).toMatchObject({ status: 'pass', returns: 1, typed: 1, unresolved: 0 });
    }
  });

  it('an enum argument is each of its values: one that is no block type is an error at the return', async () => {
    const kinds =
      '{"type": "object", "properties": {"kind": {"enum": ["text", "object"]}}, "required": ["kind"]}';
    const { verdict, findings } = await scanPy(
      server({
        listing: `return [types.Tool(name="echo", inputSchema=${kinds})]`,
        returned: '{"type": arguments["kind"], "text": "x"}',
      }),
    );
    expect(findings).toEqual(['block-type-unknown /content/0/type 11']);
    expect(verdict).toMatchObject({ status: 'fail', invalid: 1 });
  });

  it('nothing is typed where the server may call the handler unchecked', async () => {
    const unchecked = {
      'validate_input=False': server({ decorator: 'validate_input=False' }),
      'validate_input from a variable': server({ decorator: 'validate_input=STRICT' }),
      'a tool the listing does not name': server({
        listing: `return [types.Tool(name="other", inputSchema=${CITY})]`,
      }),
      'a listing that may leave the tool out': server({
        listing: `return [types.Tool(name="echo", inputSchema=${CITY})] if ENABLED else []`,
      }),
      'a listing built by a comprehension': server({
        listing: `return [types.Tool(name=n, inputSchema=${CITY}) for n in ["echo"]]`,
      }),
      'two listings with different schemas': server({
        listing: `return [types.Tool(name="echo", inputSchema=${CITY})] if ENABLED else [types.Tool(name="echo", inputSchema={"type": "object"})]`,
      }),
      'a listing that may return nothing': server({
        listing: `if ENABLED:
        return [types.Tool(name="echo", inputSchema=${CITY})]`,
      }),
      'an optional argument': server({
        listing:
          'return [types.Tool(name="echo", inputSchema={"type": "object", "properties": {"city": {"type": "string"}}})]',
      }),
    };
    for (const [why, source] of Object.entries(unchecked)) {
      const { verdict } = await scanPy(source);
      expect({ why, verdict }).toMatchObject({ why, verdict: { status: 'fail', typed: 0, unresolved: 1 } });
    }
  });

  it('a second server in the module: only a schema both listings give types anything', async () => {
    const second = (schema: string) =>
      scanPy(`${server({})}
other = Server("t")

@other.list_tools()
async def other_tools():
    return [types.Tool(name="echo", inputSchema=${schema})]
`);
    expect((await second('{"type": "object"}')).verdict).toMatchObject({ typed: 0, unresolved: 1 });
    expect((await second(CITY)).verdict).toMatchObject({ status: 'pass', typed: 1 });
  });
});

/** Whether the abstract value describes the concrete JSON value (the property below). */
function describes(heap: Heap, value: Value, concrete: unknown, depth = 0): boolean {
  return value.some((v) => variantDescribes(heap, v, concrete, depth));
}

function variantDescribes(heap: Heap, v: Variant, concrete: unknown, depth: number): boolean {
  switch (v.k) {
    case 'unknown':
      return v.kind === undefined || typeof concrete === v.kind;
    case 'str':
    case 'num':
    case 'bool':
      return (
        typeof concrete === { str: 'string', num: 'number', bool: 'boolean' }[v.k] &&
        (v.value === undefined || v.value === concrete)
      );
    case 'null':
      return concrete === null;
    case 'undef':
      return concrete === undefined;
    case 'ref': {
      const state = heap.get(v.id);
      if (!state) return false;
      if (state.kind === 'array') {
        return (
          Array.isArray(concrete) &&
          concrete.every((item) => describes(heap, state.rest ?? [], item, depth + 1))
        );
      }
      if (typeof concrete !== 'object' || concrete === null || Array.isArray(concrete)) return false;
      const record = concrete as Record<string, unknown>;
      for (const [key, member] of state.props) {
        if (!describes(heap, member.value, record[key], depth + 1)) return false;
      }
      return Object.keys(record).every((key) => state.props.has(key) || state.open !== undefined);
    }
    default:
      return false;
  }
}

/** JSON Schemas of the kind the zod model makes, with values that satisfy them. */
const schemaWithValue: fc.Arbitrary<[unknown, unknown]> = fc.letrec<{ node: [unknown, unknown] }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.string().map((s) => [{ type: 'string' }, s] as [unknown, unknown]),
    fc.integer().map((n) => [{ type: 'integer' }, n] as [unknown, unknown]),
    fc
      .double({ noNaN: true, noDefaultInfinity: true })
      .map((n) => [{ type: 'number' }, n] as [unknown, unknown]),
    fc.boolean().map((b) => [{ type: 'boolean' }, b] as [unknown, unknown]),
    fc.constant([{ type: 'null' }, null] as [unknown, unknown]),
    fc
      .uniqueArray(fc.string(), { minLength: 1, maxLength: 4 })
      .chain((items) =>
        fc
          .constantFrom(...items)
          .map((pick) => [{ type: 'string', enum: items }, pick] as [unknown, unknown]),
      ),
    fc.oneof(fc.string(), fc.integer(), fc.boolean()).map((c) => [{ const: c }, c] as [unknown, unknown]),
    fc.array(tie('node'), { maxLength: 3 }).map((pairs) => {
      // anyOf: the value satisfies one of the options.
      const [first] = pairs;
      return first
        ? ([{ anyOf: pairs.map((p) => p[0]) }, first[1]] as [unknown, unknown])
        : ([{}, 'x'] as [unknown, unknown]);
    }),
    tie('node').map(([items, v]) => [{ type: 'array', items }, [v, v]] as [unknown, unknown]),
    fc
      .array(fc.tuple(fc.string({ minLength: 1, maxLength: 6 }), tie('node'), fc.boolean(), fc.boolean()), {
        maxLength: 4,
      })
      .map((members) => {
        const properties: Record<string, unknown> = {};
        const required: string[] = [];
        const value: Record<string, unknown> = {};
        for (const [key, [schema, v], isRequired, present] of members) {
          if (Object.hasOwn(properties, key)) continue;
          properties[key] = schema;
          if (isRequired) required.push(key);
          if (isRequired || present) value[key] = v;
        }
        return [{ type: 'object', properties, required }, value] as [unknown, unknown];
      }),
  ),
})).node;

describe('inputValue (property)', () => {
  it('describes every value that satisfies the schema', () => {
    const file = { id: 0, path: 'p.ts', absolute: undefined, text: 'x', lines: undefined as never };
    const site: Site = { file, start: 0, end: 1 };
    fc.assert(
      fc.property(schemaWithValue, ([schema, concrete]) => {
        const heap = new Heap(new FrozenHeap());
        const value = inputValue(heap, schema, site, 'args');
        expect(describes(heap, value, concrete)).toBe(true);
      }),
      { numRuns: runs(300) },
    );
  });
});
