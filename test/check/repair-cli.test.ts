import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_TEST_TIMEOUT, REPO_ROOT, runCli } from '../support/cli.js';
import { expectValidReport } from '../support/report-schema.js';
import { scratchDir } from '../support/scratch.js';

const { dir, file } = scratchDir('repair');

describe('mcp-shape repair', { timeout: CLI_TEST_TIMEOUT }, () => {
  it('writes a repaired result that `check` then passes, listing the repairs on stderr', async () => {
    const broken = file('broken.json', JSON.stringify({ content: [{ type: 'object', object: { a: 1 } }] }));
    const fixed = join(dir, 'fixed.json');
    const run = await runCli(['repair', broken, '--protocol', '2025-06-18', '--out', fixed]);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/block-type-unknown at \/content\/0/);
    expect(JSON.parse(readFileSync(fixed, 'utf8'))).toMatchObject({ structuredContent: { a: 1 } });
    const check = await runCli(['check', fixed, '--protocol', '2025-06-18']);
    expect(check.code).toBe(0);
  });

  it('repairs a response envelope', async () => {
    const response = file(
      'resp.json',
      JSON.stringify({ jsonrpc: '2.0', id: 7, requestId: 'x', result: { content: [] } }),
    );
    const run = await runCli(['repair', response, '--protocol', '2025-06-18', '--quiet']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ jsonrpc: '2.0', id: 7, result: { content: [] } });
  });

  it('repairs a bare tools/list result as one, and exits 1 when an error is left', async () => {
    const list = file(
      'tools.json',
      JSON.stringify({ tools: [{ name: 'a', description: null, inputSchema: { type: 'object' } }] }),
    );
    const run = await runCli(['repair', list]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ tools: [{ name: 'a', inputSchema: { type: 'object' } }] });
    expect(run.stderr).toBe(
      'tool-field-invalid at /tools/0/description: removed "description" (null)\n1 repair\n',
    );
    const check = await runCli(['check', '-'], { input: run.stdout });
    expect(check.code).toBe(0);
    const unrepairable = file(
      'named.json',
      JSON.stringify({ tools: [{ name: 5, inputSchema: { type: 'object' } }] }),
    );
    const left = await runCli(['repair', unrepairable]);
    expect(left.code).toBe(1);
    expect(JSON.parse(left.stdout)).toEqual({ tools: [{ name: 5, inputSchema: { type: 'object' } }] });
    // Exit 1 says why, at the pointer of the bare result as it was given.
    expect(left.stderr).toMatch(/^left unrepaired: [a-z-]+ at \/tools\/0\/name: .+\n0 repairs\n$/);
  });

  it('names each error it left unrepaired, twenty at most, then how many more', async () => {
    const batch = file('batch.json', JSON.stringify([[1]]));
    const one = await runCli(['repair', batch, '--protocol', '2025-06-18']);
    expect(one.code).toBe(1);
    expect(one.stderr).toBe(
      'left unrepaired: envelope-batch at (root): a JSON-RPC batch of 1 message; protocol 2025-06-18 has no batching\n' +
        'left unrepaired: envelope-not-object at /0: member 0 of the batch is an array, not a JSON-RPC message object\n' +
        '0 repairs\n',
    );
    const many = file('many.json', JSON.stringify(Array.from({ length: 30 }, () => 7)));
    const run = await runCli(['repair', many, '--protocol', '2025-06-18']);
    expect(run.code).toBe(1);
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines.filter((l) => l.startsWith('left unrepaired: envelope-'))).toHaveLength(20);
    expect(lines.at(-2)).toBe('left unrepaired: 11 more errors (mcp-shape check lists them all)');
    expect(lines.at(-1)).toBe('0 repairs');
  });

  it('repairs a document nested 100,000 levels deep, and a session line as deep, without a stack trace', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const envelope = `{"jsonrpc":"2.0","id":1,"requestId":"x","result":{"content":[],"structuredContent":${deep}}}`;
    const single = await runCli(['repair', file('deep.json', envelope), '--quiet']);
    expect(single.stderr).toBe('');
    expect(single.code).toBe(0);
    // The mirror the finding offers is written too, however deep the value (JSON.stringify is not).
    const mirror = JSON.stringify({ type: 'text', text: `{"result":${deep}}` });
    expect(single.stdout).toBe(
      `{"jsonrpc":"2.0","id":1,"result":{"content":[${mirror}],"structuredContent":{"result":${deep}}}}\n`,
    );
    const recorded = `{"time":"2026-11-22T00:00:00Z","from":"server","message":${envelope}}\n`;
    const session = await runCli(['repair', file('deep.jsonl', recorded), '--quiet']);
    expect(session.stderr).toBe('');
    expect(session.stdout).toContain(`"content":[${mirror}],"structuredContent":{"result":${deep}}`);
    expect(session.stdout).not.toContain('requestId');
  });

  it('repairs the responses of a JSONL session for the version it negotiated, and writes --report', async () => {
    const lines = [
      { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-03-26' } },
      {
        jsonrpc: '2.0',
        id: 0,
        result: { protocolVersion: '2025-03-26', capabilities: {}, serverInfo: { name: 's', version: '1' } },
      },
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'link' } },
      {
        jsonrpc: '2.0',
        id: 1,
        result: { content: [{ type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt' }] },
      },
    ];
    const session = file('s.jsonl', `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const report = join(dir, 'report.json');
    const run = await runCli(['repair', session, '--report', report]);
    expect(run.code).toBe(0);
    const out = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(out).toHaveLength(4);
    expect(out[2]).toEqual(lines[2]);
    // resource_link does not exist before 2025-06-18: it becomes a text block naming the link.
    expect(out[3].result.content[0].type).toBe('text');
    const parsed = JSON.parse(readFileSync(report, 'utf8'));
    expectValidReport(parsed);
    expect(parsed.findings[0]).toMatchObject({
      rule: 'block-type-unsupported-in-version',
      location: { line: 4, protocolVersion: '2025-03-26' },
    });
  });

  it('copies the lines of a captured session that are no messages, and says so, exiting 1', async () => {
    const capture = join(REPO_ROOT, 'fixtures/sessions/tee-capture.jsonl');
    const run = await runCli(['repair', capture]);
    expect(run.code).toBe(1);
    const input = readFileSync(capture, 'utf8').split('\n');
    const output = run.stdout.split('\n');
    // Nothing is lost: the banner, the blank line, "ready", the JSON log line and the cut-off line stay.
    for (const line of [1, 4, 6, 9, 15]) expect(output[line - 1]).toBe(input[line - 1]);
    expect(run.stderr).toContain('line 9: not a JSON-RPC message, copied unchanged');
    expect(JSON.parse(output[12] as string)).not.toHaveProperty('requestId');
    expect(run.stderr).toMatch(/^line 13: envelope-extra-member at \/requestId/m);
  });

  it('repairs the message of a recorded line and keeps the recording around it', async () => {
    const run = await runCli([
      'repair',
      join(REPO_ROOT, 'fixtures/sessions/proxy-recording.jsonl'),
      '--quiet',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1); // the dropped banner is left as it was
    const [request, response, banner] = run.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(request.from).toBe('client');
    expect(response).toMatchObject({ from: 'server', time: '2026-11-22T10:00:00.000Z' });
    expect(response.message).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { content: [{ type: 'text', text: '12.5' }] },
    });
    expect(banner.frame).toBe('DEBUG balance looked up');
  });

  it('writes the messages of a batch a line each, bare or recorded, which the SDK clients drop whole', async () => {
    const notification = {
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level: 'info', data: 1 },
    };
    const response = { jsonrpc: '2.0', id: 1, result: { content: ['hi'] } };
    const request = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'a' } };
    const head = { time: '2026-11-22T10:00:00.000Z', from: 'server' };
    const session = file(
      'batch.jsonl',
      [
        JSON.stringify(request),
        JSON.stringify([notification, response]),
        JSON.stringify({ ...head, from: 'client', message: { ...request, id: 2 } }),
        JSON.stringify({ ...head, message: [notification, { ...response, id: 2 }] }),
        '',
      ].join('\n'),
    );
    const run = await runCli(['repair', session]);
    expect(run.code).toBe(0);
    const repaired = { ...response, result: { content: [{ type: 'text', text: 'hi' }] } };
    expect(
      run.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      request,
      notification,
      repaired,
      { ...head, from: 'client', message: { ...request, id: 2 } },
      { ...head, message: notification },
      { ...head, message: { ...repaired, id: 2 } },
    ]);
    expect(run.stderr).toContain(
      'line 2: envelope-batch at (root): sent the 2 messages of the batch one by one: the official SDK clients drop a batch',
    );
  });

  it('rejects bad input with one line and exit 2', async () => {
    const run = await runCli(['repair', file('bad.json', '{"content": [')]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });
});
