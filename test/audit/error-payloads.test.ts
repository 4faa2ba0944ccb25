/**
 * An `{"error": …}` payload inside a made-up block (`{"type": "object", "object": {"error": …}}`)
 * without `isError`: the validator, repair, check, scan, the proxy and the audit all say it is a
 * failure the clients take for a success, and repair turns it into the error message itself.
 */

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { runAudit } from '../../src/audit/run.js';
import { repair, validateToolResult } from '../../src/index.js';
import { cliArgs, REPO_ROOT, runCli } from '../support/cli.js';
import { fixture, keys } from './support.js';

const RULE = 'result-error-without-is-error';
const FAILURE = { content: [{ type: 'object', object: { error: 'Account service unreachable' } }] };
const tmp = () => mkdtempSync(join(tmpdir(), 'mcp-shape-error-payload-'));

describe('an {"error": …} payload in a made-up block', { timeout: 90_000 }, () => {
  it('is reported by the validator next to the unknown block type, for every payload member', async () => {
    const findings = await validateToolResult(FAILURE, { protocolVersion: '2025-06-18' });
    expect(findings.find((f) => f.rule === RULE)).toMatchObject({
      severity: 'warning',
      pointer: '/content/0/object/error',
      message: 'the only content block ("object") carries an {"error": …} payload but "isError" is not true',
    });
    expect(findings.map((f) => f.rule)).toContain('block-type-unknown');
    for (const block of [
      { type: 'json', json: { error: { code: 503, message: 'down' } } },
      { type: 'data', data: '{"error":"down"}' },
      { type: 'object', error: 'down' },
    ]) {
      const rules = (await validateToolResult({ content: [block] })).map((f) => f.rule);
      expect(rules, JSON.stringify(block)).toContain(RULE);
    }
  });

  it('is not reported for a success in such a block, an error already flagged, or a second block', async () => {
    for (const result of [
      { content: [{ type: 'object', object: { balance: 3 } }] },
      { content: [{ type: 'object', object: { error: null } }] },
      { ...FAILURE, isError: true },
      { content: [...FAILURE.content, { type: 'text', text: 'details' }] },
    ]) {
      const rules = (await validateToolResult(result)).map((f) => f.rule);
      expect(rules, JSON.stringify(result)).not.toContain(RULE);
    }
  });

  it('is repaired into isError with the message itself as the text', async () => {
    const { result, fixes } = await repair(FAILURE, { protocolVersion: '2025-06-18' });
    expect(result).toEqual({
      content: [{ type: 'text', text: 'Account service unreachable' }],
      isError: true,
    });
    expect(fixes.map((f) => f.rule)).toEqual([RULE]);
    // A code and a message both survive; a nested error object gives its message.
    const coded = await repair({ content: [{ type: 'data', data: { error: 'E42', message: 'bad id' } }] });
    expect(coded.result.content).toEqual([{ type: 'text', text: 'E42: bad id' }]);
    const nested = await repair({ content: [{ type: 'json', json: { error: { message: 'quota' } } }] });
    expect(nested.result.content).toEqual([{ type: 'text', text: 'quota' }]);
  });

  it('is reported by check on a saved response', async () => {
    const file = join(tmp(), 'response.json');
    writeFileSync(file, JSON.stringify({ jsonrpc: '2.0', id: 1, result: FAILURE }));
    const run = await runCli(['check', file, '--format', 'json', '--protocol', '2025-06-18']);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as { findings: { rule: string; pointer: string }[] };
    expect(report.findings).toContainEqual(
      expect.objectContaining({ rule: RULE, pointer: '/result/content/0/object/error' }),
    );
  });

  it('is reported by scan in a handler that returns it', async () => {
    const dir = tmp();
    writeFileSync(
      join(dir, 'server.ts'),
      [
        "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';",
        "const server = new McpServer({ name: 'accounts', version: '1.0.0' });",
        "server.registerTool('get_account', { description: 'An account' }, async () => ({",
        "  content: [{ type: 'object', object: { error: 'Account service unreachable' } }],",
        '}));',
        '',
      ].join('\n'),
    );
    const run = await runCli(['scan', dir, '--format', 'json']);
    const report = JSON.parse(run.stdout) as { findings: { rule: string; location: { tool?: string } }[] };
    expect(report.findings).toContainEqual(
      expect.objectContaining({ rule: RULE, location: expect.objectContaining({ tool: 'get_account' }) }),
    );
  });

  it('reaches the SDK client through the proxy as isError with the message', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: cliArgs(['proxy', '--quiet', '--', process.execPath, fixture('error-gateway.mjs')]),
      cwd: REPO_ROOT,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'error-payload-test', version: '1.0.0' });
    try {
      await client.connect(transport, { timeout: 30_000 });
      const result = await client.callTool({ name: 'get_account', arguments: { id: 'a1' } });
      expect(result).toMatchObject({
        isError: true,
        content: [{ type: 'text', text: 'Account service unreachable' }],
      });
    } finally {
      await client.close();
    }
  });

  it('is reported by the audit of a gateway that sends it, for that tool only', async () => {
    const report = await runAudit({
      target: { kind: 'stdio', command: process.execPath, args: [fixture('error-gateway.mjs')] },
      versions: ['2025-06-18'],
    });
    expect(keys(report.findings.filter((f) => f.rule === RULE))).toEqual([`${RULE}@2025-06-18/get_account`]);
    expect(keys(report.findings.filter((f) => f.rule === 'block-type-unknown'))).toEqual([
      'block-type-unknown@2025-06-18/get_account',
      'block-type-unknown@2025-06-18/get_rates',
    ]);
  });
});
