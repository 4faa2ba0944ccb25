/**
 * The packed package in a fresh project (test/support/packed.ts): `mcp-shape/eslint` loaded by the real
 * ESLint CLI from an eslint.config.js, and the `mcp-shape` bin scanning TS and Python (tree-sitter's
 * wasm resolved from the installed @vscode/tree-sitter-wasm).
 */

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPacked, packedTarball } from '../support/packed.js';

const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), 'mcp-shape-packed-'));
const project = join(work, 'project');
let bin = '';

function cli(args: string[]) {
  return run(process.execPath, [bin, ...args], { cwd: project }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  );
}

const BROKEN_SERVER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('shot', {}, async () => ({ content: [{ type: 'image', data: 'aGk=' }] }));
`;

describe('the packed package in a fresh project', () => {
  beforeAll(async () => {
    const { installed, manifest } = await installPacked(await packedTarball(), project, ['eslint']);
    const entry = manifest.bin['mcp-shape'];
    if (!entry) throw new Error('the package has no mcp-shape bin');
    bin = join(installed, entry);
    writeFileSync(join(project, 'server.js'), BROKEN_SERVER);
  }, 300_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('lints with `import mcpShape from "mcp-shape/eslint"` and its recommended config', async () => {
    writeFileSync(
      join(project, 'eslint.config.js'),
      "import mcpShape from 'mcp-shape/eslint';\nexport default [mcpShape.configs.recommended];\n",
    );
    const eslintBin = join(project, 'node_modules/eslint/bin/eslint.js');
    const linted = await run(process.execPath, [eslintBin, '--format', 'json', 'server.js'], {
      cwd: project,
    }).then(
      () => undefined,
      (e: { code: number; stdout: string }) => e,
    );
    expect(linted?.code).toBe(1);
    const [result] = JSON.parse(linted?.stdout ?? '[]') as { messages: object[] }[];
    expect(result?.messages).toEqual([
      expect.objectContaining({
        ruleId: 'mcp-shape/block-mime-type-missing',
        severity: 2,
        line: 3,
        message: 'image block has no mimeType in tool "shot" (/content/0/mimeType)',
      }),
    ]);
  });

  it('runs the mcp-shape bin: scan of TS/JS and of Python (tree-sitter wasm from the dependency)', async () => {
    writeFileSync(
      join(project, 'tool.py'),
      'from mcp.server.fastmcp import FastMCP\nfrom mcp.types import ImageContent\nmcp = FastMCP("x")\n\n@mcp.tool()\ndef shot() -> ImageContent:\n    return ImageContent(type="image", data="aGk=")\n',
    );
    const scanned = await cli(['scan', '.', '--format', 'json']);
    expect(scanned.stderr).toBe('');
    expect(scanned.code).toBe(1);
    const report = JSON.parse(scanned.stdout) as { findings: { rule: string; location: { file: string } }[] };
    expect(report.findings.map((f) => `${f.rule} ${f.location.file}`).sort()).toEqual([
      'block-mime-type-missing server.js',
      'block-mime-type-missing tool.py',
    ]);
  });
});
