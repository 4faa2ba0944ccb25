/**
 * TypeScript the tests run as processes, bundled with esbuild (the transpiler tsx uses too), packages
 * left external: the command line (`src/cli/bin.ts`, once per test run, by the global setup), the example
 * servers and the README's snippets. Starting a bundle costs a quarter of the CPU of starting the sources
 * through tsx's loader hooks (about 3 CPU-seconds for an example server on 2 loaded cores), which adds up
 * over the hundreds of processes in the suite and its Node 22/24 matrix.
 *
 * Every bundle sits two levels below the repository root, as the sources do, so what they find relative
 * to `import.meta.url` (package.json, node_modules) resolves the same. A bundle is written next to its
 * place and renamed into it, so a run never sees half a file, even when two test files build the same
 * one at once.
 */

import { mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { build } from 'esbuild';

export const CLI_SOURCE = 'src/cli/bin.ts';

/** Bundles `entry` (relative to `root`) into `<root>/.tmp/<folder>/<entry's name>.mjs`; returns its path. */
export async function bundleScript(root: string, entry: string, folder: string): Promise<string> {
  const bundle = join(root, '.tmp', folder, `${basename(entry).replace(/\.[cm]?tsx?$/, '')}.mjs`);
  const partial = `${bundle}.${process.pid}.${Math.random().toString(36).slice(2)}.partial`;
  await build({
    entryPoints: [join(root, entry)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile: partial,
    logLevel: 'error',
  });
  renameSync(partial, bundle);
  return bundle;
}

/**
 * Packages the command line's bundle leaves to Node: those that load files of their own at run time (a
 * native binding, a wasm file) or that only tests and types use. The rest (ajv, commander, file-type…)
 * is bundled in: resolving and loading their few hundred modules was about a third of a CLI start, and
 * the suite and its Node 22/24 matrix start the CLI several hundred times. The published package loads
 * them from node_modules; test/project/package.test.ts runs that one.
 */
const CLI_EXTERNAL = [
  'oxc-parser',
  '@oxc-parser/*',
  'web-tree-sitter',
  '@vscode/tree-sitter-wasm',
  'eslint',
  'playwright-core',
  '@modelcontextprotocol/*',
];

/**
 * The command line, in chunks as the published package has it in modules: each command is imported
 * only when it runs (src/cli/main.ts), and one bundle would load every command's packages at start.
 * The chunks sit beside the entry, two levels below the root too; each file is renamed into place,
 * chunks first and the entry last (a chunk's name holds its content's hash).
 */
export async function buildCliBundle(root: string): Promise<string> {
  const dir = join(root, '.tmp', 'cli');
  const partial = `${dir}.${process.pid}.${Math.random().toString(36).slice(2)}.partial`;
  await build({
    entryPoints: { bin: join(root, CLI_SOURCE) },
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: CLI_EXTERNAL,
    // ES builds where a package has one (jsonc-parser's CommonJS build requires its parts by computed
    // paths, which no bundle holds).
    mainFields: ['module', 'main'],
    // The CommonJS packages bundled in require Node's built-ins, which an ES module has no `require` for.
    banner: {
      js: "import { createRequire as __cliRequire } from 'node:module'; const require = __cliRequire(import.meta.url);",
    },
    outdir: partial,
    outExtension: { '.js': '.mjs' },
    chunkNames: '[name]-[hash]',
    logLevel: 'error',
  });
  mkdirSync(dir, { recursive: true });
  const files = readdirSync(partial).sort((a, b) => Number(a === 'bin.mjs') - Number(b === 'bin.mjs'));
  for (const file of files) renameSync(join(partial, file), join(dir, file));
  rmSync(partial, { recursive: true, force: true });
  removeStaleChunks(dir, new Set(files));
  return join(dir, 'bin.mjs');
}

/**
 * Chunks of earlier builds, which no bin.mjs loads any more (a chunk's name changes with its content):
 * without this, every test run after an edit left its chunks behind. Only those an hour old, so that a
 * test run still going beside this one keeps what its own bin.mjs loads.
 */
function removeStaleChunks(dir: string, current: ReadonlySet<string>): void {
  const before = Date.now() - 60 * 60 * 1000;
  for (const file of readdirSync(dir)) {
    if (current.has(file)) continue;
    const path = join(dir, file);
    if (statSync(path).mtimeMs < before) rmSync(path, { force: true });
  }
}
