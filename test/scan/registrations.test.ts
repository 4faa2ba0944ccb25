/**
 * Every registration form of issue 8, item 6, beyond the SDK forms the other fixtures cover: the SDK's
 * task tools, hand-rolled JSON-RPC gateways on Express, Hono, plain node:http, Flask and Starlette,
 * and the standalone `fastmcp` package (decorators with and without parentheses). Each file's
 * defects are marked `expect:` (fixtures.test.ts holds the scan to them); here: which tools each
 * form yields, and that a gateway's JSON-RPC error sent with an HTTP error status is advice.
 */

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/core/finding.js';
import { scanPaths, scanSource } from '../../src/scan/index.js';
import { REPO_ROOT } from '../support/cli.js';

const dir = join(REPO_ROOT, 'fixtures/scan/registrations');

describe('registration forms', () => {
  it('yields the tools of each form, with their returns judged', async () => {
    const { files, report } = await scanPaths([dir], { cwd: dir });
    expect(report.details?.unscanned).toBeUndefined();
    const tools = Object.fromEntries(
      files.map((f) => [
        f.file,
        f.handlers.map((h) => `${h.tool} [${h.framework}] ${h.returns.map((r) => r.status).join(',')}`),
      ]),
    );
    expect(tools).toEqual({
      'express-gateway.js': ['POST /mcp [gateway] invalid'],
      'fastmcp2.py': [
        'hello [fastmcp-python] typed',
        'greet [fastmcp-python] typed',
        'profile [fastmcp-python] typed',
      ],
      'flask_gateway.py': ['mcp [gateway] invalid'],
      'hono-gateway.ts': ['POST /mcp [gateway] invalid'],
      'http-gateway.mjs': ['createServer handler [gateway] invalid'],
      'starlette_gateway.py': ['mcp [gateway] invalid'],
      // createTask returns the task (typed); getTaskResult returns the result the client receives.
      'tool-task.ts': ['render [mcp-sdk] typed,invalid'],
    });
  });

  it('reports a transport-level JSON-RPC error (sent with 4xx/5xx) as info, naming the status', async () => {
    const { report } = await scanPaths([dir], { cwd: dir });
    const transport = report.findings.filter((f) => f.rule === 'envelope-id-invalid');
    expect(transport.map((f) => `${f.location?.file}:${f.severity}`).sort()).toEqual([
      'express-gateway.js:info',
      'flask_gateway.py:info',
      'hono-gateway.ts:info',
      'starlette_gateway.py:info',
    ]);
    for (const f of transport) expect(f.message).toMatch(/sent with HTTP status (400|404|405)/);
  });
});

/**
 * Issue 8, item 4, for gateways: a finding points at the literal to fix (possibly in a helper's
 * file) and names the returns it reaches, which are where the envelope leaves for the client
 * (`return respond(…)`, `res.json(…)`), not the envelope literal a helper shares between them.
 */
describe('where a gateway finding points, and the returns it reaches', () => {
  const reached = (f: Finding) => (f.location?.reaches ?? []).map((r) => `${r.tool} ${r.file}:${r.line}`);
  const summary = (findings: readonly Finding[]) =>
    findings
      .filter((f) => f.severity === 'error')
      .map((f) => ({ rule: f.rule, at: `${f.location?.file}:${f.location?.line}`, reaches: reached(f) }));

  it('an envelope built by a helper: each route return is a return of its own (TS and Python)', async () => {
    const patterns = join(REPO_ROOT, 'fixtures/scan/patterns/envelope-helper');
    const { report } = await scanPaths([join(patterns, 'bad.ts'), join(patterns, 'bad.py')], {
      cwd: patterns,
    });
    expect(summary(report.findings)).toEqual([
      { rule: 'result-content-not-array', at: 'bad.ts:14', reaches: ['POST /mcp bad.ts:14'] },
      { rule: 'result-content-not-array', at: 'bad.py:16', reaches: ['mcp bad.py:16'] },
    ]);
  });

  it("a result helper in another file: one finding at the helper's literal, listing every return", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-shape-gateway-'));
    try {
      writeFileSync(
        join(dir, 'results.py'),
        `def to_result(value):
    if isinstance(value, str):
        item = {"type": "text", "text": value}
    else:
        item = {"type": "object", "object": value}
    return {"content": [item]}
`,
      );
      writeFileSync(
        join(dir, 'app.py'),
        `from flask import Flask, jsonify, request
from results import to_result

app = Flask(__name__)


@app.post("/mcp")
def mcp():
    body = request.get_json()
    if body["params"]["name"] == "stock":
        return jsonify({"jsonrpc": "2.0", "id": body["id"], "result": to_result(lookup(body))})
    payload = {"jsonrpc": "2.0", "id": body["id"], "result": to_result(other(body))}
    return jsonify(payload)
`,
      );
      writeFileSync(
        join(dir, 'results.ts'),
        `export function toResult(value: unknown) {
  let item;
  if (typeof value === 'string') item = { type: 'text', text: value };
  else item = { type: 'object', object: value };
  return { content: [item] };
}
`,
      );
      writeFileSync(
        join(dir, 'app.ts'),
        `import express from 'express';
import { toResult } from './results.js';

const app = express();
app.post('/mcp', async (req, res) => {
  const body = req.body;
  if (body.params.name === 'stock') {
    res.json({ jsonrpc: '2.0', id: body.id, result: toResult(await lookup(body)) });
    return;
  }
  const response = { jsonrpc: '2.0', id: body.id, result: toResult(await other(body)) };
  res.end(JSON.stringify(response));
});
`,
      );
      const { report } = await scanPaths([dir], { cwd: dir });
      expect(summary(report.findings)).toEqual([
        { rule: 'block-type-unknown', at: 'results.py:5', reaches: ['mcp app.py:11', 'mcp app.py:13'] },
        {
          rule: 'block-type-unknown',
          at: 'results.ts:4',
          reaches: ['POST /mcp app.ts:8', 'POST /mcp app.ts:12'],
        },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an envelope helper of another file called by a route, and by a callback the route hands on', async () => {
    // Both were a SKIP: the helper, analysed alone, had an unknown result to carry, and the route's
    // callback passed by name, or the one given to req.on('end'), never ran.
    const gateway = (block: string) => {
      const dir = mkdtempSync(join(tmpdir(), 'mcp-shape-gateway-'));
      writeFileSync(
        join(dir, 'rpc.mjs'),
        "export function reply(res, id, result) {\n  res.json({ jsonrpc: '2.0', id, result });\n}\n",
      );
      writeFileSync(
        join(dir, 'server.mjs'),
        `import express from 'express';
import { reply } from './rpc.mjs';

function onRpc(req, res) {
  let raw = '';
  req.on('data', (chunk) => {
    raw += chunk;
  });
  req.on('end', () => {
    const { id, method } = JSON.parse(raw);
    if (method === 'tools/call') reply(res, id, { content: [${block}] });
  });
}

const app = express();
app.post('/mcp', onRpc);
app.post('/rpc', express.json(), (req, res) => {
  if (req.body.method === 'tools/call') reply(res, req.body.id, { content: [{ type: 'text', text: 'ok' }] });
});
app.listen(3000);
`,
      );
      return dir;
    };
    const bad = gateway("{ type: 'text', text: 42 }");
    const clean = gateway("{ type: 'text', text: '42' }");
    try {
      const found = await scanPaths([bad], { cwd: bad });
      expect(summary(found.report.findings)).toEqual([
        { rule: 'block-text-invalid', at: 'server.mjs:11', reaches: ['reply rpc.mjs:2'] },
      ]);
      expect(found.verdict).toMatchObject({ status: 'fail', returns: 1, invalid: 1 });
      const twin = await scanPaths([clean], { cwd: clean });
      expect(twin.report.findings).toEqual([]);
      expect(twin.verdict).toMatchObject({ status: 'pass', returns: 1, typed: 1 });
    } finally {
      rmSync(bad, { recursive: true, force: true });
      rmSync(clean, { recursive: true, force: true });
    }
  });
});

/**
 * A FastMCP tool annotated `-> CallToolResult`, as each FastMCP treats what it returns. Read in the
 * frameworks' sources (facts only; see src/scan/frameworks.ts, `fastmcpPython`):
 * - python-sdk v1.29.0, src/mcp/server/fastmcp/utilities/func_metadata.py: `func_metadata` gives a
 *   bare `-> CallToolResult` no outputSchema, and `FuncMetadata.convert_result` passes a
 *   `CallToolResult` instance through but hands anything else to `_convert_to_content`, which
 *   serializes a dict to one JSON text block: the client receives valid content whatever the dict holds.
 * - jlowin/fastmcp b14b137f, src/fastmcp/tools/tool.py: `Tool.convert_result` passes only its own
 *   `ToolResult` through; anything else becomes JSON text (`_convert_to_content`) and, since
 *   src/fastmcp/tools/function_parsing.py (`ParsedFunction.from_function`) derives the outputSchema
 *   from the annotation, structuredContent that clients check against CallToolResult's schema.
 */
describe('FastMCP (Python) and `-> CallToolResult`', () => {
  const source = (framework: string, returned: string) => `${framework}
from mcp.types import CallToolResult, TextContent

mcp = FastMCP("s")


@mcp.tool()
def lookup(query: str) -> CallToolResult:
    return ${returned}
`;
  const SDK = 'from mcp.server.fastmcp import FastMCP';
  const STANDALONE = 'from fastmcp import FastMCP';
  const BAD_DICT = '{"content": [{"type": "object", "object": {"q": query}}]}';
  const GOOD_DICT = '{"content": [{"type": "text", "text": query}]}';
  // A valid instance whose text is not the JSON of its structuredContent.
  const INSTANCE =
    'CallToolResult(content=[TextContent(type="text", text="found")], structuredContent={"q": query})';

  async function scanned(framework: string, returned: string) {
    const file = await scanSource('server.py', source(framework, returned));
    return {
      statuses: file.handlers.flatMap((h) => h.returns.map((r) => r.status)),
      findings: file.findings.map((f) => `${f.severity} ${f.rule} ${f.pointer}`),
    };
  }

  it("the SDK's FastMCP sends a returned dict as JSON text: valid content, whatever the dict holds", async () => {
    expect(await scanned(SDK, BAD_DICT)).toEqual({ statuses: ['typed'], findings: [] });
  });

  it("the SDK's FastMCP passes a CallToolResult through, as it is", async () => {
    expect(await scanned(SDK, INSTANCE)).toEqual({
      statuses: ['typed'],
      findings: ['warning structured-content-text-mirror-missing /content'],
    });
  });

  it('standalone fastmcp sends the dict as structuredContent too, checked as a CallToolResult', async () => {
    const bad = await scanned(STANDALONE, BAD_DICT);
    expect(bad).toEqual({
      statuses: ['invalid'],
      findings: ['error block-type-unknown /structuredContent/content/0/type'],
    });
    expect(await scanned(STANDALONE, GOOD_DICT)).toEqual({ statuses: ['typed'], findings: [] });
  });

  it('standalone fastmcp serializes a CallToolResult instance to JSON text, not passing it through', async () => {
    // Its one text block is the JSON of the whole instance, which it also sends as structuredContent.
    expect(await scanned(STANDALONE, INSTANCE)).toEqual({ statuses: ['typed'], findings: [] });
  });
});

/**
 * A table of tools registered in a loop (`for (const t of TOOLS)`, `TOOLS.forEach(…)`): each tool is
 * registered with its own name, handler and config, so each is judged as itself, against its own
 * outputSchema, and a finding names the one tool it is about.
 */
describe('a table of tools registered in a loop', () => {
  const ts = (
    loop: string,
    tools: string,
  ) => `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
const server = new McpServer({ name: 's', version: '1' });
const TOOLS = [${tools}];
${loop}
`;
  const FOR_OF = 'for (const t of TOOLS) server.registerTool(t.name, t.config, t.handler);';
  const FOR_EACH = 'TOOLS.forEach((t) => { server.registerTool(t.name, t.config, t.handler); });';
  const summary = (file: Awaited<ReturnType<typeof scanSource>>) =>
    file.handlers.map((h) => `${h.tool}: ${h.returns.map((r) => r.status).join(',')}`);

  for (const [form, loop] of [
    ['for…of', FOR_OF],
    ['forEach', FOR_EACH],
  ] as const) {
    it(`${form}: each tool with its own handler, and a finding names its tool`, async () => {
      const file = await scanSource(
        'server.ts',
        ts(
          loop,
          `{ name: 'hello', config: {}, handler: async () => ({ content: [{ type: 'text', text: 'hi' }] }) },
  { name: 'logo', config: {}, handler: async () => ({ content: [{ type: 'image', data: 'iVBORw0KGgo=' }] }) }`,
        ),
      );
      expect(summary(file)).toEqual(['hello: typed', 'logo: invalid']);
      expect(file.findings.map((f) => [f.rule, f.location?.tool])).toEqual([
        ['block-mime-type-missing', 'logo'],
      ]);
    });

    it(`${form}: each tool's structuredContent is checked against its own outputSchema`, async () => {
      const file = await scanSource(
        'server.ts',
        ts(
          loop,
          `{ name: 'count', config: { outputSchema: { n: z.number() } },
    handler: async () => ({ content: [{ type: 'text', text: '{"n":1}' }], structuredContent: { n: 1 } }) },
  { name: 'label', config: { outputSchema: { s: z.string() } },
    handler: async () => ({ content: [{ type: 'text', text: '{"s":"a"}' }], structuredContent: { s: 'a' } }) }`,
        ),
      );
      expect(summary(file)).toEqual(['count: typed', 'label: typed']);
      expect(file.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    });
  }

  const table = (loop: string) => `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
const handlers = {
  hello: async () => ({ content: [{ type: 'text', text: 'hi' }] }),
  logo: async () => ({ content: [{ type: 'image', data: 'iVBORw0KGgo=' }] }),
};
${loop}
`;
  for (const [form, loop] of [
    ['Object.entries', 'for (const [name, h] of Object.entries(handlers)) server.registerTool(name, {}, h);'],
    ['Object.keys', 'Object.keys(handlers).forEach((k) => server.registerTool(k, {}, handlers[k]));'],
    [
      'Object.values',
      'const tools = { a: { name: "hello", run: handlers.hello }, b: { name: "logo", run: handlers.logo } };\n' +
        'for (const t of Object.values(tools)) server.registerTool(t.name, {}, t.run);',
    ],
  ] as const) {
    it(`${form}: a table of handlers keyed by tool name`, async () => {
      const file = await scanSource('server.ts', table(loop));
      expect(summary(file)).toEqual(['hello: typed', 'logo: invalid']);
      expect(file.findings.map((f) => [f.rule, f.location?.tool])).toEqual([
        ['block-mime-type-missing', 'logo'],
      ]);
    });
  }

  it('a table too long to follow item by item: the handlers it keeps are judged, the rest is not proven', async () => {
    // 100 handlers, the fourth broken. Past 64 functions the analysis keeps the last ones and one
    // unknown for the others: the broken one was among those, and the scan said PASS.
    const entries = Array.from({ length: 100 }, (_, i) =>
      i === 3
        ? `k${i}: async () => ({ content: [{ type: 'markdown', text: 'x' }] })`
        : `k${i}: async () => ({ content: [] })`,
    );
    const file = await scanSource(
      'server.ts',
      table(
        `const H = { ${entries.join(',\n')} };\nfor (const [n, f] of Object.entries(H)) server.registerTool(n, {}, f);`,
      ),
    );
    const statuses = file.handlers.flatMap((h) => h.returns.map((r) => r.status));
    expect(statuses).toContain('unresolved');
    expect(file.handlers.flatMap((h) => h.returns.map((r) => r.reason ?? ''))).toContainEqual(
      expect.stringMatching(/^the handler may also be f, which is not known statically/),
    );
  });

  it('Object.keys lists integer keys first, ascending, as JavaScript does', async () => {
    const file = await scanSource(
      'server.ts',
      table(
        "const byNumber = { b: 1, 10: 1, a: 1, 2: 1 };\nfor (const k of Object.keys(byNumber)) server.registerTool('t' + k, {}, handlers.hello);",
      ),
    );
    expect(file.handlers.map((h) => h.tool)).toEqual(['t2', 't10', 'tb', 'ta']);
  });

  it('a table with members it cannot list stays one unresolved registration', async () => {
    const file = await scanSource(
      'server.ts',
      table(
        "import { more } from 'plugins';\nconst all = { ...handlers, ...more };\n" +
          'for (const [name, h] of Object.entries(all)) server.registerTool(name, {}, h);',
      ),
    );
    expect(file.handlers.flatMap((h) => h.returns.map((r) => r.status))).toContain('unresolved');
  });

  it('runs a loop that adds to the table it iterates as any loop, judging every handler', async () => {
    const file = await scanSource(
      'server.ts',
      ts(
        `for (const t of TOOLS) {
  server.registerTool(t.name, t.config, t.handler);
  if (TOOLS.length < 3) TOOLS.push({ name: 'late', config: {}, handler: async () => ({ content: 'late' }) });
}`,
        `{ name: 'hello', config: {}, handler: async () => ({ content: [{ type: 'text', text: 'hi' }] }) }`,
      ),
    );
    // The pushed handler is judged too: its string content is an error, whatever the tool is called.
    expect(file.findings.map((f) => f.rule)).toContain('result-content-not-array');
  });
});

describe('Python registrations written as calls', () => {
  const source = (registration: string) => `from mcp.server.fastmcp import FastMCP
from mcp.server.lowlevel import Server
from mcp.types import ImageContent, TextContent

mcp = FastMCP("s")
server = Server("s")

def hello():
    return [TextContent(type="text", text="hi")]

def logo():
    return [ImageContent(type="image", data="iVBORw0KGgo=", mimeType="text/plain")]

${registration}
`;
  const summary = (file: Awaited<ReturnType<typeof scanSource>>) =>
    file.handlers.map((h) => `${h.tool} [${h.framework}] ${h.returns.map((r) => r.status).join(',')}`);

  for (const [form, registration, tools] of [
    ['add_tool', 'mcp.add_tool(hello)\nmcp.add_tool(logo, name="picture")', ['hello', 'picture']],
    ['a decorator called by hand', 'mcp.tool()(hello)\nmcp.tool(name="picture")(logo)', ['hello', 'picture']],
    ["FastMCP 2's direct call", 'mcp.tool(hello)\nmcp.tool(logo, name="picture")', ['hello', 'picture']],
    [
      'a table of tools registered in a loop',
      'TOOLS = {"hello": hello, "logo": logo}\nfor name, fn in TOOLS.items():\n    mcp.tool(name=name)(fn)',
      ['hello', 'logo'],
    ],
  ] as const) {
    it(`${form}: each function is a tool, its returns judged`, async () => {
      const file = await scanSource('server.py', source(registration));
      expect(summary(file)).toEqual(tools.map((t) => `${t} [fastmcp-python] typed`));
      expect(file.findings.map((f) => [f.rule, f.location?.tool])).toEqual([
        ['block-mime-type-wrong-family', tools[1]],
      ]);
    });
  }

  it('a low-level call_tool decorator called by hand', async () => {
    const file = await scanSource('server.py', source('server.call_tool()(logo)'));
    expect(summary(file)).toEqual(['(call_tool handler) [mcp-python-lowlevel] typed']);
    expect(file.findings.map((f) => f.rule)).toEqual(['block-mime-type-wrong-family']);
  });

  it('a table too long to follow: the functions it keeps are judged, the rest is not proven', async () => {
    const defs = Array.from({ length: 100 }, (_, i) =>
      i === 3
        ? `def f${i}():\n    return [ImageContent(type="image", data="iVBORw0KGgo=", mimeType="text/plain")]`
        : `def f${i}():\n    return "ok"`,
    );
    const table = Array.from({ length: 100 }, (_, i) => `"k${i}": f${i}`).join(', ');
    const file = await scanSource(
      'server.py',
      source(
        `${defs.join('\n\n')}\n\nTOOLS = {${table}}\nfor name, fn in TOOLS.items():\n    mcp.tool(name=name)(fn)`,
      ),
    );
    expect(file.handlers.flatMap((h) => h.returns.map((r) => r.reason ?? ''))).toContainEqual(
      'the tool function may also be one the analysis does not know (more than 24 possible values)',
    );
  });

  it('a function the registration cannot know is unresolved, not skipped', async () => {
    const file = await scanSource(
      'server.py',
      source('import plugins\nfor fn in plugins.ALL:\n    mcp.tool()(fn)'),
    );
    expect(file.handlers.map((h) => h.returns.map((r) => [r.status, r.reason]))).toEqual([
      [['unresolved', 'the tool function is not known statically']],
    ]);
  });

  it('tools given to the FastMCP constructor are unresolved, not a SKIP', async () => {
    const file = await scanSource(
      'server.py',
      'from mcp.server.fastmcp import FastMCP\nfrom mcp.server.fastmcp.tools import Tool\n\ndef halve(n: int) -> int:\n    return "half"\n\nmcp = FastMCP("ctor", tools=[Tool.from_function(halve)])\n',
    );
    expect(file.handlers.map((h) => [h.tool, h.returns.map((r) => [r.status, r.reason])])).toEqual([
      [
        '(tools given to FastMCP)',
        [['unresolved', 'the tools given to the FastMCP constructor (`tools=[…]`) are not followed']],
      ],
    ]);
  });

  it('leaves decorators and their inner calls to the decorator form', async () => {
    const file = await scanSource(
      'server.py',
      source(
        '@mcp.tool(name="wave")\ndef wave():\n    return "hi"\n\n@mcp.tool("shout")\ndef shout():\n    return "HI"',
      ),
    );
    expect(summary(file)).toEqual(['wave [fastmcp-python] typed', 'shout [fastmcp-python] typed']);
  });
});

describe('loops run once per item, nested', () => {
  const nested = (depth: number, items: number, text: string) => {
    const list = Array.from({ length: items }, (_, i) => `'t${i}'`).join(', ');
    const open = Array.from({ length: depth }, (_, i) => `for (const x${i} of A) {`).join('\n');
    return `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
const A = [${list}];
server.registerTool('rows', {}, async () => {
  const out = [];
  ${open}
  out.push({ type: 'text', text: ${text} });
  ${'}'.repeat(depth)}
  return { content: out };
});
`;
  };

  it('proves a few nested loops over a short table', async () => {
    const file = await scanSource('server.ts', nested(2, 4, 'x0 + x1'));
    expect(file.handlers.map((h) => h.returns.map((r) => r.status))).toEqual([['typed']]);
  });

  it('stops running items one by one past 64 runs in all, and stays within the analysis budget', async () => {
    // Sixteen to the fourth runs of the body, were each loop run once per item: over the budget's four
    // seconds. With the cap the scan takes a tenth of a second, far inside it even on a loaded machine
    // (eight loops deep it took 1.3 s, and once ran over the budget in a loaded full suite).
    const file = await scanSource('server.ts', nested(4, 16, "'row'"));
    const [ret] = file.handlers[0]?.returns ?? [];
    expect(ret?.reason ?? '').not.toContain('analysis budget');
  });
});

/**
 * A FastAPI gateway returning a pydantic response model (`RpcResponse(id=…, result=…)`): FastAPI sends
 * the model's fields as JSON, its defaults included (a default of None as null), unless the route says
 * `response_model_exclude_none=True`. The response is judged as an envelope literal is.
 */
describe('a FastAPI gateway returning a response model', () => {
  const server = (route: string) => `from fastapi import FastAPI
from pydantic import BaseModel

app = FastAPI()


class RpcResponse(BaseModel):
    jsonrpc: str = "2.0"
    id: int | None = None
    result: dict | None = None
    error: dict | None = None


${route}
async def mcp(body: dict):
    return RpcResponse(id=body["id"], result={"content": [{"type": "text", "text": "hi"}]})
`;
  const summary = (file: Awaited<ReturnType<typeof scanSource>>) => ({
    handlers: file.handlers.map(
      (h) => `${h.tool} [${h.framework}] ${h.returns.map((r) => r.status).join(',')}`,
    ),
    findings: file.findings.map((f) => `${f.severity} ${f.rule} ${f.location?.line}`),
  });

  it('sends "error": null beside the result by default: both, an error at the construction', async () => {
    expect(summary(await scanSource('app.py', server('@app.post("/mcp")')))).toEqual({
      handlers: ['mcp [gateway] invalid'],
      findings: ['error envelope-result-and-error 16'],
    });
  });

  it('with response_model_exclude_none=True, the response is the result alone', async () => {
    expect(
      summary(await scanSource('app.py', server('@app.post("/mcp", response_model_exclude_none=True)'))),
    ).toEqual({ handlers: ['mcp [gateway] typed'], findings: [] });
  });
});
