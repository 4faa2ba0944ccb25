/** `npm run demo`, the README's first command: it must audit the gateway, print the report and exit 0. */

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from './support.js';

describe('npm run demo', () => {
  it('prints the audit of the legacy gateway, with the version comparison, and exits 0', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'scripts/demo.ts')], {
      cwd: root,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^\$ mcp-shape audit --url http:\/\/127\.0\.0\.1:\d+\/mcp/);
    expect(stdout).toContain('transport streamable-http · server qortal-mcp-gateway 0.3.1');
    expect(stdout).toMatch(/error +\/result\/content\/0\/type {2}unknown content block type "object"/);
    expect(stdout).toContain('Version comparison: what clients of each version meet');
    expect(stdout).toContain('2026-07-28: refused; a client that speaks only 2026-07-28 cannot connect');
    expect(stdout).toContain('found every planted defect');
  }, 120_000);
});
