import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/core/finding.js';
import { supportedFormats } from '../../src/report/index.js';
import type { ReturnStatus } from '../../src/scan/analyze.js';
import { scanPaths, scanSource } from '../../src/scan/index.js';
import { computeVerdict, type ScannedHandler } from '../../src/scan/verdict.js';
import { REPO_ROOT, runCli } from '../support/cli.js';

const fixtures = join(REPO_ROOT, 'fixtures/scan');
const sdkExamples = join(REPO_ROOT, 'node_modules/@modelcontextprotocol/sdk/dist/esm/examples/server');
const scratch = mkdtempSync(join(tmpdir(), 'mcp-shape-scan-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Writes a source file into its own directory under the scratch directory. */
function write(name: string, source: string): string {
  const file = join(mkdtempSync(join(scratch, 'src-')), name);
  writeFileSync(file, source);
  return file;
}

/** Each handler of a fixture with the status of each of its returns. */
async function returnStatuses(file: string) {
  const scanned = await scanSource(file, readFileSync(join(REPO_ROOT, file), 'utf8'));
  return scanned.handlers.map((h) => [h.tool, h.returns.map((r) => r.status)]);
}

describe('handlers and returns', () => {
  it('counts each case of a low-level tools/call switch as a tool', async () => {
    expect(await returnStatuses('fixtures/scan/js/low-level.mjs')).toEqual([
      ['echo', ['typed']],
      ['add', ['typed']],
      ['legacy', ['invalid']],
    ]);
  });

  it('knows FastMCP wraps strings and single blocks (TS) and str/int/dict/Image (Python)', async () => {
    for (const file of ['fixtures/scan/js/fastmcp.mjs', 'fixtures/scan/python/fastmcp_example.py']) {
      const scanned = await scanSource(file, readFileSync(join(REPO_ROOT, file), 'utf8'));
      const wrongTools = scanned.handlers
        .filter((h) => h.returns.some((r) => r.status !== 'typed'))
        .map((h) => h.tool);
      expect(wrongTools).toEqual(file.endsWith('.mjs') ? ['picture'] : []);
    }
  });

  it('the same bare string is wrong from an SDK McpServer handler', async () => {
    const source = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('hello', {}, async ({ who }) => \`Hello \${who}\`);`;
    const scanned = await scanSource('hello.ts', source);
    expect(scanned.findings.map((f) => [f.rule, f.location?.line, f.location?.column])).toEqual([
      ['result-not-object', 3, 53],
    ]);
  });

  it('follows handlers passed by reference and results returned through helpers', async () => {
    const source = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
function block(data) { return { type: 'image', data }; }
function wrap(b) { return { content: [b] }; }
async function shot() { return wrap(block('aGk=')); }
server.registerTool('shot', {}, shot);`;
    const scanned = await scanSource('ref.js', source);
    expect(scanned.findings.map((f) => [f.rule, f.location?.line, f.location?.tool])).toEqual([
      ['block-mime-type-missing', 3, 'shot'],
    ]);
  });

  it('binds Python helper parameters to arguments and defaults', async () => {
    const source = `from mcp.server.lowlevel import Server
server = Server("x")
def image(data, mime=None):
    return {"type": "image", "data": data, "mimeType": mime}
@server.call_tool()
async def call_tool(name, arguments):
    if name == "plain":
        return [image("aGk=")]
    return [image("aGk=", mime="image/png")]
`;
    const scanned = await scanSource('helpers.py', source);
    expect(scanned.findings.map((f) => [f.rule, f.location?.line, f.location?.tool])).toEqual([
      ['block-mime-type-missing', 4, 'plain'],
    ]);
    expect(scanned.handlers.map((h) => [h.tool, h.returns[0]?.status])).toEqual([
      ['plain', 'invalid'],
      ['(call_tool handler)', 'typed'],
    ]);
  });

  it('splits a Python low-level handler by tool, `return content, structured` included', async () => {
    expect(await returnStatuses('fixtures/scan/python/lowlevel_server.py')).toEqual([
      ['echo', ['typed']],
      ['greet', ['invalid']],
      ['table', ['invalid']],
      ['stats', ['typed']],
      ['lookup', ['typed']],
    ]);
  });

  it('knows JSON.stringify(x) mirrors structuredContent x even when x is known only at run time', async () => {
    const source = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('same', {}, async ({ data }) => ({
  content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data }));
server.registerTool('built', {}, async ({ t }) => {
  const sc = { t, n: 1 };
  return { content: [{ type: 'text', text: JSON.stringify(sc, undefined, '\\t') }], structuredContent: sc };
});
server.registerTool('other', {}, async ({ a, b }) => ({
  content: [{ type: 'text', text: JSON.stringify(a) }], structuredContent: b }));
server.registerTool('replaced', {}, async ({ a }) => ({
  content: [{ type: 'text', text: JSON.stringify(a, (k, v) => v ?? 0) }], structuredContent: a }));`;
    const scanned = await scanSource('mirror.js', source);
    expect(scanned.findings.map((f) => [f.rule, f.location?.tool])).toEqual([
      ['structured-content-text-mirror-missing', 'other'],
      ['structured-content-text-mirror-missing', 'replaced'],
    ]);
  });

  it('takes the JSON text of an object built like structuredContent from the same values as its mirror', async () => {
    // Two object literals, so no identity links them: each mirror below was reported missing.
    const tool = (name: string, text: string, structured: string) =>
      `server.registerTool('${name}', {}, async ({ n, t, a, b }) => ({
  content: [{ type: 'text', text: JSON.stringify(${text}) }], structuredContent: ${structured} }));`;
    const source = [
      "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';",
      "const server = new McpServer({ name: 's', version: '1' });",
      tool('alike', '{ n }', '{ n }'),
      tool('reordered', '{ b: n, a: t }', '{ a: t, b: n }'),
      tool('nested', "{ r: { n, s: 'x' }, list: [n, 1] }", "{ r: { n, s: 'x' }, list: [n, 1] }"),
      tool('otherMember', '{ m: n }', '{ n }'),
      tool('otherConstant', '{ n, v: 1 }', '{ n, v: 2 }'),
      tool('otherInput', '{ n: a }', '{ n: b }'),
      tool('moreMembers', '{ n, t }', '{ n }'),
      tool('otherLength', '[n, n]', '{ list: [n] }'),
    ].join('\n');
    // Two inputs, or two results of one helper, are no one value, though the analysis may place them at
    // one source position: arguments an inputSchema types, a helper's result, a clock read twice.
    const apart = [
      `server.registerTool('typedInputs', { inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ({
  content: [{ type: 'text', text: JSON.stringify({ n: a }) }], structuredContent: { n: b } }));`,
      `const wrap = (x) => ({ n: x });
server.registerTool('helperResults', { inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ({
  content: [{ type: 'text', text: JSON.stringify(wrap(a)) }], structuredContent: wrap(b) }));`,
      `const id = (x) => x;
server.registerTool('helperLeaves', { inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ({
  content: [{ type: 'text', text: JSON.stringify({ n: id(a) }) }], structuredContent: { n: id(b) } }));`,
      `server.registerTool('clock', {}, async () => ({
  content: [{ type: 'text', text: JSON.stringify({ t: Date.now() }) }], structuredContent: { t: Date.now() } }));`,
      `server.registerTool('anyInputs', { inputSchema: { a: z.any(), b: z.any() } }, async ({ a, b }) => ({
  content: [{ type: 'text', text: JSON.stringify(a) }], structuredContent: b }));`,
      `server.registerTool('oneAny', { inputSchema: { a: z.any() } }, async ({ a }) => ({
  content: [{ type: 'text', text: JSON.stringify(a) }], structuredContent: a }));`,
      `const roll = () => Math.random();
server.registerTool('helperCalls', {}, async () => ({
  content: [{ type: 'text', text: JSON.stringify({ t: roll() }) }], structuredContent: { t: roll() } }));`,
    ];
    const scanned = await scanSource('alike.js', [source, "import { z } from 'zod';", ...apart].join('\n'));
    expect(scanned.findings.map((f) => [f.rule, f.location?.tool])).toEqual(
      [
        'otherMember',
        'otherConstant',
        'otherInput',
        'moreMembers',
        'otherLength',
        'typedInputs',
        'helperResults',
        'helperLeaves',
        'clock',
        'anyInputs',
        'helperCalls',
      ].map((tool) => ['structured-content-text-mirror-missing', tool]),
    );
    const python = `from mcp.server.lowlevel import Server
from mcp import types
import json
server = Server("x")
def wrap(x):
    return {"n": x}
@server.call_tool()
async def call_tool(name, arguments):
    n = arguments["n"]
    m = arguments["m"]
    if name == "alike":
        return [types.TextContent(type="text", text=json.dumps({"n": n}))], {"n": n}
    if name == "inputs":
        return [types.TextContent(type="text", text=json.dumps({"n": n}))], {"n": m}
    if name == "helper":
        return [types.TextContent(type="text", text=json.dumps(wrap(n)))], wrap(m)
    if name == "read twice":
        return [types.TextContent(type="text", text=json.dumps({"n": arguments["n"]}))], {"n": arguments["n"]}
    if name == "read apart":
        return [types.TextContent(type="text", text=json.dumps({"n": arguments["n"]}))], {"n": arguments["m"]}
    if name == "computed key":
        return [types.TextContent(type="text", text=json.dumps({"n": arguments[name]}))], {"n": arguments[name]}
    return [types.TextContent(type="text", text=json.dumps({"m": n}))], {"n": n}
`;
    const py = await scanSource('alike.py', python);
    // One member of the handler's arguments read twice is one value ("read twice": once two unknowns,
    // reported); two members, or a key known only at run time, may be two.
    expect(py.findings.map((f) => [f.rule, f.location?.line])).toEqual(
      [14, 16, 20, 22, 23].map((line) => ['structured-content-text-mirror-missing', line]),
    );
  });

  it('does not parse files that mention nothing MCP', async () => {
    const scanned = await scanSource('plain.ts', 'export const x = { content: [{ type: "object" }] };');
    expect(scanned).toMatchObject({ parsed: false, findings: [], handlers: [] });
  });
});

describe('verdict (mcp-server.tool-definitions.return-content-types)', () => {
  it('passes when every return is a typed content array', async () => {
    const { verdict } = await scanPaths([join(fixtures, 'ts')], { cwd: REPO_ROOT });
    expect(verdict).toMatchObject({ status: 'pass', handlers: 4, returns: 4, typed: 4, invalid: 0 });
    expect(verdict.detail).toBe(
      'pass: 4 of 4 return statements in 4 tool handlers return a properly typed content array',
    );
  });

  it('fails naming the tool and what is wrong', async () => {
    const { verdict } = await scanPaths(
      [join(fixtures, 'js/blocks.mjs'), join(fixtures, 'js/raw-returns.mjs')],
      {
        cwd: REPO_ROOT,
      },
    );
    expect(verdict.status).toBe('fail');
    // Each problem names the tool, what is wrong, and where to fix it (the literal, not the return).
    expect(verdict.problems).toContain(
      "Tool 'screenshot': image block has no mimeType (fixtures/scan/js/blocks.mjs:14)",
    );
    expect(
      verdict.problems.some((p) => p.startsWith("Tool 'read_file': the tools/call result is a JSON string")),
    ).toBe(true);
    expect(verdict.detail).toMatch(
      /^fail: 0 of 7 return statements in 7 tool handlers .*; 7 do not: Tool 'screenshot': /,
    );
  });

  it('skips when there is no MCP server', () => {
    expect(computeVerdict([])).toMatchObject({ status: 'skip', handlers: 0, returns: 0 });
  });

  it('does not pass returns it cannot resolve: they are listed as not proven, apart from wrong ones', () => {
    const handler = (tool: string, statuses: ReturnStatus[]): ScannedHandler => ({
      tool,
      framework: 'mcp-sdk',
      file: 'a.ts',
      line: 1,
      returns: statuses.map((status, i) => ({
        file: 'a.ts',
        line: i + 2,
        column: 3,
        status,
        problems: status === 'invalid' ? ['image block has no mimeType'] : [],
      })),
    });
    const unresolvedOnly = computeVerdict([handler('proxy', ['typed', 'unresolved'])]);
    expect(unresolvedOnly).toMatchObject({ status: 'fail', typed: 1, invalid: 0, unresolved: 1 });
    expect(unresolvedOnly.problems).toEqual([]);
    expect(unresolvedOnly.unproven).toEqual(['proxy (a.ts:3:3)']);
    expect(unresolvedOnly.detail).toBe(
      'fail: 1 of 2 return statements in 1 tool handler return a properly typed content array; 1 is not proven (the value is not known statically; check at run time with `mcp-shape audit`): proxy (a.ts:3:3)',
    );
    const both = computeVerdict([
      handler('shot', ['invalid']),
      handler('proxy', ['unresolved', 'unresolved']),
    ]);
    expect(both.detail).toBe(
      "fail: 0 of 3 return statements in 2 tool handlers return a properly typed content array; 1 does not: Tool 'shot': image block has no mimeType; 2 are not proven (the value is not known statically; check at run time with `mcp-shape audit`): proxy (a.ts:2:3); proxy (a.ts:3:3)",
    );
    expect(computeVerdict([handler('ok', ['typed', 'typed'])]).status).toBe('pass');
    // A file it could not scan may hold handlers: no PASS, nor SKIP.
    const broken = [{ file: 'b.py', reason: 'syntax error: invalid syntax' }];
    const withBroken = computeVerdict([handler('ok', ['typed'])], broken);
    expect(withBroken).toMatchObject({ status: 'fail', unscanned: ['b.py (syntax error: invalid syntax)'] });
    expect(withBroken.detail).toBe(
      'fail: 1 of 1 return statements in 1 tool handler return a properly typed content array; 1 file could not be scanned, so the tool handlers in it are not proven: b.py (syntax error: invalid syntax)',
    );
    expect(computeVerdict([], broken)).toMatchObject({ status: 'fail' });
  });

  it('reads a Python file as Python does: in the encoding its coding line names, with lone CR line ends', async () => {
    const dir = join(scratch, 'encodings');
    mkdirSync(dir, { recursive: true });
    const server = (name: string, lineEnd: string) =>
      [
        'from mcp.server.fastmcp import FastMCP',
        'mcp = FastMCP("x")',
        '',
        '@mcp.tool()',
        `def ${name}() -> int:`,
        '    return "many"',
        '',
      ].join(lineEnd);
    // café_tool in Latin-1 (0xE9), declared on the first line, as PEP 263 has it.
    writeFileSync(
      join(dir, 'latin.py'),
      Buffer.from(`# -*- coding: latin-1 -*-\n${server('café_tool', '\n')}`, 'latin1'),
    );
    writeFileSync(join(dir, 'lonecr.py'), server('cr_tool', '\r'));
    const { verdict, unscanned } = await scanPaths([dir], { cwd: dir });
    expect(unscanned).toEqual([]);
    expect(verdict.tools.map((t) => `${t.tool} ${t.file}:${t.line} ${t.invalid} wrong`).sort()).toEqual([
      'café_tool latin.py:6 1 wrong',
      'cr_tool lonecr.py:5 1 wrong',
    ]);
  });

  it('gives no PASS to a directory with a file it cannot parse beside a clean one (text report, exit by --fail-on)', async () => {
    const dir = join(scratch, 'unparsable');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'ok.py'),
      'from mcp.server.fastmcp import FastMCP\nmcp = FastMCP("x")\n\n@mcp.tool()\ndef ping() -> str:\n    return "pong"\n',
    );
    writeFileSync(join(dir, 'broken.py'), 'from mcp.server.fastmcp import FastMCP\ndef (:\n');
    const run = await runCli(['scan', dir]);
    expect(run.stdout).toContain('mcp-server.tool-definitions.return-content-types: FAIL');
    expect(run.stdout).toMatch(
      /not scanned \(1; their tool handlers are not proven\):\n {4}.*broken\.py \(syntax error/,
    );
    // Unscanned files count as warnings for --fail-on (README): the default does not fail on them.
    expect(run.code).toBe(0);
    expect((await runCli(['scan', dir, '--fail-on', 'warning'])).code).toBe(1);
  });

  it('counts a handler it cannot follow as one unresolved return', async () => {
    const source = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { handle } from './elsewhere.js';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('remote', {}, handle);
server.registerTool('relay', {}, async (args) => upstream.callTool(args));`;
    const file = write('unresolved.ts', source);
    const { verdict } = await scanPaths([file], { cwd: dirname(file) });
    expect(verdict).toMatchObject({ status: 'fail', handlers: 2, returns: 2, typed: 0, unresolved: 2 });
    expect(verdict.unproven).toEqual([
      'remote (unresolved.ts:4:1): the handler `handle` is not known statically',
      'relay (unresolved.ts:5:50): the result is `upstream.callTool(args)` at unresolved.ts:5 (the result of upstream.callTool(), which is not part of the scanned project)',
    ]);
  });
});

describe('the official SDK example servers', () => {
  const files = readdirSync(sdkExamples).filter((f) => f.endsWith('.js'));

  it('have tools, none of whose returns is wrong; the two not proven say why', async () => {
    const { verdict, report } = await scanPaths([sdkExamples], { cwd: REPO_ROOT });
    expect(verdict.handlers).toBeGreaterThan(15);
    expect(verdict.invalid).toBe(0);
    expect(report.summary.errors).toBe(0);
    // The sampling example returns what the client's model wrote: a string by the SDK's types, but
    // not something the source shows. The weather example's outputSchema has `.max(100)` on the
    // humidity its handler draws at random: zod checks what the model of it does not.
    expect(verdict.unproven).toEqual([
      "get_weather (node_modules/@modelcontextprotocol/sdk/dist/esm/examples/server/mcpServerOutputSchema.js:51:5): structuredContent/humidity is checked by .max(), which the analysis does not model, so it is not shown to match the tool's outputSchema",
      'summarize (node_modules/@modelcontextprotocol/sdk/dist/esm/examples/server/toolWithSampleServer.js:30:5): "text" of content[0] is `response.content.text` at node_modules/@modelcontextprotocol/sdk/dist/esm/examples/server/toolWithSampleServer.js:34 (response.content.text is known only at run time)',
    ]);
    expect(verdict.typed).toBe(verdict.returns - 2);
    // About 4 s on a quiet machine; a loaded one took more than vitest's 30 s (a CI run beside two
    // mutation runs), as the whole-package scan below, which has 120 s.
  }, 120_000);

  it.each(files)('%s: every finding is explained', async (name) => {
    const source = readFileSync(join(sdkExamples, name), 'utf8');
    const { findings } = await scanSource(name, source);
    const lines = source.split('\n');
    for (const f of findings) {
      const at = (f.location?.line ?? 1) - 1;
      const near = lines.slice(at, at + 6).join('\n');
      if (f.rule === 'envelope-id-invalid') {
        // The HTTP examples answer requests they cannot read with `{ jsonrpc: '2.0', error, id: null }`
        // and an HTTP error status, as the SDK's own transports do: advice, not an error.
        expect(near).toMatch(/id: null/);
        expect(f.severity).toBe('info');
        expect(f.message).toMatch(/sent with HTTP status \d+ for a transport-level failure/);
      } else {
        expect.fail(`unexplained finding ${f.rule} at ${name}:${f.location?.line}: ${f.message}`);
      }
    }
  });
});

/**
 * The reference servers installed as dev dependencies, scanned as a user would scan their source.
 * No Python reference server is installed (they are published on PyPI, which this project does not
 * use), so these are all TS/JS.
 */
describe('the reference servers (server-everything, server-filesystem, server-memory)', () => {
  const dist = (name: string) => join(REPO_ROOT, 'node_modules/@modelcontextprotocol', name, 'dist');

  async function scanServer(name: string) {
    const result = await scanPaths([dist(name)], { cwd: REPO_ROOT });
    const where = (f: Finding) => `${f.location?.file?.replace(/^.*\/dist\//, '')}:${f.location?.line}`;
    return {
      ...result,
      summary: result.report.findings.map((f) => `${f.severity} ${f.rule} ${where(f)}`),
    };
  }

  it('server-everything: every file analysed, no finding; the two returns not proven say why', async () => {
    const { verdict, unscanned, summary } = await scanServer('server-everything');
    expect(unscanned).toEqual([]);
    expect(summary).toEqual([]);
    expect(verdict).toMatchObject({ handlers: 19, invalid: 0, unresolved: 2 });
    expect(verdict.typed).toBe(verdict.returns - 2);
    // Both answers of gzip-file-as-resource (an embedded resource, and a link spreading `{ uri, name,
    // mimeType }`) put the tool's `name` argument, a string at run time, into a URI template: a name
    // with a space in it makes a URI that fails `format: "uri"`.
    const helper = 'at node_modules/@modelcontextprotocol/server-everything/dist/resources/session.js:14';
    const tool =
      'gzip-file-as-resource (node_modules/@modelcontextprotocol/server-everything/dist/tools/gzip-file-as-resource.js';
    // get-structured-content declares an outputSchema and sets structuredContent in a switch over its
    // `location` argument with no default: exhaustive because the inputSchema's enum says so, which
    // McpServer holds the argument to, so it is typed.
    expect(verdict.unproven).toEqual([
      `${tool}:75:13): "uri" of the resource of content[0] is \`\` \`demo://resource/session/\${name}\` \`\` ${helper} (a string known only at run time), not shown to be an absolute URI`,
      `${tool}:85:13): "uri" of content[0] is \`\` \`demo://resource/session/\${name}\` \`\` ${helper} (a string known only at run time), not shown to be an absolute URI`,
    ]);
  });

  it('server-filesystem: no error; the warnings are its real defects', async () => {
    const { verdict, unscanned, summary } = await scanServer('server-filesystem');
    expect(unscanned).toEqual([]);
    expect(verdict).toMatchObject({ handlers: 14, returns: 14, typed: 13, invalid: 0, unresolved: 1 });
    // read_media_file's data comes out of a stream wrapped in a Promise.
    expect(verdict.unproven).toEqual([
      expect.stringMatching(/^read_media_file \(.*index\.js:254:5\): "data" of content\[0\] is `new Promise/),
    ]);
    // Each tool answers prose, a file's text or (directory_tree) JSON of its tree in content, and
    // wraps that text in an object as structuredContent (`{ content: text }`): no text block carries
    // the JSON of structuredContent, which the spec says it SHOULD.
    const mirror = (line: number) => `warning structured-content-text-mirror-missing index.js:${line}`;
    expect(summary).toEqual([
      mirror(169),
      // read_media_file returns its image or audio block in structuredContent too.
      'warning result-media-with-structured-content index.js:247',
      mirror(255),
      'warning result-media-with-structured-content index.js:249',
      ...[287, 307, 330, 350, 372, 434, 486, 509, 532, 554, 570].map(mirror),
    ]);
  });

  it('every package of @modelcontextprotocol (SDK v1 and v2, inspector): no error', async () => {
    // Each package's own directories (dist/, build/, the inspector's cli/, client/, server/), named on
    // the command line as a user scanning a vendored package would; their nested node_modules are not.
    const scope = join(REPO_ROOT, 'node_modules/@modelcontextprotocol');
    const roots = readdirSync(scope).flatMap((name) =>
      readdirSync(join(scope, name), { withFileTypes: true })
        .filter((e) => e.isDirectory() && e.name !== 'node_modules')
        .map((e) => join(scope, name, e.name)),
    );
    expect(roots.length).toBeGreaterThanOrEqual(12);
    const { report, unscanned } = await scanPaths(roots, { cwd: REPO_ROOT });
    expect(unscanned).toEqual([]);
    expect(report.summary.handlers).toBeGreaterThanOrEqual(90);
    // The SDK v2 bundles' legacy outputSchema wrap (`rewriteRefs`) maps a schema node to an array
    // only when `Array.isArray(node)`: the schema is known only at run time, so that is no error.
    const errors = report.findings.filter((f) => f.severity === 'error');
    expect(errors.map((f) => `${f.rule} ${f.location?.file}:${f.location?.line}`)).toEqual([]);
    // Every unproven return quotes source of the file it names. The methods of a class imported from
    // another module (the SDK's McpServer, whose registerTool sets up its own tools/call handler) were
    // once analysed in the importing module's scope: 49 phantom returns in the SDK's examples quoting
    // slices of the wrong file (`d}\`); session`) and reading the class's variables as globals.
    const verdict = report.details?.verdict as { unproven: string[] } | undefined;
    expect(verdict?.unproven.length).toBeGreaterThan(0);
    // A quote is of the file named after it (`x` at helper.js:3), or else of the return's.
    const sourceOf = (file: string) => readFileSync(join(REPO_ROOT, file), 'utf8').replace(/\s+/g, ' ');
    const misquoted = (verdict?.unproven ?? []).filter((line) => {
      const place = /\(([^()]+?):\d+(?::\d+)?\): /.exec(line)?.[1] ?? '';
      const quotes = [...line.matchAll(/(`+)(?: (.+?) |([^`]+))\1(?: at ([^\s:]+):\d+)?/g)];
      return quotes.some((m) => !sourceOf(m[4] ?? place).includes((m[2] ?? m[3] ?? '').replace(/…$/, '')));
    });
    expect(misquoted).toEqual([]);
  }, 120_000);

  it('server-memory: no error; no text block is the JSON of structuredContent; six not shown to match their outputSchema', async () => {
    const { verdict, unscanned, summary } = await scanServer('server-memory');
    expect(unscanned).toEqual([]);
    // Six tools put what the knowledge graph file holds into structuredContent, which McpServer checks
    // against each tool's outputSchema: the analysis cannot see the file, so they are not proven.
    expect(verdict).toMatchObject({
      status: 'fail',
      handlers: 9,
      returns: 9,
      typed: 3,
      invalid: 0,
      unresolved: 6,
    });
    const index = 'node_modules/@modelcontextprotocol/server-memory/dist/index.js';
    const unmatched = "so it is not shown to match the tool's outputSchema";
    expect(verdict.unproven).toEqual([
      `create_entities (${index}:256:5): structuredContent/entities is \`knowledgeGraphManager.createEntities(entities)\` at ${index}:254 (the result of knowledgeGraphManager.createEntities(), which is not part of the scanned project), ${unmatched}`,
      `create_relations (${index}:280:5): structuredContent/relations is \`knowledgeGraphManager.createRelations(relations)\` at ${index}:278 (the result of knowledgeGraphManager.createRelations(), which is not part of the scanned project), ${unmatched}`,
      `add_observations (${index}:310:5): structuredContent/results is \`knowledgeGraphManager.addObservations(observations)\` at ${index}:308 (the result of knowledgeGraphManager.addObservations(), which is not part of the scanned project), ${unmatched}`,
      `read_graph (${index}:410:5): structuredContent may hold members the analysis cannot see (members spread from ...graph), ${unmatched}`,
      `search_nodes (${index}:434:5): structuredContent may hold members the analysis cannot see (members spread from ...graph), ${unmatched}`,
      `open_nodes (${index}:458:5): structuredContent may hold members the analysis cannot see (members spread from ...graph), ${unmatched}`,
    ]);
    // Six tools send `JSON.stringify(result)` beside `structuredContent: { entities: result }` (the
    // JSON of a member, not of structuredContent); three send "… deleted successfully" beside
    // `{ success, message }`.
    expect(summary).toEqual(
      [257, 281, 311, 336, 364, 389, 411, 435, 459].map(
        (line) => `warning structured-content-text-mirror-missing index.js:${line}`,
      ),
    );
  });
});

describe('the text mirror of structuredContent, with texts the source does not fix', () => {
  const server = (
    text: string,
    structured: string,
  ) => `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('read', {}, async ({ path }) => {
  const content = await load(path);
  const rows = await query(path);
  return { content: [{ type: 'text', text: ${text} }], structuredContent: ${structured} };
});`;

  it('a text of unknown value is prose: one warning, which says so', async () => {
    const file = write('prose.ts', server('content', '{ content }'));
    const { report } = await scanPaths([file], { cwd: dirname(file) });
    expect(report.findings.map((f) => [f.rule, f.message])).toEqual([
      [
        'structured-content-text-mirror-missing',
        'structuredContent has no text block with its JSON; content-only clients see only the prose text',
      ],
    ]);
  });
});

describe('mcp-shape scan (CLI)', { timeout: 120_000 }, () => {
  it('exits 0 on clean code and prints the verdict', async () => {
    const run = await runCli(['scan', 'fixtures/scan/ts']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('mcp-server.tool-definitions.return-content-types: PASS');
    expect(run.stdout).toContain('thumbnail (fixtures/scan/ts/sdk-v2-server.ts:18): 1/1 typed');
  });

  it('exits 1 with error findings; --format json is the Report with the verdict', async () => {
    const run = await runCli(['scan', 'fixtures/scan/python', '--format', 'json']);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ schemaVersion: 1, command: 'scan', summary: { checked: 4 } });
    expect(report.details.verdict.status).toBe('fail');
    const envelope = report.findings.find((f: { rule: string }) => f.rule === 'envelope-extra-member');
    expect(envelope).toMatchObject({
      severity: 'error',
      pointer: '/requestId',
      location: { file: 'fixtures/scan/python/gateway.py', line: 29, column: 9, tool: 'mcp_endpoint' },
    });
  });

  it('exits 0 and skips when no file has an MCP server', async () => {
    const file = write('util.ts', 'export const add = (a: number, b: number) => a + b;\n');
    const run = await runCli(['scan', dirname(file)]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('return-content-types: SKIP');
  });

  it('exits 2 with one line for a missing path or a bad option', async () => {
    const missing = await runCli(['scan', 'no/such/dir']);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim()).toBe('mcp-shape: no such file or directory: no/such/dir');
    const badFormat = await runCli(['scan', '--format', 'xml', 'fixtures/scan/ts']);
    expect(badFormat.code).toBe(2);
    const badSize = await runCli(['scan', '--max-file-size', 'big', 'fixtures/scan/ts']);
    expect(badSize.code).toBe(2);
    expect(badSize.stderr).toContain('expected a positive number of MiB');
  });

  it('scans the rest, naming each file it could not scan, one line each; they count as warnings for --fail-on', {
    timeout: 120_000,
  }, async () => {
    const good = write(
      'server.ts',
      `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
server.tool('t', async () => 'plain text');\n`,
    );
    const dir = dirname(good);
    writeFileSync(
      join(dir, 'broken.mjs'),
      `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nconst s = new McpServer(;\n`,
    );
    writeFileSync(join(dir, 'broken.py'), 'from mcp.server.fastmcp import FastMCP\ndef f(:\n    return 1\n');
    writeFileSync(join(dir, 'blob.js'), Buffer.from([0x6d, 0x63, 0x70, 0, 0xff, 0xfe, 0]));
    writeFileSync(join(dir, 'big.js'), `// @modelcontextprotocol/sdk\n${'x;\n'.repeat(400_000)}`);
    symlinkSync(join(dir, 'nowhere.ts'), join(dir, 'dangling.ts'));
    // A file's name and the parser's words about its bytes are the repository's, not ours: escaped.
    writeFileSync(join(dir, 'title\u001b]0;pwned\u0007.ts'), 'import "@modelcontextprotocol/sdk";\nx = (\n');
    writeFileSync(
      join(dir, 'wipe.ts'),
      'import "@modelcontextprotocol/sdk";\nconst a = { b: 1 \u001b[2J };\n',
    );
    const run = await runCli([
      'scan',
      dir,
      '--max-file-size',
      '1',
      '--format',
      'json',
      '--fail-on',
      'warning',
    ]);
    // The one finding is an error, and the files left out count as warnings, so warning fails.
    expect(run.code).toBe(1);
    expect(run.stderr.replaceAll(`${dir}/`, '').trim().split('\n')).toEqual([
      'mcp-shape: big.js: not scanned: 1.1 MiB is over the 1.0 MiB limit (--max-file-size)',
      'mcp-shape: blob.js: not scanned: binary file',
      'mcp-shape: broken.mjs:2:25: syntax error: Unexpected token',
      'mcp-shape: broken.py:2:7: syntax error: missing )',
      'mcp-shape: dangling.ts: cannot read: no such file',
      'mcp-shape: title\\x1b]0;pwned\\x07.ts:3:1: syntax error: Expected `)` but found `EOF`',
      'mcp-shape: wipe.ts:2:18: syntax error: Invalid Character `\\x1b`',
    ]);
    expect(run.stderr.includes('\u001b') || run.stderr.includes('\u0007')).toBe(false);
    const report = JSON.parse(run.stdout);
    // What could be scanned still is, and the report says what was left out.
    expect(report.findings.map((f: { rule: string }) => f.rule)).toEqual(['result-not-object']);
    expect(report.summary).toMatchObject({ checked: 5, unscanned: 7 });
    expect(report.details.unscanned).toContainEqual({
      file: join(dir, 'broken.mjs'),
      reason: 'syntax error: Unexpected token',
      line: 2,
      column: 25,
    });
    // Under the default --fail-on error, only the error finding fails the run; --fail-on never exits 0.
    const lenient = await runCli(['scan', dir, '--max-file-size', '1', '--fail-on', 'never']);
    expect(lenient.code).toBe(0);
  });

  it('does not let files it could not parse fail a run that asks to fail on errors only', {
    timeout: 180_000,
  }, async () => {
    const dir = dirname(
      write(
        'server.ts',
        `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
server.tool('t', async () => ({ content: [{ type: 'text', text: 'ok' }] }));\n`,
      ),
    );
    writeFileSync(join(dir, 'vendored.mjs'), `import '@modelcontextprotocol/sdk';\nconst x = (;\n`);
    const errorsOnly = await runCli(['scan', dir]);
    expect(errorsOnly.code).toBe(0);
    expect(errorsOnly.stderr).toContain('vendored.mjs:2:');
    const warnings = await runCli(['scan', dir, '--fail-on', 'warning']);
    expect(warnings.code).toBe(1);
    const excluded = await runCli(['scan', dir, '--fail-on', 'warning', '--exclude', 'vendored.mjs']);
    expect(excluded.stderr).toBe('');
    expect(excluded.code).toBe(0);
  });

  it('does not hang on or read what is not a regular file', async () => {
    const run = await runCli(['scan', '/dev/null']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe('mcp-shape: /dev/null: not a regular file or directory');
  });

  it.each(supportedFormats())(
    'renders --format %s, with the verdict where the format has room',
    async (format) => {
      const run = await runCli(['scan', 'fixtures/scan/ts', '--format', format]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toBe('');
      expect(run.stdout.length).toBeGreaterThan(100);
      // SARIF has the status in the run's summary; JUnit has no place for it.
      if (format === 'sarif') {
        expect(JSON.parse(run.stdout).runs[0].invocations[0].properties.summary.verdict).toBe('pass');
      } else if (format !== 'junit') {
        expect(run.stdout).toContain('mcp-server.tool-definitions.return-content-types');
      }
      if (format === 'markdown') {
        expect(run.stdout).toContain('### ✅ `mcp-server.tool-definitions.return-content-types`: PASS');
      }
    },
  );

  it('--help names every format, the verdict and the exit codes', async () => {
    const run = await runCli(['scan', '--help']);
    expect(run.code).toBe(0);
    // Commander wraps option descriptions to the terminal width.
    const flat = run.stdout.replace(/\s+/g, ' ');
    expect(flat).toContain(`output format: ${supportedFormats().join(', ')}`);
    expect(run.stdout).toMatch(/pass {2}every return statement of every tool handler returns/);
    expect(flat).toContain(
      'Exit codes: 0 nothing at or above --fail-on (default: error), 1 findings at or above it, 2 usage or input error',
    );
    for (const option of ['--exclude <glob>', '--include <glob>', '--no-gitignore', '--fail-on <severity>']) {
      expect(run.stdout).toContain(option);
    }
  });

  it('writes SARIF to --out', async () => {
    const out = join(scratch, 'scan.sarif');
    const run = await runCli(['scan', 'fixtures/scan/js/blocks.mjs', '--format', 'sarif', '--out', out]);
    expect(run.code).toBe(1);
    const sarif = JSON.parse(readFileSync(out, 'utf8'));
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.runs[0].results[0].locations[0].physicalLocation).toMatchObject({
      artifactLocation: { uri: 'fixtures/scan/js/blocks.mjs', uriBaseId: '%SRCROOT%' },
      region: {
        startLine: 14,
        startColumn: 7,
        // The region's own text: the offending expression.
        snippet: { text: "{ type: 'image', data }" },
      },
      contextRegion: { startLine: 12, endLine: 16 },
    });
  });
});
