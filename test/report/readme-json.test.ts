/**
 * The README's `## Reports` shows the JSON report of one command line; the real CLI prints that
 * document (all but `details`, which the README elides). It showed a report the CLI never printed:
 * members in another order, no `fingerprint`, half of the summary.
 */

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_TEST_TIMEOUT, REPO_ROOT, runCli } from '../support/cli.js';

function readmeExample(): { command: string; report: unknown } {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Reports\n');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  const command = /`(mcp-shape check [^`]+)`/.exec(section.replaceAll('\n', ' '))?.[1];
  const json = /```json\n([\s\S]*?)```/.exec(section)?.[1];
  if (command === undefined || json === undefined) throw new Error('README ## Reports has no example');
  // The elided `details` is the last member.
  const report: unknown = JSON.parse(json.replace(/,\n\s*"details": \{ "versionMatrix": \{ … \} \}\n/, '\n'));
  return { command, report };
}

describe('the README JSON report example', { timeout: CLI_TEST_TIMEOUT }, () => {
  it('is what the command it names prints, member for member and in order', async () => {
    const { command, report } = readmeExample();
    const dir = mkdtempSync(join(tmpdir(), 'mcp-shape-readme-'));
    writeFileSync(
      join(dir, 'response.json'),
      JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [] }, requestId: 1 }),
    );
    const run = await runCli(command.split(' ').slice(1), { cwd: dir });
    expect(run.code, run.stderr).toBe(1);
    const { details, ...printed } = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(Object.keys(details as object)).toEqual(['versionMatrix']);
    // Same members in the same order: JSON.stringify compares the order toEqual would not.
    expect(JSON.stringify(printed)).toBe(JSON.stringify(report));
  });
});
