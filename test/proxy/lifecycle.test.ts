/**
 * The stdio proxy's lifecycle with real processes: a server that dies with requests pending, one that
 * ignores signals, one that ignores the end of its input, and a proxy killed with SIGKILL. Each test
 * ends by asking `ps` whether anything the proxy started (the server, the server's own child, the
 * watchdog) is still alive.
 */

import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { LIFECYCLE_SERVER, processesLeft, type RunningProxy, startProxy } from './support/processes.js';

const started: RunningProxy[] = [];

afterEach(() => {
  for (const proxy of started.splice(0)) if (proxy.child.exitCode === null) proxy.child.kill('SIGKILL');
});

/**
 * The proxy in front of lifecycle-server.mjs; `marker` tags the server and its child for `ps`. The grace
 * period is the default 2 s: the server's own log lines must come out before the next escalation step,
 * even on a loaded machine.
 */
function proxyFor(serverFlags: string[], proxyFlags: string[] = ['--grace', '2']) {
  const marker = `marker-${randomUUID()}`;
  const proxy = startProxy([...proxyFlags, '--', process.execPath, LIFECYCLE_SERVER, ...serverFlags, marker]);
  started.push(proxy);
  return { proxy, marker };
}

/** Nothing the proxy started is alive: not the server, not its child, not the watchdog. */
async function expectNothingLeft(proxy: RunningProxy, marker: string): Promise<void> {
  const pid = String(proxy.child.pid);
  const left = await processesLeft(
    (row) =>
      row.args.includes(marker) ||
      (row.args.includes('mcp-shape-watchdog') && row.args.trimEnd().endsWith(` ${pid}`)),
  );
  expect(left).toEqual([]);
}

const request = (id: unknown, method = 'tools/call') =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method, params: { name: 'slow', arguments: {} } })}\n`;

describe('proxy lifecycle', () => {
  it('answers every pending request with -32000 when the server dies, then exits with its code', async () => {
    const { proxy, marker } = proxyFor(['--exit-after', '3', '--code', '3', '--grandchild']);
    await proxy.stderrContains('lifecycle-server ready');
    // A cancelled request is not pending any more; the other three are when the server exits.
    proxy.child.stdin.write(request(1));
    proxy.child.stdin.write(request(9));
    proxy.child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 9 } })}\n`,
    );
    proxy.child.stdin.write(request('three'));
    const lines = await proxy.linesArrived(2);
    const { code } = await proxy.exited;
    expect(code).toBe(3);
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'server exited with code 3' } },
      { jsonrpc: '2.0', id: 'three', error: { code: -32000, message: 'server exited with code 3' } },
    ]);
    expect(proxy.stderr()).toContain('server exited with code 3; answered 2 pending requests with an error');
    await expectNothingLeft(proxy, marker);
  }, 120_000);

  for (const signal of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const) {
    it(`forwards ${signal} to a server that ignores it, then escalates to SIGKILL`, async () => {
      const { proxy, marker } = proxyFor(['--ignore-signals', '--grandchild']);
      await proxy.stderrContains('lifecycle-server ready');
      proxy.child.stdin.write(request(1));
      proxy.child.kill(signal);
      const { code } = await proxy.exited;
      expect(code).toBe(137);
      const log = proxy.stderr();
      expect(log).toContain(`received ${signal}: forwarding it to the server's process group`);
      expect(log).toContain(`lifecycle-server got ${signal}`);
      // SIGTERM itself is the first escalation step after SIGINT and SIGHUP.
      if (signal !== 'SIGTERM') expect(log).toContain('lifecycle-server got SIGTERM');
      expect(log).toContain('sending SIGKILL to its process group');
      expect(proxy.lines().map((line) => JSON.parse(line))).toEqual([
        { jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'server exited with code 137' } },
      ]);
      await expectNothingLeft(proxy, marker);
    }, 120_000);
  }

  it('closes the input of a server that ignores it, then sends SIGTERM after --grace', async () => {
    const { proxy, marker } = proxyFor(['--ignore-eof', '--grandchild']);
    await proxy.stderrContains('lifecycle-server ready');
    proxy.child.stdin.end();
    const { code } = await proxy.exited;
    expect(code).toBe(143);
    const log = proxy.stderr();
    expect(log).toContain("client closed its input: closing the server's");
    expect(log).toContain('lifecycle-server: input ended, staying up');
    expect(log).toContain('sending SIGTERM to its process group');
    expect(log).not.toContain('sending SIGKILL');
    await expectNothingLeft(proxy, marker);
  }, 120_000);

  it('sees the client leave while the server reads nothing, and ends the server', async () => {
    const { proxy, marker } = proxyFor(['--stop-reading']);
    await proxy.stderrContains('lifecycle-server ready');
    // More than the pipe to the server holds, so the proxy must keep it: were the client's input paused
    // for it, the client's end would never be read, and the proxy and the server would run on.
    proxy.child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', pad: 'x'.repeat(300_000) } })}\n`,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    proxy.child.stdin.write(request(2));
    proxy.child.stdin.end();
    const { code } = await proxy.exited;
    // The server exits on SIGTERM (it ignores nothing): its pending requests get the exit error.
    expect(code).toBe(143);
    expect(proxy.stderr()).toContain("client closed its input: closing the server's");
    expect(proxy.lines().map((line) => JSON.parse(line).id)).toEqual([1, 2]);
    await expectNothingLeft(proxy, marker);
  }, 120_000);

  it('ends a server that ignores both its input and SIGTERM with SIGKILL', async () => {
    const { proxy, marker } = proxyFor(['--ignore-eof', '--ignore-signals']);
    await proxy.stderrContains('lifecycle-server ready');
    proxy.child.stdin.end();
    const { code } = await proxy.exited;
    expect(code).toBe(137);
    expect(proxy.stderr()).toContain('lifecycle-server got SIGTERM');
    await expectNothingLeft(proxy, marker);
  }, 120_000);

  it('leaves no server behind when the proxy itself is killed with SIGKILL', async () => {
    const { proxy, marker } = proxyFor(
      ['--ignore-eof', '--ignore-signals', '--grandchild'],
      ['--grace', '1'],
    );
    await proxy.stderrContains('lifecycle-server ready');
    // The server and its child are up (the proxy's own command line names the marker too).
    const others = (row: { pid: number; args: string }) =>
      row.args.includes(marker) && row.pid !== proxy.child.pid;
    expect((await processesLeft(others, 0)).length).toBe(2);
    proxy.child.kill('SIGKILL');
    expect(await proxy.exited).toEqual({ code: null, signal: 'SIGKILL' });
    // The watchdog sends SIGTERM (ignored), then SIGKILL a grace period later, then exits itself.
    await expectNothingLeft(proxy, marker);
  }, 120_000);
});
