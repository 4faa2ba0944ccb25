/**
 * 100,000 hostile server lines through the stdio relay and its session: garbage bytes, JSON that is no
 * message, truncated and mutated messages, envelope confusion, deep nesting, batches, raw carriage
 * returns, byte order marks. Nothing may escape as an exception, and every input line must come out exactly once: as one
 * line to the client (the same text when nothing was repaired) or as one logged drop.
 *
 * The server is `cat` of a file of those lines; the relay runs in this process, recording every frame.
 */

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { stringifyJson } from '../../src/library/repair/clone.js';
import { Recorder } from '../../src/proxy/record.js';
import { runStdioProxy } from '../../src/proxy/stdio.js';

const LINES = Number(process.env.FUZZ_LINES ?? 100_000);

/** A small seeded generator (mulberry32): the same hostile lines on every run. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  return { next, int, pick };
}

type Random = ReturnType<typeof random>;

const SCALARS = [
  'null',
  '42',
  '-0',
  '1e400',
  '"ready"',
  'true',
  '[]',
  '[1,2]',
  '{}',
  '{"status":"ok"}',
  '""',
];
const IDS = ['1', '"a"', 'null', '1.5', '{}', '[]', '-7', '"__proto__"', '1e3'];
const BLOCKS = [
  '{"type":"text","text":"ok"}',
  '{"type":"object","object":{"a":1}}',
  '{"type":"image","data":"data:image/png;base64,iVBORw0KGgo="}',
  '{"type":"image","data":"!!!","mimeType":"image/png"}',
  '{"type":"html","html":"<script>x</script><b>hi</b>"}',
  '{"type":"link","url":"javascript:alert(1)"}',
  '{"type":"resource","resource":{"uri":"x","text":"t","blob":"b"}}',
  '{"type":"resource_link","uri":"not a uri"}',
  '"a bare string"',
  'null',
  '{"type":"text","text":"\\ud800 lone surrogate"}',
  '{"__proto__":{"polluted":true},"type":"text","text":"p"}',
];

/** Nesting: usually shallow, rarely thousands of levels (each of those costs the validator milliseconds). */
function nested(rng: Random): string {
  const depth = rng.next() < 0.01 ? rng.pick([3_000, 20_000]) : rng.pick([2, 10, 100]);
  const [open, close] = rng.pick([
    ['[', ']'],
    ['{"a":', '}'],
  ] as const);
  return `${open.repeat(depth)}1${close.repeat(depth)}`;
}

function result(rng: Random): string {
  switch (rng.int(8)) {
    case 0:
      return `{"content":[${BLOCKS[rng.int(BLOCKS.length)]}]}`;
    case 1:
      return `{"content":[${BLOCKS[rng.int(BLOCKS.length)]},${BLOCKS[rng.int(BLOCKS.length)]}],"isError":"yes"}`;
    case 2:
      return `{"content":"just text","structuredContent":[1,2]}`;
    case 3:
      return `{"toolResult":${rng.pick(SCALARS)}}`;
    case 4:
      return `{"content":[],"structuredContent":${nested(rng)}}`;
    case 5:
      return rng.pick(['42', '"x"', '[]', 'null']);
    case 6:
      return `{"tools":[{"name":"t","inputSchema":{"type":"object"},"outputSchema":{"type":"array"}}]}`;
    default:
      return '{"content":[{"type":"text","text":"fine"}]}';
  }
}

/** One envelope, right or wrong in one of many ways. */
function message(rng: Random): string {
  const id = rng.pick(IDS);
  switch (rng.int(10)) {
    case 0:
      return `{"jsonrpc":"2.0","id":${id},"result":${result(rng)}}`;
    case 1:
      return `{"jsonrpc":"2.0","id":${id},"result":${result(rng)},"requestId":${id}}`;
    case 2:
      return `{"jsonrpc":"2.0","method":"x","result":${result(rng)}}`;
    case 3:
      return `{"jsonrpc":"2.0","id":${id},"method":"ping","error":{"code":1,"message":"m"}}`;
    case 4:
      return `{"jsonrpc":"2.0","id":${id},"result":{},"error":{"code":"x"}}`;
    case 5:
      return `{"jsonrpc":"1.0","id":${id}}`;
    case 6:
      return `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":${id},"progress":"half"}}`;
    case 7:
      return `{"jsonrpc":"2.0","id":${id},"error":{"code":-32601,"message":"Method not found","data":${nested(rng)}}}`;
    case 8:
      return `{"jsonrpc":"2.0","id":${id},\r"result":{"content":[{"type":"text","text":"cr between tokens"}]}}`;
    default:
      return `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"good"}]}}`;
  }
}

/**
 * One hostile line. The mix leans to what is cheap to judge (garbage, non-messages, truncations) so that
 * 100,000 lines stay a test of minutes at most on a busy machine; about a third are whole messages,
 * most of which need a repair or are refused one.
 */
function hostileLine(rng: Random): Buffer {
  const roll = rng.next();
  if (roll < 0.25) {
    // Random bytes (invalid UTF-8 included), anything but a newline.
    const bytes = Buffer.alloc(1 + rng.int(80));
    for (let i = 0; i < bytes.length; i++) bytes[i] = (rng.int(255) + 11) % 256 || 1;
    return bytes;
  }
  if (roll < 0.4) return Buffer.from(rng.pick(SCALARS));
  if (roll < 0.55) {
    const text = message(rng);
    return Buffer.from(text.slice(0, rng.int(text.length)));
  }
  if (roll < 0.57) return Buffer.from(rng.pick(['', ' ', '\r', '\t\r']));
  if (roll < 0.58) {
    return Buffer.from(
      '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"raw\rCR in a string"}]}}',
    );
  }
  if (roll < 0.6) return Buffer.from(`[${message(rng)},${message(rng)}]`);
  // A byte order mark before a message or a batch, whole or cut short.
  if (roll < 0.62) {
    const text = `\uFEFF${rng.next() < 0.5 ? message(rng) : `[${message(rng)}]`}`;
    return Buffer.from(rng.next() < 0.8 ? text : text.slice(0, rng.int(text.length)));
  }
  return Buffer.from(message(rng));
}

interface Recorded {
  readonly message?: unknown;
  readonly frame?: string;
  readonly dropped?: string;
  readonly forwarded?: unknown;
  readonly split?: true;
}

describe('fuzz: hostile server lines through the proxy', () => {
  it(`every one of ${LINES} lines comes out once, as a line or a logged drop; nothing escapes`, async () => {
    const rng = random(0x5eed);
    const inputs: Buffer[] = [];
    for (let i = 0; i < LINES; i++) inputs.push(hostileLine(rng));
    const dir = mkdtempSync(join(tmpdir(), 'mcp-shape-fuzz-'));
    const file = join(dir, 'lines.ndjson');
    writeFileSync(file, Buffer.concat(inputs.flatMap((line) => [line, Buffer.from('\n')])));

    const clientIn = new PassThrough();
    const clientOut = new PassThrough();
    const recording = new PassThrough();
    let out = '';
    clientOut.setEncoding('utf8').on('data', (text: string) => {
      out += text;
    });
    const recorded: string[] = [];
    let partial = '';
    recording.setEncoding('utf8').on('data', (text: string) => {
      const lines = (partial + text).split('\n');
      partial = lines.pop() ?? '';
      recorded.push(...lines);
    });
    const log: string[] = [];
    const code = await runStdioProxy({
      command: 'cat',
      args: [file],
      protocolVersion: '2025-11-25',
      stdin: clientIn,
      stdout: clientOut,
      recorder: Recorder.on(recording),
      onLog: (line) => log.push(line),
      forwardSignals: false,
      watchdog: false,
    });
    expect(code).toBe(0);

    const entries = recorded.map((line) => JSON.parse(line) as Recorded);
    expect(entries).toHaveLength(LINES);
    const delivered = out.split('\n');
    expect(delivered.pop()).toBe('');
    const drops = entries.filter((e) => e.dropped !== undefined);
    // A batch goes out as its messages, a line each.
    const splits = entries.filter((e) => e.split);
    const extraLines = splits.reduce((n, e) => n + (e.forwarded as unknown[]).length - 1, 0);
    expect(delivered.length + drops.length - extraLines).toBe(LINES);
    expect(log.filter((line) => line.includes(', not forwarded: '))).toHaveLength(drops.length);

    // In order: each forwarded frame is the next client line, as received unless it was repaired.
    let next = 0;
    entries.forEach((entry, i) => {
      if (entry.dropped !== undefined) return;
      // A repaired line is compared by its value, as text: its numbers are written as the server wrote
      // them (1e3, 1.50), which the recording's parsed value no longer says.
      const sameValue = (line: string | undefined, value: unknown) =>
        stringifyJson(JSON.parse(line as string)) === stringifyJson(value);
      if (entry.split) {
        for (const member of entry.forwarded as unknown[])
          expect(sameValue(delivered[next++], member)).toBe(true);
        return;
      }
      const line = delivered[next++] as string;
      // Compared as text: a deep value would overflow the recursive deep-equality of expect().
      if (entry.forwarded === undefined) expect(line === inputs[i]?.toString('utf8')).toBe(true);
      else expect(sameValue(line, entry.forwarded)).toBe(true);
    });
    const repaired = entries.filter((e) => e.forwarded !== undefined).length;
    // A message after a mark goes out without it (recorded as the frame it came as, with what went out).
    const unmarked = entries.filter((e) => e.frame?.startsWith('\uFEFF') && e.forwarded !== undefined);
    expect(unmarked.length).toBeGreaterThan(LINES / 200);
    // The mix really exercised every outcome.
    expect(drops.length).toBeGreaterThan(LINES / 10);
    expect(splits.length).toBeGreaterThan(LINES / 1000);
    expect(repaired).toBeGreaterThan(LINES / 10);
    expect(delivered.length - repaired).toBeGreaterThan(LINES / 10);
  }, 600_000);
});
