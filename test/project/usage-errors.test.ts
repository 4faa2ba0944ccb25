/**
 * Every usage and input error of every command is exactly one line on stderr, starting `mcp-shape:`,
 * with a `--help` hint on the same line when the command line itself was wrong, and exit code 2 (3 when
 * the server cannot be started or reached). Commander's own messages (unknown option, missing argument,
 * invalid value, unknown command, too many arguments) are held to the same form.
 *
 * The table runs main() in-process, stdout and stderr captured, so it can cover every command without
 * a process per row; a few rows also run the real binary to show nothing else is printed on the way.
 */

import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { CLI_TEST_TIMEOUT, runCli } from '../support/cli.js';
import { scratchDir } from '../support/scratch.js';

const { dir, file } = scratchDir('usage');
const result = file('result.json', { content: [{ type: 'text', text: 'hi' }] });
const tools = file('tools.json', { tools: [{ name: 'a', inputSchema: { type: 'object' } }] });
const broken = file('broken.json', '{\n  "content": [\n');
// Unclosed brackets far deeper than a recursive parser's stack: located without one.
const deep = file('deep.json', `{"content":${'['.repeat(100_000)}`);
const deepConfig = file('deep.config.json', `{"check":${'['.repeat(100_000)}`);
const missing = join(dir, 'missing.json');
const empty = join(dir, 'empty-dir');
mkdirSync(empty);
writeFileSync(join(empty, 'notes.txt'), 'no source here');
/** Nothing listens there: listen(0) never hands out port 2. */
const REFUSED = 'http://127.0.0.1:2/mcp';

let busy: Server;
let busyPort = 0;
beforeAll(async () => {
  busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  busyPort = (busy.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => busy.close(() => resolve())));

interface Row {
  /** Arguments; a function when they need a value known only once the test runs. */
  readonly args: readonly string[] | (() => readonly string[]);
  readonly code: 2 | 3;
  readonly message: RegExp;
  /** The command whose --help the line points to; undefined for an input error (no hint). */
  readonly help?: string;
}

const ROWS: Record<string, Row> = {
  'no command': { args: [], code: 2, message: /no command given/, help: 'mcp-shape' },
  'unknown command': { args: ['chek'], code: 2, message: /unknown command 'chek'/, help: 'mcp-shape' },
  'unknown global option': {
    args: ['--bogus'],
    code: 2,
    message: /unknown option '--bogus'/,
    help: 'mcp-shape',
  },

  'check: unknown option': {
    args: ['check', result, '--protocl', 'latest'],
    code: 2,
    message: /unknown option '--protocl' \(Did you mean --protocol\?\)/,
    help: 'mcp-shape check',
  },
  'check: missing option argument': {
    args: ['check', result, '--protocol'],
    code: 2,
    message: /option '--protocol <version>' argument missing/,
    help: 'mcp-shape check',
  },
  'check: bad --protocol': {
    args: ['check', result, '--protocol', '1999-01-01'],
    code: 2,
    message:
      /argument .1999-01-01. is invalid\. expected one of 2024-11-05, .*2026-07-28, "latest", "draft" or "all"/,
    help: 'mcp-shape check',
  },
  'check: bad --format': {
    args: ['check', result, '--format', 'yaml'],
    code: 2,
    message: /argument 'yaml' is invalid\. expected one of text, json/,
    help: 'mcp-shape check',
  },
  'check: too many arguments': {
    args: ['check', result, result],
    code: 2,
    message: /too many arguments for 'check'/,
    help: 'mcp-shape check',
  },
  'check: --tool without --tools': {
    args: ['check', result, '--tool', 'a'],
    code: 2,
    message: /--tool needs --tools FILE/,
    help: 'mcp-shape check',
  },
  'check: --tool not in --tools': {
    args: ['check', result, '--tools', tools, '--tool', 'zz'],
    code: 2,
    message: /tool "zz" is not in .*tools\.json \(it has: a\)/,
    help: 'mcp-shape check',
  },
  'check: bad --fail-on': {
    args: ['check', result, '--fail-on', 'bogus'],
    code: 2,
    message: /argument 'bogus' is invalid\. expected one of error, warning, info, never/,
    help: 'mcp-shape check',
  },
  'check: missing --baseline': {
    args: ['check', result, '--baseline', missing],
    code: 2,
    message: /^no such file: .*missing\.json \(--baseline; record one with --write-baseline FILE\)$/,
  },
  'check: missing --config': {
    args: ['check', result, '--config', missing],
    code: 2,
    message: /^no such file: /,
  },
  'check: missing file': { args: ['check', missing], code: 2, message: /^no such file: .*missing\.json$/ },
  'check: a directory': { args: ['check', dir], code: 2, message: /^is a directory: / },
  'check: invalid JSON': {
    args: ['check', broken],
    code: 2,
    message: /broken\.json: invalid JSON at line 3/,
  },
  'check: invalid JSON nested 100,000 deep': {
    args: ['check', deep],
    code: 2,
    message: /deep\.json: invalid JSON at line 1, column 1011: nested more than 1000 levels deep/,
  },
  'check: a --config nested 100,000 deep': {
    args: ['check', result, '--config', deepConfig],
    code: 2,
    message: /deep\.config\.json: invalid JSON at line 1, column 1009: nested more than 1000 levels deep/,
  },
  'check: --out into a missing directory': {
    args: ['check', result, '--out', join(dir, 'no', 'such', 'report.json')],
    code: 2,
    message: /^no such directory: .*report\.json$/,
  },
  'check: --tools file that is no tools list': {
    args: ['check', result, '--tools', result],
    code: 2,
    message: /expected a tools\/list result or response/,
  },

  'repair: unknown option': {
    args: ['repair', result, '--bogus'],
    code: 2,
    message: /unknown option '--bogus'/,
    help: 'mcp-shape repair',
  },
  'repair: bad --protocol': {
    args: ['repair', result, '--protocol', 'all'],
    code: 2,
    message: /argument 'all' is invalid/,
    help: 'mcp-shape repair',
  },
  'repair: --tool not in --tools': {
    args: ['repair', result, '--tools', tools, '--tool', 'zz'],
    code: 2,
    message: /tool "zz" is not in/,
    help: 'mcp-shape repair',
  },
  'repair: missing file': { args: ['repair', missing], code: 2, message: /^no such file: / },

  'scan: unknown option': {
    args: ['scan', empty, '--bogus'],
    code: 2,
    message: /unknown option '--bogus'/,
    help: 'mcp-shape scan',
  },
  'scan: bad --max-file-size': {
    args: ['scan', empty, '--max-file-size', '-1'],
    code: 2,
    message: /expected a positive number of MiB/,
    help: 'mcp-shape scan',
  },
  'scan: missing path': { args: ['scan', missing], code: 2, message: /^no such file or directory: / },
  'scan: nothing to scan': { args: ['scan', empty], code: 2, message: /^no TS\/JS or Python files under / },

  'audit: nothing to audit': {
    args: ['audit'],
    code: 2,
    message: /nothing to audit/,
    help: 'mcp-shape audit',
  },
  'audit: unknown option': {
    args: ['audit', '--bogus', '--', 'node'],
    code: 2,
    message: /unknown option '--bogus'/,
    help: 'mcp-shape audit',
  },
  'audit: bad --timeout': {
    args: ['audit', '--timeout', 'soon', '--', 'node'],
    code: 2,
    message: /argument 'soon' is invalid/,
    help: 'mcp-shape audit',
  },
  'audit: --url and a command': {
    args: ['audit', '--url', REFUSED, '--', 'node'],
    code: 2,
    message: /either --url or a command/,
    help: 'mcp-shape audit',
  },
  'audit: --url that is no URL': {
    args: ['audit', '--url', 'not a url'],
    code: 2,
    message: /--url not a url is not a URL/,
    help: 'mcp-shape audit',
  },
  'audit: --header without --url': {
    args: ['audit', '--header', 'A: b', '--', 'node'],
    code: 2,
    message: /--header applies to --url/,
    help: 'mcp-shape audit',
  },
  'audit: missing --args file': {
    args: ['audit', '--args', missing, '--', 'node'],
    code: 2,
    message: /^no such file: .*missing\.json \(--args\)$/,
  },
  'audit: server command not found': {
    args: ['audit', '--', 'mcp-shape-no-such-server'],
    code: 3,
    message: /^command not found: mcp-shape-no-such-server$/,
  },
  'audit: refused URL': {
    args: ['audit', '--url', REFUSED, '--protocol', '2025-06-18'],
    code: 3,
    message: new RegExp(`^connection refused: ${REFUSED}$`),
  },

  'proxy: no server': {
    args: ['proxy'],
    code: 2,
    message: /give the server command after --/,
    help: 'mcp-shape proxy',
  },
  'proxy: unknown option': {
    args: ['proxy', '--bogus', '--', 'node'],
    code: 2,
    message: /unknown option '--bogus'/,
    help: 'mcp-shape proxy',
  },
  'proxy: bad --protocol': {
    args: ['proxy', '--protocol', 'x', '--', 'node'],
    code: 2,
    message: /argument 'x' is invalid/,
    help: 'mcp-shape proxy',
  },
  'proxy: --url and a command': {
    args: ['proxy', '--url', REFUSED, '--', 'node'],
    code: 2,
    message: /either --url or a server command/,
    help: 'mcp-shape proxy',
  },
  'proxy: --listen without --url': {
    args: ['proxy', '--listen', '127.0.0.1:0', '--', 'node'],
    code: 2,
    message: /--listen, --header and --timeout apply to --url/,
    help: 'mcp-shape proxy',
  },
  'proxy: --url that is not http': {
    args: ['proxy', '--url', 'ftp://example.com/mcp'],
    code: 2,
    message: /is not an http\(s\) URL/,
    help: 'mcp-shape proxy',
  },
  'proxy: bad --listen': {
    args: ['proxy', '--url', REFUSED, '--listen', 'localhost'],
    code: 2,
    message: /--listen localhost is not HOST:PORT/,
    help: 'mcp-shape proxy',
  },
  'proxy: --listen address in use': {
    args: () => ['proxy', '--url', REFUSED, '--listen', `127.0.0.1:${busyPort}`],
    code: 2,
    message: /^address in use: 127\.0\.0\.1:\d+$/,
  },
};

// Not a size, none at all, and more than a string holds.
for (const value of ['lots', '0', '512']) {
  ROWS[`proxy: --max-message-mb ${value}`] = {
    args: ['proxy', '--max-message-mb', value, '--', 'node'],
    code: 2,
    message: /--max-message-mb takes a number of megabytes above 0 and at most 511/,
    help: 'mcp-shape proxy',
  };
}

// More seconds than Node's timers hold: they would fire at once, warning each time.
for (const [option, args] of [
  ['--grace', ['--grace', '2147484', '--', 'node']],
  ['--timeout', ['--url', REFUSED, '--timeout', '2147484']],
] as const) {
  ROWS[`proxy: ${option} past the longest timer`] = {
    args: ['proxy', ...args],
    code: 2,
    message: new RegExp(`${option} takes at most 2147483 seconds, the longest a timer holds`),
    help: 'mcp-shape proxy',
  };
}

/** Runs main() with stdout and stderr captured. */
async function runMain(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  const exitCode = process.exitCode;
  try {
    return { code: await main(args), stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
    process.exitCode = exitCode;
  }
}

function expectOneLine(run: { code: number | null; stdout: string; stderr: string }, row: Row): void {
  expect(run.code).toBe(row.code);
  expect(run.stdout).toBe('');
  expect(run.stderr).toMatch(/^mcp-shape: [^\n]+\n$/);
  expect(run.stderr).not.toMatch(/\bE[A-Z]{3,}\b|\bat .*\.(js|ts):\d+/); // no errno code, no stack
  const text = run.stderr.slice('mcp-shape: '.length, -1);
  const hint = row.help ? ` (see ${row.help} --help)` : '';
  if (row.help) expect(text.endsWith(hint)).toBe(true);
  else expect(text).not.toMatch(/--help/);
  expect(text.slice(0, text.length - hint.length)).toMatch(row.message);
}

describe('usage and input errors', { timeout: CLI_TEST_TIMEOUT }, () => {
  it.each(Object.entries(ROWS))('%s', async (_name, row) => {
    const args = typeof row.args === 'function' ? row.args() : row.args;
    expectOneLine(await runMain(args), row);
  });

  it('covers every command', () => {
    const commands = new Set(
      Object.values(ROWS).map((r) => (typeof r.args === 'function' ? r.args() : r.args)[0]),
    );
    for (const command of ['check', 'repair', 'scan', 'audit', 'proxy']) expect(commands).toContain(command);
  });

  it.each([
    'check: unknown option',
    'check: missing file',
    'audit: server command not found',
    'proxy: no server',
  ])('the real binary prints the same one line: %s', async (name) => {
    const row = ROWS[name] as Row;
    expectOneLine(await runCli(row.args as string[]), row);
  });

  it('--help and --version are not errors', async () => {
    for (const args of [['--help'], ['--version'], ['check', '--help'], ['help', 'audit']]) {
      const run = await runMain(args);
      expect(run.code, args.join(' ')).toBe(0);
      expect(run.stderr).toBe('');
      expect(run.stdout).not.toBe('');
    }
  });
});
