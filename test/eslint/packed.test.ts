/**
 * The package as a user gets it: `npm pack` of a copy of the repository (its `prepare` script builds
 * dist/), unpacked into a fresh project's node_modules, then `mcp-shape/eslint` loaded by the real
 * ESLint CLI from an eslint.config.js, and the `mcp-shape` bin scanning TS and Python (tree-sitter's
 * wasm resolved from the installed @vscode/tree-sitter-wasm). This catches what in-repo tests cannot:
 * the `exports` map, the `files` list, the bin entry, and runtime dependencies left in devDependencies.
 *
 * Offline on purpose: instead of `npm install`, the project's node_modules holds links to exactly the
 * packed package.json's `dependencies` (plus eslint) from this repository's node_modules, so a runtime
 * import of anything else fails here as it would for a user.
 */

import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/cli.js';

const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), 'mcp-shape-packed-'));
const project = join(work, 'project');
const installed = join(project, 'node_modules/mcp-shape');

interface PackedManifest {
  readonly bin: Record<string, string>;
  readonly dependencies: Record<string, string>;
}

async function packAndInstall(): Promise<void> {
  const copy = join(work, 'repo');
  mkdirSync(copy);
  for (const entry of ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'README.md', 'src', 'docs']) {
    cpSync(join(REPO_ROOT, entry), join(copy, entry), { recursive: true });
  }
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], {
    cwd: copy,
    maxBuffer: 64 * 1024 * 1024,
  });
  const [packed] = JSON.parse(stdout) as { filename: string }[];
  if (!packed) throw new Error('npm pack reported no tarball');

  mkdirSync(installed, { recursive: true });
  await run('tar', ['-xzf', join(work, packed.filename), '-C', installed, '--strip-components=1']);
  const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as PackedManifest;
  for (const name of [...Object.keys(manifest.dependencies), 'eslint']) {
    const link = join(project, 'node_modules', name);
    mkdirSync(join(link, '..'), { recursive: true });
    symlinkSync(join(REPO_ROOT, 'node_modules', name), link, 'dir');
  }
  writeFileSync(join(project, 'package.json'), '{ "name": "app", "private": true, "type": "module" }\n');
}

function cli(args: string[]) {
  const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as PackedManifest;
  const bin = manifest.bin['mcp-shape'];
  if (!bin) throw new Error('the package has no mcp-shape bin');
  return run(process.execPath, [join(installed, bin), ...args], { cwd: project }).then(
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
    await packAndInstall();
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
