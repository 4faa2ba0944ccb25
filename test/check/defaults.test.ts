/**
 * One default protocol version, 2025-11-25, for every command and library entry point, unless the
 * input says otherwise (a `resultType` member means 2026-07-28; a recorded handshake names its version)
 * or the user does (`--protocol`). Each case below would come out differently under 2026-07-28, the
 * old default of check and repair, so none of them passes by accident.
 */

import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/main.js';
import {
  convertWebMcp,
  errorResult,
  negotiatedVersion,
  repair,
  repairMessage,
  toolResult,
} from '../../src/library/index.js';
import {
  assumedProtocolVersion,
  DEFAULT_PROTOCOL_VERSION,
  LATEST_PROTOCOL_VERSION,
} from '../../src/spec/versions.js';
import { validateMessage, validateToolResult, validateToolsList } from '../../src/validate/index.js';
import { CLI_TEST_TIMEOUT, cliArgs, REPO_ROOT, runCli } from '../support/cli.js';
import { scratchDir } from '../support/scratch.js';

/** Valid in 2025-11-25; fails 2026-07-28 (no resultType). */
const TODAYS_RESPONSE = { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'sunny' }] } };

const { dir, file } = scratchDir('defaults');

describe('the default protocol version', { timeout: CLI_TEST_TIMEOUT }, () => {
  it('is 2025-11-25, and a resultType member means 2026-07-28', () => {
    expect(DEFAULT_PROTOCOL_VERSION).toBe('2025-11-25');
    expect(assumedProtocolVersion(TODAYS_RESPONSE)).toBe('2025-11-25');
    expect(assumedProtocolVersion({ content: [], resultType: 'complete' })).toBe(LATEST_PROTOCOL_VERSION);
    expect(assumedProtocolVersion({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete' } })).toBe(
      LATEST_PROTOCOL_VERSION,
    );
    expect(assumedProtocolVersion([TODAYS_RESPONSE, { id: 2, result: { resultType: 'complete' } }])).toBe(
      LATEST_PROTOCOL_VERSION,
    );
    // A top-level resultType on a message is an extra envelope member, not a 2026-07-28 result.
    expect(assumedProtocolVersion({ jsonrpc: '2.0', id: 1, resultType: 'complete', result: {} })).toBe(
      '2025-11-25',
    );
    for (const value of [null, 'text', 3, undefined, [[{ resultType: 'x' }]]]) {
      expect(assumedProtocolVersion(value)).toBe('2025-11-25');
    }
  });

  it('check passes a valid result of today and says it fails 2026-07-28', async () => {
    const run = await runCli(['check', file('today.json', TODAYS_RESPONSE), '--format', 'json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.findings).toEqual([]);
    expect(report.summary.protocolVersions).toEqual(['2025-11-25']);
    expect(report.summary.versionVerdict).toBe(
      'valid for 2024-11-05 … 2025-11-25; fails 2026-07-28: the result has no "resultType"; protocol 2026-07-28 requires it',
    );
    // --protocol still decides: the 2026-07-28 behaviour is one flag away.
    const latest = await runCli(['check', file('today.json', TODAYS_RESPONSE), '--protocol', 'latest']);
    expect(latest.code).toBe(1);
    expect(latest.stdout).toContain('result-type-invalid');
  });

  it('repair leaves a valid result of today alone, and repairs a resultType result for 2026-07-28', async () => {
    const today = await runCli(['repair', file('today-repair.json', TODAYS_RESPONSE)]);
    expect(today.code).toBe(0);
    expect(JSON.parse(today.stdout)).toEqual(TODAYS_RESPONSE);
    expect(today.stderr).toBe('0 repairs\n');

    // Array structuredContent: wrapped as { result } for 2025-11-25, kept as is in 2026-07-28.
    const arrays = { content: [{ type: 'text', text: '[1]' }], structuredContent: [1] };
    const plain = await runCli(['repair', file('arrays.json', arrays)]);
    expect(JSON.parse(plain.stdout).structuredContent).toEqual({ result: [1] });
    const draft = await runCli(['repair', file('arrays-2026.json', { ...arrays, resultType: 'complete' })]);
    expect(draft.code).toBe(0);
    expect(JSON.parse(draft.stdout)).toEqual({ ...arrays, resultType: 'complete' });
  });

  it('scan judges handler source as 2025-11-25', async () => {
    const source = join(dir, 'scan');
    mkdirSync(source, { recursive: true });
    writeFileSync(
      join(source, 'server.ts'),
      [
        "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';",
        "const server = new McpServer({ name: 'x', version: '1.0.0' });",
        "server.registerTool('primes', { description: 'primes' }, async () => ({",
        "  content: [{ type: 'text', text: '[2,3,5]' }],",
        '  structuredContent: [2, 3, 5],',
        '}));',
        '',
      ].join('\n'),
    );
    const run = await runCli(['scan', source, '--format', 'json']);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report.findings.map((f: { rule: string }) => f.rule)).toEqual(['structured-content-not-object']);
    expect(report.findings[0].location.protocolVersion).toBe('2025-11-25');
  });

  it('proxy repairs for 2025-11-25 until the client and server negotiate', async () => {
    // A server that answers anything with array structuredContent, before any initialize.
    const server = [
      "const rl = require('node:readline').createInterface({ input: process.stdin });",
      "rl.on('line', (line) => { const { id } = JSON.parse(line);",
      "  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: '[1]' }], structuredContent: [1] } }) + '\\n'); });",
    ].join('\n');
    const child = spawn(
      process.execPath,
      cliArgs(['proxy', '--quiet', '--', process.execPath, '-e', server]),
      { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    const firstLine = new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        const end = out.indexOf('\n');
        if (end >= 0) resolve(out.slice(0, end));
      });
      child.on('exit', (code) => reject(new Error(`proxy exited ${code} before answering`)));
    });
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'x', arguments: {} } })}\n`,
    );
    try {
      const answer = JSON.parse(await firstLine);
      expect(answer).toEqual({
        jsonrpc: '2.0',
        id: 5,
        result: { content: [{ type: 'text', text: '{"result":[1]}' }], structuredContent: { result: [1] } },
      });
    } finally {
      child.stdin.end();
      child.kill();
    }
  });

  it('every command states the same default in --help', async () => {
    const program = await buildProgram();
    for (const name of ['check', 'repair', 'scan', 'proxy']) {
      const help = program.commands.find((c) => c.name() === name)?.helpInformation() ?? '';
      expect(help.replace(/\s+/g, ' '), name).toContain('2025-11-25');
      expect(help, name).not.toMatch(/default: (the latest|2026-07-28)/);
    }
  });

  it('the library entry points default to 2025-11-25, or 2026-07-28 for input with resultType', async () => {
    const arrays = { content: [{ type: 'text', text: '[1]' }], structuredContent: [1] };
    expect((await validateToolResult(arrays)).map((f) => f.rule)).toEqual(['structured-content-not-object']);
    // Under 2026-07-28 an array is allowed; only the warning for v1-SDK clients remains.
    expect((await validateToolResult({ ...arrays, resultType: 'complete' })).map((f) => f.rule)).toEqual([
      'structured-content-not-object-old-clients',
    ]);
    expect(await validateMessage(TODAYS_RESPONSE)).toEqual([]);
    // tools/list: 2026-07-28 requires ttlMs and cacheScope; 2025-11-25 does not.
    expect(await validateToolsList({ tools: [] })).toEqual([]);
    expect(await validateToolsList({ tools: [], resultType: 'complete' })).not.toEqual([]);

    expect((await repair(TODAYS_RESPONSE.result)).fixes).toEqual([]);
    expect((await repair(arrays)).result.structuredContent).toEqual({ result: [1] });
    expect((await repair({ ...arrays, resultType: 'complete' })).fixes).toEqual([]);
    expect((await repairMessage(TODAYS_RESPONSE)).fixes).toEqual([]);

    expect(await toolResult('hi')).toEqual({ content: [{ type: 'text', text: 'hi' }] });
    expect(await toolResult([1])).toEqual({
      content: [{ type: 'text', text: '{"result":[1]}' }],
      structuredContent: { result: [1] },
    });
    expect(errorResult('no')).toEqual({ content: [{ type: 'text', text: 'no' }], isError: true });
    expect((await convertWebMcp([{ type: 'text', text: 'x' }])).result).toEqual({
      content: [{ type: 'text', text: 'x' }],
    });
    expect(negotiatedVersion({})).toBe('2025-11-25');
  });

  it('no source file falls back to the latest version on its own', () => {
    // The default lives in one place (DEFAULT_PROTOCOL_VERSION); a second fallback would drift from it.
    const offenders: string[] = [];
    const walk = (folder: string) => {
      for (const entry of readdirSync(folder, { withFileTypes: true })) {
        const path = join(folder, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (path.endsWith(join('spec', 'versions.ts')))
          continue; // the model itself
        else if (/\.ts$/.test(entry.name)) {
          const text = readFileSync(path, 'utf8');
          if (/(\?\?|\|\||\.default\()\s*LATEST_PROTOCOL_VERSION/.test(text))
            offenders.push(relative(REPO_ROOT, path));
        }
      }
    };
    walk(join(REPO_ROOT, 'src'));
    expect(offenders).toEqual([]);
  });
});
