import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { collectFiles } from '../../src/scan/index.js';
import { createPathFilter } from '../../src/scan/path-filter.js';

const root = mkdtempSync(join(tmpdir(), 'mcp-shape-filter-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

for (const [path, text] of Object.entries({
  '.git/info/exclude': 'secret.ts\n',
  '.gitignore': 'out/\n*.gen.ts\n!keep.gen.ts\n',
  'src/server.ts': '',
  'src/server.test.ts': '',
  'src/a.gen.ts': '',
  'src/keep.gen.ts': '',
  'src/secret.ts': '',
  'src/nested/.gitignore': 'local.py\n',
  'src/nested/local.py': '',
  'src/nested/tool.py': '',
  'out/bundle.js': '',
  'vendor/lib/x.js': '',
})) {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
}

async function walk(options: Parameters<typeof createPathFilter>[0]): Promise<string[]> {
  // Test files too: what is filtered here is the walk's filter, not the default leaving-out of tests.
  const { files } = await collectFiles([root], createPathFilter(options), { includeTests: true });
  return files.map((f) => f.slice(root.length + 1)).sort();
}

describe('scan path filter', () => {
  it('respects .gitignore files at every level, negations, and .git/info/exclude', async () => {
    expect(await walk({ cwd: root, gitignoreRoot: root })).toEqual([
      'src/keep.gen.ts',
      'src/nested/tool.py',
      'src/server.test.ts',
      'src/server.ts',
      'vendor/lib/x.js',
    ]);
  });

  it('without the gitignore root, walks everything', async () => {
    expect(await walk({ cwd: root })).toHaveLength(9);
  });

  it('--exclude: directory globs prune the walk, name globs match at any depth', async () => {
    const files = await walk({
      cwd: root,
      gitignoreRoot: root,
      exclude: { patterns: ['vendor', '*.test.ts'], base: root },
    });
    expect(files).toEqual(['src/keep.gen.ts', 'src/nested/tool.py', 'src/server.ts']);
    // Relative to another base (the configuration's directory), or to the walked root.
    const elsewhere = await walk({
      cwd: '/',
      roots: [root],
      exclude: { patterns: ['src/**'], base: '/nowhere' },
    });
    expect(elsewhere.every((f) => !f.startsWith('src/'))).toBe(true);
  });

  it('--include keeps only matching files', async () => {
    expect(await walk({ cwd: root, include: { patterns: ['**/*.py'], base: root } })).toEqual([
      'src/nested/local.py',
      'src/nested/tool.py',
    ]);
  });

  it('walks a directory named on the command line that .gitignore ignores, and keeps .gitignore elsewhere', async () => {
    const out = join(root, 'out');
    const filter = createPathFilter({ cwd: root, roots: [out, join(root, 'src')], gitignoreRoot: root });
    const { files } = await collectFiles([out, join(root, 'src')], filter, { includeTests: true });
    expect(files.map((f) => f.slice(root.length + 1)).sort()).toEqual([
      'out/bundle.js',
      'src/keep.gen.ts',
      'src/nested/tool.py',
      'src/server.test.ts',
      'src/server.ts',
    ]);
  });

  it('walks a directory named on the command line that --exclude matches, and excludes elsewhere', async () => {
    const exclude = { patterns: ['src/**'], base: root };
    const nested = join(root, 'src/nested');
    const filter = createPathFilter({ cwd: root, roots: [nested, join(root, 'vendor')], exclude });
    const { files } = await collectFiles([nested, join(root, 'vendor')], filter, { includeTests: true });
    expect(files.map((f) => f.slice(root.length + 1)).sort()).toEqual([
      'src/nested/local.py',
      'src/nested/tool.py',
      'vendor/lib/x.js',
    ]);
    const everything = createPathFilter({ cwd: root, roots: [root], exclude });
    expect(
      (await collectFiles([root], everything, { includeTests: true })).files.some((f) => f.includes('/src/')),
    ).toBe(false);
  });

  it('never filters a file named on the command line', async () => {
    const file = join(root, 'src/a.gen.ts');
    const { files } = await collectFiles(
      [file],
      createPathFilter({ cwd: root, gitignoreRoot: root, exclude: { patterns: ['**'], base: root } }),
    );
    expect(files).toEqual([file]);
  });
});
