/**
 * The stdio relay end to end, through the real CLI and real pipes: bytes that need no repair come out
 * exactly as they went in, --record keeps every frame both ways, and flow control holds in both
 * directions (a client that does not read stops the proxy reading the server, and a server that does
 * not read stops it reading the client).
 */

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/cli.js';
import { type RunningProxy, startProxy } from './support/processes.js';

const FLOOD_SERVER = join(REPO_ROOT, 'test/proxy/support/flood-server.mjs');

const started: RunningProxy[] = [];
afterEach(() => {
  for (const proxy of started.splice(0)) if (proxy.child.exitCode === null) proxy.child.kill('SIGKILL');
});

function proxy(args: string[]): RunningProxy {
  const running = startProxy(args);
  started.push(running);
  return running;
}

/** A server that writes `lines` (each with its newline) and then waits for its input to end. */
function scriptServer(lines: readonly string[]): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-shape-relay-'));
  const file = join(dir, 'out.ndjson');
  writeFileSync(file, lines.map((line) => `${line}\n`).join(''));
  const script = `process.stdout.write(require('node:fs').readFileSync(${JSON.stringify(file)})); process.stdin.resume();`;
  return [process.execPath, '-e', script];
}

const AS_SENT = [
  '{ "jsonrpc": "2.0", "id": 1, "result": { "content": [ { "type": "text", "text": "x" } ], "_meta": { "n": 1.0, "big": 1E3, "e": "\\u00e9" } } }',
  '{"jsonrpc":"2.0",\r"method":"notifications/message","params":{"level":"info","data":"a raw CR between tokens"}}',
  '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"é 😀 \\ud83d\\ude00"}}',
];

/** Last in the script: proxied clients use the whole stream until here. */
const BROKEN = '{"jsonrpc":"2.0","id":2,"requestId":"r","result":{"content":[{"type":"text","text":"y"}]}}';

describe('stdio relay', () => {
  it('forwards messages that need no repair byte for byte: 1.0 stays 1.0, spacing and escapes stay', async () => {
    const running = proxy([
      '--protocol',
      '2025-06-18',
      '--',
      ...scriptServer([...AS_SENT, 'a log line, not JSON', BROKEN]),
    ]);
    const lines = await running.linesArrived(4);
    expect(lines.slice(0, 3)).toEqual(AS_SENT);
    expect(lines[3]).toBe('{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"y"}]}}');
    await running.stderrContains('server sent not JSON, not forwarded: a log line, not JSON');
  }, 120_000);

  it('--record writes every frame both ways, with what was forwarded, repaired or dropped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-shape-record-'));
    const file = join(dir, 'session.jsonl');
    const running = proxy([
      '--protocol',
      '2025-06-18',
      '--record',
      file,
      '--',
      ...scriptServer([...AS_SENT, '42', BROKEN]),
    ]);
    running.child.stdin.write('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t"}}\n');
    await running.linesArrived(4);
    running.child.stdin.end();
    await running.exited;
    const entries = readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    for (const entry of entries) {
      expect(entry).toMatchObject({ time: expect.any(String), connection: 'stdio', transport: 'stdio' });
    }
    // The script server writes without waiting for the client, so only each side's own order is fixed.
    const client = entries.filter((e) => e.from === 'client');
    const server = entries.filter((e) => e.from === 'server');
    expect(entries).toHaveLength(client.length + server.length);
    expect(client.map((e) => e.message)).toEqual([
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 't' } },
    ]);
    expect(
      server.map(({ dropped, fixes }) => ({ dropped, fixes: fixes?.map((f: { rule: string }) => f.rule) })),
    ).toEqual(
      [
        {},
        {},
        {},
        { dropped: 'JSON but not a JSON-RPC message: a bare integer' },
        { fixes: ['envelope-extra-member'] },
      ].map((e) => ({ dropped: undefined, fixes: undefined, ...e })),
    );
    // `message` is what the server sent, as it sent it; `forwarded` what the client got.
    expect(server[0].message).toEqual(JSON.parse(AS_SENT[0] as string));
    expect(readFileSync(file, 'utf8')).toContain('"n": 1.0');
    expect(server[3].message).toBe(42);
    expect(server[4].message).toEqual(JSON.parse(BROKEN));
    expect(server[4].forwarded).toEqual({
      jsonrpc: '2.0',
      id: 2,
      result: { content: [{ type: 'text', text: 'y' }] },
    });
  }, 120_000);

  it('stops reading the server while the client does not read, and loses nothing once it does', async () => {
    const count = 20_000; // ~20 MB of notifications
    const running = proxy(['--quiet', '--', process.execPath, FLOOD_SERVER, '--flood', String(count)]);
    running.child.stdout.pause();
    const accepted = () => {
      const reports = [...running.stderr().matchAll(/flood accepted (\d+)/g)];
      return Number(reports[reports.length - 1]?.[1] ?? 0);
    };
    // Once the pipes and the proxy's bounded buffers are full, the server cannot write any more.
    await running.stderrContains('flood accepted');
    let plateau = -1;
    for (let stable = 0; stable < 10; ) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const now = accepted();
      stable = now === plateau ? stable + 1 : 0;
      plateau = now;
    }
    // A few pipe buffers' worth of 1 KB lines, not the 20,000 the server wants to write.
    expect(plateau).toBeLessThan(2_000);
    expect(running.stderr()).not.toContain('flood done');
    running.child.stdout.resume();
    const lines = await running.linesArrived(count, 240_000);
    expect(lines).toHaveLength(count);
    lines.forEach((line, n) => {
      expect((JSON.parse(line) as { params: { data: string } }).params.data.startsWith(`${n} `)).toBe(true);
    });
    await running.stderrContains('flood done');
  }, 300_000);

  it('stops reading the client while the server does not read, and delivers everything once it does', async () => {
    const running = proxy(['--quiet', '--', process.execPath, FLOOD_SERVER, '--read-on-signal']);
    await running.stderrContains('flood-server pid');
    const server = Number(/flood-server pid (\d+)/.exec(running.stderr())?.[1]);
    const line = `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { data: 'q'.repeat(1000) } })}\n`;
    const total = line.length * 20_000;
    for (let i = 0; i < 20_000; i++) running.child.stdin.write(line);
    // The proxy takes no more than its pipes and one chunk hold: most of the 20 MB waits in this
    // process, however long we wait.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(running.child.stdin.writableLength).toBeGreaterThan(total - 2 * 1024 * 1024);
    process.kill(server, 'SIGUSR1');
    await running.stderrContains(`read ${total} bytes`, 240_000);
  }, 300_000);
});
