/** `npm run demo`, the README's first command: it must audit the gateway, print the report and exit 0. */

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runNode } from '../support/cli.js';
import { root } from './support.js';

describe('npm run demo', () => {
  it('prints the audit of the legacy gateway, each defect once with where it was seen, and exits 0', async () => {
    const { code, stdout, stderr } = await runNode(['--import', 'tsx', join(root, 'scripts/demo.ts')], {
      timeoutMs: 110_000,
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^\$ mcp-shape audit --url http:\/\/127\.0\.0\.1:\d+\/mcp/);
    expect(stdout).toMatch(/\(streamable-http · qortal-mcp-gateway 0\.3\.1 · \d{4}-\d\d-\d\d /);
    expect(stdout).toContain(
      '2025-03-26, 2025-06-18, 2025-11-25 answered as 2024-11-05 (same audit) · 2026-07-28 not supported',
    );
    expect(stdout).toMatch(
      /error {3}unknown content block type "object": .* {2}block-type-unknown\n {8}at \/result\/content\/0\/type · in 2024-11-05, 2 calls \(get_balance#1, search_names#1\)\n/,
    );
    expect(stdout).toMatch(
      /envelope-extra-member\n {8}at \/requestId · in 2024-11-05, 3 calls \(.*\), 2 other messages\n/,
    );
    expect(stdout).toContain('found every planted defect');
  }, 120_000);
});
