/**
 * An audit folds the same defect seen in several places into one finding (versions, calls, sibling
 * blocks, and tools: the fold key has no tool). A baseline must still match each place by its own
 * identity (rule, tool, pointer): an accepted defect of one tool must not hide the same defect when
 * another tool starts returning it, nor a second broken block beside the accepted one.
 */

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_TEST_TIMEOUT, REPO_ROOT, runCli } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-shape-baseline-audit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Tools a and b, read-only; BROKEN lists `tool:blocks`, the number of text blocks without "text" it returns.
const SERVER = join(dir, 'server.mjs');
writeFileSync(
  SERVER,
  `import { RpcError, serve } from ${JSON.stringify(join(REPO_ROOT, 'fixtures/servers/stdio-loop.mjs'))};
const broken = Object.fromEntries((process.env.BROKEN ?? '').split(',').filter(Boolean).map((s) => s.split(':')));
const tools = ['a', 'b'].map((name) => ({ name, inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }));
serve((message) => {
  switch (message.method) {
    case 'initialize':
      return { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'fold', version: '1' } };
    case 'tools/list':
      return { tools };
    case 'tools/call': {
      const bad = Number(broken[message.params.name] ?? 0);
      return { content: bad > 0 ? Array.from({ length: bad }, () => ({ type: 'text' })) : [{ type: 'text', text: 'ok' }] };
    }
    default:
      if (message.id !== undefined) throw new RpcError(-32601, 'Method not found');
  }
});
`,
);

function audit(broken: string, ...args: string[]) {
  return runCli(['audit', '--protocol', '2025-11-25', '--format', 'json', ...args, '--', 'node', SERVER], {
    cwd: dir,
    env: { BROKEN: broken },
  });
}

describe('audit baselines', () => {
  it(
    'hide only the places they record: the same defect in another tool or another block fails the run',
    async () => {
      const baseline = join(dir, 'baseline.json');
      const written = await audit('a:1', '--write-baseline', baseline);
      expect(written.code).toBe(0);
      expect(JSON.parse(readFileSync(baseline, 'utf8')).findings).toMatchObject([
        { rule: 'block-text-invalid', tool: 'a' },
      ]);

      const same = await audit('a:1', '--baseline', baseline);
      expect([same.code, JSON.parse(same.stdout).summary.baseline]).toEqual([0, { hidden: 1, stale: 0 }]);

      // Tool b now returns the defect accepted for a: folded with a's, it is still new.
      const other = await audit('a:1,b:1', '--baseline', baseline);
      expect(other.code).toBe(1);
      const otherReport = JSON.parse(other.stdout);
      expect(otherReport.summary).toMatchObject({ errors: 1, baseline: { hidden: 1, stale: 0 } });
      expect(otherReport.findings).toMatchObject([
        { rule: 'block-text-invalid', pointer: '/result/content/0/text', location: { tool: 'b' } },
      ]);
      expect(otherReport.findings[0].occurrences).toBeUndefined();

      // A second broken block in a's result, beside the accepted one.
      const sibling = await audit('a:2', '--baseline', baseline);
      expect(sibling.code).toBe(1);
      expect(JSON.parse(sibling.stdout).findings).toMatchObject([
        { rule: 'block-text-invalid', pointer: '/result/content/1/text', location: { tool: 'a' } },
      ]);

      // Recording both tools records one entry each, and that baseline passes.
      const both = join(dir, 'both.json');
      expect((await audit('a:1,b:1', '--write-baseline', both)).code).toBe(0);
      expect(JSON.parse(readFileSync(both, 'utf8')).findings.map((e: { tool: string }) => e.tool)).toEqual([
        'a',
        'b',
      ]);
      expect((await audit('a:1,b:1', '--baseline', both)).code).toBe(0);
      // Without a baseline the report still folds the defect into one finding of both tools.
      const folded = JSON.parse((await audit('a:1,b:1')).stdout);
      expect(folded.findings).toHaveLength(1);
      expect(
        folded.findings[0].occurrences.map((o: { location: { tool: string } }) => o.location.tool),
      ).toEqual(['a', 'b']);
    },
    CLI_TEST_TIMEOUT,
  );
});
