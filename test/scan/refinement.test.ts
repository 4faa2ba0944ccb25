/**
 * Branch conditions that decide a value: a comparison with a constant the analysis knows, and
 * `startsWith`/`endsWith` on a string known to be one of several constants. Found scanning the
 * reference servers (server-everything's gzip tool, server-filesystem's read_media_file).
 */

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scanPaths } from '../../src/scan/index.js';

const scratch = mkdtempSync(join(tmpdir(), 'mcp-shape-refine-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function scan(name: string, source: string) {
  const dir = mkdtempSync(join(scratch, 'src-'));
  writeFileSync(join(dir, name), source);
  const result = await scanPaths([dir], { cwd: dir });
  return { ...result, findings: result.report.findings };
}

/** A low-level tools/call handler, its arguments as `args` (`{}` when the request has none). */
const LOW_LEVEL_HEAD = `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
const server = new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } });
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const args = request.params.arguments ?? {};
`;

/** A Python low-level call_tool handler, its arguments as `arguments`. */
const PY_LOW_LEVEL_HEAD = `from mcp.server.lowlevel import Server
server = Server("s")

@server.call_tool()
async def call_tool(name, arguments):
`;

const TS_HEAD = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
`;

describe('a branch a constant rules out', () => {
  // server-everything's registerSessionResource: `type === "text" ? {…} : {…}`, called with "blob".
  const helper = (inDeadBranch: string) => `${TS_HEAD}
function contents(kind, payload) {
  const item = kind === 'text' ? { uri: 'a://x', text: payload, ${inDeadBranch} } : { uri: 'a://x', blob: payload };
  const fallback = kind === 'text' && { type: 'text', text: payload };
  return { type: 'resource', resource: item, fallback };
}
server.registerTool('zip', {}, async () => {
  const block = contents('blob', 'AAAA');
  return { content: [{ type: 'resource', resource: block.resource }] };
});
`;

  it('is skipped in a conditional expression and after `&&`, and the rest is analysed', async () => {
    const { verdict, unscanned, findings } = await scan('server.js', helper("mimeType: 'text/plain'"));
    expect(unscanned).toEqual([]);
    expect(findings).toEqual([]);
    expect(verdict).toMatchObject({ status: 'pass', handlers: 1, returns: 1, typed: 1 });
  });

  it('contributes no value: a defect only there is not reported for this call', async () => {
    // A number as mimeType would be an error, but `kind` is never "text" here.
    const { verdict, findings } = await scan('server.js', helper('mimeType: 42'));
    expect(findings).toEqual([]);
    expect(verdict.status).toBe('pass');
  });

  it('in Python too', async () => {
    const source = `from mcp.server.fastmcp import FastMCP
mcp = FastMCP("s")

def contents(kind, payload):
    item = {"uri": "a://x", "text": payload, "mimeType": 42} if kind == "text" else {"uri": "a://x", "blob": payload}
    extra = kind == "text" and {"type": "text", "text": payload}
    return item

@mcp.tool()
def zip() -> dict:
    return {"content": [{"type": "resource", "resource": contents("blob", "AAAA")}]}
`;
    const { unscanned, findings } = await scan('server.py', source);
    expect(unscanned).toEqual([]);
    expect(findings.filter((f) => f.severity === 'error')).toEqual([]);
  });
});

describe('startsWith / endsWith on a string of known constants', () => {
  // server-filesystem's read_media_file.
  const source = (audio: string) => `${TS_HEAD}
server.registerTool('media', {}, async ({ ext, data }) => {
  const types = { '.png': 'image/png', '.webp': 'image/webp', '.mp3': 'audio/mpeg', '.md': 'text/markdown' };
  const mimeType = types[ext] || 'application/octet-stream';
  const block = mimeType.startsWith('image/')
    ? { type: 'image', data, mimeType }
    : ${audio}
      ? { type: 'audio', data, mimeType }
      : mimeType.endsWith('/markdown')
        ? { type: 'text', text: data }
        : { type: 'resource', resource: { uri: 'file:///x', mimeType, blob: data } };
  return { content: [block] };
});
`;

  it('keeps in each branch only the constants that pass: no mimeType of the wrong family', async () => {
    const { findings, verdict } = await scan('server.js', source("mimeType.startsWith('audio/')"));
    expect(findings).toEqual([]);
    // `data` is the caller's argument: unresolved, never invalid.
    expect(verdict).toMatchObject({ handlers: 1, returns: 1, invalid: 0 });
  });

  it('still reports the constants a wrong test lets through, under that condition', async () => {
    const { findings } = await scan('server.js', source("mimeType.startsWith('text/')"));
    const wrong = findings.filter((f) => f.rule === 'block-mime-type-wrong-family');
    expect(wrong.map((f) => f.message)).toEqual([
      'audio block declares mimeType text/markdown, which is not audio/*',
    ]);
    expect(wrong[0]?.location?.when).toEqual([
      "`mimeType.startsWith('image/')` is false",
      "`mimeType.startsWith('text/')` is true",
    ]);
  });

  it('in Python: str.startswith', async () => {
    const py = (audio: string) => `from mcp.server.lowlevel import Server
server = Server("s")
TYPES = {".png": "image/png", ".mp3": "audio/mpeg"}

@server.call_tool()
async def media(name: str, arguments: dict):
    mime = TYPES.get(arguments["ext"]) or "application/octet-stream"
    if mime.startswith("image/"):
        block = {"type": "image", "data": arguments["data"], "mimeType": mime}
    elif ${audio}:
        block = {"type": "audio", "data": arguments["data"], "mimeType": mime}
    else:
        block = {"type": "text", "text": "unsupported"}
    return [block]
`;
    const clean = await scan('server.py', py('mime.startswith("audio/")'));
    expect(clean.findings.filter((f) => f.rule === 'block-mime-type-wrong-family')).toEqual([]);
    const wrong = await scan('server.py', py('mime.endswith("/png") or mime.startswith("audio/")'));
    expect(wrong.findings.filter((f) => f.rule === 'block-mime-type-wrong-family').length).toBeGreaterThan(0);
  });
});

describe('the condition of a value built after an early return', () => {
  it('TS: `when` names the condition the early return leaves false', async () => {
    const { findings } = await scan(
      'server.ts',
      `${TS_HEAD}
server.registerTool('stock', {}, async ({ sku }) => {
  const result = lookup(sku);
  if (typeof result === 'string') {
    return { content: [{ type: 'text', text: result }] };
  }
  if (!result) throw new Error('no such sku');
  const block = { type: 'object', object: result };
  return { content: [block] };
});
`,
    );
    expect(findings.map((f) => [f.rule, f.location?.line, f.location?.when])).toEqual([
      ['block-type-unknown', 10, ["`typeof result === 'string'` is false", '`!result` is false']],
    ]);
  });

  it('Python: the same', async () => {
    const { findings } = await scan(
      'server.py',
      `from mcp.server.lowlevel import Server
server = Server("s")

@server.call_tool()
async def stock(name: str, arguments: dict):
    result = lookup(arguments)
    if isinstance(result, str):
        return [{"type": "text", "text": result}]
    item = {"type": "object", "object": result}
    return [item]
`,
    );
    expect(findings.map((f) => [f.rule, f.location?.line, f.location?.when])).toEqual([
      ['block-type-unknown', 9, ['`isinstance(result, str)` is false']],
    ]);
  });

  it('names no condition when both sides of the `if` go on', async () => {
    const { findings } = await scan(
      'server.ts',
      `${TS_HEAD}
server.registerTool('stock', {}, async ({ sku }) => {
  const result = lookup(sku);
  if (typeof result === 'string') console.log(result);
  else console.log('object');
  return { content: [{ type: 'object', object: result }] };
});
`,
    );
    expect(findings.map((f) => [f.rule, f.location?.when])).toEqual([['block-type-unknown', undefined]]);
  });
});

describe('objects that describe messages are not messages', () => {
  // The inspector's client bundle builds zod schemas with local functions the analysis follows.
  const source = (id: string) => `
class ZodLiteral { constructor(value) { this.value = value; } }
const literalType = (value) => new ZodLiteral(value);
const objectType = (shape) => ({ shape, parse: (x) => x });
const JSONRPC_VERSION = '2.0';
export const JSONRPCResponseSchema = objectType({ jsonrpc: literalType(JSONRPC_VERSION), id: literalType(1) });
export function reply(req) {
  return { jsonrpc: JSONRPC_VERSION, id: ${id}, result: {} };
}
`;

  it('a schema whose jsonrpc member is an object is not judged', async () => {
    const { findings } = await scan('bundle.js', source('req.id'));
    expect(findings).toEqual([]);
  });

  it('a message beside it still is', async () => {
    const { findings } = await scan('bundle.js', source('{ n: 1 }'));
    expect(findings.map((f) => [f.rule, f.location?.line])).toEqual([['envelope-id-invalid', 8]]);
  });
});

/**
 * A value built from an input by its type, under a test of that type (`Array.isArray(node)`,
 * `typeof node === 'string'`, `isinstance(node, list)`), is what the input is: the source does not
 * fix it, so its type is never a proven defect. Found scanning the SDK v2 bundles, whose legacy
 * outputSchema wrap rewrites a schema node with `Array.isArray(node) ? node.map(…) : …`.
 * fixtures/scan/patterns/type-test-of-input holds the tool-result form in TS and Python (a list
 * comprehension under `isinstance(node, list)`), each with its proven twin.
 */
describe('a value whose type only a test on unknown input tells', () => {
  it('TS: a JSON-RPC tools/list answer whose outputSchema member maps an array input', async () => {
    const source = (input: string) => `
function rewrite(node) {
  if (Array.isArray(node)) return node.map((item) => rewrite(item));
  if (node === null || typeof node !== 'object') return node;
  const out = {};
  for (const [k, v] of Object.entries(node)) out[k] = rewrite(v);
  return out;
}
export function listTools(request, tool) {
  const schema = { type: 'object', properties: { result: rewrite(${input}) }, required: ['result'] };
  return { jsonrpc: '2.0', id: request.id, result: { tools: [{ name: 'a', inputSchema: { type: 'object' }, outputSchema: schema }] } };
}
`;
    expect((await scan('wire.js', source('tool.outputSchema'))).findings).toEqual([]);
    // An array the source builds is one: the same helper then gives proven defects (the member is
    // an array, so the schema holding it breaks its meta-schema: the SDK clients' Ajv still compiles
    // it, the Python SDK client does not).
    const proven = await scan('wire.js', source("[{ type: 'string' }]"));
    expect(proven.findings.map((f) => [f.rule, f.severity, f.location?.line])).toEqual([
      ['tool-output-schema-not-object', 'error', 3],
      ['tool-schema-meta-schema-mismatch', 'warning', 10],
    ]);
  });

  it('TS: a string method on a value tested to be a string is no proven string', async () => {
    const source = (input: string) => `${TS_HEAD}
const clean = (x) => (typeof x === 'string' ? x.trim() : x);
server.registerTool('t', {}, async (args) => ({ content: clean(${input}) }));
`;
    const tested = await scan('server.js', source('args.blocks'));
    expect(tested.findings).toEqual([]);
    expect(tested.verdict).toMatchObject({ status: 'fail', typed: 0, invalid: 0, unresolved: 1 });
    // A string the source builds is one.
    const proven = await scan('server.js', source("'  hello  '"));
    expect(proven.findings.map((f) => [f.rule, f.severity])).toEqual([['result-content-not-array', 'error']]);
  });
});

describe('a type test proves the type on its path', () => {
  it('TS: typeof x === "string" (or !== then throw) makes x a string there; "boolean" a boolean', async () => {
    const { verdict, findings } = await scan(
      'server.js',
      `${TS_HEAD}
server.registerTool('a', {}, async ({ text, failed }) => {
  if (typeof text === 'string') return { content: [{ type: 'text', text }], isError: typeof failed === 'boolean' && failed };
  return { content: [{ type: 'text', text: 'none' }] };
});
server.registerTool('b', {}, async ({ text, failed }) => {
  if (typeof text !== 'string' || typeof failed !== 'boolean') throw new Error('bad arguments');
  return { content: [{ type: 'text', text }], isError: failed };
});
`,
    );
    expect(findings).toEqual([]);
    expect(verdict).toMatchObject({ status: 'pass', returns: 3, typed: 3 });
  });

  it('TS: typeof x.key === "string" makes the member a string there, in a low-level handler too', async () => {
    // \`request.params.arguments ?? {}\`: the \`{}\` has no \`city\`, so it is not on the tested path (it
    // was judged there as a text block without text, a false error).
    const { verdict, findings } = await scan(
      'server.js',
      `${LOW_LEVEL_HEAD}  const known = { city: request.params.name === 'a' ? 'x' : 5 };
  if (typeof args.city === 'string') return { content: [{ type: 'text', text: args.city }] };
  if (typeof known.city === 'string') return { content: [{ type: 'text', text: known.city }] };
  if (typeof args.n !== 'string') throw new Error('n must be a string');
  if (typeof args.flag === 'boolean') return { content: [{ type: 'text', text: args.n }], isError: args.flag };
  return { content: [{ type: 'text', text: args.n }] };
});
`,
    );
    expect(findings).toEqual([]);
    expect(verdict).toMatchObject({ status: 'pass', returns: 4, typed: 4 });
  });

  it('TS: the member is a string only on the tested path and until it is set again', async () => {
    const { verdict, findings } = await scan(
      'server.js',
      `${LOW_LEVEL_HEAD}  if (typeof args.city === 'string') {
    args.city = 5;
    return { content: [{ type: 'text', text: args.city }] };
  }
  if (typeof args.a === 'string') return { content: [{ type: 'text', text: args.b }] };
  if (typeof args.c !== 'string') return { content: [{ type: 'text', text: args.c }] };
  return { content: [] };
});
`,
    );
    // The 5 set at line 7, and the member that is no string at line 11.
    expect(findings.map((f) => `${f.rule} ${f.location?.line}`)).toEqual([
      'block-text-invalid 7',
      'block-text-invalid 11',
    ]);
    expect(verdict).toMatchObject({ status: 'fail', returns: 4, typed: 1, invalid: 2, unresolved: 1 });
  });

  it('TS: typeof x === "number" proves no JSON number (NaN is written as null)', async () => {
    const { verdict } = await scan(
      'server.js',
      `${TS_HEAD}
server.registerTool('a', {}, async ({ size }) => {
  if (typeof size === 'number') return { content: [{ type: 'resource_link', uri: 'file:///a', name: 'a', size }] };
  return { content: [] };
});
`,
    );
    expect(verdict).toMatchObject({ status: 'fail', returns: 2, typed: 1, unresolved: 1 });
  });

  it('Python: isinstance(x["key"], str) and isinstance(x.get("key"), str) make the member a string there', async () => {
    const { verdict, findings } = await scan(
      'server.py',
      `${PY_LOW_LEVEL_HEAD}    if isinstance(arguments["city"], str):
        return [{"type": "text", "text": arguments["city"]}]
    if isinstance(arguments.get("q"), str):
        return [{"type": "text", "text": arguments.get("q")}]
    known = {"a": 1 if name else "x"}
    if isinstance(known["a"], str):
        return [{"type": "text", "text": known["a"]}]
    if isinstance(arguments.get("z"), str):
        arguments["z"] = 5
        return [{"type": "text", "text": arguments["z"]}]
    if isinstance(arguments.get("b"), str):
        return [{"type": "text", "text": arguments.get("c")}]
    return []
`,
    );
    // The 5 set at line 14 is no string, and another member than the tested one is not known.
    expect(findings.map((f) => `${f.rule} ${f.location?.line}`)).toEqual(['block-text-invalid 14']);
    expect(verdict).toMatchObject({ status: 'fail', returns: 6, typed: 4, invalid: 1, unresolved: 1 });
  });

  it('Python: isinstance(x, str) makes x a string there', async () => {
    const { verdict, findings } = await scan(
      'server.py',
      `${PY_LOW_LEVEL_HEAD}    text = arguments.get("text")
    if isinstance(text, str):
        return [{"type": "text", "text": text}]
    if isinstance(text, (str, int)):
        return [{"type": "text", "text": text}]
    return [{"type": "text", "text": "none"}]
`,
    );
    expect(findings).toEqual([]);
    // The second test lets an int through: that return stays unresolved.
    expect(verdict).toMatchObject({ status: 'fail', returns: 3, typed: 2, unresolved: 1 });
  });
});

describe('conditions tested on different passes of a loop', () => {
  it('are not listed as both true and false', async () => {
    const { findings, verdict } = await scan(
      'server.ts',
      `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('t', { inputSchema: { n: z.number(), flag: z.boolean() } }, async ({ n, flag }) => {
  const content: any[] = [];
  let i = 0;
  if (flag) content.push({ type: 'text', text: 'flagged' });
  do {
    content.push(i === 1 ? { type: 'row', text: 'x' } : { type: 'text', text: 'y' });
    i++;
  } while (i < n);
  return { content };
});
`,
    );
    expect(verdict).toMatchObject({ invalid: 1 });
    const when = findings.flatMap((f) => f.location?.when ?? []);
    expect(when.some((w) => w.startsWith('`i === 1`'))).toBe(false);
  });
});
