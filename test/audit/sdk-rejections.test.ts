/**
 * A server whose own SDK rejects what its handlers return fails every client on every such call: the
 * audit must say so as an error (never exit 0), in one line per defect that names what was wrong,
 * while an SDK's rejection of the audit's own arguments stays information.
 */

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAudit } from '../../src/audit/run.js';
import { runCli } from '../support/cli.js';
import { fixture, keys, places } from './support.js';

const RULE = 'result-rejected-by-server';
const tmp = () => mkdtempSync(join(tmpdir(), 'mcp-shape-sdk-rejection-'));

/** What the fixtures' SDK servers answer for each broken handler, as the one-line problem (tools in call order). */
const PROBLEMS = {
  account_summary: 'content.0.type: expected text|image|audio|resource_link|resource',
  chart: 'content.0.mimeType: missing (expected string)',
  forecast: 'structuredContent.celsius: expected number, got string',
  greeting: 'result: expected object, got string',
} as const;

describe.each([
  ['SDK v1', 'sdk-v1-broken.mjs', ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']],
  ['SDK v2', 'sdk-v2-broken.mjs', ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28']],
] as const)(
  'a TypeScript %s McpServer with broken handlers',
  { timeout: 90_000 },
  (_name, file, versions) => {
    it('is one error per broken tool, listing every call, and the arguments it refused are information', async () => {
      const log = join(tmp(), 'calls.jsonl');
      const report = await runAudit({
        target: {
          kind: 'stdio',
          command: process.execPath,
          args: [fixture(file)],
          env: { ...process.env, MCP_SHAPE_FIXTURE_CALL_LOG: log },
        },
      });
      const rejections = report.findings.filter((f) => f.rule === RULE);
      expect(rejections.map((f) => [f.location?.tool, f.severity])).toEqual(
        Object.keys(PROBLEMS).map((tool) => [tool, 'error']),
      );
      for (const finding of rejections) {
        const tool = finding.location?.tool as keyof typeof PROBLEMS;
        expect(finding.message).toMatch(new RegExp(`: ${PROBLEMS[tool].replace(/[|.()]/g, '\\$&')}$`));
        // Every call of the tool failed the same way: one finding, every call listed.
        expect(finding.occurrences?.map((o) => [o.location?.protocolVersion, o.location?.call])).toEqual(
          versions.map((v) => [v, `${tool}#1`]),
        );
      }
      expect(report.summary.errors).toBe(4);
      // The JSON-RPC errors that carried the rejections are no second finding.
      expect(places(report).filter((f) => f.rule === 'audit-call-error')).toEqual([]);
      expect(keys(report.findings.filter((f) => f.rule === 'audit-arguments-rejected'))).toEqual(
        versions.map((v) => `audit-arguments-rejected@${v}/lookup`),
      );
      expect(report.findings.find((f) => f.rule === 'audit-arguments-rejected')?.message).toBe(
        'tools/call lookup: the server rejected the synthesized arguments (arguments.id: must start with acct_); they may be at fault, not the tool: give real ones with --args',
      );
      // The correct tool passes, and every tool got exactly one call per version.
      expect(keys(places(report).filter((f) => f.location?.tool === 'ping_tool'))).toEqual([]);
      const calls = readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).name as string);
      for (const tool of ['account_summary', 'chart', 'greeting', 'forecast', 'ping_tool'])
        expect(calls.filter((c) => c === tool)).toHaveLength(versions.length);
      // The SDK refused lookup's arguments before its handler ran.
      expect(calls).not.toContain('lookup');
    });
  },
);

/** `mcp-shape audit` of the SDK v1 server under 2025-06-18, with `args` as its --args file. */
function auditWithArgs(args: unknown) {
  const argsFile = join(tmp(), 'args.json');
  writeFileSync(argsFile, JSON.stringify(args));
  return runCli([
    'audit',
    '--protocol',
    '2025-06-18',
    '--args',
    argsFile,
    '--',
    process.execPath,
    fixture('sdk-v1-broken.mjs'),
  ]);
}

describe('mcp-shape audit of the SDK v1 server', { timeout: 90_000 }, () => {
  it('exits 1 and says what each broken tool returned, in one line each', async () => {
    const run = await auditWithArgs({ account_summary: [{ account: 5 }] });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      "error   the server's TypeScript SDK rejected the tool's result before sending it (JSON-RPC error): content.0.mimeType: missing (expected string)  result-rejected-by-server\n",
    );
    expect(run.stdout).toContain(
      'breaks: TypeScript SDK v1 client, TypeScript SDK v2 client, Python SDK client (rejects the call) +11 more',
    );
    // Arguments given with --args that the server refuses are the user's to fix, said as such.
    expect(run.stdout).toMatch(
      /info {4}tools\/call account_summary: the server rejected the arguments from --args \(arguments\.account: expected string, got number\)/,
    );
    expect(run.stdout).toMatch(/✖ 3 errors, 0 warnings, 2 infos in 6 calls across 1 version\n$/);
  });

  it('takes a lone argument object in --args, in place of the list, as one call', async () => {
    const run = await auditWithArgs({ account_summary: { account: 5 } });
    expect(run.stdout).toMatch(
      /info {4}tools\/call account_summary: the server rejected the arguments from --args \(arguments\.account: expected string, got number\)/,
    );
    expect(run.stdout).toMatch(/in 6 calls across 1 version\n$/);
  });
});
