import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script, run before dependencies exist, so it has no type declarations
import { platformOf } from '../../scripts/complete-lockfile.mjs';
import { REPO_ROOT } from '../support/cli.js';

const run = promisify(execFile);

describe('package-lock.json', () => {
  it('lets `npm ci` install from a fresh clone (run `npm run lockfile` after changing dependencies)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-shape-lock-'));
    copyFileSync(join(REPO_ROOT, 'package.json'), join(dir, 'package.json'));
    copyFileSync(join(REPO_ROOT, 'package-lock.json'), join(dir, 'package-lock.json'));
    const { stdout } = await run('npm', ['ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund'], {
      cwd: dir,
    });
    expect(stdout).toMatch(/added \d+ packages/);
  }, 120_000);

  it('records every platform binary of the native dependencies', () => {
    const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8'));
    expect(lock.packages['node_modules/@biomejs/cli-darwin-arm64']).toMatchObject({
      os: ['darwin'],
      cpu: ['arm64'],
    });
    expect(lock.packages['node_modules/@oxc-parser/binding-linux-x64-musl']).toMatchObject({
      os: ['linux'],
      cpu: ['x64'],
      libc: ['musl'],
    });
  });

  it('reads os, cpu and libc from binary package names', () => {
    expect(platformOf('@oxc-parser/binding-win32-ia32-msvc')).toEqual({ os: ['win32'], cpu: ['ia32'] });
    expect(platformOf('@oxc-parser/binding-linux-arm-gnueabihf')).toEqual({
      os: ['linux'],
      cpu: ['arm'],
      libc: ['glibc'],
    });
    expect(platformOf('@biomejs/cli-linux-arm64-musl')).toEqual({
      os: ['linux'],
      cpu: ['arm64'],
      libc: ['musl'],
    });
    expect(platformOf('typescript')).toBeUndefined();
  });
});
