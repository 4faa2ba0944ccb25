/**
 * A report cut short by a failed write (a full disk, a file size limit) is what CI would read as the
 * run's JUnit or SARIF: a cut JUnit file listing the first failures, or none. A failed write leaves no
 * file, and says why in one line. The limit here is the shell's `ulimit -f` with SIGXFSZ ignored (as
 * ignored signals stay ignored across exec), so the write fails with EFBIG part-way, as on a full disk.
 */

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_TEST_TIMEOUT, cliArgs } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-shape-report-write-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the command line with files limited to `kib` KiB; its exit code and standard error. */
function limited(kib: number, args: readonly string[]) {
  const command = [process.execPath, ...cliArgs(args)].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const run = spawnSync('bash', ['-c', `trap '' XFSZ; ulimit -f ${kib}; exec ${command}`], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
    timeout: 60_000,
  });
  return { code: run.status, stderr: run.stderr };
}

describe('a report whose write fails', () => {
  it(
    'is not left cut short: the file is removed and the error is one line',
    () => {
      // 400 text blocks without text: a JUnit report of some 200 KB.
      const blocks = Array.from({ length: 400 }, () => ({ type: 'text' }));
      writeFileSync(join(dir, 'result.json'), JSON.stringify({ content: blocks }));
      writeFileSync(join(dir, 'old.xml'), '<testsuites tests="1" failures="0"/>\n');

      const out = limited(16, ['check', 'result.json', '--format', 'junit', '--out', 'old.xml']);
      expect(out).toEqual({ code: 2, stderr: `mcp-shape: file too large: old.xml\n` });
      expect(existsSync(join(dir, 'old.xml'))).toBe(false);

      const report = limited(16, ['check', 'result.json', '--format', 'json', '--report', 'sarif:r.sarif']);
      expect(report.code).toBe(2);
      expect(report.stderr).toBe('mcp-shape: file too large: r.sarif\n');
      expect(existsSync(join(dir, 'r.sarif'))).toBe(false);

      // Within the limit, the same run writes its report and exits 1 on the findings.
      expect(limited(1024, ['check', 'result.json', '--format', 'junit', '--out', 'ok.xml']).code).toBe(1);
      expect(existsSync(join(dir, 'ok.xml'))).toBe(true);
    },
    CLI_TEST_TIMEOUT,
  );
});
