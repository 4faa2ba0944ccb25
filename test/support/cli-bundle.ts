/**
 * The command line as the tests run it: `src/cli/bin.ts` bundled once per test run with esbuild (the
 * transpiler tsx uses too), packages left external. Starting it costs a quarter of the CPU of starting
 * the sources through tsx's loader hooks, which adds up over the hundreds of CLI runs in the suite and
 * its Node 22/24 matrix.
 *
 * The bundle sits two levels below the repository root, as src/cli/bin.ts does, so what the sources
 * find relative to `import.meta.url` (package.json, node_modules) resolves the same. The global setup
 * builds it at the start of every run; it is written next to its place and renamed into it, so a run
 * never sees half a file.
 */

import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

export const CLI_SOURCE = 'src/cli/bin.ts';

export async function buildCliBundle(root: string): Promise<string> {
  const bundle = join(root, '.tmp', 'cli', 'bin.mjs');
  const partial = `${bundle}.${process.pid}.partial`;
  await build({
    entryPoints: [join(root, CLI_SOURCE)],
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
