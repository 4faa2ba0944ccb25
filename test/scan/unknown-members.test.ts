/**
 * "typed" means proven (issue 8, item 3): every member of a tool result a rule checks, and of each
 * content block, is either a value the source fixes, an unknown whose JSON type is all the rules
 * need (`String(x)` is a string), or covered by a declared type. Anything else makes the return
 * unresolved, with a reason naming the member and the expression, never invalid and never typed.
 * For Python, what is judged is what the framework sends, read in its source (cited per test).
 */

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ScanOptions, scanPaths } from '../../src/scan/index.js';

const scratch = mkdtempSync(join(tmpdir(), 'mcp-shape-unknown-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function scan(name: string, source: string, options: ScanOptions = {}) {
  const dir = mkdtempSync(join(scratch, 'src-'));
  writeFileSync(join(dir, name), source);
  const { verdict, report } = await scanPaths([dir], { cwd: dir, ...options });
  const returns = verdict.tools.length;
  const reasons = verdict.unproven.map((u) => u.replace(/^.*?\): /, ''));
  const errors = report.findings.filter((f) => f.severity === 'error');
  return { verdict, reasons, errors, returns, report };
}

const ts = (
  body: string,
  signature = 'async (args)',
) => `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('t', {}, ${signature} => {
  ${body}
});
`;

/** The return is unresolved for `reason` (at line 5 of server.ts), with no error and no pass. */
async function expectUnresolved(source: string, reason: string, options: ScanOptions = {}) {
  const { verdict, reasons, errors } = await scan('server.ts', source, options);
  expect(errors.map((f) => f.message)).toEqual([]);
  expect(verdict).toMatchObject({ status: 'fail', returns: 1, typed: 0, invalid: 0, unresolved: 1 });
  expect(verdict.unproven[0]).toMatch(/^t \(server\.ts:5:3\): /);
  expect(reasons[0]).toContain(reason);
}

async function expectTyped(source: string, byDeclaration = false, options: ScanOptions = {}) {
  const { verdict, errors } = await scan('server.ts', source, options);
  expect(errors.map((f) => f.message)).toEqual([]);
  expect(verdict, verdict.detail).toMatchObject({ status: 'pass', returns: 1, typed: 1, unresolved: 0 });
  expect(verdict.typedByDeclaration).toBe(byDeclaration ? 1 : 0);
}

describe('result members the analysis cannot see (TS SDK: sent as returned)', () => {
  it('structuredContent: unresolved, naming the expression and where it is', async () => {
    await expectUnresolved(
      ts(`return { content: [{ type: 'text', text: 'x' }], structuredContent: args.payload };`),
      'structuredContent is `args.payload` at server.ts:5 (args.payload is known only at run time)',
    );
  });

  it('isError and _meta: unresolved; a comparison and an object literal are proven', async () => {
    await expectUnresolved(
      ts(`return { content: [{ type: 'text', text: 'x' }], isError: args.failed };`),
      'isError is `args.failed`',
    );
    await expectUnresolved(
      ts(`return { content: [{ type: 'text', text: 'x' }], _meta: args.meta };`),
      '_meta is `args.meta`',
    );
    await expectTyped(
      ts(
        `return { content: [{ type: 'text', text: 'x' }], isError: args.failed === 1, _meta: { trace: args.meta } };`,
      ),
    );
  });

  it('an unknown spread into the result may override any member, wherever it stands', async () => {
    for (const result of [`{ ...args.extra, content: [] }`, `{ content: [], ...args.extra }`]) {
      await expectUnresolved(
        ts(`return ${result};`),
        'the result may have members the analysis cannot see (members spread from ...args.extra)',
      );
    }
  });

  it('a declared CallToolResult proves the members it covers: typed by declaration', async () => {
    await expectTyped(
      ts(
        `return { ...args.extra, content: [{ type: 'text', text: args.note }], structuredContent: args.payload, isError: args.failed };`,
        'async (args): Promise<CallToolResult>',
      ),
      true,
    );
  });

  it('resultType from 2026-07-28: unknown is unresolved, "complete" is proven', async () => {
    const protocolVersion = '2026-07-28';
    await expectUnresolved(
      ts(`return { resultType: args.kind, content: [{ type: 'text', text: 'x' }] };`),
      'resultType is `args.kind`',
      { protocolVersion },
    );
    await expectTyped(
      ts(`return { resultType: 'complete', content: [{ type: 'text', text: 'x' }] };`),
      false,
      {
        protocolVersion,
      },
    );
  });

  it('from 2026-07-28 structuredContent may be any JSON value, but it must be one', async () => {
    const protocolVersion = '2026-07-28';
    const result = (structured: string) =>
      ts(
        `return { resultType: 'complete', content: [{ type: 'text', text: JSON.stringify(${structured}) }], structuredContent: ${structured} };`,
      );
    await expectUnresolved(result('args.payload'), 'structuredContent is `args.payload`', {
      protocolVersion,
    });
    await expectTyped(result('[args.payload]'), false, { protocolVersion });
  });
});

describe('block members the analysis cannot see', () => {
  it('text: a value of unknown type is unresolved; String(…) and a template literal are strings', async () => {
    await expectUnresolved(
      ts(`return { content: [{ type: 'text', text: args.note }] };`),
      '"text" of content[0] is `args.note`',
    );
    await expectTyped(
      ts(
        `return { content: [{ type: 'text', text: String(args.note) }, { type: 'text', text: \`\${args.note}\` }] };`,
      ),
    );
  });

  it('a member that must be a string, holding a number or boolean known only at run time, is an error by its type', async () => {
    // Once unresolved: the engine says nothing of an unknown value, though its type alone fails the
    // SDK's schema (and pydantic's, which does not turn an int into a str).
    for (const [body, message, line] of [
      [
        `return { content: [{ type: 'text', text: args.rows.length }] };`,
        'text block "text" must be a string, got number',
        5,
      ],
      [
        `return { content: [{ type: 'image', data: 'iVBORw0KGgo=', mimeType: args.n > 1 }] };`,
        'image block mimeType must be a string, got boolean',
        5,
      ],
    ] as const) {
      const { verdict, errors } = await scan('server.ts', ts(body));
      expect(
        errors.map((f) => [f.message, f.location?.line]),
        body,
      ).toEqual([[message, line]]);
      expect(verdict, body).toMatchObject({ status: 'fail', invalid: 1, typed: 0 });
    }
    const python = `from mcp.server.lowlevel import Server
from mcp import types
server = Server("x")
@server.call_tool()
async def call_tool(name, arguments):
    if name == "loop":
        blocks = []
        for i in range(3):
            blocks.append({"type": "text", "text": i})
        return blocks
    return [types.TextContent(type="text", text=len(arguments))]
`;
    const { verdict, errors } = await scan('server.py', python);
    expect(errors.map((f) => [f.message.replace(/ when .*/, ''), f.location?.line])).toEqual([
      ['text block "text" must be a string, got integer', 9],
      ['text block "text" must be a string, got integer', 11],
    ]);
    expect(verdict).toMatchObject({ status: 'fail', invalid: 2, typed: 0 });
    // A string of unknown content, and a number the source turns into one, stay as they were.
    await expectTyped(ts(`return { content: [{ type: 'text', text: String(args.rows.length) }] };`));
  });

  it('the blocks a map builds are judged one by one', async () => {
    await expectUnresolved(
      ts(`return { content: args.rows.map((row) => ({ type: 'text', text: row.name })) };`),
      '"text" of content[0] is `row.name`',
    );
    await expectTyped(
      ts(`return { content: args.rows.map((row) => ({ type: 'text', text: String(row.name) })) };`),
    );
  });

  it('annotations, _meta and an unknown spread into a block', async () => {
    await expectUnresolved(
      ts(`return { content: [{ type: 'text', text: 'x', annotations: { priority: args.p } }] };`),
      '"annotations" of content[0] holds `args.p`',
    );
    await expectUnresolved(
      ts(`return { content: [{ type: 'text', text: 'x', _meta: args.meta }] };`),
      '"_meta" of content[0] is `args.meta`',
    );
    await expectUnresolved(
      ts(`return { content: [{ ...args.block, type: 'text', text: 'x' }] };`),
      'content[0] may have members the analysis cannot see (members spread from ...args.block)',
    );
    await expectTyped(
      ts(
        `return { content: [{ type: 'text', text: 'x', annotations: { priority: 0.5 }, ...(args.verbose && { _meta: { v: 1 } }) }] };`,
      ),
    );
  });

  it('the resource of an embedded resource', async () => {
    await expectUnresolved(
      ts(
        `return { content: [{ type: 'resource', resource: { uri: 'file:///a', text: 'x', mimeType: args.m } }] };`,
      ),
      '"mimeType" of the resource of content[0] is `args.m`',
    );
    await expectUnresolved(
      ts(`return { content: [{ type: 'resource_link', uri: 'file:///a', name: 'a', size: args.size }] };`),
      '"size" of content[0] is `args.size`',
    );
  });
});

describe('a value read in two places', () => {
  it('is judged in each of its possibilities, the same one in both places', async () => {
    // The text and structuredContent hold one variable: each document of the return takes one of its
    // values for both. (Choices were once counted per read, so the second read used up the unknown
    // value and the text was only ever judged as 'ok'.)
    const { verdict, reasons, errors } = await scan(
      'server.ts',
      ts(`let text;
  if (args.cached) text = 'ok';
  else text = args.raw;
  return { content: [{ type: 'text', text }], structuredContent: { text } };`),
    );
    expect(errors).toEqual([]);
    expect(verdict).toMatchObject({ status: 'fail', typed: 0, unresolved: 1 });
    expect(reasons[0]).toBe(
      '"text" of content[0] is `args.raw` at server.ts:7 (args.raw is known only at run time)',
    );
  });
});

describe('a structuredContent too large to check', () => {
  it('is unresolved, and the JSON text of it is still its mirror (no mirror warning)', async () => {
    // Past 20,000 nodes a document is cut off as "too large"; the cut value kept no identity, so the
    // text block holding its JSON.stringify was taken for prose and a missing mirror was reported.
    const members = Array.from({ length: 21_000 }, (_, i) => `k${i}: ${i}`).join(', ');
    const { verdict, reasons, report } = await scan(
      'server.ts',
      ts(`const structuredContent = { ${members} };
  return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent };`),
    );
    expect(report.findings.map((f) => f.rule)).toEqual([]);
    expect(verdict).toMatchObject({ status: 'fail', typed: 0, unresolved: 1 });
    expect(reasons[0]).toContain('(the value is too large to check statically)');
  }, 60_000);
});

describe('data and uri: a string is proof only when it is made to be base64 or a URI', () => {
  // block-base64-invalid and block-uri-invalid (errors) read the text of `data`, `blob` and `uri`:
  // that it is a string says nothing of it. A mimeType's text is only read by warnings.
  const image = (data: string) =>
    ts(`return { content: [{ type: 'image', data: ${data}, mimeType: 'image/png' }] };`);
  const link = (uri: string) =>
    ts(`return { content: [{ type: 'resource_link', uri: ${uri}, name: 'a' }] };`);
  const imports = `import { readFileSync } from 'node:fs';\nimport { readFile } from 'node:fs/promises';\nimport { pathToFileURL } from 'node:url';\n`;

  it("data: any string is unresolved, naming the expression; an encoder's output is proven", async () => {
    await expectUnresolved(
      image('String(args.png)'),
      '"data" of content[0] is `String(args.png)` at server.ts:5 (a string known only at run time), not shown to be base64',
    );
    for (const data of [
      `Buffer.from(String(args.png)).toString('base64')`,
      `btoa(String(args.png))`,
      `readFileSync(String(args.path), 'base64')`,
      `await readFile(String(args.path), { encoding: 'base64' })`,
    ]) {
      await expectTyped(`${imports}${image(data)}`.replace(/server\.ts/, ''));
    }
  });

  it('text: readFile with a text encoding is a string; without one, a Buffer', async () => {
    const text = (t: string) => ts(`return { content: [{ type: 'text', text: ${t} }] };`);
    for (const t of [
      `await readFile(String(args.path), 'utf8')`,
      `readFileSync(String(args.path), { encoding: 'utf-8' })`,
    ]) {
      await expectTyped(`${imports}${text(t)}`);
    }
    const { verdict } = await scan('server.ts', `${imports}${text('readFileSync(String(args.path))')}`);
    expect(verdict).toMatchObject({ status: 'fail', unresolved: 1 });
  });

  it("data: base64url, another encoding or a variable's text stays unresolved", async () => {
    for (const data of [
      `Buffer.from(String(args.png)).toString('base64url')`,
      `Buffer.from(String(args.png)).toString('hex')`,
      `readFileSync(String(args.path)).toString('utf8')`,
    ]) {
      const { verdict, reasons } = await scan('server.ts', `${imports}${image(data)}`);
      expect(verdict, data).toMatchObject({ status: 'fail', typed: 0, unresolved: 1 });
      expect(reasons[0], data).toContain('not shown to be base64');
    }
  });

  it("uri: a URL's href, or a template of constant text and numbers that is a URI whatever they are", async () => {
    await expectUnresolved(
      link(`\`file://\${String(args.path)}\``),
      `"uri" of content[0] is \`\` \`file://\${String(args.path)}\` \`\` at server.ts:5 (a string known only at run time), not shown to be an absolute URI`,
    );
    for (const uri of [
      'pathToFileURL(String(args.path)).href',
      'new URL(String(args.path), "file:///").toString()',
      'String(new URL(String(args.u)))',
      `\`\${new URL(String(args.u))}\``,
      `\`https://example.com/items/\${Number(args.id)}?page=\${args.page * 2}\``,
    ]) {
      await expectTyped(`${imports}${link(uri)}`);
    }
    // Numbers alone do not make a relative reference absolute, nor a scheme out of a leading "-1".
    for (const uri of [`\`items/\${Number(args.id)}\``, `\`\${Number(args.n)}:x\``]) {
      const { verdict, reasons } = await scan('server.ts', link(uri));
      expect(verdict, uri).toMatchObject({ status: 'fail', unresolved: 1 });
      expect(reasons[0], uri).toContain('not shown to be an absolute URI');
    }
  });

  it('the uri and blob of an embedded resource', async () => {
    await expectUnresolved(
      ts(`return { content: [{ type: 'resource', resource: { uri: String(args.u), text: 'x' } }] };`),
      '"uri" of the resource of content[0] is `String(args.u)` at server.ts:5 (a string known only at run time), not shown to be an absolute URI',
    );
    await expectUnresolved(
      ts(`return { content: [{ type: 'resource', resource: { uri: 'file:///a', blob: String(args.b) } }] };`),
      '"blob" of the resource of content[0] is `String(args.b)` at server.ts:5 (a string known only at run time), not shown to be base64',
    );
    await expectTyped(
      ts(
        `return { content: [{ type: 'resource', resource: { uri: 'file:///a', blob: Buffer.from(String(args.b)).toString('base64') } }] };`,
      ),
    );
  });

  it('a declared CallToolResult proves data and uri: typed by declaration', async () => {
    await expectTyped(
      ts(
        `return { content: [{ type: 'image', data: String(args.png), mimeType: 'image/png' }, { type: 'resource_link', uri: String(args.u), name: 'a' }] };`,
        'async (args): Promise<CallToolResult>',
      ),
      true,
    );
  });

  it("Python: base64.b64encode(…).decode(), Path.as_uri(), a model's AnyUrl, FastMCP's Image", async () => {
    const lowlevel = (setup: string, block: string) => `import base64
from base64 import b64encode, urlsafe_b64encode
from pathlib import Path
from mcp.server.lowlevel import Server
from mcp.types import ResourceLink
server = Server("s")

@server.call_tool()
async def call_tool(name, arguments):
    raw = Path(str(arguments.get("path"))).read_bytes()
    ${setup}
    return [${block}]
`;
    const typed = [
      ['', '{"type": "image", "data": base64.b64encode(raw).decode(), "mimeType": "image/png"}'],
      ['', '{"type": "image", "data": b64encode(raw).decode("ascii"), "mimeType": "image/png"}'],
      [
        '',
        '{"type": "resource_link", "uri": Path(str(arguments.get("path"))).resolve().as_uri(), "name": "a"}',
      ],
      ['', 'ResourceLink(type="resource_link", uri=str(arguments.get("u")), name="a")'],
      [
        'n = int(arguments.get("n"))',
        '{"type": "resource_link", "uri": f"https://example.com/items/{n}", "name": "a"}',
      ],
    ];
    for (const [setup, block] of typed) {
      const { verdict } = await scan('server.py', lowlevel(setup as string, block as string));
      expect(verdict, block).toMatchObject({ status: 'pass', typed: 1 });
    }
    const unresolved = [
      ['{"type": "image", "data": str(raw), "mimeType": "image/png"}', 'not shown to be base64'],
      [
        '{"type": "image", "data": urlsafe_b64encode(raw).decode(), "mimeType": "image/png"}',
        'not shown to be base64',
      ],
      [
        '{"type": "image", "data": base64.b64encode(raw).decode("utf-16"), "mimeType": "image/png"}',
        'not shown to be base64',
      ],
      [
        '{"type": "resource_link", "uri": f"file://{arguments.get(\'path\')}", "name": "a"}',
        'not shown to be an absolute URI',
      ],
      [
        '{"type": "resource_link", "uri": f"https://example.com/{int(arguments.get(\'n\')):>9}", "name": "a"}',
        'not shown to be an absolute URI',
      ],
    ];
    for (const [block, reason] of unresolved) {
      const { verdict, reasons } = await scan('server.py', lowlevel('', block as string));
      expect(verdict, block).toMatchObject({ status: 'fail', typed: 0, unresolved: 1 });
      expect(reasons[0], block).toContain(reason);
    }
    const { verdict } = await scan(
      'server.py',
      `from mcp.server.fastmcp import FastMCP, Image
mcp = FastMCP("s")

@mcp.tool()
def chart(path: str):
    return Image(path=path)
`,
    );
    expect(verdict).toMatchObject({ status: 'pass', typed: 1 });
  });

  it('the MIME type FastMCP derives for Image and Audio is judged where the source tells it', async () => {
    // The SDK's FastMCP maps five image suffixes and sends application/octet-stream for any other; the
    // standalone package asks Python's mimetypes (not modelled: unknown). Audio: both fixed tables.
    const source = (imports: string) => `${imports}
mcp = FastMCP("s")

@mcp.tool()
def svg():
    return Image(path="chart.svg")

@mcp.tool()
def tiff(out: str):
    return Image(path=f"{out}/scan.TIFF")

@mcp.tool()
def song(out: str):
    return Audio(path=f"{out}/a.aac")

@mcp.tool()
def fine(out: str, name: str, raw: bytes):
    return [Image(path=f"{out}/chart.png"), Image(data=raw, format="webp"), Audio(data=raw),
            Image(path=name), Image(path=f"{out}/{name}.svg"), Image(path=f"{name}.svg")]
`;
    const sdk = await scan('server.py', source('from mcp.server.fastmcp import FastMCP, Image, Audio'));
    const wrongFamily = (r: typeof sdk) =>
      r.report.findings
        .filter((f) => f.rule === 'block-mime-type-wrong-family')
        .map((f) => [f.location?.line, f.location?.column, f.message]);
    expect(wrongFamily(sdk)).toEqual([
      [6, 23, 'image block declares mimeType application/octet-stream, which is not image/*'],
      [10, 23, 'image block declares mimeType application/octet-stream, which is not image/*'],
    ]);
    const standalone = await scan(
      'server.py',
      source('from fastmcp import FastMCP\nfrom fastmcp.utilities.types import Image, Audio'),
    );
    // Lines one lower: the imports take two.
    expect(wrongFamily(standalone)).toEqual([
      [15, 23, 'audio block declares mimeType application/octet-stream, which is not audio/*'],
    ]);
  });

  it("FastMCP's Image, Audio and File given a str as data, or nothing: an error at the call, for both FastMCPs", async () => {
    // Both FastMCPs' helpers (python-sdk src/mcp/server/fastmcp/utilities/types.py, jlowin/fastmcp
    // src/fastmcp/utilities/types.py) base64-encode `data` as bytes when FastMCP converts the return,
    // and raise on a str; with neither `path` nor `data` the constructor raises ValueError.
    for (const [imports, decorator] of [
      [
        'from mcp.server.fastmcp import FastMCP, Image, Audio\nfrom fastmcp.utilities.types import File',
        '@mcp.tool()',
      ],
      ['from fastmcp import FastMCP\nfrom fastmcp.utilities.types import Image, Audio, File', '@mcp.tool'],
    ]) {
      const { verdict, errors } = await scan(
        'server.py',
        `import base64
${imports}
mcp = FastMCP("s")

${decorator}
def encoded(raw: bytes):
    return Image(data=base64.b64encode(raw).decode(), format="png")

${decorator}
def given(text: str):
    return [Audio(data=text)]

${decorator}
def empty():
    return Image()

${decorator}
def note(text: str):
    return File(data=text, format="plain")

${decorator}
def fine(raw: bytes, path: str):
    with open(path, "rb") as f:
        first = Image(data=f.read())
    return [first, Image(data=raw), Audio(path=path), Image(data=b"GIF89a"), Image(data=text_bytes(path))]

def text_bytes(path: str):
    return path.encode()

${decorator}
def guarded():
    try:
        return Image()
    except ValueError:
        return Image(path="fallback.png")
`,
      );
      expect(
        errors.map((f) => [f.rule, f.location?.line, f.message.replace(/^.*?: /, '')]),
        imports,
      ).toEqual([
        ['result-rejected-by-server', 8, expect.stringContaining('`Image(data=…)` is given a str')],
        ['result-rejected-by-server', 12, expect.stringContaining('`Audio(data=…)` is given a str')],
        [
          'result-rejected-by-server',
          16,
          expect.stringContaining('`Image()` is given neither `path` nor `data`'),
        ],
        ['result-rejected-by-server', 20, expect.stringContaining('.decode for a text format')],
      ]);
      expect(verdict, imports).toMatchObject({
        status: 'fail',
        returns: 7,
        typed: 3,
        invalid: 4,
        unresolved: 0,
      });
    }
    // Only FastMCP converts its helpers: the low-level server fails on one its own way, not FastMCP's.
    const lowlevel = await scan(
      'server.py',
      `from mcp.server.lowlevel import Server
from mcp.server.fastmcp import Image
server = Server("s")

@server.call_tool()
async def call(name: str, arguments: dict):
    return [Image(data="abc")]
`,
    );
    expect(lowlevel.report.findings.filter((f) => f.rule === 'result-rejected-by-server')).toEqual([]);
  });
});

describe('Python: what the framework sends', () => {
  async function py(source: string) {
    const { verdict, reasons, errors } = await scan('server.py', source);
    expect(errors.map((f) => f.message)).toEqual([]);
    return { verdict, reasons };
  }

  it('low-level server: a returned dict is the structuredContent, whatever it holds', async () => {
    // python-sdk v1.29.0 src/mcp/server/lowlevel/server.py, `Server.call_tool` decorator: a dict is
    // `maybe_structured_content`, sent with `TextContent(text=json.dumps(results))` as content. So
    // a dict with a "structuredContent" key is an object under structuredContent: proven.
    const { verdict } = await py(`from mcp.server.lowlevel import Server
server = Server("s")

@server.call_tool()
async def call_tool(name, arguments):
    payload = arguments.get("payload")
    return {"content": [{"type": "text", "text": "x"}], "structuredContent": payload}
`);
    expect(verdict).toMatchObject({ status: 'pass', typed: 1 });
  });

  it('low-level server: the second item of a 2-tuple is the structuredContent', async () => {
    // Same decorator: `unstructured_content, maybe_structured_content = results` for a 2-tuple, then
    // `CallToolResult(structuredContent=…)`, which pydantic rejects unless it is a dict.
    const { verdict, reasons } = await py(`from mcp.server.lowlevel import Server
from mcp.types import TextContent
server = Server("s")

@server.call_tool()
async def call_tool(name, arguments):
    payload = arguments.get("payload")
    return [TextContent(type="text", text="x")], payload
`);
    expect(verdict).toMatchObject({ status: 'fail', typed: 0, invalid: 0, unresolved: 1 });
    expect(reasons[0]).toContain('structuredContent is `arguments.get("payload")`');
  });

  it('FastMCP converts any return value into valid content: an unknown value is typed', async () => {
    // python-sdk v1.29.0 src/mcp/server/fastmcp/utilities/func_metadata.py, `_convert_to_content`:
    // None → [], a ContentBlock → [it], Image/Audio → a block, a list or tuple item by item, a str
    // → TextContent, anything else `pydantic_core.to_json(result, fallback=str)` → TextContent.
    // jlowin/fastmcp src/fastmcp/tools/tool.py, `_convert_to_content` and
    // `_convert_to_single_content_block`, do the same (with `_serialize_with_fallback`).
    for (const pkg of ['mcp.server.fastmcp', 'fastmcp']) {
      const { verdict } = await py(`from ${pkg} import FastMCP
mcp = FastMCP("s")

@mcp.tool()
def relay(payload):
    return {"content": [{"type": "object"}], "structuredContent": payload}

@mcp.tool()
def echo(payload: str) -> str:
    return payload
`);
      expect(verdict, pkg).toMatchObject({ status: 'pass', returns: 2, typed: 2 });
    }
  });

  it("the SDK's FastMCP validates the value against a primitive annotation before sending it", async () => {
    // python-sdk v1.29.0 func_metadata.py: `-> str` gets an output model `{"result": str}`
    // (`_try_create_model_and_schema`), and `FuncMetadata.convert_result` validates
    // `{"result": result}` against it: a dict under `-> str` raises, and the client gets an error
    // result in place of the output on every call. `structured_output=False` creates no model.
    const source = (decorator: string) => `from mcp.server.fastmcp import FastMCP
mcp = FastMCP("s")

${decorator}
def relay(payload) -> str:
    if payload:
        return {"content": [{"type": "text", "text": "x"}]}
    return "nothing"
`;
    const dir = mkdtempSync(join(scratch, 'src-'));
    writeFileSync(join(dir, 'server.py'), source('@mcp.tool()'));
    const { verdict, report } = await scanPaths([dir], { cwd: dir });
    expect(verdict).toMatchObject({ status: 'fail', returns: 2, typed: 1, invalid: 1 });
    expect(report.findings.map((f) => `${f.rule}@${f.location?.line}`)).toEqual([
      'structured-content-schema-mismatch@7',
    ]);
    expect(report.findings[0]?.message).toContain('FastMCP validates the return value against `-> str`');
    const unvalidated = await py(source('@mcp.tool(structured_output=False)'));
    expect(unvalidated.verdict).toMatchObject({ status: 'pass', typed: 2 });
  });

  it('standalone fastmcp under -> CallToolResult: structuredContent is checked as a CallToolResult', async () => {
    // jlowin/fastmcp src/fastmcp/tools/tool.py, `Tool.convert_result`: the value is also sent as
    // structured_content, checked against the outputSchema made from the annotation.
    const { verdict, reasons } = await py(`from fastmcp import FastMCP
from mcp.types import CallToolResult
mcp = FastMCP("s")

@mcp.tool()
def relay(payload: dict) -> CallToolResult:
    return {"content": [{"type": "text", "text": "x"}], "isError": payload.get("failed")}
`);
    expect(verdict).toMatchObject({ status: 'fail', typed: 0, invalid: 0, unresolved: 1 });
    expect(reasons[0]).toMatch(/^structuredContent, checked against CallToolResult's schema: isError is /);
  });

  it('a gateway sends the result as built: an unknown _meta is unresolved', async () => {
    const { verdict, reasons } = await py(`from fastapi import FastAPI, Request
app = FastAPI()

@app.post("/mcp")
async def mcp(request: Request):
    body = await request.json()
    return {"jsonrpc": "2.0", "id": body["id"], "result": {"content": [], "_meta": body.get("meta")}}
`);
    expect(verdict).toMatchObject({ status: 'fail', invalid: 0, unresolved: 1 });
    expect(reasons[0]).toContain('_meta is `body.get("meta")`');
  });
});

describe('a member read by a key that is one of a few constants (`KINDS[kind]`)', () => {
  it('reads each key: typed when every one names a text type, however the key is chosen', async () => {
    await expectTyped(
      ts(`const KINDS = { a: 'text', b: 'text' };
  const kind = args.x ? 'a' : 'b';
  return { content: [{ type: KINDS[kind], text: 'x' }] };`),
    );
  });

  it('still reports a key the object lacks, as a block with no type', async () => {
    const { errors } = await scan(
      'server.ts',
      ts(`const KINDS = { a: 'text' };
  const kind = args.x ? 'a' : 'b';
  return { content: [{ type: KINDS[kind], text: 'x' }] };`),
    );
    expect(errors.map((f) => [f.rule, f.message])).toEqual([
      ['block-type-unknown', 'content block has no "type"'],
    ]);
  });

  it('reports the one key whose value is wrong, and no missing type', async () => {
    const { errors } = await scan(
      'server.ts',
      ts(`const KINDS = { a: 'text', b: 'markdown', 2: 'text' };
  const kind = args.x ? 'a' : args.y ? 2 : 'b';
  return { content: [{ type: KINDS[kind], text: 'x' }] };`),
    );
    expect(errors.map((f) => f.message)).toEqual([
      'unknown content block type "markdown": use a text block; Markdown goes in `text`',
    ]);
  });
});

describe('the lone text `JSON.stringify({ error: … })` of an error value known only at run time', () => {
  const warnings = async (body: string) => {
    const { report } = await scan('server.ts', ts(body));
    return report.findings.filter((f) => f.severity === 'warning').map((f) => f.rule);
  };

  it('is an error payload whatever the string is', async () => {
    expect(
      await warnings(`try { return { content: [{ type: 'text', text: String(args.x) }] }; }
  catch (e) { return { content: [{ type: 'text', text: JSON.stringify({ error: \`failed: \${e}\`, at: args.x }) }] }; }`),
    ).toEqual(['result-error-without-is-error']);
  });

  it('is none with isError, with an error that may be undefined (left out of the JSON), or null', async () => {
    for (const error of ['String(args.x)', 'args.x', 'null']) {
      const isError = error === 'String(args.x)' ? ', isError: true' : '';
      expect(
        await warnings(
          `return { content: [{ type: 'text', text: JSON.stringify({ error: ${error} }) }]${isError} };`,
        ),
        error,
      ).toEqual([]);
    }
  });
});

describe('an error payload beside an isError known only at run time', () => {
  const warnings = async (body: string) => {
    const { report } = await scan('server.ts', ts(body));
    return report.findings.filter((f) => f.severity === 'warning').map((f) => f.rule);
  };

  it('is not reported: the boolean is most often the test that chose the payload', async () => {
    for (const body of [
      "const fail = Math.random() > 0.5;\n  return { content: [{ type: 'text', text: fail ? JSON.stringify({ error: 'bad' }) : 'ok' }], isError: fail };",
      "const fail = Math.random() > 0.5;\n  const payload = fail ? { error: 'bad' } : { ok: true };\n  return { content: [{ type: 'text', text: JSON.stringify(payload) }], isError: fail };",
    ]) {
      expect(await warnings(body), body).toEqual([]);
    }
  });

  it('is reported where isError is surely not true', async () => {
    for (const isError of ['', ', isError: false']) {
      expect(
        await warnings(
          `return { content: [{ type: 'text', text: JSON.stringify({ error: 'bad' }) }]${isError} };`,
        ),
        isError,
      ).toEqual(['result-error-without-is-error']);
    }
  });
});
