/**
 * The proxy between the official SDK client and a server that gets everything wrong, over real pipes:
 * without the proxy the client cannot even connect; through it every tool call succeeds.
 */

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { cliArgs, REPO_ROOT, runCli } from '../support/cli.js';
import { answeringServer } from '../support/line-server.js';
import { expectValidReport } from '../support/report-schema.js';
import { until } from './support/processes.js';

const SERVER = join(REPO_ROOT, 'fixtures/servers/broken-stdio.mjs');

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
});

function connect(
  command: string,
  args: string[],
): { client: Client; transport: StdioClientTransport; stderr: () => string } {
  const transport = new StdioClientTransport({ command, args, cwd: REPO_ROOT, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const client = new Client({ name: 'proxy-test', version: '1.0.0' });
  clients.push(client);
  return { client, transport, stderr: () => stderr };
}

function proxied(extra: string[] = []) {
  return connect(process.execPath, cliArgs(['proxy', ...extra, '--', process.execPath, SERVER]));
}

describe('mcp-shape proxy', () => {
  it('the broken server is unusable for the SDK client on its own (every response has requestId)', async () => {
    const { client, transport } = connect(process.execPath, [SERVER]);
    await expect(client.connect(transport, { timeout: 3_000 })).rejects.toThrow(/timed out/i);
  });

  it('makes every tool call of the broken server succeed in the SDK client', async () => {
    const { client, transport, stderr } = proxied();
    await client.connect(transport, { timeout: 20_000 });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'get_balance',
      'screenshot',
      'list_items',
      'lookup',
      'legacy',
      'fine',
    ]);

    const balance = await client.callTool({ name: 'get_balance', arguments: {} });
    expect(balance.structuredContent).toEqual({ address: 'Qabc', balance: 12.5 });
    expect(balance.content).toEqual([
      { type: 'text', text: JSON.stringify({ address: 'Qabc', balance: 12.5 }) },
    ]);

    const shot = await client.callTool({ name: 'screenshot', arguments: {} });
    expect(shot.content).toEqual([expect.objectContaining({ type: 'image', mimeType: 'image/png' })]);
    expect((shot.content as { data: string }[])[0]?.data).not.toMatch(/^data:/);

    const items = await client.callTool({ name: 'list_items', arguments: {} });
    expect(items.structuredContent).toEqual({ result: [{ id: 1 }, { id: 2 }] });

    const lookup = await client.callTool({ name: 'lookup', arguments: {} });
    expect(lookup.isError).toBe(true);

    const legacy = await client.callTool({ name: 'legacy', arguments: {} });
    expect(JSON.stringify(legacy.content)).toContain('legacy answer');

    expect(await client.callTool({ name: 'fine', arguments: {} })).toMatchObject({
      content: [{ type: 'text', text: 'all good' }],
    });

    const log = stderr();
    expect(log).toContain('envelope-extra-member at /requestId');
    expect(log).toContain('tools/call get_balance: block-type-unknown');
    expect(log).toMatch(/not JSON, not forwarded: broken-stdio server starting/);
  }, 90_000);

  it('keeps every repair in the --report JSON report as it happens', async () => {
    const report = join(mkdtempSync(join(tmpdir(), 'mcp-shape-proxy-')), 'repairs.json');
    const { client, transport } = proxied(['--quiet', '--report', report]);
    await client.connect(transport, { timeout: 20_000 });
    await client.callTool({ name: 'screenshot', arguments: {} });
    await client.close();
    await expect
      .poll(() => readFileSync(report, 'utf8'), { timeout: 10_000 })
      .toContain('"command": "repair"');
    const parsed = JSON.parse(readFileSync(report, 'utf8'));
    expectValidReport(parsed);
    expect(parsed.findings.map((f: { rule: string }) => f.rule)).toEqual(
      expect.arrayContaining(['envelope-extra-member', 'block-base64-data-uri']),
    );
    expect(
      parsed.findings.find((f: { rule: string }) => f.rule === 'block-base64-data-uri').location,
    ).toEqual({
      protocolVersion: '2025-11-25',
      tool: 'screenshot',
    });
  }, 90_000);

  it('refuses a --report or --record it cannot write, or -, before the server starts', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'mcp-shape-proxy-'));
    const started = join(folder, 'started');
    const server = [
      '--',
      process.execPath,
      '-e',
      `require('fs').writeFileSync(${JSON.stringify(started)}, '')`,
    ];
    for (const [args, message] of [
      [['--report', folder], `mcp-shape: cannot write --report: is a directory: ${folder}`],
      // Standard output is the client's stream: the report went into it, the recording to a file "-".
      [
        ['--report', '-'],
        'mcp-shape: --report takes a file: standard output carries the messages to the client',
      ],
      [
        ['--record', '-'],
        'mcp-shape: --record takes a file: standard output carries the messages to the client',
      ],
    ] as const) {
      const run = await runCli(['proxy', ...args, ...server], { input: '' });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr.trimEnd().split('\n')).toEqual([expect.stringContaining(message)]);
    }
    expect(existsSync(started)).toBe(false);
  }, 90_000);

  it('goes on relaying when the --report file can no longer be written, and says so once', async () => {
    const report = join(mkdtempSync(join(tmpdir(), 'mcp-shape-proxy-')), 'repairs.json');
    const { client, transport, stderr } = proxied(['--quiet', '--report', report]);
    await client.connect(transport, { timeout: 20_000 });
    await expect.poll(() => readFileSync(report, 'utf8'), { timeout: 10_000 }).toContain('"command"');
    // Its path becomes a folder: the next write of the report fails (it threw from a timer, and the
    // proxy died with a stack trace, taking the session with it).
    // A write already on its way may put the file back between the two: try again until the folder stands.
    await until(() => {
      rmSync(report, { force: true });
      try {
        mkdirSync(report);
        return true;
      } catch {
        return false;
      }
    });
    for (let i = 0; i < 3; i++) {
      const shot = await client.callTool({ name: 'screenshot', arguments: {} });
      expect(shot.content).toEqual([expect.objectContaining({ type: 'image', mimeType: 'image/png' })]);
      await new Promise((resolve) => setTimeout(resolve, 600));
    }
    const said = `cannot write --report, no longer kept: is a directory: ${report}`;
    await until(() => stderr().includes(said));
    expect(stderr().split(said)).toHaveLength(2);
    expect(stderr()).not.toMatch(/\n\s+at /);
  }, 90_000);

  it('drops the byte order mark a server writes before each message, which leaves the SDK client unable to connect', async () => {
    // Answers initialize and tools/call, each message after a byte order mark.
    const marked = answeringServer(`
      const result = m.method === 'initialize'
        ? { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'bom', version: '1' } }
        : { content: [{ type: 'text', text: 'hi' }] };
      process.stdout.write('\\uFEFF' + JSON.stringify({ jsonrpc: '2.0', id: m.id, result }) + '\\n');`);
    const direct = connect(process.execPath, ['-e', marked]);
    await expect(direct.client.connect(direct.transport, { timeout: 3_000 })).rejects.toThrow(/timed out/i);

    const through = connect(process.execPath, cliArgs(['proxy', '--', process.execPath, '-e', marked]));
    await through.client.connect(through.transport, { timeout: 20_000 });
    const answer = await through.client.callTool({ name: 'any', arguments: {} });
    expect(answer.content).toEqual([{ type: 'text', text: 'hi' }]);
    // The log comes on the proxy's stderr, another pipe than the answers: waited for, not assumed.
    const logged = 'byte order mark (U+FEFF) before the message dropped';
    await until(() => through.stderr().includes(logged));
    expect(through.stderr()).toContain(logged);
  });

  it('sends the messages of a batch one by one, which the SDK client drops whole', async () => {
    // Answers every request in a batch: a log notification, then the response (one member for
    // initialize, which the proxy unwraps).
    const batching = answeringServer(`
      const answer = m.method === 'initialize'
        ? [{ jsonrpc: '2.0', id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {}, logging: {} }, serverInfo: { name: 'batch', version: '1' } } }]
        : [
            { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'working' } },
            { jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: 'hi' }] } },
          ];
      process.stdout.write(JSON.stringify(answer) + '\\n');`);
    const direct = connect(process.execPath, ['-e', batching]);
    await expect(direct.client.connect(direct.transport, { timeout: 3_000 })).rejects.toThrow(/timed out/i);

    const through = connect(process.execPath, cliArgs(['proxy', '--', process.execPath, '-e', batching]));
    const logs: unknown[] = [];
    through.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      logs.push(n.params.data);
    });
    await through.client.connect(through.transport, { timeout: 20_000 });
    const answer = await through.client.callTool({ name: 'any', arguments: {} });
    expect(answer.content).toEqual([{ type: 'text', text: 'hi' }]);
    await until(() => logs.length > 0);
    expect(logs).toEqual(['working']);
    await until(() => through.stderr().includes('one by one'));
    expect(through.stderr()).toContain(
      'sent the 2 messages of the batch one by one: the official SDK clients drop a batch',
    );
  });

  it('judges a tool listed twice by the definition whose outputSchema the SDK client checks', async () => {
    // "a" is listed with an outputSchema, then again without one; its result has no structuredContent.
    const twice = answeringServer(`
      const schema = { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] };
      const result = m.method === 'initialize'
        ? { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'twice', version: '1' } }
        : m.method === 'tools/list'
          ? { tools: [{ name: 'a', inputSchema: { type: 'object' }, outputSchema: schema }, { name: 'a', inputSchema: { type: 'object' } }] }
          : { content: [{ type: 'text', text: 'hi' }] };
      process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result }) + '\\n');`);
    const direct = connect(process.execPath, ['-e', twice]);
    await direct.client.connect(direct.transport, { timeout: 20_000 });
    await direct.client.listTools();
    await expect(direct.client.callTool({ name: 'a', arguments: {} })).rejects.toThrow(
      /has an output schema but did not return structured content/,
    );

    const through = connect(process.execPath, cliArgs(['proxy', '--', process.execPath, '-e', twice]));
    await through.client.connect(through.transport, { timeout: 20_000 });
    await through.client.listTools();
    const answer = await through.client.callTool({ name: 'a', arguments: {} });
    expect(answer.isError).toBe(true);
    await until(() => through.stderr().includes('structured-content-missing-for-output-schema'));
    expect(through.stderr()).toContain('tools/call a: structured-content-missing-for-output-schema');
  });

  it('exits 3 with one line when the server cannot be started, and 2 without a command', async () => {
    const missing = await runCli(['proxy', '--', 'no-such-mcp-server-binary']);
    expect(missing.code).toBe(3);
    expect(missing.stderr.trim()).toBe('mcp-shape: command not found: no-such-mcp-server-binary');
    const none = await runCli(['proxy']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/give the server command after --/);
  }, 90_000);
});
