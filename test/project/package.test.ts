/**
 * The npm package: what the tarball holds, and the installed package used the ways users use it, on the
 * machine's Node and on Node 22 and 24 (scripts/node-binaries.ts): `npx mcp-shape check`, an ESM import
 * of the root, a CommonJS `require` of the root and of `mcp-shape/eslint`, and ESLint loading a
 * CommonJS config. The package is packed and installed as in test/support/packed.ts.
 */

import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureNodeBinary, NODE_MAJORS, nodeVersion } from '../../scripts/node-binaries.js';
import { RULES } from '../../src/rules/catalog.js';
import { REPO_ROOT } from '../support/cli.js';
import { type InstalledPackage, installPacked, packedTarball, tarballFiles } from '../support/packed.js';

const exec = promisify(execFile);
/** A few spawns of node and npx per test: seconds each on a loaded 2-core machine. */
const RUN_TIMEOUT = 120_000;

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function run(
  command: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): Promise<Run> {
  return exec(command, [...args], { cwd, env: { ...process.env, NO_COLOR: '1', ...env } }).then(
    (r) => ({ code: 0, ...r }),
    (e: Run) => e,
  );
}

let tarball = '';
beforeAll(async () => {
  tarball = await packedTarball();
}, 600_000);

describe('the tarball', () => {
  it('ships dist, docs, the config schema, the LICENSE and the README, and none of the repository’s tooling', async () => {
    const files = await tarballFiles(tarball);
    for (const file of [
      'package.json',
      'LICENSE',
      'README.md',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/cli/bin.js',
      'dist/eslint/index.js',
      'dist/eslint/index.d.ts',
      'docs/report-schema.json',
      'docs/rules/README.md',
      'schemas/mcp-shape.config.schema.json',
      ...RULES.map((r) => `docs/rules/${r.id}.md`),
    ]) {
      expect(files, file).toContain(file);
    }
    const outside = files.filter(
      (f) => !/^(dist|docs|schemas)\//.test(f) && !['package.json', 'LICENSE', 'README.md'].includes(f),
    );
    expect(outside).toEqual([]);
    // No tests, fixtures, scripts, benchmarks or sources, and no source maps pointing at sources left out.
    expect(
      files.filter((f) => /(^|\/)(test|fixtures|scripts|bench|examples|src)\/|\.test\.|\.map$/.test(f)),
    ).toEqual([]);
  });

  it('says which license and which Node versions', async () => {
    const license = readFileSync(join(REPO_ROOT, 'LICENSE'), 'utf8');
    expect(license).toMatch(/^MIT License\n\nCopyright \(c\) 2026 mcp-shape contributors\n/);
    expect(license).toContain('THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND');
    const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));
    expect(manifest.license).toBe('MIT');
    // require(esm), which `require('mcp-shape')` and `require('mcp-shape/eslint')` rely on, is in
    // Node 20.19, 22.12 and 24 without a flag.
    expect(manifest.engines).toEqual({ node: '^20.19.0 || ^22.12.0 || >=24.0.0' });
  });
});

/** A result every version passes, and one with a defect in every version. */
const CLEAN = { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'sunny' }] } };
const BROKEN = {
  jsonrpc: '2.0',
  id: 1,
  requestId: 1,
  result: { content: [{ type: 'text', text: 'sunny' }] },
};
const SERVER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('shot', {}, async () => ({ content: [{ type: 'image', data: 'aGk=' }] }));
`;

const RUNTIMES: readonly (readonly [string, (() => Promise<string>) | undefined])[] = [
  ['this machine’s Node', undefined],
  ...NODE_MAJORS.map((major) => [`Node ${major}`, () => ensureNodeBinary(major)] as const),
];

describe.each(RUNTIMES)('the installed package on %s', (_name, provision) => {
  let node = process.execPath;
  let pkg: InstalledPackage;
  /** PATH with this Node first, so `#!/usr/bin/env node` in the bin and npx's scripts find it. */
  let env: NodeJS.ProcessEnv = {};

  beforeAll(async () => {
    if (provision) node = await provision();
    env = { PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}` };
    pkg = await installPacked(tarball, mkdtempSync(join(tmpdir(), 'mcp-shape-installed-')), ['eslint']);
    writeFileSync(join(pkg.project, 'clean.json'), JSON.stringify(CLEAN));
    writeFileSync(join(pkg.project, 'broken.json'), JSON.stringify(BROKEN));
    writeFileSync(join(pkg.project, 'server.js'), SERVER);
  }, 600_000);

  it(
    'runs `npx mcp-shape check` with this Node',
    async () => {
      const which = await run('npx', ['--no-install', '-c', 'node --version'], pkg.project, env);
      expect(which.stdout.trim()).toBe(await nodeVersion(node));
      const clean = await run('npx', ['--no-install', 'mcp-shape', 'check', 'clean.json'], pkg.project, env);
      // npm may warn about the machine's own configuration; mcp-shape itself says nothing.
      expect(clean.stderr.split('\n').filter((l) => l !== '' && !l.startsWith('npm warn'))).toEqual([]);
      expect(clean.code).toBe(0);
      expect(clean.stdout).toContain('valid for 2024-11-05 … 2025-11-25; fails 2026-07-28');
      const broken = await run(
        'npx',
        ['--no-install', 'mcp-shape', 'check', 'broken.json', '--format', 'json'],
        pkg.project,
        env,
      );
      expect(broken.code).toBe(1);
      expect(JSON.parse(broken.stdout).findings.map((f: { rule: string }) => f.rule)).toEqual([
        'envelope-extra-member',
      ]);
    },
    RUN_TIMEOUT,
  );

  it(
    'imports the root as ESM',
    async () => {
      const script = [
        "import { validateMessage, DEFAULT_PROTOCOL_VERSION } from 'mcp-shape';",
        "import plugin from 'mcp-shape/eslint';",
        `const findings = await validateMessage(${JSON.stringify(BROKEN)});`,
        'console.log(JSON.stringify({ version: DEFAULT_PROTOCOL_VERSION, rules: findings.map((f) => f.rule), eslint: typeof plugin.rules }));',
      ].join('\n');
      const esm = await run(node, ['--input-type=module', '-e', script], pkg.project);
      expect(esm.stderr).toBe('');
      expect(JSON.parse(esm.stdout)).toEqual({
        version: '2025-11-25',
        rules: ['envelope-extra-member'],
        eslint: 'object',
      });
    },
    RUN_TIMEOUT,
  );

  it(
    'requires the root and mcp-shape/eslint from CommonJS, the plugin itself without .default',
    async () => {
      writeFileSync(
        join(pkg.project, 'require.cjs'),
        [
          "const shape = require('mcp-shape');",
          "const plugin = require('mcp-shape/eslint');",
          'shape.validateToolResult({ content: "x" }).then((findings) => console.log(JSON.stringify({',
          '  rules: findings.map((f) => f.rule),',
          '  pluginName: plugin.meta.name,',
          '  recommended: plugin.configs.recommended.name,',
          '  ruleCount: Object.keys(plugin.rules).length,',
          "  configSchema: require('mcp-shape/schemas/mcp-shape.config.schema.json').type,",
          '})));',
        ].join('\n'),
      );
      const cjs = await run(node, ['require.cjs'], pkg.project);
      expect(cjs.stderr).toBe('');
      const out = JSON.parse(cjs.stdout);
      expect(out).toMatchObject({
        rules: ['result-content-not-array'],
        pluginName: 'mcp-shape',
        recommended: 'mcp-shape/recommended',
        configSchema: 'object',
      });
      expect(out.ruleCount).toBeGreaterThan(10);
    },
    RUN_TIMEOUT,
  );

  it(
    'lints with ESLint from a CommonJS config (eslint.config.cjs)',
    async () => {
      writeFileSync(
        join(pkg.project, 'eslint.config.cjs'),
        "const mcpShape = require('mcp-shape/eslint');\nmodule.exports = [mcpShape.configs.recommended];\n",
      );
      const eslint = join(pkg.project, 'node_modules/eslint/bin/eslint.js');
      const linted = await run(
        node,
        [eslint, '--config', 'eslint.config.cjs', '--format', 'json', 'server.js'],
        pkg.project,
      );
      expect(linted.code).toBe(1);
      const [result] = JSON.parse(linted.stdout) as { messages: { ruleId: string; line: number }[] }[];
      expect(result?.messages.map((m) => [m.ruleId, m.line])).toEqual([
        ['mcp-shape/block-mime-type-missing', 3],
      ]);
    },
    RUN_TIMEOUT,
  );
});
