/** `mcp-shape audit` as a user runs it: exit codes, output formats, --out, and Ctrl-C. */

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startLegacyGateway } from '../../fixtures/servers/legacy-gateway.mjs';
import { cliArgs, runCli } from '../support/cli.js';
import { fixture, root } from './support.js';

const cli = (args: readonly string[], env?: NodeJS.ProcessEnv) =>
  runCli(['audit', ...args], env ? { env } : {});

/** Gone, or a zombie (dead, waiting for an init that does not reap, as in some containers). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(' ')[2] !== 'Z';
  } catch {
    return false;
  }
}

const tmp = () => mkdtempSync(join(tmpdir(), 'mcp-shape-audit-cli-'));

/**
 * A loopback URL nothing listens on. Not a port freed after a `listen(0)`: on a busy machine another
 * test's server may be handed that port a moment later. Ports below 1024 are never handed out by
 * `listen(0)`, and port 2 is neither in use here nor on fetch's list of blocked ports.
 */
const REFUSED_URL = 'http://127.0.0.1:2/mcp';

// Each test spawns the CLI (the bundle the global setup built) one or more times: a second or more each on two loaded cores.
describe('mcp-shape audit', { timeout: 90_000 }, () => {
  it('exits 3 with one line when the server cannot be started', async () => {
    const run = await cli(['--', 'mcp-shape-no-such-server']);
    expect(run.code).toBe(3);
    expect(run.stderr.trim()).toBe('mcp-shape: command not found: mcp-shape-no-such-server');
  });

  it('exits 3 when the server exits before any handshake, with the last 20 lines of its stderr under the reason', async () => {
    const lines = Array.from({ length: 25 }, (_, i) => `line ${i + 1}`);
    const run = await cli([
      '--protocol',
      '2025-06-18',
      '--',
      process.execPath,
      '-e',
      `console.error(${JSON.stringify(lines.join('\n'))}); console.error("Error: Cannot find module 'x'\\n    at load (x.js:1)"); console.error("Node.js v20"); process.exit(2)`,
    ]);
    expect(run.code).toBe(3);
    const [reason, heading, ...tail] = run.stderr.trimEnd().split('\n');
    expect(reason).toMatch(
      /^mcp-shape: could not start .*: no handshake completed \(.*exited with code 2.*\)$/,
    );
    expect(heading).toBe('  server stderr (last 20 lines):');
    expect(tail).toHaveLength(20);
    // The cause sits above the last line, which is only the Node.js version.
    expect(tail.slice(-3)).toEqual([
      "  | Error: Cannot find module 'x'",
      '  |     at load (x.js:1)',
      '  | Node.js v20',
    ]);
    expect(tail[0]).toBe('  | line 9');
  });

  it('says why no handshake completed when the server answered with a frame no client can read', async () => {
    // Answers initialize with a byte order mark before the JSON: the TS SDK client's JSON.parse fails.
    const server = `
      process.stdin.once('data', (chunk) => {
        const { id } = JSON.parse(String(chunk).split('\\n')[0]);
        const result = { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 'b', version: '1' } };
        process.stdout.write('\\uFEFF' + JSON.stringify({ jsonrpc: '2.0', id, result }) + '\\n');
      });`;
    const run = await cli([
      '--protocol',
      '2025-06-18',
      '--timeout',
      '2',
      '--',
      process.execPath,
      '-e',
      server,
    ]);
    expect(run.code).toBe(3);
    expect(run.stderr.split('\n')[0]).toMatch(
      /^mcp-shape: could not start .*: no handshake completed \(what it wrote is no message a client can read: stdout line starts with a byte order mark \(U\+FEFF\) before its JSON, which JSON\.parse rejects\)$/,
    );
  });

  it('exits 3 when the URL cannot be reached, and says so', async () => {
    const run = await cli(['--url', REFUSED_URL]);
    expect(run.code).toBe(3);
    expect(run.stderr.trim()).toBe(`mcp-shape: connection refused: ${REFUSED_URL}`);
  });

  it('exits 2 on usage errors', async () => {
    expect((await cli([])).code).toBe(2);
    expect((await cli(['--url', 'http://127.0.0.1:1/', '--', 'node'])).code).toBe(2);
    const dir = tmp();
    writeFileSync(join(dir, 'args.json'), '{"echo": [1, 2]}');
    const bad = await cli(['--args', join(dir, 'args.json'), '--', 'node', fixture('conformant.mjs')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/"echo" must be a list of argument objects/);
    expect((await cli(['--protocol', '1999-01-01', '--', 'node'])).code).toBe(2);
  });

  it('exits 0 on a conformant server and prints the terminal report', async () => {
    const run = await cli([
      '--protocol',
      '2025-06-18',
      '--protocol',
      '2026-07-28',
      '--',
      process.execPath,
      fixture('conformant.mjs'),
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('versions    2025-06-18, 2026-07-28 audited (4 tools, 3 calls each)\n');
    expect(run.stdout).toContain('called      all_blocks, echo, get_weather (readOnlyHint; 6 calls)\n');
    expect(run.stdout).toMatch(
      /not called {2}reset_counter: annotated readOnlyHint: false, destructiveHint: true; use --call NAME/,
    );
    expect(run.stdout).toMatch(/✔ 0 errors, 0 warnings, 0 infos in 6 calls across 2 versions\n$/);
  });

  it('writes the JSON report with locations to --out and exits 1 on error findings', async () => {
    const gateway = await startLegacyGateway();
    try {
      const out = join(tmp(), 'report.json');
      const run = await cli(['--url', gateway.url, '--format', 'json', '--out', out]);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      const report = JSON.parse(readFileSync(out, 'utf8'));
      expect(report).toMatchObject({
        schemaVersion: 1,
        command: 'audit',
        summary: { checked: 3, versionsAudited: 1 },
      });
      expect(report.summary.errors).toBeGreaterThan(0);
      const blockFinding = report.findings.find((f: { rule: string }) => f.rule === 'block-type-unknown');
      expect(blockFinding).toMatchObject({
        severity: 'error',
        pointer: '/result/content/0/type',
        location: { protocolVersion: '2024-11-05', tool: 'get_balance', call: 'get_balance#1' },
      });
      expect(report.details.tools).toContainEqual(
        expect.objectContaining({
          name: 'send_coin',
          called: false,
          reason: expect.stringMatching(/--call send_coin/),
        }),
      );
      expect(report.details.stderrTail).toEqual([]);
      expect(report.details.transport).toBe('streamable-http');
    } finally {
      await gateway.close();
    }
  });

  it('keeps the server stderr tail in the JSON report', async () => {
    const run = await cli([
      '--format',
      'json',
      '--protocol',
      '2025-06-18',
      '--',
      process.execPath,
      '-e',
      `console.error("server says hi"); import(${JSON.stringify(fixture('conformant.mjs'))})`,
    ]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).details.stderrTail).toEqual(['server says hi']);
  });

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)(
    'stops every server process it started on %s, exiting %i',
    async (signal, code) => {
      const dir = tmp();
      const pidfile = join(dir, 'pids');
      writeFileSync(pidfile, '');
      // Spawned here rather than with runCli: the test needs the pid to send SIGINT to.
      const child = spawn(
        process.execPath,
        cliArgs([
          'audit',
          '--timeout',
          '60',
          '--protocol',
          '2025-06-18',
          '--',
          process.execPath,
          fixture('hostile.mjs'),
        ]),
        { cwd: root, env: { ...process.env, MCP_SHAPE_FIXTURE_PIDFILE: pidfile }, stdio: 'ignore' },
      );
      const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
      // The hang tool is called after the crash, in the second server process; wait for that one.
      const deadline = Date.now() + 60_000;
      while (
        readFileSync(pidfile, 'utf8').trim().split('\n').filter(Boolean).length < 2 &&
        Date.now() < deadline
      ) {
        await new Promise((r) => setTimeout(r, 100));
      }
      await new Promise((r) => setTimeout(r, 500));
      child.kill(signal);
      expect(await exited).toBe(code);
      const pids = readFileSync(pidfile, 'utf8').trim().split('\n').map(Number);
      expect(pids.length).toBeGreaterThanOrEqual(2);
      for (const pid of pids) expect(alive(pid), `server process ${pid}`).toBe(false);
    },
    90_000,
  );
});
