#!/usr/bin/env node
/**
 * Adds lock entries for platform-specific optional dependencies that npm left out.
 *
 * Why: the registry this project is developed against serves only the binaries for the machine's own
 * platform (e.g. @biomejs/cli-linux-x64) and answers 404 for the others (darwin, win32, musl…). npm then
 * writes no lock entry for them, and `npm ci` refuses a lock that lacks an optional dependency
 * ("Missing: @biomejs/cli-darwin-arm64@ from lock file") on every machine, this one included.
 * Each missing package gets the entry npm would have written: its exact version and the os/cpu/libc it
 * is built for, read from its name, so npm skips it on other platforms and installs it on its own.
 * Run it after every `npm install` that changes the lock: `npm run lockfile`. A test checks the result
 * with `npm ci --dry-run`.
 */

import { readFileSync, writeFileSync } from 'node:fs';

const OS = [
  'aix',
  'android',
  'darwin',
  'freebsd',
  'linux',
  'netbsd',
  'openbsd',
  'openharmony',
  'sunos',
  'win32',
];
const CPU = ['arm64', 'arm', 'ia32', 'loong64', 'mips64el', 'ppc64', 'riscv64', 's390x', 'x64', 'wasm32'];

/** os, cpu and libc from a binary package name such as `binding-linux-arm-musleabihf`. */
export function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.find((p) => CPU.includes(p));
  if (!cpu) return undefined;
  const entry = { cpu: [cpu] };
  if (os) entry.os = [os];
  if (os === 'linux') entry.libc = [parts.some((p) => p.startsWith('musl')) ? 'musl' : 'glibc'];
  return entry;
}

export function completeLockfile(lock) {
  const packages = lock.packages;
  const added = [];
  for (const [location, pkg] of Object.entries(packages)) {
    for (const [dep, version] of Object.entries(pkg.optionalDependencies ?? {})) {
      const nested = `${location ? `${location}/` : ''}node_modules/${dep}`;
      const top = `node_modules/${dep}`;
      if (packages[nested] || packages[top]) continue;
      const platform = platformOf(dep);
      if (!platform || !/^\d+\.\d+\.\d+/.test(version)) continue;
      packages[top] = { version, ...platform, ...(pkg.dev ? { dev: true } : {}), optional: true };
      added.push(`${dep}@${version}`);
    }
  }
  lock.packages = Object.fromEntries(
    Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
  );
  return added;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const path = new URL('../package-lock.json', import.meta.url);
  const lock = JSON.parse(readFileSync(path, 'utf8'));
  const added = completeLockfile(lock);
  writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
  console.log(
    added.length
      ? `added ${added.length} platform entries: ${added.join(', ')}`
      : 'lockfile already complete',
  );
}
