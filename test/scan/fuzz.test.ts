/**
 * Hostile source: nothing a file contains may crash, stall or blow up the scan. Garbage, deep
 * nesting, pathological functions, recursion and import cycles end as a finding, an unresolved
 * return with the reason ("analysis budget", "too many combinations", "a recursive call"), or one line naming a file that
 * could not be scanned; never a stack trace.
 */

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { scanSources } from '../../src/scan/index.js';
import { computeVerdict } from '../../src/scan/verdict.js';
import { runCli } from '../support/cli.js';
import { runs } from '../support/runs.js';

const HEADER_TS =
  "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nconst server = new McpServer({ name: 'x', version: '1' });\n";
const HEADER_PY = 'from mcp.server.lowlevel import Server\nserver = Server("x")\n';

async function scan(files: Record<string, string>) {
  const inputs = Object.entries(files).map(([path, text]) => ({ path, absolute: `/fuzz/${path}`, text }));
  return scanSources(inputs, { cwd: '/fuzz' });
}

const JS_TOKENS = [
  'server.registerTool(',
  'async',
  '=>',
  '(',
  ')',
  '{',
  '}',
  '[',
  ']',
  ',',
  ';',
  ':',
  '?',
  '...',
  'return',
  'if',
  'else',
  'for',
  'while',
  'const',
  'let',
  'x',
  'y',
  'content',
  'type',
  "'text'",
  "'image'",
  'text',
  '1',
  'null',
  'undefined',
  '=',
  '+',
  '||',
  '??',
  '&&',
  '!',
  'function',
  'f',
  'f(',
  'new',
  'class',
  'this',
  '.',
  'push',
  'map',
  'switch',
  'case',
  'default',
  'break',
  'try',
  'catch',
  'finally',
  'throw',
  '`${',
  '`',
  '"\\u001b[2J"',
  '/*',
  '*/',
  '\n',
];
const PY_TOKENS = [
  '@server.call_tool()',
  'async',
  'def',
  'f',
  '(',
  ')',
  ':',
  '\n',
  '    ',
  'return',
  'if',
  'elif',
  'else',
  'for',
  'in',
  'while',
  'match',
  'case',
  'try',
  'except',
  'finally',
  'x',
  'y',
  '=',
  '+=',
  '{',
  '}',
  '[',
  ']',
  ',',
  '"type"',
  '"text"',
  '**',
  '*',
  'lambda',
  'not',
  'and',
  'or',
  'None',
  'True',
  '1',
  'f"{x}"',
  'import',
  'from',
  '.',
  'class',
  'yield',
  '\\',
];

function soup(tokens: readonly string[]) {
  return fc.array(fc.constantFrom(...tokens), { maxLength: 120 }).map((t) => t.join(' '));
}

describe('hostile source', () => {
  it('random token soups never throw: each file is scanned or named with a reason', async () => {
    await fc.assert(
      fc.asyncProperty(
        soup(JS_TOKENS),
        soup(PY_TOKENS),
        fc.string({ maxLength: 80 }),
        async (js, py, raw) => {
          const { files } = await scan({
            'a.ts': HEADER_TS + js,
            'b.py': HEADER_PY + py,
            'c.mjs': `// tools/call\n${raw}`,
          });
          for (const f of files) {
            if (f.error) expect(f.error.reason).not.toMatch(/\n/);
          }
        },
      ),
      { numRuns: runs(150) },
    );
  });

  it('deeply nested expressions become unresolved or unscanned, not a stack overflow', async () => {
    const depth = 20_000;
    const js = `${HEADER_TS}server.registerTool('deep', {}, async () => ({ content: ${'['.repeat(depth)}1${']'.repeat(depth)} }));\n`;
    const parens = `${HEADER_TS}server.registerTool('parens', {}, async () => ${'('.repeat(depth)}1${')'.repeat(depth)});\n`;
    const py = `${HEADER_PY}@server.call_tool()\nasync def call_tool(name, arguments):\n    return ${'['.repeat(depth)}1${']'.repeat(depth)}\n`;
    const blocks = `${HEADER_PY}@server.call_tool()\nasync def call_tool(name, arguments):\n${Array.from({ length: 300 }, (_, i) => `${'    '.repeat(i + 1)}if x:`).join('\n')}\n${'    '.repeat(301)}return []\n`;
    const { files, handlers } = await scan({
      'deep.ts': js,
      'parens.ts': parens,
      'deep.py': py,
      'blocks.py': blocks,
    });
    for (const f of files) {
      if (f.error) expect(f.error.reason).toMatch(/^(syntax error|cannot analyze|analysis budget)/);
    }
    for (const h of handlers)
      for (const r of h.returns) expect(['unresolved', 'invalid', 'typed']).toContain(r.status);
  });

  it('a pathological function costs a bounded time and ends as unresolved, naming the limit it hit', async () => {
    const branches = Array.from(
      { length: 4000 },
      (_, i) => `  if (x${i % 7}) { block = { type: 'text', text: 't${i}' }; } else { block.n${i} = ${i}; }`,
    );
    const js = `${HEADER_TS}server.registerTool('huge', {}, async ({ x0, x1, x2, x3, x4, x5, x6 }) => {\n  let block = { type: 'text', text: '' };\n${branches.join('\n')}\n  return { content: [block] };\n});\n`;
    const started = Date.now();
    const { handlers } = await scan({ 'huge.ts': js });
    expect(Date.now() - started).toBeLessThan(20_000);
    const verdict = computeVerdict(handlers);
    expect(verdict.unresolved).toBe(1);
    // Which limit ends it depends on the machine: the analysis takes about 2.2 s on an idle 2-core
    // machine and then finds too many possible blocks to check; under load (or at 8,000 branches) the
    // 3 s time limit stops it first. Either way the return is unresolved, with the reason.
    expect(verdict.unproven[0]).toMatch(/analysis budget|too many combinations of possible values/);
  });

  it('recursion and import cycles end; a recursive result is unresolved with the reason', async () => {
    const { handlers } = await scan({
      'server.ts': `${HEADER_TS}import { a } from './a.js';\nfunction f(n: number): unknown { return n > 0 ? f(n - 1) : { content: [] }; }\nserver.registerTool('rec', {}, async ({ n }) => f(Number(n)));\nserver.registerTool('cycle', {}, async () => a());\n`,
      'a.ts': "import { b } from './b.js';\nexport function a() { return b(); }\n",
      'b.ts': "import { a } from './a.js';\nexport function b() { return a(); }\n",
      'self.py': `${HEADER_PY}from .self import call_tool as again\n@server.call_tool()\nasync def call_tool(name, arguments):\n    return await call_tool(name, arguments)\n`,
    });
    const verdict = computeVerdict(handlers);
    expect(verdict.invalid).toBe(0);
    expect(verdict.unproven.some((u) => /recursive call/.test(u))).toBe(true);
  });

  describe('through the CLI', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-shape-fuzz-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('prints no stack trace for any of it', { timeout: 120_000 }, async () => {
      writeFileSync(join(dir, 'garbage.ts'), `${HEADER_TS}${'}{)(]['.repeat(2000)}`);
      writeFileSync(
        join(dir, 'deep.mjs'),
        `// tools/call\nexport const x = ${'['.repeat(50_000)}${']'.repeat(50_000)};\n`,
      );
      writeFileSync(join(dir, 'deep.py'), `${HEADER_PY}x = ${'('.repeat(50_000)}1${')'.repeat(50_000)}\n`);
      writeFileSync(
        join(dir, 'bidi.ts'),
        `${HEADER_TS}server.registerTool('\u202etrojan\u001b[31m', {}, async () => ({ content: [{ type: 'evil\u001b]52;c;aGk=\u0007' }] }));\n`,
      );
      const run = await runCli(['scan', dir]);
      expect([0, 1, 2]).toContain(run.code);
      expect(run.stderr).not.toMatch(/\n\s+at /);
      expect(run.stdout).not.toMatch(/\n\s+at /);
      // The scan's own output (the verdict, which names tools) shows names from the file escaped.
      const verdict = run.stdout.slice(
        run.stdout.indexOf('mcp-server.tool-definitions.return-content-types'),
      );
      expect(verdict).toContain('\\u202etrojan\\x1b[31m');
      // biome-ignore lint/suspicious/noControlCharactersInRegex: asserting the control byte is absent.
      expect(verdict).not.toMatch(/\u001b|\u202e|\u0007/);
    });
  });
});
