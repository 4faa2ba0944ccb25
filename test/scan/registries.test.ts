/**
 * Tools kept in a registry the handler looks up at run time: a `Map` filled with `tools.set(t.name, t)`
 * and read by a low-level tools/call handler (`tools.get(name).run(args)`). Each stored tool's function
 * is run as a possible handler, so its defects are reported where they are written; a lookup may also
 * give a tool stored where the analysis did not see it, so the return is never proven whole.
 */

import { describe, expect, it } from 'vitest';
import { scanSource } from '../../src/scan/index.js';
import { computeVerdict } from '../../src/scan/verdict.js';

type Scanned = Awaited<ReturnType<typeof scanSource>>;
const defects = (file: Scanned) =>
  file.findings.map((f) => `${f.severity} ${f.rule} ${f.location?.file}:${f.location?.line}`);
const tools = (file: Scanned) =>
  file.handlers.map((h) => `${h.tool} ${h.returns.map((r) => r.status).join(',')}`);
/** The one return of a clean twin, unresolved with a reason holding `why`: no finding. */
const unresolvedFor = (file: Scanned, why: string) => {
  expect(file.findings).toEqual([]);
  const [entry] = file.handlers.flatMap((h) => h.returns);
  expect(entry?.status).toBe('unresolved');
  expect(entry?.reason).toContain(why);
  expect(entry?.reason).not.toContain('not part of the scanned project');
};

const server = (block: string) => `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const server = new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } });
const tools = new Map<string, { name: string; run: (args: unknown) => Promise<unknown> }>();
function register(tool: { name: string; run: (args: unknown) => Promise<unknown> }) {
  tools.set(tool.name, tool);
}
register({ name: 'hello', run: async () => ({ content: [{ type: 'text', text: 'hi' }] }) });
register({ name: 'logo', run: async () => ({ content: [${block}] }) });
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const tool = tools.get(request.params.name);
  if (!tool) throw new Error('unknown tool');
  return tool.run(request.params.arguments);
});
`;

describe('a Map of tools looked up by a low-level handler', () => {
  it("reports a stored tool's invalid block where it is written, and fails", async () => {
    const file = await scanSource('server.ts', server("{ type: 'image', data: 'iVBORw0KGgo=' }"));
    expect(defects(file)).toEqual(['error block-mime-type-missing server.ts:10']);
    expect(file.handlers.flatMap((h) => h.returns.map((r) => `${r.line} ${r.status}`))).toEqual([
      '14 invalid',
    ]);
    expect(computeVerdict(file.handlers).status).toBe('fail');
  });

  it('leaves the clean twin unresolved, never typed: a tool may be stored where the scan did not see it', async () => {
    const file = await scanSource(
      'server.ts',
      server("{ type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }"),
    );
    expect(file.findings).toEqual([]);
    const returns = file.handlers.flatMap((h) => h.returns);
    expect(returns.map((r) => `${r.line} ${r.status}`)).toEqual(['14 unresolved']);
    expect(returns[0]?.reason).toContain('tool.run(request.params.arguments)');
    expect(computeVerdict(file.handlers)).toMatchObject({ status: 'fail', typed: 0, unresolved: 1 });
  });
});

/**
 * A dict of tool functions filled under computed names (`TOOLS[fn.__name__] = fn`) and registered in a
 * loop over its values: each stored function is judged as a tool, and the registration may also be a
 * function stored where the analysis did not see it, so it stays unresolved too.
 */
describe('a dict of tools filled under computed names (Python)', () => {
  const source = (image: string) => `from mcp.server.fastmcp import FastMCP
from mcp.types import ImageContent

mcp = FastMCP("s")
TOOLS = {}


def logo():
    return ${image}


def register(fn):
    TOOLS[fn.__name__] = fn


register(logo)
for fn in TOOLS.values():
    mcp.add_tool(fn)
`;

  it("judges each stored function: the bad one's error where it is written", async () => {
    const file = await scanSource('server.py', source('ImageContent(type="image", data="iVBORw0KGgo=")'));
    expect(defects(file)).toEqual(['error block-mime-type-missing server.py:9']);
    expect(tools(file)).toEqual(['(unnamed tool) unresolved', 'logo invalid']);
    expect(computeVerdict(file.handlers).status).toBe('fail');
  });

  it('leaves the clean twin unresolved where a function may have been stored unseen', async () => {
    const file = await scanSource(
      'server.py',
      source('ImageContent(type="image", data="iVBORw0KGgo=", mimeType="image/png")'),
    );
    expect(file.findings).toEqual([]);
    expect(tools(file)).toEqual(['(unnamed tool) unresolved', 'logo typed']);
    expect(computeVerdict(file.handlers)).toMatchObject({ status: 'fail', unresolved: 1 });
  });
});

/**
 * `functools.partial(fn, kind=…)`: FastMCP reads the partial's signature, where a keyword it binds is a
 * parameter with that default, which a call may override; a positional one is bound for good.
 */
describe('a FastMCP tool registered as a partial with a keyword', () => {
  it('judges the branches a caller reaches by overriding the keyword', async () => {
    const file = await scanSource(
      'server.py',
      `from functools import partial

from mcp.server.fastmcp import FastMCP
from mcp.types import ImageContent

mcp = FastMCP("shop")


def _render(kind: str = "text"):
    if kind == "image":
        return ImageContent(type="image", data="iVBORw0KGgo=")
    return "ok"


mcp.add_tool(partial(_render, kind="text"), name="render")
`,
    );
    expect(defects(file)).toEqual(['error block-mime-type-missing server.py:11']);
    expect(tools(file)).toEqual(['render invalid,typed']);
  });
});

/**
 * A registry filled by a decorator of the project (`@tool def stock(…)`, where `tool` stores the
 * function in TOOLS and returns it): the decorator runs when the `def` does, so each decorated
 * function is in the table, and judged as a tool wherever the table's functions are registered
 * (FastMCP's `mcp.add_tool(fn)` in a loop) or called (a low-level handler's `TOOLS[name](**args)`).
 */
describe('a dict of tools filled by a project decorator (Python)', () => {
  const decorated = (image: string) => `TOOLS = {}


def tool(fn):
    TOOLS[fn.__name__] = fn
    return fn


@tool
async def stock(sku: str):
    return [${image}]


@tool
async def price(sku: str):
    return [TextContent(type="text", text=sku)]
`;
  const fastmcp = (image: string) => `from mcp.server.fastmcp import FastMCP
from mcp.types import ImageContent, TextContent

mcp = FastMCP("s")
${decorated(image)}

for name, fn in TOOLS.items():
    mcp.add_tool(fn)
`;
  const lowLevel = (image: string) => `from mcp.server.lowlevel import Server
from mcp.types import ImageContent, TextContent

server = Server("s")
${decorated(image)}

@server.call_tool()
async def call(name: str, args: dict):
    return await TOOLS[name](**args)
`;
  const bad = 'ImageContent(type="image", data="iVBORw0KGgo=")';
  const good = 'ImageContent(type="image", data="iVBORw0KGgo=", mimeType="image/png")';

  it('FastMCP: judges each decorated function as a tool, the defect where it is written', async () => {
    const file = await scanSource('server.py', fastmcp(bad));
    expect(defects(file)).toEqual(['error block-mime-type-missing server.py:15']);
    expect(tools(file)).toEqual(['(unnamed tool) unresolved', 'stock invalid', 'price typed']);
    expect(computeVerdict(file.handlers).status).toBe('fail');
  });

  it('FastMCP, the clean twin: both tools typed, the loop unresolved for a function stored unseen', async () => {
    const file = await scanSource('server.py', fastmcp(good));
    expect(file.findings).toEqual([]);
    expect(tools(file)).toEqual(['(unnamed tool) unresolved', 'stock typed', 'price typed']);
    expect(file.handlers[0]?.returns[0]?.reason).toContain('TOOLS.items()');
  });

  it("low-level: the handler's TOOLS[name](**args) is each decorated function's return", async () => {
    const file = await scanSource('server.py', lowLevel(bad));
    expect(defects(file)).toEqual(['error block-mime-type-missing server.py:15']);
    expect(tools(file)).toEqual(['(call_tool handler) invalid']);
    expect(computeVerdict(file.handlers).status).toBe('fail');
  });

  it('low-level, the clean twin: unresolved, as a function stored unseen, not as a library call', async () => {
    const file = await scanSource('server.py', lowLevel(good));
    unresolvedFor(file, 'may also be a function the analysis does not know');
  });
});

/** `new Map([["hello", {run}], …])`: a table of the entries' values, looked up as one filled by set. */
describe('a Map of tools built from literal entries (TS)', () => {
  const server = (block: string) => `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const server = new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } });
const tools = new Map([
  ['hello', { run: async (_args: unknown) => ({ content: [{ type: 'text', text: 'hi' }] }) }],
  ['logo', { run: async (_args: unknown) => ({ content: [${block}] }) }],
]);
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const tool = tools.get(request.params.name);
  if (!tool) throw new Error('unknown tool');
  return tool.run(request.params.arguments);
});
`;

  it("reports an entry's invalid block where it is written", async () => {
    const file = await scanSource('server.ts', server("{ type: 'image', data: 'iVBORw0KGgo=' }"));
    expect(defects(file)).toEqual(['error block-mime-type-missing server.ts:7']);
    expect(tools(file)).toEqual(['(tools/call handler) invalid']);
  });

  it('reads entries a map() of a list of tools gives (new Map(list.map((t) => [t.name, t])))', async () => {
    const source = server("{ type: 'image', data: 'iVBORw0KGgo=' }").replace(
      /\[\s*\['hello', (\{[^\n]*\})\],\n\s*\['logo', (\{[^\n]*\})\],\n\]/,
      '[\n  $1,\n  $2,\n].map((run) => [run.toString(), run])',
    );
    expect(source).toContain('.map((run) => [run.toString(), run])');
    const file = await scanSource('server.ts', source);
    expect(defects(file)).toEqual(['error block-mime-type-missing server.ts:7']);
    expect(tools(file)).toEqual(['(tools/call handler) invalid']);
  });

  it('gives the clean twin the true reason: a value stored unseen, not a function outside the project', async () => {
    const file = await scanSource(
      'server.ts',
      server("{ type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }"),
    );
    unresolvedFor(file, 'tools.get() gives that the analysis did not see stored');
  });
});

/** `@registry.register("logo")`: a decorator that is a method of a project object fills its table. */
describe('a registry object filled by its method as a decorator (Python)', () => {
  const source = (image: string) => `from mcp.server.lowlevel import Server
from mcp.types import ImageContent

server = Server("s")


class Registry:
    def __init__(self):
        self.tools = {}

    def register(self, name):
        def wrap(fn):
            self.tools[name] = fn
            return fn

        return wrap


registry = Registry()


@registry.register("logo")
async def logo(**kw):
    return [${image}]


@server.call_tool()
async def call(name: str, args: dict):
    return await registry.tools[name](**args)
`;

  it("judges the stored function's return: the defect where it is written", async () => {
    const file = await scanSource('server.py', source('ImageContent(type="image", data="iVBORw0KGgo=")'));
    expect(defects(file)).toEqual(['error block-mime-type-missing server.py:24']);
    expect(tools(file)).toEqual(['(call_tool handler) invalid']);
  });

  it('leaves the clean twin unresolved, as a function stored unseen', async () => {
    const file = await scanSource(
      'server.py',
      source('ImageContent(type="image", data="iVBORw0KGgo=", mimeType="image/png")'),
    );
    unresolvedFor(file, 'may also be a function the analysis does not know');
  });
});

/**
 * A project decorator returning a wrapper (`@functools.wraps(fn) def wrapper(*args, **kwargs)`): the
 * tool is the wrapper, which returns what the function does, and FastMCP names it by the `__name__`
 * functools.wraps copied, the function's.
 */
describe('a FastMCP tool wrapped by a project decorator (Python)', () => {
  it.each([
    ['import functools', '@functools.wraps(fn)'],
    ['from functools import wraps', '@wraps(fn)'],
  ])('judges the function through the wrapper, under its own name (%s)', async (imported, decorator) => {
    const file = await scanSource(
      'server.py',
      `${imported}

from mcp.server.fastmcp import FastMCP
from mcp.types import ImageContent

mcp = FastMCP("demo")


def logged(fn):
    ${decorator}
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)

    return wrapper


@logged
def logo():
    return ImageContent(type="image", data="iVBORw0KGgo=")


mcp.add_tool(logo)
`,
    );
    expect(defects(file)).toEqual(['error block-mime-type-missing server.py:19']);
    expect(tools(file)).toEqual(['logo invalid']);
  });
});
