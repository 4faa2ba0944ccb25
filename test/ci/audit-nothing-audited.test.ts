/**
 * An audit that could audit no protocol version (the server refused every one asked) checked nothing a
 * client would meet: no client can connect. It must not end as a clean audit (it did: "✔ 0 errors … in
 * 0 calls across 0 versions", exit 0), but as a server that could not be reached does: exit 3, one line
 * saying why, each version's answer under it, no report.
 */

import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_TEST_TIMEOUT, REPO_ROOT, runCli } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-shape-nothing-audited-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const LOOP = JSON.stringify(join(REPO_ROOT, 'fixtures/servers/stdio-loop.mjs'));

// Refuses initialize and server/discover alike.
const REFUSING = join(dir, 'refusing.mjs');
writeFileSync(
  REFUSING,
  `import { RpcError, serve } from ${LOOP};
serve((message) => {
  if (message.id !== undefined) throw new RpcError(-32602, 'Unsupported protocol version');
});
`,
);

// Speaks 2025-11-25 (a read-only tool returning a clean result), knows no server/discover.
const OLDER = join(dir, 'older.mjs');
writeFileSync(
  OLDER,
  `import { RpcError, serve } from ${LOOP};
serve((message) => {
  switch (message.method) {
    case 'initialize':
      return { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'older', version: '1' } };
    case 'tools/list':
      return { tools: [{ name: 't', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }] };
    case 'tools/call':
      return { content: [{ type: 'text', text: 'ok' }] };
    default:
      if (message.id !== undefined) throw new RpcError(-32601, 'Method not found');
  }
});
`,
);

describe('an audit that audited no version', () => {
  it(
    'exits 3 with one line and each version under it, whatever --fail-on says, and writes no report',
    async () => {
      const out = join(dir, 'report.json');
      const refused = await runCli(
        ['audit', '--timeout', '20', '--fail-on', 'never', '--out', out, '--', 'node', REFUSING],
        { cwd: dir },
      );
      expect(refused.code).toBe(3);
      const [line, ...detail] = refused.stderr.trimEnd().split('\n');
      expect(line).toBe(
        `mcp-shape: could not audit node ${REFUSING}: it refused every protocol version asked, so no client can connect`,
      );
      expect(detail).toEqual([
        '  2024-11-05: -32602 Unsupported protocol version',
        '  2025-03-26: -32602 Unsupported protocol version',
        '  2025-06-18: -32602 Unsupported protocol version',
        '  2025-11-25: -32602 Unsupported protocol version',
        '  2026-07-28: server/discover: -32602 Unsupported protocol version',
      ]);
      expect(existsSync(out)).toBe(false);

      // Asked for a version the server does not speak: nothing was audited either.
      const newest = await runCli(['audit', '--protocol', '2026-07-28', '--', 'node', OLDER], { cwd: dir });
      expect(newest.code).toBe(3);
      expect(newest.stderr).toContain('it refused every protocol version asked');
      expect(newest.stderr).toContain('  2026-07-28: server/discover: -32601 Method not found\n');
      // The versions it speaks audit as before.
      const spoken = await runCli(['audit', '--protocol', '2025-11-25', '--', 'node', OLDER], { cwd: dir });
      expect([spoken.code, spoken.stderr]).toEqual([0, '']);
    },
    CLI_TEST_TIMEOUT,
  );
});

describe('an audit asked to call a tool the server does not list', () => {
  it(
    'writes its report, then exits 2 naming the tool: what --call or --args asked for was never called',
    async () => {
      const out = join(dir, 'unknown.json');
      const args = join(dir, 'args.json');
      writeFileSync(args, JSON.stringify({ get_wether: [{ city: 'Oslo' }] }));
      const run = await runCli(
        [
          'audit',
          '--protocol',
          '2025-11-25',
          '--call',
          'nope',
          '--args',
          args,
          '--format',
          'json',
          '--out',
          out,
          '--',
          'node',
          OLDER,
        ],
        { cwd: dir },
      );
      expect([run.code, run.stderr]).toEqual([
        2,
        'mcp-shape: the server lists no tool named nope or get_wether, which --call or --args asked to call\n',
      ]);
      const report = JSON.parse(readFileSync(out, 'utf8'));
      expect(report.details.unknownTools).toEqual(['nope', 'get_wether']);
      expect(report.summary).toMatchObject({ errors: 0, toolsCalled: 1 });
    },
    CLI_TEST_TIMEOUT,
  );
});
