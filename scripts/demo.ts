/**
 * `npm run demo`: starts the legacy JSON-RPC gateway fixture (the defects of the Qortal audit) on
 * 127.0.0.1, audits it with the real `mcp-shape audit --url` command (from source), prints the
 * report, and stops the gateway. The audit itself exits 1 (it finds error-severity defects, as it
 * should); the demo exits 0 when exactly that happened, and 1 when the audit did not run or missed a
 * planted defect.
 */

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLegacyGateway } from '../fixtures/servers/legacy-gateway.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The defects planted in the gateway, by the rule that must report each. */
const EXPECTED = ['block-type-unknown', 'result-error-without-is-error', 'envelope-extra-member'];

// The source, not dist/: dist is built once by `npm ci` and would be stale after any edit.
const cliArgs = ['--import', 'tsx', join(root, 'src/cli/bin.ts')];

function runCli(args: readonly string[], stdout: 'inherit' | 'ignore'): Promise<number | null> {
  const child = spawn(process.execPath, [...cliArgs, ...args], {
    cwd: root,
    stdio: ['ignore', stdout, 'inherit'],
  });
  return new Promise((resolve) => child.once('close', (code) => resolve(code)));
}

const gateway = await startLegacyGateway();
const scratch = mkdtempSync(join(tmpdir(), 'mcp-shape-demo-'));
let failure: string | undefined;
try {
  process.stdout.write(`$ mcp-shape audit --url ${gateway.url}\n\n`);
  const code = await runCli(['audit', '--url', gateway.url], 'inherit');
  const jsonPath = join(scratch, 'report.json');
  await runCli(['audit', '--url', gateway.url, '--format', 'json', '--out', jsonPath], 'ignore');
  const report = existsSync(jsonPath)
    ? (JSON.parse(readFileSync(jsonPath, 'utf8')) as { findings: { rule: string }[] })
    : { findings: [] };
  const found = new Set(report.findings.map((f) => f.rule));
  const missing = EXPECTED.filter((rule) => !found.has(rule));
  if (code !== 1) failure = `the audit exited ${code}; expected 1 (error findings)`;
  else if (missing.length > 0) failure = `the audit missed planted defects: ${missing.join(', ')}`;
} finally {
  await gateway.close();
  rmSync(scratch, { recursive: true, force: true });
}

if (failure) {
  process.stderr.write(`\ndemo: FAILED: ${failure}\n`);
  process.exitCode = 1;
} else {
  process.stdout.write(
    `\ndemo: the audit exited 1 because the gateway breaks clients, and found every planted defect (${EXPECTED.join(', ')}).\ndemo: the gateway is stopped; this demo exits 0.\n`,
  );
}
