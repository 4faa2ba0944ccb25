/** `--format junit|markdown|html` through the real command line, for check and for an audit of a real server. */

import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { marked, type Tokens } from 'marked';
import { parse } from 'parse5';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../support/cli.js';

const BROKEN_RESPONSE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  requestId: 'abc',
  result: { content: [{ type: 'image', data: 'iVBORw0KGgo=' }] },
});

const MEMORY_SERVER = join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');
const AUDIT = ['audit', '--protocol', '2025-06-18'];
const AUDITED_SERVER = ['--', process.execPath, MEMORY_SERVER];

interface JunitTotals {
  readonly testsuites: { readonly tests: string; readonly failures: string; readonly skipped: string };
}

function junitTotals(xml: string): JunitTotals['testsuites'] {
  expect(XMLValidator.validate(xml)).toBe(true);
  return (new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml) as JunitTotals)
    .testsuites;
}

// Each test spawns the CLI (the bundle the global setup built): a second or more each on two loaded cores.
describe('report formats on the command line', { timeout: 90_000 }, () => {
  it('check exiting 1 on findings below --min-severity reads as failed in every format', async () => {
    // One warning (structuredContent with no text mirror), hidden by --min-severity error.
    const input = JSON.stringify({ content: [{ type: 'text', text: 'hi' }], structuredContent: { a: 1 } });
    const policy = ['--min-severity', 'error', '--fail-on', 'warning', '--protocol', '2025-11-25'];
    const why = 'fails --fail-on warning on 1 finding below --min-severity error, not shown';
    const junit = await runCli(['check', '-', '--format', 'junit', ...policy], { input });
    expect(junit.code).toBe(1);
    expect(junitTotals(junit.stdout)).toMatchObject({ tests: '2', failures: '1' });
    expect(junit.stdout).toContain(why);
    for (const format of ['text', 'markdown', 'html']) {
      const run = await runCli(['check', '-', '--format', format, ...policy], { input });
      expect(run.code).toBe(1);
      expect(run.stdout).toContain(why);
      expect(run.stdout).not.toMatch(/^✔|^## .*✅|data-run="passed"/m);
    }
  });

  it('check --format junit fails the testcase of a broken response and exits 1', async () => {
    const run = await runCli(['check', '-', '--format', 'junit', '--protocol', '2025-06-18'], {
      input: BROKEN_RESPONSE,
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(junitTotals(run.stdout)).toMatchObject({ tests: '1', failures: '1', skipped: '0' });
    expect(run.stdout).toContain('envelope-extra-member');
  });

  it('check --format markdown and html render the findings of the same response', {
    timeout: 120_000,
  }, async () => {
    const markdown = await runCli(['check', '-', '--format', 'markdown', '--protocol', '2025-06-18'], {
      input: BROKEN_RESPONSE,
    });
    expect(markdown.code).toBe(1);
    const links = marked.lexer(markdown.stdout).filter((t): t is Tokens.Table => t.type === 'table')[1];
    expect(links?.rows.map((r) => r[0]?.text)).toContain('`envelope-extra-member`');
    expect(markdown.stdout).not.toContain('docs/rules/');

    const html = await runCli(['check', '-', '--format', 'html', '--protocol', '2025-06-18'], {
      input: BROKEN_RESPONSE,
    });
    expect(html.code).toBe(1);
    expect(html.stdout.startsWith('<!doctype html>')).toBe(true);
    const document = parse(html.stdout);
    expect(document.childNodes.some((n) => n.nodeName === 'html')).toBe(true);
    expect(html.stdout).toContain('extra top-level member &quot;requestId&quot;');
  });

  it('audit of a real server in every new format: read-only calls pass, other tools are skipped with a reason', async () => {
    const junit = await runCli([...AUDIT, '--format', 'junit', ...AUDITED_SERVER], { timeoutMs: 90_000 });
    expect(junit.code).toBe(0);
    const totals = junitTotals(junit.stdout);
    expect(Number(totals.failures)).toBe(0);
    // server-memory marks its write tools readOnlyHint: false, so the audit does not call them.
    expect(Number(totals.skipped)).toBeGreaterThan(0);
    expect(junit.stdout).toContain('<skipped message="annotated readOnlyHint: false');

    const markdown = await runCli([...AUDIT, '--format', 'markdown', ...AUDITED_SERVER], {
      timeoutMs: 90_000,
    });
    expect(markdown.code).toBe(0);
    expect(markdown.stdout).toMatch(/^## mcp-shape audit: ✅ 0 errors, 0 warnings in \d+ calls\n/);

    const html = await runCli([...AUDIT, '--format', 'html', ...AUDITED_SERVER], { timeoutMs: 90_000 });
    expect(html.code).toBe(0);
    expect(html.stdout).toContain('<title>mcp-shape audit report</title>');
  }, 240_000);
});
