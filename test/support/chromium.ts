/**
 * Chromium for the browser tests, driven through playwright-core.
 *
 * Found, in this order: `CHROMIUM_PATH` (a user's explicit choice: used or reported, never overridden),
 * Debian's `/usr/bin/chromium`, then playwright's own cache (`chromium.executablePath()`, which honours
 * PLAYWRIGHT_BROWSERS_PATH). When there is none, the test run provisions one before the browser tests
 * (test/support/global-setup.ts): Debian's package through apt-get when it runs as root on a machine with
 * apt, otherwise `playwright-core install chromium`; it says on stderr what it does. So `npm ci && npm
 * test` is all a fresh machine needs.
 *
 * The decisions are pure functions of what the machine has (a `Machine`), so they are tested without
 * installing anything; only `provisionChromium` runs commands.
 */

import { execFile } from 'node:child_process';
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { type Browser, chromium } from 'playwright-core';
import { inject } from 'vitest';
import { REPO_ROOT } from './cli.js';

const run = promisify(execFile);

export const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/** What the decisions look at. */
export interface Machine {
  readonly env: { readonly CHROMIUM_PATH?: string | undefined };
  /** Whether `path` is an executable file. */
  executable(path: string): boolean;
  /** Where playwright-core keeps (or would keep) its Chromium. */
  readonly playwrightChromium: string;
  readonly isRoot: boolean;
  /** apt-get is on the PATH. */
  readonly hasApt: boolean;
}

export type Found = { readonly path: string; readonly source: 'CHROMIUM_PATH' | 'debian' | 'playwright' };

export type Lookup =
  | ({ readonly kind: 'found' } & Found)
  /** CHROMIUM_PATH names something that is not there: an error to report, not something to fix. */
  | { readonly kind: 'bad-env'; readonly path: string }
  | { readonly kind: 'missing'; readonly looked: readonly string[] };

export function findChromium(machine: Machine): Lookup {
  const fromEnv = machine.env.CHROMIUM_PATH;
  if (fromEnv) {
    return machine.executable(fromEnv)
      ? { kind: 'found', path: fromEnv, source: 'CHROMIUM_PATH' }
      : { kind: 'bad-env', path: fromEnv };
  }
  if (machine.executable(DEBIAN_CHROMIUM)) return { kind: 'found', path: DEBIAN_CHROMIUM, source: 'debian' };
  if (machine.executable(machine.playwrightChromium)) {
    return { kind: 'found', path: machine.playwrightChromium, source: 'playwright' };
  }
  return {
    kind: 'missing',
    looked: ['CHROMIUM_PATH (not set)', DEBIAN_CHROMIUM, machine.playwrightChromium],
  };
}

export interface ProvisionPlan {
  readonly how: 'apt' | 'playwright';
  /** Commands to run in order: [program, ...args]. */
  readonly commands: readonly (readonly string[])[];
  readonly env: Readonly<Record<string, string>>;
  /** Where the browser is once the commands have run. */
  readonly path: string;
}

/** Debian's package when root with apt (no browser download from outside the distribution), else playwright's. */
export function provisionPlan(machine: Machine, playwrightCli: string = playwrightCliPath()): ProvisionPlan {
  if (machine.isRoot && machine.hasApt) {
    return {
      how: 'apt',
      commands: [
        ['apt-get', 'update', '-qq'],
        ['apt-get', 'install', '-y', '-qq', '--no-install-recommends', 'chromium'],
      ],
      env: { DEBIAN_FRONTEND: 'noninteractive' },
      path: DEBIAN_CHROMIUM,
    };
  }
  return {
    how: 'playwright',
    commands: [[process.execPath, playwrightCli, 'install', '--no-shell', 'chromium']],
    env: {},
    path: machine.playwrightChromium,
  };
}

/** playwright-core's CLI, from its package.json `bin` (its `exports` do not expose it). */
function playwrightCliPath(): string {
  const manifest = createRequire(join(REPO_ROOT, 'package.json')).resolve('playwright-core/package.json');
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: Record<string, string> };
  return join(dirname(manifest), bin['playwright-core'] ?? 'cli.js');
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function onPath(program: string): boolean {
  return (process.env.PATH ?? '').split(':').some((dir) => dir !== '' && isExecutable(join(dir, program)));
}

/** This machine, as the decisions see it. */
export function thisMachine(): Machine {
  return {
    env: { CHROMIUM_PATH: process.env.CHROMIUM_PATH },
    executable: isExecutable,
    playwrightChromium: chromium.executablePath(),
    isRoot: process.getuid?.() === 0,
    hasApt: onPath('apt-get'),
  };
}

/** Runs the plan's commands, saying what it does; returns the browser's path. */
export async function provisionChromium(
  plan: ProvisionPlan,
  log: (line: string) => void,
  runCommand: (command: readonly string[], env: NodeJS.ProcessEnv) => Promise<void> = runVisibly,
): Promise<string> {
  for (const command of plan.commands) {
    log(`mcp-shape tests: ${command.map((c) => (c === process.execPath ? 'node' : c)).join(' ')}`);
    await runCommand(command, { ...process.env, ...plan.env });
  }
  return plan.path;
}

async function runVisibly(command: readonly string[], env: NodeJS.ProcessEnv): Promise<void> {
  const [program, ...args] = command;
  if (!program) return;
  await run(program, args, { env, maxBuffer: 64 * 1024 * 1024 });
}

/**
 * The Chromium for this run: the one found, or one provisioned now. Throws, saying what to do, when
 * CHROMIUM_PATH is wrong or provisioning failed.
 */
export async function ensureChromium(
  machine: Machine = thisMachine(),
  log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
  provision: (plan: ProvisionPlan) => Promise<string> = (plan) => provisionChromium(plan, log),
): Promise<string> {
  const lookup = findChromium(machine);
  if (lookup.kind === 'found') return lookup.path;
  if (lookup.kind === 'bad-env') {
    throw new Error(`CHROMIUM_PATH=${lookup.path} is not an executable file: fix it or unset it`);
  }
  const plan = provisionPlan(machine);
  log(
    `mcp-shape tests: no Chromium for the browser tests (looked at ${lookup.looked.join(', ')}); ` +
      (plan.how === 'apt' ? "installing Debian's chromium" : 'installing Chromium with playwright-core'),
  );
  const path = await provision(plan);
  if (!machine.executable(path))
    throw new Error(`installing Chromium (${plan.how}) left no browser at ${path}`);
  log(`mcp-shape tests: Chromium ready at ${path}`);
  return path;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The Chromium global-setup found or provisioned; undefined when no browser test is in the run. */
    chromiumPath: string | undefined;
  }
}

export async function launchChromium(): Promise<Browser> {
  // global-setup provides it for a normal run; a run without it (an editor's single test) looks now.
  const lookup = findChromium(thisMachine());
  const path = inject('chromiumPath') ?? (lookup.kind === 'found' ? lookup.path : undefined);
  if (!path) {
    throw new Error(
      "no Chromium: run the tests through vitest (its global setup provisions one), install Debian's (apt-get install chromium), or set CHROMIUM_PATH",
    );
  }
  return chromium.launch({
    executablePath: path,
    headless: true,
    // Without the background-networking flags chromium keeps dialling out, which this network refuses.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
