/**
 * The stdio proxy against a direct connection, side by side in one run: a raw NDJSON client talks to a
 * raw NDJSON server either directly or through `mcp-shape proxy` (compiled, as users run it).
 *
 * - Small calls: round-trip latency of a tools/call whose result needs no repair, p50 and p99, the two
 *   paths measured in alternating rounds so that load on the machine hits both alike; then again with
 *   every process bound to one core (Linux, taskset), where the overhead is the proxy's own work and
 *   not where the scheduler happened to wake each process (see onOneCore).
 * - 5 MB results: relay throughput (results per second, one call at a time) through the proxy ÷ direct,
 *   on this Node and on Node 24 (every process of the path on it).
 * - 50 MB results: the proxy's peak resident memory (VmHWM) relaying them, against the message size,
 *   both for results that need no repair and for ones that do (a stray `requestId`). The goal (at most
 *   3× the message) is judged on the growth over the idle proxy's RSS, measured after start-up: the
 *   idle part (code, the rule catalog, V8's heap) is the same whatever the messages, so counting it
 *   would fail the goal for a 1 KB message. The total peak is printed beside it.
 * The client splits lines and parses each answer, as any client must; the server builds each answer
 * once and reuses its text, so the server costs both paths the same.
 *
 * Beside them, for reference and without a goal: a bare byte relay, a Node process that starts the
 * server the way the proxy does (its own process group, pipes both ways) and copies bytes as they come.
 * It shows what any process in the middle costs on this machine, which the proxy's overhead includes.
 * And, for the 5 MB results, a holding relay: the same, but it holds each server line until its `\n`
 * comes and writes it then, as the proxy must (a message is judged whole before any of it is sent, since
 * a repair may change any part of it). It shows what holding costs, before any parsing or judging.
 */

import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchResult, Suite } from '../measure.js';
import { REPO_ROOT } from '../paths.js';

/** The CLI as users run it: `npm run bench` builds dist before running. */
const BIN = join(REPO_ROOT, 'dist/cli/bin.js');
const VERSION = '2025-11-25';

/**
 * The server: answers initialize, and tools/call with a text result of `size` bytes (`stray` adds a
 * `requestId` member, which the proxy must remove). Results are cached by size, so building them does
 * not count.
 */
const SERVER = `
const cache = new Map();
const result = (size) => {
  if (!cache.has(size)) cache.set(size, JSON.stringify({ content: [{ type: 'text', text: 'x'.repeat(size) }] }));
  return cache.get(size);
};
let rest = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  const lines = (rest + chunk).split('\\n');
  rest = lines.pop();
  for (const line of lines) {
    const m = JSON.parse(line);
    if (m.method === 'initialize') {
      process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'bench', version: '1' } } }) + '\\n');
    } else if (m.method === 'tools/call') {
      const { size, stray } = m.params.arguments;
      process.stdout.write('{"jsonrpc":"2.0","id":' + JSON.stringify(m.id) + (stray ? ',"requestId":"r"' : '') + ',"result":' + result(size) + '}\\n');
    }
  }
});
`;

/** The bare byte relay: the server's command after it, started as the proxy starts it. */
const RELAY = `
const { spawn } = require('node:child_process');
const child = spawn(process.argv[2], process.argv.slice(3), { stdio: ['pipe', 'pipe', 'inherit'], detached: process.platform !== 'win32' });
process.stdin.on('data', (chunk) => child.stdin.write(chunk));
process.stdin.on('end', () => child.stdin.end());
child.stdout.on('data', (chunk) => process.stdout.write(chunk));
child.on('exit', (code) => process.exit(code ?? 0));
`;

/** The bare relay, holding each server line whole until its `\n` (the pieces it came in, not a copy). */
const HOLDING_RELAY = `
const { spawn } = require('node:child_process');
const child = spawn(process.argv[2], process.argv.slice(3), { stdio: ['pipe', 'pipe', 'inherit'], detached: process.platform !== 'win32' });
process.stdin.on('data', (chunk) => child.stdin.write(chunk));
process.stdin.on('end', () => child.stdin.end());
let held = [];
child.stdout.on('data', (chunk) => {
  let start = 0;
  for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
    held.push(chunk.subarray(start, end + 1));
    process.stdout.cork();
    for (const piece of held) process.stdout.write(piece);
    process.stdout.uncork();
    held = [];
    start = end + 1;
  }
  if (start < chunk.length) held.push(chunk.subarray(start));
});
child.on('exit', (code) => process.exit(code ?? 0));
`;

type Path = 'direct' | 'relay' | 'holding' | 'proxy';

interface Peer {
  readonly child: ChildProcessWithoutNullStreams;
  initialize(): Promise<number>;
  call(args: { size: number; stray?: boolean }): Promise<number>;
  close(): Promise<void>;
}

/** A raw client over a spawned process: one call at a time, each answer parsed. */
function peer(command: string, args: string[]): Peer {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
  });
  let waiting: ((bytes: number) => void) | undefined;
  let failed: ((error: Error) => void) | undefined;
  child.once('exit', (code) => failed?.(new Error(`${args.join(' ')} exited with ${code}: ${stderr}`)));
  let chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => {
    let start = 0;
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      chunks.push(chunk.subarray(start, end));
      const text = Buffer.concat(chunks).toString('utf8');
      chunks = [];
      start = end + 1;
      JSON.parse(text);
      waiting?.(text.length);
    }
    if (start < chunk.length) chunks.push(chunk.subarray(start));
  });
  let id = 0;
  const send = (message: object) =>
    new Promise<number>((resolve, reject) => {
      waiting = resolve;
      failed = reject;
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: ++id, ...message })}\n`);
    });
  return {
    child,
    initialize: () =>
      send({
        method: 'initialize',
        params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
      }),
    call: (args) => send({ method: 'tools/call', params: { name: 'blob', arguments: args } }),
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.stdin.end();
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}

interface Files {
  readonly server: string;
  readonly relay: string;
  readonly holding: string;
}

/** Every process of the path (client, relay or proxy, server) runs on `node`. */
async function connect(files: Files, path: Path, node = process.execPath): Promise<Peer> {
  const server = [node, files.server];
  const args = {
    direct: [files.server],
    relay: [files.relay, ...server],
    holding: [files.holding, ...server],
    proxy: [BIN, 'proxy', '--quiet', '--', ...server],
  }[path];
  const p = peer(node, args);
  // initialize teaches the proxy the version; the first answer also waits out start-up.
  await p.initialize();
  return p;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}

async function roundTrips(peerOf: Peer, calls: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const start = performance.now();
    await peerOf.call({ size: 64 });
    times.push(performance.now() - start);
  }
  return times;
}

/** Peak resident memory of a process so far, in bytes (Linux: VmHWM). */
function peakRss(pid: number | undefined): number | undefined {
  const file = `/proc/${pid}/status`;
  if (pid === undefined || !existsSync(file)) return undefined;
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(file, 'utf8'));
  return match ? Number(match[1]) * 1024 : undefined;
}

/** CPU time a process has used so far, in milliseconds (Linux: utime + stime, in clock ticks of 10 ms). */
function cpuMs(pid: number | undefined): number | undefined {
  const file = `/proc/${pid}/stat`;
  if (pid === undefined || !existsSync(file)) return undefined;
  // The command name may hold spaces; the fields after its closing parenthesis do not.
  const fields = readFileSync(file, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function currentRss(pid: number | undefined): number | undefined {
  const file = `/proc/${pid}/status`;
  if (pid === undefined || !existsSync(file)) return undefined;
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(file, 'utf8'));
  return match ? Number(match[1]) * 1024 : undefined;
}

/**
 * Small calls: alternating rounds of 500 calls each, after a warm-up, through each path. `placement`
 * names where the processes run, when not where the scheduler puts them.
 */
async function smallCalls(files: Files, placement: string | undefined): Promise<BenchResult[]> {
  const where = placement ? ` (${placement})` : '';
  const direct = await connect(files, 'direct');
  const relayed = await connect(files, 'relay');
  const proxied = await connect(files, 'proxy');
  try {
    await roundTrips(direct, 500);
    await roundTrips(relayed, 500);
    await roundTrips(proxied, 500);
    const directTimes: number[] = [];
    const relayedTimes: number[] = [];
    const proxiedTimes: number[] = [];
    const cpuBefore = cpuMs(proxied.child.pid);
    const relayCpuBefore = cpuMs(relayed.child.pid);
    for (let round = 0; round < 6; round++) {
      directTimes.push(...(await roundTrips(direct, 500)));
      relayedTimes.push(...(await roundTrips(relayed, 500)));
      proxiedTimes.push(...(await roundTrips(proxied, 500)));
    }
    const cpuAfter = cpuMs(proxied.child.pid);
    const relayCpuAfter = cpuMs(relayed.child.pid);
    for (const times of [directTimes, relayedTimes, proxiedTimes]) times.sort((a, b) => a - b);
    const p50 = [percentile(directTimes, 50), percentile(proxiedTimes, 50)] as const;
    const p99 = [percentile(directTimes, 99), percentile(proxiedTimes, 99)] as const;
    const relayP50 = percentile(relayedTimes, 50);
    const results: BenchResult[] = [
      {
        kind: 'measurement',
        title: `small tools/call round trip${where}, direct: p50 ${p50[0].toFixed(3)} ms, p99 ${p99[0].toFixed(3)} ms; through the proxy: p50 ${p50[1].toFixed(3)} ms, p99 ${p99[1].toFixed(3)} ms (${directTimes.length} calls each)`,
        value: p50[1] - p50[0],
        unit: 'ms p50 overhead',
        target: { atMost: 0.1 },
      },
      {
        kind: 'measurement',
        title: `small tools/call round trip${where}: p99 overhead through the proxy`,
        value: p99[1] - p99[0],
        unit: 'ms',
      },
      {
        kind: 'measurement',
        title: `for reference${where}, through a bare byte relay: p50 ${relayP50.toFixed(3)} ms; p50 overhead of the relay alone`,
        value: relayP50 - p50[0],
        unit: 'ms',
      },
    ];
    if (cpuBefore !== undefined && cpuAfter !== undefined) {
      const relayCpu =
        relayCpuBefore !== undefined && relayCpuAfter !== undefined
          ? ` (the bare relay: ${(((relayCpuAfter - relayCpuBefore) / relayedTimes.length) * 1000).toFixed(0)} µs)`
          : '';
      results.push({
        kind: 'measurement',
        title: `proxy CPU time per small call${where} (request and answer), less sensitive to load than latency${relayCpu}`,
        value: ((cpuAfter - cpuBefore) / proxiedTimes.length) * 1000,
        unit: 'µs',
        note: 'from /proc utime+stime, 10 ms ticks over all the calls',
      });
    }
    return results;
  } finally {
    await direct.close();
    await relayed.close();
    await proxied.close();
  }
}

/**
 * Runs `measure` with this process and every process it starts meanwhile bound to one core, then
 * unbinds it; `undefined` where that cannot be done (not Linux, no taskset, one core). On a machine of
 * few cores, where the scheduler puts the three or four processes of a round trip decides much of its
 * latency: a wake-up on another core costs more than one on the same core, and a bare byte relay alone
 * then adds more than the proxy's own work. On one core, every path pays the same switches and the
 * overhead is what the process in the middle does.
 */
async function onOneCore<T>(measure: () => Promise<T>): Promise<T | undefined> {
  if (process.platform !== 'linux' || availableParallelism() < 2) return undefined;
  const pid = String(process.pid);
  let mask: string | undefined;
  try {
    // "pid 123's current affinity mask: 3"
    mask = /:\s*([0-9a-f,]+)\s*$/i.exec(execFileSync('taskset', ['-p', pid], { encoding: 'utf8' }))?.[1];
    if (!mask) return undefined;
    execFileSync('taskset', ['-a', '-p', '-c', '0', pid], { stdio: 'ignore' });
  } catch {
    return undefined;
  }
  try {
    return await measure();
  } finally {
    execFileSync('taskset', ['-a', '-p', mask, pid], { stdio: 'ignore' });
  }
}

const MB = 1024 * 1024;

/**
 * 5 MB results, one call at a time, every process on `node`: throughput through the proxy against a
 * direct connection, with the bare and the holding relay for reference. Measured on Node 24 too: how a
 * runtime decodes and collects long strings decides much of a large message's cost (src/proxy/decode.ts).
 */
async function fiveMegabyteResults(files: Files, node: string, label: string): Promise<BenchResult[]> {
  const direct = await connect(files, 'direct', node);
  const relayed = await connect(files, 'relay', node);
  const proxied = await connect(files, 'proxy', node);
  // Alternating rounds, each timed whole.
  const size = 5 * MB;
  const rate = async (p: Peer, calls: number) => {
    const start = performance.now();
    for (let i = 0; i < calls; i++) await p.call({ size });
    return (calls / (performance.now() - start)) * 1000;
  };
  const holding = await connect(files, 'holding', node);
  await rate(direct, 2);
  await rate(relayed, 2);
  await rate(holding, 2);
  await rate(proxied, 2);
  const directRates: number[] = [];
  const relayedRates: number[] = [];
  const holdingRates: number[] = [];
  const proxiedRates: number[] = [];
  for (let round = 0; round < 5; round++) {
    directRates.push(await rate(direct, 6));
    relayedRates.push(await rate(relayed, 6));
    holdingRates.push(await rate(holding, 6));
    proxiedRates.push(await rate(proxied, 6));
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  const [directRate, relayedRate, holdingRate, proxiedRate] = [
    directRates,
    relayedRates,
    holdingRates,
    proxiedRates,
  ].map(median) as [number, number, number, number];
  await holding.close();
  await direct.close();
  await relayed.close();
  await proxied.close();
  return [
    {
      kind: 'measurement',
      title: `5 MB results relayed${label}: direct ${(directRate * 5).toFixed(0)} MB/s, through the proxy ${(proxiedRate * 5).toFixed(0)} MB/s (proxy ÷ direct)`,
      value: proxiedRate / directRate,
      unit: '×',
      target: { atLeast: 0.8 },
    },
    {
      kind: 'measurement',
      title: `for reference${label}, through a bare byte relay: ${(relayedRate * 5).toFixed(0)} MB/s (relay ÷ direct)`,
      value: relayedRate / directRate,
      unit: '×',
    },
    {
      kind: 'measurement',
      title: `for reference${label}, through a relay that holds each message whole before writing it, as the proxy must: ${(holdingRate * 5).toFixed(0)} MB/s (holding relay ÷ direct)`,
      value: holdingRate / directRate,
      unit: '×',
    },
  ];
}

/** The Node binary of `major` the test matrix uses (scripts/node-binaries.ts), or why there is none. */
async function nodeBinary(major: 24): Promise<string | { missing: string }> {
  try {
    const { ensureNodeBinary } = await import('../../scripts/node-binaries.js');
    return await ensureNodeBinary(major);
  } catch (error) {
    return { missing: error instanceof Error ? (error.message.split('\n', 1)[0] ?? '') : String(error) };
  }
}

export const suite: Suite = {
  name: 'proxy',
  async run(): Promise<BenchResult[]> {
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run the bench with npm run bench`);
    const directory = mkdtempSync(join(tmpdir(), 'mcp-shape-bench-'));
    const files: Files = {
      server: join(directory, 'server.cjs'),
      relay: join(directory, 'relay.cjs'),
      holding: join(directory, 'holding.cjs'),
    };
    writeFileSync(files.server, SERVER);
    writeFileSync(files.relay, RELAY);
    writeFileSync(files.holding, HOLDING_RELAY);
    const results: BenchResult[] = [];
    const loadAtStart = loadavg()[0] ?? 0;

    results.push(...(await smallCalls(files, undefined)));
    const core = await onOneCore(() => smallCalls(files, 'every process on one core'));
    if (core) results.push(...core);
    else
      results.push({
        kind: 'measurement',
        title: 'small tools/call round trip on one core: not measured (needs Linux and taskset)',
        value: 0,
        unit: 'ms',
      });

    results.push(...(await fiveMegabyteResults(files, process.execPath, '')));
    const node24 = await nodeBinary(24);
    if (typeof node24 === 'string')
      results.push(...(await fiveMegabyteResults(files, node24, ' on Node 24')));
    else
      results.push({
        kind: 'measurement',
        title: `5 MB results relayed on Node 24: not measured (${node24.missing})`,
        value: 0,
        unit: '×',
      });

    // 50 MB results: a fresh proxy per case, so that each peak is its own.
    for (const stray of [false, true]) {
      const p = await connect(files, 'proxy');
      const idle = currentRss(p.child.pid);
      for (let i = 0; i < 4; i++) await p.call({ size: 50 * MB, stray });
      const peak = peakRss(p.child.pid);
      await p.close();
      if (peak === undefined || idle === undefined) {
        results.push({
          kind: 'measurement',
          title: 'proxy peak RSS with 50 MB results: not measured (needs /proc)',
          value: 0,
          unit: '×',
        });
        continue;
      }
      const growth = peak - idle;
      results.push({
        kind: 'measurement',
        title: `proxy peak RSS relaying 50 MB results ${stray ? 'that need a repair (requestId)' : 'that need none'}: ${(peak / MB).toFixed(0)} MB, idle after start-up ${(idle / MB).toFixed(0)} MB, growth ${(growth / MB).toFixed(0)} MB (peak RSS ÷ message: ${(peak / (50 * MB)).toFixed(2)}×); growth ÷ message`,
        value: growth / (50 * MB),
        unit: '×',
        target: { atMost: 3 },
        note: 'the goal "peak memory under 3× the largest message" is read as growth over the idle proxy: the idle RSS (code, catalog, heap) is the same for any message size',
      });
    }
    const loadAtEnd = loadavg()[0] ?? 0;
    results.push({
      kind: 'measurement',
      title: `load average (1 min) on ${availableParallelism()} cores: ${loadAtStart.toFixed(2)} at the start, at the end`,
      value: loadAtEnd,
      unit: '',
      note: 'latency and throughput ratios are measured side by side, but a loaded machine widens both',
    });
    return results;
  },
};
