/**
 * The package as a user gets it: `npm pack` of a copy of the repository (its `prepare` script builds
 * dist/), unpacked into a fresh project's node_modules. Used by the packaging and ESLint tests, which
 * check what in-repo tests cannot: the `files` list, the `exports` map, the bin entry, and runtime
 * dependencies left in devDependencies.
 *
 * Packing builds the whole library, so it happens once per content of what goes into the tarball: the
 * tarball is kept under .tmp/packed/<hash>/, and test files running at the same time wait for the one
 * that packs (a lock directory) instead of packing again.
 *
 * Installing is offline on purpose: instead of `npm install`, the project's node_modules links exactly
 * the packed package.json's `dependencies` (plus what a test asks for) from this repository's
 * node_modules, so a runtime import of anything else fails here as it would for a user; the bin gets its
 * node_modules/.bin link as npm would make it.
 */

import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { REPO_ROOT } from './cli.js';

const run = promisify(execFile);

/** What the tarball is made of: a change to any of these means packing again. */
const PACKED_INPUTS = [
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'LICENSE',
  'README.md',
  'src',
  'docs',
  'schemas',
];
/** Not copied for packing: installed or generated things, and git's own. */
const NOT_COPIED = new Set(['node_modules', '.git', '.tmp', 'dist', '.bench', 'coverage']);
const STALE_LOCK_MS = 10 * 60_000;

export interface PackedManifest {
  readonly name: string;
  readonly bin: Record<string, string>;
  readonly dependencies: Record<string, string>;
  readonly engines?: { node?: string };
  readonly exports: Record<string, unknown>;
}

function inputsHash(): string {
  const hash = createHash('sha256');
  const add = (path: string) => {
    const full = join(REPO_ROOT, path);
    if (!existsSync(full)) return;
    if (statSync(full).isDirectory()) {
      for (const entry of readdirSync(full).sort()) add(join(path, entry));
    } else {
      hash.update(`${path}\0`).update(readFileSync(full)).update('\0');
    }
  };
  for (const input of PACKED_INPUTS) add(input);
  return hash.digest('hex').slice(0, 16);
}

/** The tarball of the repository as it is now (packed on first use). */
export async function packedTarball(): Promise<string> {
  const root = join(REPO_ROOT, '.tmp', 'packed');
  const dir = join(root, inputsHash());
  const done = join(dir, 'tarball');
  const lock = `${dir}.lock`;
  mkdirSync(root, { recursive: true });
  for (;;) {
    if (existsSync(done)) return join(dir, readFileSync(done, 'utf8'));
    try {
      mkdirSync(lock);
    } catch {
      // Someone else is packing: wait for them, unless they died long ago.
      const since = statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
      if (Date.now() - since > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      await sleep(500);
      continue;
    }
    try {
      // Older tarballs are of sources that no longer exist.
      for (const entry of readdirSync(root)) {
        if (!entry.endsWith('.lock') && entry !== relative(root, dir))
          rmSync(join(root, entry), { recursive: true, force: true });
      }
      const filename = await pack(dir);
      writeFileSync(done, filename);
      return join(dir, filename);
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

async function pack(dir: string): Promise<string> {
  const copy = join(dir, 'repo');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(copy, { recursive: true });
  // The whole repository, tests and fixtures included, so the `files` list is what keeps them out.
  for (const entry of readdirSync(REPO_ROOT)) {
    if (!NOT_COPIED.has(entry)) cpSync(join(REPO_ROOT, entry), join(copy, entry), { recursive: true });
  }
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', dir], {
    cwd: copy,
    maxBuffer: 64 * 1024 * 1024,
  });
  // npm prints the prepare script's output before the JSON.
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as { filename: string }[];
  if (!packed) throw new Error('npm pack reported no tarball');
  rmSync(copy, { recursive: true, force: true });
  return packed.filename;
}

/** The paths in the tarball, without npm's `package/` prefix. */
export async function tarballFiles(tarball: string): Promise<string[]> {
  const { stdout } = await run('tar', ['-tzf', tarball], { maxBuffer: 16 * 1024 * 1024 });
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.replace(/^package\//, ''));
}

export interface InstalledPackage {
  /** The fresh project (`{ "type": "module" }`). */
  readonly project: string;
  /** node_modules/mcp-shape in it. */
  readonly installed: string;
  readonly manifest: PackedManifest;
}

/**
 * Unpacks the tarball into `project`/node_modules and links its dependencies (and `extra` packages,
 * such as eslint for a lint run) from this repository's node_modules.
 */
export async function installPacked(
  tarball: string,
  project: string,
  extra: readonly string[] = [],
): Promise<InstalledPackage> {
  const installed = join(project, 'node_modules/mcp-shape');
  mkdirSync(installed, { recursive: true });
  await run('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1']);
  const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as PackedManifest;
  for (const name of [...Object.keys(manifest.dependencies), ...extra]) {
    const link = join(project, 'node_modules', name);
    mkdirSync(join(link, '..'), { recursive: true });
    symlinkSync(join(REPO_ROOT, 'node_modules', name), link, 'dir');
  }
  const bins = join(project, 'node_modules/.bin');
  mkdirSync(bins, { recursive: true });
  for (const [name, path] of Object.entries(manifest.bin)) {
    chmodSync(join(installed, path), 0o755);
    symlinkSync(join('..', 'mcp-shape', path), join(bins, name));
  }
  writeFileSync(join(project, 'package.json'), '{ "name": "app", "private": true, "type": "module" }\n');
  return { project, installed, manifest };
}
