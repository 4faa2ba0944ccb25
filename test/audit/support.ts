/** Helpers for the audit tests: real servers on loopback ports, and report queries. */

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ToolDetail, VersionDetail } from '../../src/audit/run.js';
import type { Finding } from '../../src/core/finding.js';
import { unfold } from '../../src/report/fold.js';
import type { Report } from '../../src/report/types.js';

export const root = join(import.meta.dirname, '../..');
export const fixture = (name: string) => join(root, 'fixtures/servers', name);
export const serverBin = (pkg: string) =>
  join(root, 'node_modules/@modelcontextprotocol', pkg, 'dist/index.js');

export interface RunningServer {
  readonly url: string;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts an HTTP server we do not control on 127.0.0.1 and an ephemeral port, through the
 * listen-loopback preload, and waits for the port it reports.
 */
export function startHttpServer(
  script: string,
  args: readonly string[],
  path: string,
): Promise<RunningServer> {
  const child = spawn(process.execPath, ['--import', fixture('listen-loopback.mjs'), script, ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${stderr}`)), 30_000);
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => {
      stderr += text;
      const match = /MCP_SHAPE_LISTENING (\d+)/.exec(stderr);
      if (!match) return;
      clearTimeout(timer);
      resolve({
        url: `http://127.0.0.1:${match[1]}${path}`,
        child,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGKILL');
          }),
      });
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
  });
}

export function versionsOf(report: Report): VersionDetail[] {
  return (report.details?.versions ?? []) as VersionDetail[];
}

export function toolsOf(report: Report): ToolDetail[] {
  return (report.details?.tools ?? []) as ToolDetail[];
}

/**
 * `rule@version/tool` keys of every place the findings were seen (folded findings unfolded),
 * deduplicated and sorted, for readable assertions.
 */
export function keys(findings: readonly Finding[]): string[] {
  return [
    ...new Set(
      findings
        .flatMap(unfold)
        .map((f) => `${f.rule}@${f.location?.protocolVersion ?? '-'}/${f.location?.tool ?? '-'}`),
    ),
  ].sort();
}

export function errors(report: Report): Finding[] {
  return report.findings.filter((f) => f.severity === 'error');
}

/** Every place of every finding, as one finding each. */
export function places(report: Report): Finding[] {
  return report.findings.flatMap(unfold);
}

/**
 * A stdio server module on the fixtures' JSON-RPC loop, written to a temporary file: it answers
 * initialize with the version asked for and `capabilities` (the tools capability), then runs `body` (statements on the
 * request `m` that return a result), and refuses any other request with -32601. `head`: statements
 * before the loop (constants).
 */
export function loopServer(
  head: readonly string[],
  body: readonly string[],
  capabilities = '{ tools: {} }',
): string {
  const file = join(mkdtempSync(join(tmpdir(), 'mcp-shape-loop-')), 'server.mjs');
  writeFileSync(
    file,
    [
      `import { serve } from ${JSON.stringify(pathToFileURL(fixture('stdio-loop.mjs')).href)};`,
      ...head,
      'serve((m) => {',
      "  if (m.method === 'initialize')",
      `    return { protocolVersion: m.params.protocolVersion, capabilities: ${capabilities}, serverInfo: { name: 'loop', version: '1' } };`,
      ...body,
      "  if (m.id !== undefined && m.method !== undefined) throw Object.assign(new Error('no'), { code: -32601 });",
      '});',
      '',
    ].join('\n'),
  );
  return file;
}
