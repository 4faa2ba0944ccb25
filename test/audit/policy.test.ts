/**
 * Which tools an audit calls and with what, asserted from the calls the server logged receiving
 * (not from what the report says): read-only tools once, nothing that consents or mutates unless the
 * user named the tool, and never a tool whose annotations contradict themselves without --call.
 */

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type AuditOptions, runAudit } from '../../src/audit/run.js';
import type { JsonObject } from '../../src/core/json.js';
import { runCli } from '../support/cli.js';
import { fixture, keys, loopServer, toolsOf } from './support.js';

interface LoggedCall {
  readonly name: string;
  readonly arguments: JsonObject;
}

function logFile(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'mcp-shape-policy-')), 'calls.jsonl');
  writeFileSync(file, '');
  return file;
}

function logged(file: string): LoggedCall[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LoggedCall);
}

async function audit(options: Partial<AuditOptions> = {}) {
  const log = logFile();
  const report = await runAudit({
    target: {
      kind: 'stdio',
      command: process.execPath,
      args: [fixture('policy.mjs')],
      env: { ...process.env, MCP_SHAPE_FIXTURE_CALL_LOG: log },
    },
    versions: ['2025-06-18'],
    ...options,
  });
  return { report, calls: logged(log) };
}

/** No call the server received consents to anything or asks for a change. */
function expectHarmless(calls: readonly LoggedCall[]): void {
  for (const { name, arguments: args } of calls) {
    expect(args.confirm, name).not.toBe(true);
    expect(['set', 'delete', 'apply', 'rollout-restart'], name).not.toContain(args.operation ?? args.action);
    if ('dryRun' in args) expect(args.dryRun, name).toBe(true);
  }
}

describe('the call policy, from the server’s own log', { timeout: 90_000 }, () => {
  it('by default calls each read-only tool once, with safe required arguments and a dry run', async () => {
    const { report, calls } = await audit();
    expect(calls).toEqual([
      { name: 'kube', arguments: { operation: 'get', name: 'example', dryRun: true } },
      { name: 'lookup', arguments: { q: 'example' } },
    ]);
    const tools = Object.fromEntries(toolsOf(report).map((t) => [t.name, t]));
    expect(tools.prune).toMatchObject({
      called: false,
      reason:
        'annotated readOnlyHint: true and destructiveHint: true, which contradict each other; use --call prune or --args to call it',
    });
    expect(tools.deploy).toMatchObject({ called: false, calls: 0 });
    expect(tools.deploy?.skipped?.[0]).toMatch(
      /required parameter "action" has no value that is safe to send/,
    );
    expect(tools.write_note?.reason).toMatch(/^annotated readOnlyHint: false; use --call write_note/);
    // The contradiction is a finding too, with its own rule.
    expect(keys(report.findings)).toEqual(['tool-annotations-contradictory@2025-06-18/prune']);
    expect(report.findings[0]?.severity).toBe('warning');
  });

  it('explores with --explore, but never with a consent, a mutation or without the dry run', async () => {
    const { calls } = await audit({ explore: true, maxCallsPerTool: 5 });
    expect(calls.filter((c) => c.name === 'kube').map((c) => c.arguments.operation)).toEqual([
      'get',
      'describe',
    ]);
    expect(calls.filter((c) => c.name === 'lookup').map((c) => c.arguments)).toEqual([
      { q: 'example' },
      { q: 'example', format: 'long', verbose: true },
    ]);
    expect(calls.map((c) => c.name)).not.toContain('prune');
    expectHarmless(calls);
  });

  it('with --call-all calls the tools that are not read-only, but not the one that contradicts itself', async () => {
    const { report, calls } = await audit({ callAll: true });
    expect([...new Set(calls.map((c) => c.name))].sort()).toEqual(['kube', 'lookup', 'write_note']);
    expect(toolsOf(report).find((t) => t.name === 'prune')?.called).toBe(false);
    expectHarmless(calls);
  });

  it('lets --call NAME send that tool its consent and mutation values, and only that tool', async () => {
    const { calls } = await audit({ call: ['prune', 'kube'], explore: true, maxCallsPerTool: 4 });
    expect(calls.filter((c) => c.name === 'prune').map((c) => c.arguments)).toEqual([
      { confirm: false },
      { confirm: true },
    ]);
    expect(calls.filter((c) => c.name === 'kube').map((c) => c.arguments.operation)).toContain('set');
    expectHarmless(calls.filter((c) => c.name === 'lookup'));
  });

  it('calls a contradicting tool given --args, with exactly those arguments', async () => {
    const { calls } = await audit({ args: new Map([['prune', [{ confirm: false }]]]) });
    expect(calls.filter((c) => c.name === 'prune')).toEqual([
      { name: 'prune', arguments: { confirm: false } },
    ]);
  });

  it('reaches the same calls through the command line flags', async () => {
    const log = logFile();
    const run = await runCli(
      [
        'audit',
        '--protocol',
        '2025-06-18',
        '--explore',
        '--call-all',
        '--',
        process.execPath,
        fixture('policy.mjs'),
      ],
      { env: { MCP_SHAPE_FIXTURE_CALL_LOG: log } },
    );
    expect(run.stderr).toBe('');
    const calls = logged(log);
    expect(calls.filter((c) => c.name === 'kube')).toHaveLength(2);
    expect(calls.map((c) => c.name)).toContain('write_note');
    expectHarmless(calls);
    expect(run.stdout).toContain(
      'not called  prune: annotated readOnlyHint: true and destructiveHint: true, which contradict each other; use --call NAME or --args to call it',
    );
  });

  it('takes explore from the configuration file as --explore (not a call budget)', async () => {
    const kubeCalls = async (audit: JsonObject) => {
      const log = logFile();
      const config = join(mkdtempSync(join(tmpdir(), 'mcp-shape-policy-config-')), 'mcp-shape.config.json');
      writeFileSync(config, JSON.stringify({ audit: { protocol: ['2025-06-18'], ...audit } }));
      const run = await runCli(['audit', '--config', config, '--', process.execPath, fixture('policy.mjs')], {
        env: { MCP_SHAPE_FIXTURE_CALL_LOG: log },
      });
      expect(run.stderr).toBe('');
      const calls = logged(log);
      expectHarmless(calls);
      return calls.filter((c) => c.name === 'kube');
    };
    // Explored as with --explore: the dry-run tool gets its other safe enum value too.
    expect(await kubeCalls({ explore: true })).toHaveLength(2);
    expect(await kubeCalls({ explore: false })).toHaveLength(1);
  });
});

describe('a tool read-only in one version’s listing and not in another’s', { timeout: 90_000 }, () => {
  it('is not called unless named, as a tool whose annotations contradict each other', async () => {
    const log = logFile();
    // Each version is audited on a process of its own: the first protocolVersion it reads is its own.
    const file = loopServer(
      [
        "import { appendFileSync } from 'node:fs';",
        'let version;',
        'process.stdin.on(\'data\', (d) => { version ??= /"protocolVersion":"([^"]+)"/.exec(String(d))?.[1]; });',
        `const LOG = ${JSON.stringify(log)};`,
      ],
      [
        "  if (m.method === 'tools/list') {",
        "    const annotations = { readOnlyHint: version === '2025-03-26' };",
        "    return { tools: [{ name: 'purge', inputSchema: { type: 'object' }, annotations }] };",
        '  }',
        "  if (m.method === 'tools/call') {",
        "    appendFileSync(LOG, JSON.stringify({ name: m.params.name, arguments: m.params.arguments }) + '\\n');",
        "    return { content: [{ type: 'text', text: 'purged' }] };",
        '  }',
      ],
    );
    const versions = ['2025-03-26', '2025-06-18'] as const;
    for (const callAll of [false, true]) {
      const report = await runAudit({
        target: { kind: 'stdio', command: process.execPath, args: [file] },
        versions,
        callAll,
      });
      expect(toolsOf(report)).toMatchObject([
        {
          name: 'purge',
          called: false,
          reason: expect.stringMatching(
            /^annotated readOnlyHint: true in one version's listing and false in another's/,
          ),
        },
      ]);
    }
    expect(logged(log)).toEqual([]);
    await runAudit({
      target: { kind: 'stdio', command: process.execPath, args: [file] },
      versions,
      call: ['purge'],
    });
    expect(logged(log).map((c) => c.name)).toEqual(['purge', 'purge']);
  });
});
