/**
 * Finding and provisioning Chromium for the browser tests (test/support/chromium.ts). The decisions are
 * tested against made-up machines; nothing is downloaded or installed here. On this machine Chromium is
 * already installed, so the two real provisioning commands are only run as far as they go without
 * installing: apt-get's simulation, and playwright's --dry-run.
 */

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import {
  DEBIAN_CHROMIUM,
  ensureChromium,
  findChromium,
  type Machine,
  type ProvisionPlan,
  provisionChromium,
  provisionPlan,
  thisMachine,
} from '../support/chromium.js';

const run = promisify(execFile);

const PLAYWRIGHT = '/home/dev/.cache/ms-playwright/chromium-1255/chrome-linux64/chrome';

function machine(has: readonly string[], over: Partial<Machine> = {}): Machine {
  return {
    env: {},
    executable: (path) => has.includes(path),
    playwrightChromium: PLAYWRIGHT,
    isRoot: false,
    hasApt: false,
    ...over,
  };
}

describe('finding Chromium', () => {
  it('takes CHROMIUM_PATH first, then Debian’s, then playwright’s cache', () => {
    const all = [DEBIAN_CHROMIUM, PLAYWRIGHT, '/opt/chrome'];
    expect(findChromium(machine(all, { env: { CHROMIUM_PATH: '/opt/chrome' } }))).toEqual({
      kind: 'found',
      path: '/opt/chrome',
      source: 'CHROMIUM_PATH',
    });
    expect(findChromium(machine(all))).toMatchObject({ path: DEBIAN_CHROMIUM, source: 'debian' });
    expect(findChromium(machine([PLAYWRIGHT]))).toMatchObject({ path: PLAYWRIGHT, source: 'playwright' });
  });

  it('reports a CHROMIUM_PATH that is not there instead of looking elsewhere', () => {
    const wrong = machine([DEBIAN_CHROMIUM], { env: { CHROMIUM_PATH: '/nope/chrome' } });
    expect(findChromium(wrong)).toEqual({ kind: 'bad-env', path: '/nope/chrome' });
  });

  it('says where it looked when there is none', () => {
    expect(findChromium(machine([]))).toEqual({
      kind: 'missing',
      looked: ['CHROMIUM_PATH (not set)', DEBIAN_CHROMIUM, PLAYWRIGHT],
    });
  });

  it('finds the Chromium installed on this machine, and the global setup handed it to the tests', () => {
    const lookup = findChromium(thisMachine());
    expect(lookup.kind).toBe('found');
    expect(inject('chromiumPath')).toBe(lookup.kind === 'found' ? lookup.path : undefined);
  });
});

describe('provisioning Chromium', () => {
  it('installs Debian’s package with apt-get when running as root on a machine with apt', () => {
    const plan = provisionPlan(machine([], { isRoot: true, hasApt: true }));
    expect(plan).toEqual({
      how: 'apt',
      commands: [
        ['apt-get', 'update', '-qq'],
        ['apt-get', 'install', '-y', '-qq', '--no-install-recommends', 'chromium'],
      ],
      env: { DEBIAN_FRONTEND: 'noninteractive' },
      path: DEBIAN_CHROMIUM,
    });
  });

  it('uses playwright-core otherwise, into the cache it then finds the browser in', () => {
    for (const over of [
      { isRoot: false, hasApt: true },
      { isRoot: true, hasApt: false },
    ]) {
      const plan = provisionPlan(machine([], over), '/repo/node_modules/playwright-core/cli.js');
      expect(plan).toEqual({
        how: 'playwright',
        commands: [
          [
            process.execPath,
            '/repo/node_modules/playwright-core/cli.js',
            'install',
            '--no-shell',
            'chromium',
          ],
        ],
        env: {},
        path: PLAYWRIGHT,
      });
    }
  });

  it('runs the plan’s commands in order with its environment, saying each on stderr', async () => {
    const ran: [readonly string[], string | undefined][] = [];
    const log: string[] = [];
    const plan = provisionPlan(machine([], { isRoot: true, hasApt: true }));
    const path = await provisionChromium(
      plan,
      (line) => log.push(line),
      async (command, env) => {
        ran.push([command, env.DEBIAN_FRONTEND]);
      },
    );
    expect(path).toBe(DEBIAN_CHROMIUM);
    expect(ran).toEqual([
      [['apt-get', 'update', '-qq'], 'noninteractive'],
      [['apt-get', 'install', '-y', '-qq', '--no-install-recommends', 'chromium'], 'noninteractive'],
    ]);
    expect(log).toEqual([
      'mcp-shape tests: apt-get update -qq',
      'mcp-shape tests: apt-get install -y -qq --no-install-recommends chromium',
    ]);
  });

  it('provisions only when nothing is found, says why, and checks the result', async () => {
    const installed: string[] = [];
    const bare = machine(installed, { isRoot: true, hasApt: true });
    const log: string[] = [];
    const path = await ensureChromium(
      bare,
      (line) => log.push(line),
      async (plan: ProvisionPlan) => {
        installed.push(plan.path);
        return plan.path;
      },
    );
    expect(path).toBe(DEBIAN_CHROMIUM);
    expect(log).toEqual([
      `mcp-shape tests: no Chromium for the browser tests (looked at CHROMIUM_PATH (not set), ${DEBIAN_CHROMIUM}, ${PLAYWRIGHT}); installing Debian's chromium`,
      `mcp-shape tests: Chromium ready at ${DEBIAN_CHROMIUM}`,
    ]);

    const untouched: string[] = [];
    expect(
      await ensureChromium(
        machine([DEBIAN_CHROMIUM]),
        (line) => untouched.push(line),
        () => Promise.reject(new Error('must not provision')),
      ),
    ).toBe(DEBIAN_CHROMIUM);
    expect(untouched).toEqual([]);

    await expect(
      ensureChromium(
        machine([]),
        () => {},
        async (plan) => plan.path,
      ),
    ).rejects.toThrow(/installing Chromium \(playwright\) left no browser at /);
    await expect(ensureChromium(machine([], { env: { CHROMIUM_PATH: '/nope' } }))).rejects.toThrow(
      'CHROMIUM_PATH=/nope is not an executable file: fix it or unset it',
    );
  });

  it('the real commands, run as far as they go without installing anything', async () => {
    const here = thisMachine();
    // playwright-core's own dry run: where `install` would put Chromium is where the lookup looks.
    const [command] = provisionPlan({ ...here, isRoot: false }).commands;
    const [node, cli, ...args] = command as string[];
    const dry = await run(node as string, [
      cli as string,
      ...args.slice(0, 1),
      '--dry-run',
      ...args.slice(1),
    ]);
    const location = /Install location:\s+(\S+)/.exec(dry.stdout)?.[1];
    expect(location).toBeDefined();
    expect(here.playwrightChromium.startsWith(`${location}/`)).toBe(true);
    // apt-get's simulation of the install command, where this machine has apt.
    if (here.hasApt) {
      const [, install] = provisionPlan({ ...here, isRoot: true }).commands;
      const [apt, ...aptArgs] = install as string[];
      // Without -qq, so the simulation says what it would do.
      const simulated = await run(apt as string, ['-s', ...aptArgs.filter((a) => a !== '-qq')]);
      expect(simulated.stdout).toMatch(/chromium/);
    } else {
      expect(provisionPlan({ ...here, isRoot: true }).how).toBe('playwright');
    }
  }, 60_000);
});
