/**
 * Sessions as they really are: plain NDJSON captured with `tee` (a banner, blank lines, a JSON log line,
 * a cut-off last line) and the recordings `audit --record` and `proxy --record` write. Lines that are
 * not messages are findings at their line and checking goes on; only an unreadable file is an input
 * error.
 */

import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkInput, parseInput } from '../../src/check/index.js';
import type { Finding } from '../../src/core/finding.js';
import { type RecordedFrame, recordFrame, recordingLine } from '../../src/core/recording.js';
import { affectedClients, breaksLine } from '../../src/report/clients.js';
import { foldFindings } from '../../src/report/fold.js';
import { getRule } from '../../src/rules/catalog.js';
import { CLI_TEST_TIMEOUT, REPO_ROOT, runCli } from '../support/cli.js';
import { expectValidReport } from '../support/report-schema.js';
import { scratchDir } from '../support/scratch.js';

const SESSIONS = join(REPO_ROOT, 'fixtures/sessions');
const { dir, file } = scratchDir('session');

/** `rule@line` of each finding, with its tool when it has one, in report order. */
function where(findings: readonly Finding[]): string[] {
  return findings.map((f) => `${f.rule}@${f.location?.line}${f.location?.tool ? `/${f.location.tool}` : ''}`);
}

async function check(text: string, file = 'session.jsonl') {
  return checkInput(parseInput(text, { session: file.endsWith('.jsonl') }), { file });
}

const jsonl = (entries: readonly unknown[]) => entries.map((e) => JSON.stringify(e)).join('\n');

describe('checking a session captured with tee', { timeout: CLI_TEST_TIMEOUT }, () => {
  it('reports the banner, blank line, non-JSON-RPC values and cut-off line where they are, and judges the rest', async () => {
    const run = await runCli(['check', join(SESSIONS, 'tee-capture.jsonl'), '--format', 'json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    expectValidReport(report);
    expect(report.summary).toMatchObject({ checked: 15, kind: 'session' });
    expect(where(report.findings)).toEqual([
      'frame-not-json@1', // the start-up banner
      'frame-not-json@4', // a blank line
      'frame-not-jsonrpc@6', // "ready"
      'frame-not-jsonrpc@9', // a JSON log line
      // The messages between them were still paired and judged, with the version initialize negotiated
      // and the outputSchema tools/list gave.
      'envelope-extra-member@13/count',
      'structured-content-schema-mismatch@13/count',
      'frame-not-json@15', // the capture ends inside a response
    ]);
    const byLine = new Map(report.findings.map((f: Finding) => [f.location?.line, f]));
    expect(byLine.get(1)).toMatchObject({
      message: 'stdout line is not JSON: "Weather MCP server v1.2 listening on stdio"',
      location: { protocolVersion: '2025-11-25' },
    });
    expect(byLine.get(4)).toMatchObject({ message: expect.stringMatching(/^empty line on stdout/) });
    expect(byLine.get(6)).toMatchObject({
      message: 'frame is JSON but not a JSON-RPC message: a bare string',
    });
    expect(byLine.get(9)).toMatchObject({
      message: expect.stringContaining(
        'it has none of jsonrpc, method, id, result, error (members: "level", "time", "msg")',
      ),
      location: { protocolVersion: '2025-06-18' },
    });
  });

  it('reads a capture that is not named .jsonl, and from standard input, as long as one line is a message', async () => {
    const text = `Server listening\n${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [] } })}\n`;
    const run = await runCli(['check', '-', '--format', 'json'], { input: text });
    expect(run.code).toBe(1);
    expect(where(JSON.parse(run.stdout).findings)).toEqual(['frame-not-json@1']);
    expect((await check(text, 'capture.log')).findings.map((f) => f.rule)).toEqual(['frame-not-json']);
  });

  it('keeps a broken single document an input error with its position', async () => {
    expect(() => parseInput('{\n  "content": [\n    {"type": "text", "text": }\n  ]\n}')).toThrow(
      /invalid JSON at line 3, column 30/,
    );
    // Named .jsonl, the same text is a session: each line a frame.
    const lines = await check('{\n  "content": []\n}', 'pretty.jsonl');
    expect(where(lines.findings)).toEqual(['frame-not-json@1', 'frame-not-json@2', 'frame-not-json@3']);
  });

  it('pairs requests of either side by who sent them when the direction is recorded', async () => {
    // The server asks the client (a sampling request, id 1) while the client's own request 1 is pending.
    const frames = [
      recordFrame(
        'client',
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'pic' } }),
      ),
      recordFrame(
        'server',
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'sampling/createMessage', params: {} }),
      ),
      recordFrame(
        'client',
        JSON.stringify({ jsonrpc: '2.0', id: 1, result: { role: 'assistant', content: {} } }),
      ),
      recordFrame(
        'server',
        JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'image', data: 'x' }] } }),
      ),
    ];
    const outcome = await check(frames.map(recordingLine).join(''));
    // The image finding belongs to the tools/call answered on line 4, not to the sampling exchange.
    expect(outcome.findings.length).toBeGreaterThan(0);
    expect(new Set(where(outcome.findings).map((w) => w.split('@')[1]))).toEqual(new Set(['4/pic']));
  });

  it('pairs an answer whose id came back as a string with its request, as the SDK clients do, and says so', async () => {
    const listed = {
      name: 'n',
      inputSchema: { type: 'object' },
      outputSchema: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] },
    };
    const wrongData = { content: [{ type: 'text', text: '{"x":"no"}' }], structuredContent: { x: 'no' } };
    const outcome = await check(
      jsonl([
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
        { jsonrpc: '2.0', id: 2, result: { tools: [listed] } },
        { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'n', arguments: {} } },
        { jsonrpc: '2.0', id: '3', result: wrongData },
        // An id no request had, either way: answered by nothing, so judged without the tool.
        { jsonrpc: '2.0', id: '4', result: wrongData },
      ]),
    );
    // The SDK client pairs "3" with 3 and rejects the structuredContent by the tool's outputSchema.
    expect(where(outcome.findings)).toEqual([
      'audit-response-id-converted@4/n',
      'structured-content-schema-mismatch@4/n',
    ]);
    expect(outcome.findings[0]).toMatchObject({
      severity: 'error',
      pointer: '/id',
      message: 'the response to tools/call n (id 3) carries the id "3": the same value, but a string',
    });
  });
});

describe('checking a recording', { timeout: CLI_TEST_TIMEOUT }, () => {
  it('pairs and negotiates per connection, as an audit records one connection per version', async () => {
    const run = await runCli(['check', join(SESSIONS, 'audit-recording.jsonl'), '--format', 'json']);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    expectValidReport(report);
    expect(report.summary.checked).toBe(9);
    expect(
      report.findings.map((f: Finding) => [
        f.rule,
        f.location?.line,
        f.location?.protocolVersion,
        f.location?.tool,
      ]),
    ).toEqual([
      ['frame-not-json', 1, '2025-11-25', undefined],
      // Both connections numbered their call 2; each answer is paired with its own connection's request.
      ['structured-content-not-object-old-clients', 8, '2026-07-28', 'squares'],
      ['structured-content-not-object', 9, '2025-06-18', 'primes'],
    ]);
  });

  it('judges what the server sent, not what the proxy forwarded', async () => {
    const run = await runCli(['check', join(SESSIONS, 'proxy-recording.jsonl'), '--format', 'json']);
    expect(run.code).toBe(1);
    const findings = JSON.parse(run.stdout).findings;
    expect(where(findings)).toEqual(['envelope-extra-member@2/balance', 'frame-not-json@3']);
    expect(findings[1].message).toBe('stdout line is not JSON: "DEBUG balance looked up"');
  });

  it('reads what recordFrame() writes, for every transport, and skips blank lines between frames', async () => {
    const at = new Date('2026-11-22T10:00:00Z');
    const http = { connection: 'session-a', transport: 'http' } as const;
    const entries: RecordedFrame[] = [
      recordFrame('client', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), http, at),
      recordFrame('server', '<html>502 Bad Gateway</html>', http, at),
      recordFrame('server', JSON.stringify({ jsonrpc: '2.0', id: 1, result: { tools: [] } }), http, at),
      recordFrame('server', 'data: {', { transport: 'sse' }, at),
      recordFrame('server', '42', { transport: 'sse' }, at),
    ];
    const text = entries.map(recordingLine).join('\n');
    const outcome = await check(text);
    expect(outcome.checked).toBe(5);
    expect(outcome.findings.map((f) => [f.rule, f.location?.line, f.message])).toEqual([
      ['frame-not-json', 3, 'HTTP response body is not JSON: "<html>502 Bad Gateway</html>"'],
      ['frame-not-json', 7, 'SSE event data is not JSON: "data: {"'],
      ['frame-not-jsonrpc', 9, 'frame is JSON but not a JSON-RPC message: a bare integer'],
    ]);
    // No http-content-type finding: a recording keeps no Content-Type to judge.
  });

  it("keeps a byte order mark before a capture's first line, the server's, and drops one before a recording", async () => {
    const message = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [] } });
    const captured = await check(`\uFEFF${message}\n${message.replace('"id":1', '"id":2')}\n`);
    expect(where(captured.findings)).toEqual(['frame-not-json@1']);
    expect(captured.findings[0]?.message).toBe(
      'stdout line starts with a byte order mark (U+FEFF) before its JSON, which JSON.parse rejects',
    );
    const recorded = await check(`\uFEFF${recordingLine(recordFrame('server', message))}`);
    expect(recorded.findings).toEqual([]);
    // A single saved document is no capture: its mark is the editor's.
    const single = checkInput(parseInput(`\uFEFF${message}`), { file: 'r.json' });
    expect((await single).findings).toEqual([]);
  });

  it("reports a server frame a proxy passed on unjudged (too long for any string), not a client's", async () => {
    const passed = (from: 'client' | 'server', bytes: number) =>
      recordingLine({ time: '2026-01-01T00:00:00.000Z', from, transport: 'stdio', passed: bytes });
    const outcome = await check(passed('client', 600_000_000) + passed('server', 700_000_000));
    expect(where(outcome.findings)).toEqual(['audit-response-too-large@2']);
    expect(outcome.findings[0]?.message).toMatch(
      /^a response of more than 700000000 bytes exceeds the \d+-byte cap/,
    );
    expect(outcome.checked).toBe(2);
  });

  it('reports a server frame passed on over a proxy cap set lower (limit) against that cap', async () => {
    const line = recordingLine({
      time: '2026-01-01T00:00:00.000Z',
      from: 'server',
      transport: 'stdio',
      passed: 9_437_185,
      limit: 8_388_608,
    });
    const outcome = await check(line);
    expect(where(outcome.findings)).toEqual(['audit-response-too-large@1']);
    expect(outcome.findings[0]?.message).toBe(
      'a response of more than 9437185 bytes exceeds the 8388608-byte cap; it was not parsed',
    );
  });

  it('accepts a { message } wrapper without a direction', async () => {
    const outcome = await check(
      jsonl([
        { message: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't' } } },
        { message: { jsonrpc: '2.0', id: 1, extra: 1, result: { content: [] } } },
      ]),
    );
    expect(where(outcome.findings)).toEqual(['envelope-extra-member@2/t']);
  });

  it('checks the messages of a batch each in turn', async () => {
    const outcome = await checkInput(
      parseInput(
        JSON.stringify([
          { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'a' } },
          { jsonrpc: '2.0', id: 1, requestId: 1, result: { content: [] } },
        ]),
      ),
      { protocolVersion: '2025-03-26' },
    );
    expect(outcome.checked).toBe(2);
    expect(outcome.findings.map((f) => [f.rule, f.location?.tool])).toEqual([
      ['envelope-batch', undefined],
      ['envelope-extra-member', 'a'],
    ]);
  });

  it('an unreadable file is the only input error: one line, exit 2', async () => {
    const unreadable = file('secret.jsonl', '{"jsonrpc":"2.0","id":1,"result":{}}\n');
    chmodSync(unreadable, 0o000);
    const runs = [
      await runCli(['check', join(dir, 'missing.jsonl')]),
      await runCli(['check', dir]),
      ...(process.getuid?.() === 0 ? [] : [await runCli(['check', unreadable])]),
    ];
    for (const run of runs) {
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/^mcp-shape: [^\n]+\n$/);
    }
    expect(runs[0]?.stderr).toContain('no such file');
    expect(runs[1]?.stderr).toContain('is a directory');
  });
});

/** A tool with an outputSchema, and a call of it. */
const COUNT = {
  name: 'count',
  inputSchema: { type: 'object' },
  outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
};
const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'count' } });

describe('a tools/list answered after the calls', () => {
  const result = (id: number, structured: unknown) => ({
    jsonrpc: '2.0',
    id,
    result: { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured },
  });
  const list = (id: number, tools: unknown[]) => [
    { jsonrpc: '2.0', id, method: 'tools/list' },
    { jsonrpc: '2.0', id, result: { tools } },
  ];

  it('judges the earlier results against the outputSchema the server declared', async () => {
    const { findings } = await check(jsonl([call(2), result(2, {}), ...list(3, [COUNT])]));
    expect(where(findings)).toEqual(['structured-content-schema-mismatch@2/count']);
  });

  it('leaves a session whose results conform as it was, and a listing on the way still replaces it', async () => {
    expect((await check(jsonl([call(2), result(2, { n: 1 }), ...list(3, [COUNT])]))).findings).toEqual([]);
    // Listed first with no outputSchema, then with one: the first call is judged by the first listing.
    const plain = { name: 'count', inputSchema: { type: 'object' } };
    const session = [
      ...list(1, [plain]),
      call(2),
      result(2, {}),
      ...list(3, [COUNT]),
      call(4),
      result(4, {}),
    ];
    expect(where((await check(jsonl(session))).findings)).toEqual([
      'structured-content-schema-mismatch@8/count',
    ]);
  });
});

describe('the clients a finding judged by a later tools/list breaks', () => {
  const answer = (id: number, result: unknown) => ({ jsonrpc: '2.0', id, result });
  const list = (id: number) => [
    { jsonrpc: '2.0', id, method: 'tools/list' },
    { jsonrpc: '2.0', id, result: { tools: [COUNT] } },
  ];
  const clients = (f: Finding | undefined) => (f ? affectedClients(f).map((c) => c.client) : undefined);

  it('names only the clients that list the tools themselves to validate a result (the Python SDK)', async () => {
    const { findings } = await check(
      jsonl([
        call(2),
        answer(2, { content: [{ type: 'text', text: '{}' }], structuredContent: {} }),
        ...list(3),
      ]),
    );
    expect(where(findings)).toEqual(['structured-content-schema-mismatch@2/count']);
    // The TypeScript SDK clients validate against a listing they hold, and held none at the call.
    expect(clients(findings[0])).toEqual(['python-sdk']);
    expect(breaksLine(findings[0] as Finding)).toBe('Python SDK client (rejects the call)');
    const missing = await check(
      jsonl([call(2), answer(2, { content: [{ type: 'text', text: 'hi' }] }), ...list(3)]),
    );
    expect(where(missing.findings)).toEqual(['structured-content-missing-for-output-schema@2/count']);
    expect(clients(missing.findings[0])).toEqual(['python-sdk']);
  });

  it('names no client for an error result, which the Python SDK does not validate', async () => {
    const { findings } = await check(
      jsonl([
        call(2),
        answer(2, { content: [{ type: 'text', text: '{}' }], structuredContent: {}, isError: true }),
        ...list(3),
      ]),
    );
    expect(where(findings)).toEqual(['structured-content-schema-mismatch@2/count']);
    expect(clients(findings[0])).toEqual([]);
    expect(breaksLine(findings[0] as Finding)).toBeUndefined();
  });

  it('keeps every client of the rule for a call after the listing, and does not fold the two', async () => {
    const session = [
      call(2),
      answer(2, { content: [{ type: 'text', text: '{}' }], structuredContent: {} }),
      ...list(3),
      call(4),
      answer(4, { content: [{ type: 'text', text: '{}' }], structuredContent: {} }),
    ];
    const { findings } = await check(jsonl(session));
    expect(where(findings)).toEqual([
      'structured-content-schema-mismatch@2/count',
      'structured-content-schema-mismatch@6/count',
    ]);
    expect(clients(findings[1])).toEqual(
      getRule('structured-content-schema-mismatch')?.clients.map((c) => c.client),
    );
    const folded = foldFindings(findings);
    expect(folded.map(clients)).toEqual([['python-sdk'], clients(findings[1])]);
  });
});

describe('a tool listed twice, on one page or two', () => {
  const answer = (id: number, result: unknown) => ({ jsonrpc: '2.0', id, result });
  const plain = { name: 'count', inputSchema: { type: 'object' } };
  const other = { name: 'other', inputSchema: { type: 'object' } };
  /** A listing of these pages, the first asked for without a cursor, the next with the one before. */
  const listing = (pages: readonly (readonly object[])[]) =>
    pages.flatMap((tools, i) => [
      {
        jsonrpc: '2.0',
        id: 10 + i,
        method: 'tools/list',
        ...(i > 0 ? { params: { cursor: String(i) } } : {}),
      },
      answer(10 + i, { tools, ...(i + 1 < pages.length ? { nextCursor: String(i + 1) } : {}) }),
    ]);
  const clients = (f: Finding | undefined) => (f ? affectedClients(f).map((c) => c.client) : undefined);
  const noStructured = { content: [{ type: 'text', text: 'hi' }] };
  const wrong = { content: [{ type: 'text', text: '{}' }], structuredContent: {} };

  it('judges a result by the definition with an outputSchema, as the SDK clients check it', async () => {
    // The SDK clients keep the outputSchema of [count with one, count without] and reject the result.
    const { findings } = await check(jsonl([...listing([[COUNT, plain]]), call(2), answer(2, noStructured)]));
    expect(where(findings)).toEqual([
      'tool-name-duplicate@2',
      'structured-content-missing-for-output-schema@4/count',
    ]);
  });

  it('keeps an outputSchema of an earlier page, and does not name the SDK v1 client, which keeps only the last page', async () => {
    for (const pages of [
      [[COUNT], [plain]],
      [[COUNT], [other]],
    ]) {
      const { findings } = await check(jsonl([...listing(pages), call(2), answer(2, wrong)]));
      expect(where(findings)).toEqual(['structured-content-schema-mismatch@6/count']);
      expect(clients(findings[0])).toContain('ts-sdk-v2');
      expect(clients(findings[0])).not.toContain('ts-sdk-v1');
    }
    // On the last page, the v1 client holds it too.
    const { findings } = await check(jsonl([...listing([[other], [COUNT]]), call(2), answer(2, wrong)]));
    expect(clients(findings[0])).toContain('ts-sdk-v1');
    // A new listing without the outputSchema replaces it, as both clients replace what they held.
    const relisted = await check(
      jsonl([...listing([[COUNT]]), ...listing([[plain]]), call(2), answer(2, wrong)]),
    );
    expect(where(relisted.findings)).toEqual([]);
  });
});
