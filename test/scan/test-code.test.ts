/**
 * What is not a server response (issue 8, item 5): test code is left out of a directory walk by
 * default (`--include-tests` scans it), and a request posted by a test client is never judged as a
 * response, even when test code is scanned.
 */

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isTestFile, scanPaths } from '../../src/scan/index.js';
import { runCli } from '../support/cli.js';

const SERVER_PY = `from mcp.server.lowlevel import Server
import mcp.types as types

server = Server("files")


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    return [types.TextContent(type="text", text="ok")]
`;

/** The false error of the issue: a request without result or error, posted by a pytest file. */
const PYTEST = `from fastapi.testclient import TestClient
from app import app

client = TestClient(app)


def test_missing_method():
    response = client.post("/mcp", json={"jsonrpc": "2.0", "id": 12})
    assert response.status_code == 400


def test_call():
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "x"}}
    response = client.post("/mcp", json=body)
    assert response.json()["result"]["content"][0]["type"] == "text"
`;

const BAD_TS = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 'x', version: '1' });
server.registerTool('fake', {}, async () => ({ content: [{ type: 'image', data: 'aGk=' }] }));
`;

describe('test code', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-shape-tests-'));
    for (const sub of ['src', 'tests', 'pkg/__tests__']) mkdirSync(join(dir, sub), { recursive: true });
    writeFileSync(join(dir, 'src/server.py'), SERVER_PY);
    writeFileSync(join(dir, 'tests/test_gateway.py'), PYTEST);
    writeFileSync(join(dir, 'src/server.test.ts'), BAD_TS);
    writeFileSync(join(dir, 'src/server.spec.mjs'), BAD_TS);
    writeFileSync(join(dir, 'src/tools_test.py'), PYTEST);
    writeFileSync(join(dir, 'src/conftest.py'), PYTEST);
    writeFileSync(join(dir, 'pkg/__tests__/fake.ts'), BAD_TS);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('recognises the test file names of pytest, vitest, jest and mocha', () => {
    for (const name of ['a.test.ts', 'a.spec.js', 'test_a.py', 'a_test.py', 'conftest.py'])
      expect(isTestFile(name), name).toBe(true);
    for (const name of ['server.ts', 'testing.py', 'contest.py', 'latest.ts', 'attest_x.py'])
      expect(isTestFile(name), name).toBe(false);
  });

  it('is left out of a walk by default and listed as left out', async () => {
    const { report, verdict, skippedTests } = await scanPaths([dir], { cwd: dir });
    expect(report.findings).toEqual([]);
    expect(verdict.status).toBe('pass');
    expect([...skippedTests].sort()).toEqual([
      'pkg/__tests__',
      'src/conftest.py',
      'src/server.spec.mjs',
      'src/server.test.ts',
      'src/tools_test.py',
      'tests',
    ]);
    expect(report.details?.skippedTests).toEqual(skippedTests);
  });

  it('is scanned with includeTests, and a request a test posts is not judged as a response', async () => {
    const { report, verdict } = await scanPaths([dir], { cwd: dir, includeTests: true });
    const found = report.findings.map((f) => `${f.rule}@${f.location?.file}:${f.location?.line}`).sort();
    expect(found).toEqual([
      'block-mime-type-missing@pkg/__tests__/fake.ts:3',
      'block-mime-type-missing@src/server.spec.mjs:3',
      'block-mime-type-missing@src/server.test.ts:3',
    ]);
    expect(verdict.status).toBe('fail');
  });

  it('named on the command line is scanned', async () => {
    const { report } = await scanPaths([join(dir, 'tests')], { cwd: dir });
    expect(report.summary.checked).toBe(1);
    expect(report.findings).toEqual([]);
    const file = await scanPaths([join(dir, 'src/server.test.ts')], { cwd: dir });
    expect(file.report.findings.map((f) => f.rule)).toEqual(['block-mime-type-missing']);
  });

  it('CLI: --include-tests, and a hint when only test code was found', { timeout: 60_000 }, async () => {
    const walked = await runCli(['scan', '.'], { cwd: dir });
    expect(walked.code).toBe(0);
    const included = await runCli(['scan', '.', '--include-tests', '--format', 'json'], { cwd: dir });
    expect(included.code).toBe(1);
    expect(JSON.parse(included.stdout).summary.errors).toBe(3);
    writeFileSync(join(dir, 'mcp-shape.config.json'), '{ "scan": { "includeTests": true } }');
    try {
      const configured = await runCli(['scan', '.', '--format', 'json'], { cwd: dir });
      expect(configured.code).toBe(1);
      expect(JSON.parse(configured.stdout).summary.errors).toBe(3);
    } finally {
      rmSync(join(dir, 'mcp-shape.config.json'));
    }
    const onlyTests = await runCli(['scan', 'pkg'], { cwd: dir });
    expect(onlyTests.code).toBe(2);
    expect(onlyTests.stderr).toBe(
      'mcp-shape: no TS/JS or Python files under pkg (1 test path left out; --include-tests scans them)\n',
    );
  });
});
