import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scanPaths, scanSource } from '../../src/scan/index.js';
import { computeVerdict } from '../../src/scan/verdict.js';
import { REPO_ROOT, runCli } from '../support/cli.js';

const fixtures = join(REPO_ROOT, 'fixtures/scan');
const sdkExamples = join(REPO_ROOT, 'node_modules/@modelcontextprotocol/sdk/dist/esm/examples/server');
const scratch = mkdtempSync(join(tmpdir(), 'mcp-shape-scan-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

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
    expect(verdict.problems).toContain(
      'screenshot: image block has no mimeType (fixtures/scan/js/blocks.mjs:12:3)',
    );
    expect(
      verdict.problems.some((p) => p.startsWith('read_file: the tools/call result is a JSON string')),
    ).toBe(true);
    expect(verdict.detail).toMatch(
      /^fail: 0 of 7 return statements in 7 tool handlers .*; 7 do not: screenshot: /,
    );
  });

  it('skips when there is no MCP server', () => {
    expect(computeVerdict([])).toMatchObject({ status: 'skip', handlers: 0, returns: 0 });
  });

  it('counts returns it cannot resolve without failing them', () => {
    const verdict = computeVerdict([
      {
        tool: 't',
        framework: 'mcp-sdk',
        file: 'a.ts',
        line: 1,
        returns: [
          { file: 'a.ts', line: 2, column: 3, status: 'typed', problems: [] },
          { file: 'a.ts', line: 3, column: 3, status: 'unresolved', problems: [] },
        ],
      },
    ]);
    expect(verdict).toMatchObject({ status: 'pass', typed: 1, unresolved: 1 });
    expect(verdict.detail).toContain('1 could not be resolved statically');
  });
});

describe('the official SDK example servers', () => {
  const files = readdirSync(sdkExamples).filter((f) => f.endsWith('.js'));

  it('have tools, all of whose returns are typed content arrays', async () => {
    const { verdict } = await scanPaths([sdkExamples], { cwd: REPO_ROOT });
    expect(verdict.handlers).toBeGreaterThan(15);
    expect(verdict.invalid).toBe(0);
    expect(verdict.status).toBe('pass');
  });

  it.each(files)('%s: every finding is explained', async (name) => {
    const source = readFileSync(join(sdkExamples, name), 'utf8');
    const { findings } = await scanSource(name, source);
    const lines = source.split('\n');
    for (const f of findings) {
      const at = (f.location?.line ?? 1) - 1;
      const near = lines.slice(at, at + 6).join('\n');
      if (f.rule === 'envelope-id-invalid') {
        // The HTTP examples answer requests they cannot read with `{ jsonrpc: '2.0', error, id: null }`.
        // JSON-RPC 2.0 allows a null id there; MCP's RequestId (string | integer) does not, and the
        // rule follows the MCP schema.
        expect(near).toMatch(/id: null/);
      } else {
        expect.fail(`unexplained finding ${f.rule} at ${name}:${f.location?.line}: ${f.message}`);
      }
    }
  });
});

describe('mcp-shape scan (CLI)', () => {
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
    writeFileSync(join(scratch, 'util.ts'), 'export const add = (a: number, b: number) => a + b;\n');
    const run = await runCli(['scan', scratch]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('return-content-types: SKIP');
  });

  it('exits 2 with one line for a missing path or a bad option', async () => {
    const missing = await runCli(['scan', 'no/such/dir']);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim()).toBe('mcp-shape: cannot scan no/such/dir: no such file or directory');
    const badFormat = await runCli(['scan', '--format', 'xml', 'fixtures/scan/ts']);
    expect(badFormat.code).toBe(2);
  });

  it('writes SARIF to --out', async () => {
    const out = join(scratch, 'scan.sarif');
    const run = await runCli(['scan', 'fixtures/scan/js/blocks.mjs', '--format', 'sarif', '--out', out]);
    expect(run.code).toBe(1);
    const sarif = JSON.parse(readFileSync(out, 'utf8'));
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.runs[0].results[0].locations[0].physicalLocation).toEqual({
      artifactLocation: { uri: 'fixtures/scan/js/blocks.mjs', uriBaseId: '%SRCROOT%' },
      region: { startLine: 14, startColumn: 7 },
    });
  });
});
