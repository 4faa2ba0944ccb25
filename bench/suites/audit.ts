/**
 * The audit against the MCP Inspector CLI: mcp-shape audits server-everything over stdio across every
 * protocol version (a fresh server per version, all read-only tools called, enum/boolean exploration,
 * every message validated); the Inspector CLI does tools/list plus one call per tool for the same
 * tools, one process per command, as a shell script or CI job would drive it.
 * @modelcontextprotocol/inspector 0.16 and later need Node ≥22.7.5, so the devDependency is 0.15.0.
 */

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runAudit, type ToolDetail, type VersionDetail } from '../../src/audit/run.js';
import type { JsonObject } from '../../src/core/json.js';
import type { BenchResult, Suite } from '../measure.js';
import { REPO_ROOT } from '../paths.js';

const EVERYTHING = join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const INSPECTOR = join(REPO_ROOT, 'node_modules/@modelcontextprotocol/inspector/cli/build/cli.js');
/** Its default run sleeps 10 s, which would measure the sleep; both sides get the same short run. */
const ARGS = new Map<string, JsonObject[]>([
  ['trigger-long-running-operation', [{ duration: 0.2, steps: 2 }]],
]);
/** Arguments the Inspector sends (it converts key=value strings with the tool's schema). */
const INSPECTOR_ARGS: Record<string, Record<string, string>> = {
  echo: { message: 'example' },
  'get-sum': { a: '1', b: '2' },
  'get-annotated-message': { messageType: 'success' },
  'get-resource-reference': { resourceType: 'Text', resourceId: '1' },
  'trigger-long-running-operation': { duration: '0.2', steps: '2' },
};

function run(args: readonly string[]): Promise<number | null> {
  const child = spawn(process.execPath, args, { cwd: REPO_ROOT, stdio: 'ignore' });
  return new Promise((resolve) => child.once('close', (code) => resolve(code)));
}

/** Seconds for tools/list plus one call per tool, and how many of those commands failed. */
async function inspectorSession(tools: readonly string[]): Promise<{ seconds: number; failed: number }> {
  const server = ['--cli', process.execPath, EVERYTHING, 'stdio'];
  const start = performance.now();
  const codes = [await run([INSPECTOR, ...server, '--method', 'tools/list'])];
  for (const tool of tools) {
    const pairs = Object.entries(INSPECTOR_ARGS[tool] ?? {}).flatMap(([k, v]) => ['--tool-arg', `${k}=${v}`]);
    codes.push(await run([INSPECTOR, ...server, '--method', 'tools/call', '--tool-name', tool, ...pairs]));
  }
  return { seconds: (performance.now() - start) / 1000, failed: codes.filter((c) => c !== 0).length };
}

async function auditOnce(): Promise<{ seconds: number; calls: number; tools: string[]; versions: number }> {
  const start = performance.now();
  const report = await runAudit({
    target: { kind: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] },
    args: ARGS,
  });
  const seconds = (performance.now() - start) / 1000;
  const tools = ((report.details?.tools ?? []) as ToolDetail[]).filter((t) => t.called).map((t) => t.name);
  const versions = ((report.details?.versions ?? []) as VersionDetail[]).filter(
    (v) => v.status === 'audited',
  ).length;
  return { seconds, calls: report.summary.checked, tools, versions };
}

/** The middle value; for an even count the mean of the two middle ones (not the larger, which would flatter the ratio). */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return 0;
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

export const suite: Suite = {
  name: 'audit',
  async run(): Promise<BenchResult[]> {
    await auditOnce(); // warm-up: file cache and JIT, as the Inspector's first run gets below
    const ours = [await auditOnce(), await auditOnce(), await auditOnce()];
    const audit = median(ours.map((o) => o.seconds));
    const { calls, tools, versions } = ours[0] ?? { calls: 0, tools: [], versions: 0 };
    const results: BenchResult[] = [
      {
        kind: 'measurement',
        title: `mcp-shape audit of server-everything (stdio, all 5 versions tried, ${versions} audited, ${calls} calls)`,
        value: audit,
        unit: 's',
      },
    ];
    if (!existsSync(INSPECTOR)) {
      results.push({
        kind: 'measurement',
        title: 'MCP Inspector CLI: not installed (devDependency @modelcontextprotocol/inspector@0.15.0)',
        value: 0,
        unit: 's',
      });
      return results;
    }
    await inspectorSession(tools.slice(0, 1));
    const sessions = [await inspectorSession(tools), await inspectorSession(tools)];
    const inspector = median(sessions.map((s) => s.seconds));
    const failed = Math.max(...sessions.map((s) => s.failed));
    results.push(
      {
        kind: 'measurement',
        title: `MCP Inspector CLI 0.15.0: tools/list + one call for each of the ${tools.length} tools`,
        value: inspector,
        unit: 's',
        ...(failed > 0 ? { note: `${failed} Inspector commands exited non-zero` } : {}),
      },
      {
        kind: 'measurement',
        title: 'audit speed-up over the Inspector CLI (its time ÷ ours)',
        value: inspector / audit,
        unit: '×',
        target: { atLeast: 5 },
        note: 'the audit does more work: every version, a fresh server each, explored arguments, every message validated',
      },
    );
    return results;
  },
};
