/** `npm run demo`, the README's first command: it must audit the gateway, print the report and exit 0. */

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runNode } from '../support/cli.js';
import { root } from './support.js';

describe('npm run demo', () => {
  it('prints the audit of the legacy gateway, with the version comparison, and exits 0', async () => {
    const { code, stdout, stderr } = await runNode(['--import', 'tsx', join(root, 'scripts/demo.ts')], {
      timeoutMs: 110_000,
    });
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
