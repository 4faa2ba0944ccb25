/**
 * A server line longer than any string (over MAX_HELD_FRAME_BYTES): the stdio proxy once held it in a
 * staging buffer that doubled until Buffer's own limit, and crashed with a stack trace (a server
 * streaming one endless line reached it in 16 s). Through the real CLI and real pipes: the line is
 * passed on byte for byte, unjudged and logged, and the messages after it are relayed as ever.
 */

import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { MAX_HELD_FRAME_BYTES } from '../../src/proxy/frames.js';
import { cliArgs, REPO_ROOT } from '../support/cli.js';

/** Bytes of 'x' in the long line's text: a megabyte past the limit, written a megabyte at a time. */
const FILLER_MB = Math.ceil(MAX_HELD_FRAME_BYTES / 2 ** 20) + 1;

const HEAD = '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"';
const TAIL = '"}]}}\n';
const AFTER = '{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"after"}]}}\n';

/** Answers the first request with the long line and the second with a short one, then ends. */
const SERVER = `
const filler = Buffer.alloc(1 << 20, 0x78);
let requests = 0;
process.stdin.on('data', (chunk) => {
  for (const byte of chunk) if (byte === 10) requests++;
  if (requests < 2) return;
  process.stdin.pause();
  let left = ${FILLER_MB};
  process.stdout.write(${JSON.stringify(HEAD)});
  const pump = () => {
    while (left > 0) {
      left--;
      if (!process.stdout.write(filler)) return process.stdout.once('drain', pump);
    }
    process.stdout.write(${JSON.stringify(TAIL + AFTER)}, () => process.exit(0));
  };
  pump();
});
`;

const xsIn = (text: string) => text.split('x').length - 1;

const request = (id: number) =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'big' } })}\n`;

describe('a server line longer than any string', () => {
  it('is passed on byte for byte, unjudged and said so, and what follows is relayed as ever', {
    timeout: 120_000,
  }, async () => {
    const proxy = spawn(process.execPath, cliArgs(['proxy', '--', process.execPath, '-e', SERVER]), {
      cwd: REPO_ROOT,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    proxy.stderr.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
    });
    // Counted, not kept: the head and the tail of what arrives, and every byte's count.
    let total = 0;
    let head = Buffer.alloc(0);
    let tail = Buffer.alloc(0);
    let xs = 0;
    proxy.stdout.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (head.length < HEAD.length)
        head = Buffer.concat([head, chunk.subarray(0, HEAD.length - head.length)]);
      tail = Buffer.concat([tail, chunk]).subarray(-4096);
      for (const byte of chunk) if (byte === 0x78) xs++;
    });
    const exited = new Promise<number | null>((resolve) => proxy.once('exit', resolve));
    proxy.stdin.write(request(1) + request(2));
    const code = await exited;

    expect(code).toBe(0);
    expect(head.toString()).toBe(HEAD);
    // The long line whole, its end included, then the message after it, as the server wrote them.
    expect(tail.toString('latin1').endsWith(`${'x'.repeat(1000)}${TAIL}${AFTER}`)).toBe(true);
    expect(total).toBe(HEAD.length + FILLER_MB * 2 ** 20 + TAIL.length + AFTER.length);
    expect(xs).toBe(FILLER_MB * 2 ** 20 + xsIn(HEAD + TAIL + AFTER));
    expect(stderr).toContain(
      `a message longer than ${Math.floor(MAX_HELD_FRAME_BYTES / 2 ** 20)} MB: forwarded unchanged, unjudged (no string can hold it)`,
    );
    // The long line answered request 1 (its id comes first): the server's exit answers nothing again.
    expect(stderr).toContain('server exited with code 0\n');
    expect(stderr).not.toContain('pending request');
    expect(stderr).not.toMatch(/\bat .*\.(js|ts):\d+/);
  });
});
