/**
 * A server's inputSchema patterns that backtrack exponentially on the native engine: synthesizing an
 * argument tries strings against them, and must neither stall the audit nor send a string it has not
 * shown to match; a tool it finds no string for is not called, and the report says why.
 */

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { synthesizeArguments } from '../../src/audit/arguments.js';
import { type CallRecord, runAudit } from '../../src/audit/run.js';
import { toolsOf } from './support.js';

const server = join(import.meta.dirname, '../fixtures/stdio-server.mjs');

async function audit(specs: readonly object[]) {
  return runAudit({
    target: {
      kind: 'stdio',
      command: process.execPath,
      args: [server],
      env: { ...process.env, MCP_SHAPE_FIXTURE_TOOLS: JSON.stringify(specs) },
    },
    versions: ['2025-06-18'],
    timeoutMs: 10_000,
  });
}

const sentArgs = (report: Awaited<ReturnType<typeof audit>>, tool: string) =>
  ((report.details?.calls ?? []) as CallRecord[]).filter((c) => c.tool === tool).map((c) => c.arguments);

describe('patterns that backtrack exponentially', { timeout: 60_000 }, () => {
  it('finishes the audit, calls the tools it found a matching string for, and names the patterns it could not', async () => {
    const report = await audit([
      { pattern: '^((a*)*)*$' },
      { pattern: '^(a|a)*$', minLength: 40 },
      { pattern: '^(a|aa)+$', minLength: 40 },
      // Near misses of four ways per character on every candidate: 4^20 steps natively.
      { pattern: '^(([^!]|[^!])|([^!]|[^!]))*!$' },
      // No candidate has a y: padded with forty x's, the native engine takes 2^40 steps.
      { pattern: '(x|x)*y', minLength: 40 },
      // Look-around, which RE2 cannot read: the native engine, interrupted.
      { pattern: '^(?=h)(([^!]|[^!])|([^!]|[^!]))*!$' },
      // A default that is a near miss is not sent.
      { pattern: '^(a|a)*$', default: `${'a'.repeat(40)}!` },
    ]);
    expect(sentArgs(report, 't0')).toEqual([{ q: 'a' }]);
    expect(sentArgs(report, 't1')).toEqual([{ q: 'a'.repeat(40) }]);
    expect(sentArgs(report, 't2')).toEqual([{ q: 'a'.repeat(40) }]);
    expect(sentArgs(report, 't6')).toEqual([{ q: 'a' }]);
    const skips = Object.fromEntries(toolsOf(report).map((t) => [t.name, t.skipped ?? []]));
    expect(skips.t3).toEqual([
      '2025-06-18: its required parameter "q" has a pattern ("^(([^!]|[^!])|([^!]|[^!]))*!$") the audit could not synthesize a string for: none of the strings the audit builds matches it; give its arguments with --args',
    ]);
    expect(skips.t4?.[0]).toContain('has a pattern ("(x|x)*y")');
    expect(skips.t5?.[0]).toContain(
      'the pattern backtracks too long to be tried on the strings the audit builds',
    );
    for (const name of ['t3', 't4', 't5']) expect(sentArgs(report, name)).toEqual([]);
  });

  it('does not send an enum value or const its pattern does not match', () => {
    const near = `${'x'.repeat(40)}!`;
    const schema = (q: object) => ({ type: 'object', properties: { q }, required: ['q'] });
    expect(
      synthesizeArguments(schema({ enum: [near, 'xx'], pattern: '^(x|x)*$' }), { budget: 3, explore: true }),
    ).toEqual({
      args: [{ q: 'xx' }],
    });
    expect(synthesizeArguments(schema({ const: near, pattern: '^(x|x)*$' }), { budget: 1 })).toMatchObject({
      skip: expect.stringContaining('none of the strings the audit builds matches it'),
    });
  });
});
