/**
 * The README's `## Library` code runs as written. Each ```ts block becomes a module (importing
 * src/index.ts where it says 'mcp-shape'), a comment `// name: <JS literal>` becomes an assertion that
 * `name` deep-equals the literal (comments that are prose, or elided with …, stay comments), and the
 * module runs in its own process, bundled with esbuild (the transpiler tsx uses; test/support/cli-bundle.ts
 * says why not tsx itself), as a reader would run it.
 */

import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { bundleScript } from '../support/cli-bundle.js';

const root = join(import.meta.dirname, '../..');
// Inside the checkout, so the snippets' bundles resolve the SDK packages from its node_modules the way
// the README's reader's would.
const WORK_FOLDER = '.tmp/readme-sources';
const workDir = join(root, WORK_FOLDER);

function librarySection(): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Library\n');
  const end = readme.indexOf('\n## ', start + 1);
  if (start < 0) throw new Error('README.md has no "## Library" section');
  return readme.slice(start, end < 0 ? undefined : end);
}

function snippets(): string[] {
  return [...librarySection().matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
}

function isLiteral(source: string): boolean {
  if (source.includes('…')) return false;
  try {
    new Function(`return (${source});`);
    return true;
  } catch {
    return false;
  }
}

/** The snippet as a runnable module, and how many documented values it now asserts. */
function runnable(snippet: string): { module: string; assertions: number } {
  let assertions = 0;
  const body = snippet
    .replaceAll(`from 'mcp-shape'`, `from ${JSON.stringify(join(root, 'src/index.ts'))}`)
    .split('\n')
    .map((line) => {
      const documented = /^(\s*)\/\/ ([\w.]+): (.+)$/.exec(line);
      if (!documented || !isLiteral(documented[3] ?? '')) return line;
      assertions++;
      const [, indent, name, literal] = documented;
      return `${indent}assert.deepStrictEqual(JSON.parse(JSON.stringify(${name})), ${literal});`;
    })
    .join('\n');
  return { module: `import assert from 'node:assert/strict';\n${body}`, assertions };
}

describe('README ## Library code', () => {
  const blocks = snippets();

  it('has the shaped(), toolResult() and repair() examples', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    for (const name of ['shaped(', 'toolResult(', 'repair(', 'repairMessage(']) {
      expect(blocks.some((b) => b.includes(name))).toBe(true);
    }
  });

  it('states documented values that the runs check', () => {
    expect(blocks.map((b) => runnable(b).assertions).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(3);
  });

  it.each(blocks.map((block, index) => [index + 1, block]))(
    'snippet %i runs and its documented values hold',
    async (index, block) => {
      mkdirSync(workDir, { recursive: true });
      const file = join(workDir, `library-${index}.mts`);
      writeFileSync(file, runnable(String(block)).module);
      const bundle = await bundleScript(root, join(WORK_FOLDER, `library-${index}.mts`), 'readme');
      const run = await promisify(execFile)(process.execPath, [bundle], { cwd: root, timeout: 60_000 }).catch(
        (error: { stderr?: string; message: string }) => ({
          stdout: '',
          stderr: error.stderr || error.message,
        }),
      );
      expect(run.stderr).toBe('');
    },
    90_000,
  );
});
