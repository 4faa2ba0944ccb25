/**
 * The audit's options, each against a small Streamable HTTP server that records what it was sent:
 * --header, --call, --call-all, --max-calls-per-tool, --timeout, --max-response-size, --format, and
 * the Mcp-Session-Id and MCP-Protocol-Version headers the transport must send.
 */

import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runAudit } from '../../src/audit/run.js';
import { runCli } from '../support/cli.js';

interface Received {
  readonly method: string;
  readonly rpc?: string;
  readonly headers: IncomingHttpHeaders;
  readonly call?: { name: string; arguments: Record<string, unknown> };
}

const readOnly = { readOnlyHint: true };
const TOOLS = [
  {
    name: 'lookup',
    inputSchema: {
      type: 'object',
      properties: { mode: { type: 'string', enum: ['a', 'b', 'c', 'd'] }, verbose: { type: 'boolean' } },
      required: ['mode'],
    },
    annotations: readOnly,
  },
  { name: 'big', inputSchema: { type: 'object' }, annotations: readOnly },
  { name: 'write_thing', inputSchema: { type: 'object' } },
  { name: 'stall', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false } },
  {
    name: 'delete_all',
    inputSchema: { type: 'object' },
    annotations: { readOnlyHint: false, destructiveHint: true },
  },
];

/** Requires `Authorization: Bearer secret` and `X-Team: blue`, and a session id after initialize. */
function recordingServer(received: Received[]): Server {
  let sessions = 0;
  return createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const message = body ? (JSON.parse(body) as { id?: number; method?: string; params?: never }) : {};
      const params = (message.params ?? {}) as { name?: string; arguments?: Record<string, unknown> };
      received.push({
        method: req.method ?? '',
        ...(message.method ? { rpc: message.method } : {}),
        headers: req.headers,
        ...(message.method === 'tools/call'
          ? { call: { name: params.name ?? '', arguments: params.arguments ?? {} } }
          : {}),
      });
      if (req.headers.authorization !== 'Bearer secret' || req.headers['x-team'] !== 'blue') {
        res.writeHead(401, { 'content-type': 'text/plain' }).end('unauthorized');
        return;
      }
      if (req.method === 'DELETE') {
        res.writeHead(204).end();
        return;
      }
      if (req.method !== 'POST') {
        res.writeHead(405).end();
        return;
      }
      const json = (status: number, value: unknown, headers: Record<string, string> = {}) =>
        res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
      if (message.method === 'initialize') {
        sessions++;
        json(
          200,
          {
            jsonrpc: '2.0',
            id: message.id,
            result: {
              protocolVersion: '2025-06-18',
              capabilities: { tools: {} },
              serverInfo: { name: 'recording', version: '1.0.0' },
            },
          },
          { 'mcp-session-id': `session-${sessions}` },
        );
        return;
      }
      if (!req.headers['mcp-session-id']) {
        json(400, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'no session' } });
        return;
      }
      if (message.id === undefined) {
        res.writeHead(202).end();
        return;
      }
      if (message.method === 'tools/list') {
        json(200, { jsonrpc: '2.0', id: message.id, result: { tools: TOOLS } });
        return;
      }
      if (message.method === 'tools/call') {
        if (params.name === 'stall') return; // never answers
        const text = params.name === 'big' ? 'x'.repeat(4096) : `${params.name} done`;
        json(200, { jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text }] } });
        return;
      }
      json(200, { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
    });
  });
}

const AUTH = ['--header', 'Authorization: Bearer secret', '--header', 'X-Team: blue'];

// Each test spawns the CLI (the bundle the global setup built): a second or more each on two loaded cores.
describe('mcp-shape audit options', { timeout: 90_000 }, () => {
  const received: Received[] = [];
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = recordingServer(received);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => {
    received.length = 0;
  });
  const calls = () => received.flatMap((r) => (r.call ? [r.call] : []));
  const called = () => [...new Set(calls().map((c) => c.name))].sort();
  /** `mcp-shape audit` of the recording server, with its credentials, for 2025-06-18. */
  const audit = (...options: string[]) =>
    runCli(['audit', '--url', url, ...AUTH, '--protocol', '2025-06-18', ...options]);

  it('sends every --header, the session id and the negotiated version; calls read-only and --call tools', async () => {
    const run = await audit(
      '--explore',
      '--max-calls-per-tool',
      '2',
      '--call',
      'write_thing',
      '--format',
      'json',
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    for (const r of received) {
      expect(r.headers.authorization, `${r.method} ${r.rpc ?? ''}`).toBe('Bearer secret');
      expect(r.headers['x-team']).toBe('blue');
    }
    const afterInitialize = received.filter((r) => r.rpc !== 'initialize');
    expect(afterInitialize.length).toBeGreaterThan(3);
    for (const r of afterInitialize) {
      expect(r.headers['mcp-session-id'], `${r.method} ${r.rpc ?? ''}`).toBe('session-1');
      if (r.method === 'POST') expect(r.headers['mcp-protocol-version']).toBe('2025-06-18');
    }
    // The session is ended with a DELETE when the audit is done.
    expect(received.at(-1)?.method).toBe('DELETE');
    expect(called()).toEqual(['big', 'lookup', 'write_thing']);
    // With --explore, the enum and the boolean are explored, within the budget of two calls.
    expect(calls().filter((c) => c.name === 'lookup')).toEqual([
      { name: 'lookup', arguments: { mode: 'a' } },
      { name: 'lookup', arguments: { mode: 'b', verbose: true } },
    ]);
    const report = JSON.parse(run.stdout);
    expect(report.details.tools).toContainEqual(
      expect.objectContaining({ name: 'write_thing', called: true, because: '--call' }),
    );
    expect(report.details.tools).toContainEqual(
      expect.objectContaining({ name: 'delete_all', called: false }),
    );
  });

  it('calls every tool once with --call-all, and reports the one that never answers after --timeout', async () => {
    const run = await audit('--call-all', '--timeout', '1');
    // No client is known to give up within 1 s, so the silence is reported but not judged an error.
    expect(run.code).toBe(0);
    expect(called()).toEqual(['big', 'delete_all', 'lookup', 'stall', 'write_thing']);
    expect(calls()).toHaveLength(5);
    expect(run.stdout).toMatch(
      // The wait is measured: at least the second of --timeout, and on a busy machine more, up to the
      // hard cap of four times that.
      /warning no response to tools\/call stall in the [1-4](\.\d)? s the audit waited \(--timeout\); .*audit-timeout\n {8}in 2025-06-18, 1 call \(stall#1\)/,
    );
    expect(run.stdout).toMatch(
      /called {6}big, delete_all, lookup, stall, write_thing \(--call-all; 5 calls\)/,
    );
  });

  it('reports a response over --max-response-size without reading it', async () => {
    const run = await audit('--max-response-size', '1KiB', '--format', 'json');
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report.findings).toContainEqual(
      expect.objectContaining({
        rule: 'audit-response-too-large',
        location: { protocolVersion: '2025-06-18', tool: 'big', call: 'big#1' },
      }),
    );
    expect(
      report.findings.filter((f: { location?: { tool?: string } }) => f.location?.tool === 'lookup'),
    ).toEqual([]);
  });

  it('writes SARIF whose audit findings point at rules with help and docs', async () => {
    // The timeout is each request's, initialize and tools/list too: 1 s was too short for those on a
    // loaded machine (exit 3, unreachable), and the stalled call times out at any length.
    const run = await audit('--call', 'stall', '--timeout', '5', '--format', 'sarif');
    expect(run.code).toBe(0);
    const sarif = JSON.parse(run.stdout);
    const [result] = sarif.runs[0].results;
    expect(result).toMatchObject({
      ruleId: 'audit-timeout',
      level: 'warning',
      properties: { protocolVersion: '2025-06-18', tool: 'stall', call: 'stall#1' },
    });
    const rule = sarif.runs[0].tool.driver.rules[result.ruleIndex];
    expect(rule.id).toBe('audit-timeout');
    // No homepage in package.json, so no helpUri (never a file: link); help carries the whole doc.
    expect(rule.helpUri).toBeUndefined();
    expect(rule.help.text).toContain('audit-timeout');
    expect(rule.help.markdown).toMatch(/## Why/);
  });

  it('exits 3, saying the server could not be reached and why, when it rejects the credentials', async () => {
    const run = await runCli(['audit', '--url', url, '--protocol', '2025-06-18']);
    expect(run.code).toBe(3);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^mcp-shape: could not reach .*401/);
  });

  it('reports progress while it runs', async () => {
    const progress: string[] = [];
    await runAudit({
      target: { kind: 'http', url, headers: AUTH.filter((_, i) => i % 2 === 1) },
      versions: ['2025-06-18'],
      progress: (text) => progress.push(text),
    });
    expect(progress).toEqual(
      expect.arrayContaining([
        '2025-06-18: connecting',
        '2025-06-18: tools/list',
        '2025-06-18: calling lookup#1',
      ]),
    );
  });
});

describe('mcp-shape audit --help', { timeout: 90_000 }, () => {
  it('lists every option, the stdio and HTTP forms, and the exit codes', async () => {
    const run = await runCli(['audit', '--help']);
    expect(run.code).toBe(0);
    for (const option of [
      '--url <url>',
      '--header <header>',
      '--protocol <version>',
      '--call <name>',
      '--call-all',
      '--args <file>',
      '--explore',
      '--record <file>',
      '--max-calls-per-tool <n>',
      '--timeout <seconds>',
      '--max-response-size <size>',
      '--format <format>',
      '--out <file>',
    ])
      expect(run.stdout).toContain(option);
    expect(run.stdout).toContain('-- <command> [args...]');
    // The call policy, stated exactly.
    const help = run.stdout.replace(/\s+/g, ' ');
    for (const rule of [
      'by default, tools annotated readOnlyHint: true whose destructiveHint is not true',
      '--call-all adds every tool except one annotated both readOnlyHint: true and destructiveHint: true',
      'once per tool and version',
      'with --explore, up to --max-calls-per-tool calls, trying other enum and boolean values',
      'never true for a boolean named like consent or force (confirm, force, yes, overwrite, delete, purge, approve, …)',
      'never an enum or const value that names a mutation (set, delete, create, update, write, apply, …)',
    ])
      expect(help).toContain(rule);
    expect(run.stdout).toMatch(/3 the server could not be started \(stdio\) or reached \(HTTP\)/);
    expect(run.stdout).not.toContain('(default: [])');
  });

  it('rejects --header without --url', async () => {
    const run = await runCli(['audit', '--header', 'X-A: b', '--', process.execPath, '-e', '']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      'mcp-shape: --header applies to --url; a stdio server gets no HTTP headers (see mcp-shape audit --help)',
    );
  });
});

describe('mcp-shape audit --args', { timeout: 90_000 }, () => {
  it('rejects a file that is not JSON with one line and exit 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-shape-args-'));
    const file = join(dir, 'args.json');
    writeFileSync(file, '{"echo": [{"message": "hi"}],}');
    const run = await runCli(['audit', '--args', file, '--', process.execPath, '-e', '']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^mcp-shape: --args .*args\.json is not JSON: /);
  });

  it('rejects a missing file with one line and exit 2', async () => {
    const run = await runCli(['audit', '--args', '/nonexistent/args.json', '--', process.execPath, '-e', '']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe('mcp-shape: no such file: /nonexistent/args.json (--args)');
  });
});

describe('mcp-shape audit option errors', { timeout: 120_000 }, () => {
  const server = ['--', process.execPath, '-e', ''];
  it.each([
    [['--timeout', 'abc', ...server], /^mcp-shape: option '--timeout <seconds>' argument 'abc' is invalid/],
    [['--timeout', '0', ...server], /expected a number of seconds > 0/],
    // Past it Node's timers fire at once, with a warning each time: a flood on stderr.
    [['--timeout', '536871', ...server], /expected at most 536870 seconds/],
    [
      ['--url', 'http://127.0.0.1:2/mcp', '--header', 'X-A: a\r\nInjected: b'],
      /has a name or value HTTP cannot carry/,
    ],
    [['--url', 'http://127.0.0.1:2/mcp', '--header', 'X A: b'], /has a name or value HTTP cannot carry/],
    [['--url', 'ftp://127.0.0.1/mcp'], /is not an http: or https: URL/],
    [['--max-calls-per-tool', '0', ...server], /expected a positive integer/],
    [['--max-response-size', '12q', ...server], /expected a size such as 16MiB/],
    [['--format', 'xml', ...server], /expected one of text, json/],
    [['--protocol', '1999-01-01', ...server], /expected one of 2024-11-05/],
    [['--bogus', ...server], /^mcp-shape: unknown option '--bogus'/],
    [['--url', 'not a url'], /^mcp-shape: --url not a url is not a URL \(see mcp-shape audit --help\)$/],
    [
      ['--url', 'http://127.0.0.1:2/mcp', '--header', 'no-colon'],
      /is not "Name: value" \(see mcp-shape audit --help\)$/,
    ],
    [
      ['--record', '/nonexistent/dir/session.jsonl', ...server],
      /^mcp-shape: no such file: \/nonexistent\/dir\/session\.jsonl \(--record\)$/,
    ],
    // Standard output carries the report; it created a file named "-".
    [['--record', '-', ...server], /^mcp-shape: --record takes a file: standard output carries the report/],
    [[], /^mcp-shape: nothing to audit/],
  ])('%j is one line on stderr and exit 2', async (args, message) => {
    const run = await runCli(['audit', ...args]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines, run.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(message);
  });
});
