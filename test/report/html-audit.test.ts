/**
 * The HTML report of a real audit, in Chromium: a header that says what was audited, the versions,
 * the tools called and not called (with why) and the version comparison as tables, not JSON, and a
 * per-rule summary.
 */

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAudit } from '../../src/audit/run.js';
import type { JsonObject } from '../../src/core/json.js';
import { renderHtml } from '../../src/report/html.js';
import { serverBin } from '../audit/support.js';
import { launchChromium } from '../support/chromium.js';

/** Rows of a table, each cell's text. */
async function rows(page: Page, selector: string): Promise<string[][]> {
  return page
    .locator(`${selector} tbody tr`)
    .evaluateAll((trs) =>
      trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => (td.textContent ?? '').trim())),
    );
}

const DOCS = 'https://example.test/rules/';

describe('HTML report of an audit, in chromium', { timeout: 120_000 }, () => {
  let unlinked: string;
  let browser: Browser;
  let server: Server;
  let page: Page;
  let url: string;
  const pageErrors: string[] = [];
  const consoleErrors: string[] = [];
  const requests: string[] = [];

  beforeAll(async () => {
    // Two versions of server-everything: its resource_link blocks are a defect in 2024-11-05 only.
    const report = await runAudit({
      target: { kind: 'stdio', command: process.execPath, args: [serverBin('server-everything'), 'stdio'] },
      versions: ['2024-11-05', '2025-06-18'],
      args: new Map<string, JsonObject[]>([
        ['trigger-long-running-operation', [{ duration: 0.2, steps: 2 }]],
      ]),
    });
    // A docs base, as a package with a homepage has: rule ids are links only then (rule-links.ts).
    const html = renderHtml(report, { docsBaseUrl: DOCS });
    unlinked = renderHtml(report);
    server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(html);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/audit.html`;
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(url);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('has a header with the server name and version, target, transport and date', async () => {
    const fact = (name: string) => page.locator(`header [data-fact="${name}"]`).textContent();
    expect(await fact('server')).toBe('mcp-servers/everything 2.0.0');
    expect(await fact('target')).toMatch(/server-everything\/dist\/index\.js stdio$/);
    expect(await fact('transport')).toBe('stdio');
    expect(await fact('date')).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
    expect(await page.locator('header h1').textContent()).toBe('mcp-shape audit report');
  });

  it('shows the versions as a table', async () => {
    const versions = await rows(page, 'table.audit-versions');
    expect(versions.map((r) => r.slice(0, 4))).toEqual([
      ['2024-11-05', 'audited', '2024-11-05', '13'],
      ['2025-06-18', 'audited', '2025-06-18', '13'],
    ]);
    expect(await page.locator('table.audit-versions thead th').allTextContents()).toEqual([
      'Requested',
      'Status',
      'Answered',
      'Tools',
      'Calls',
      'Detail',
    ]);
  });

  it('shows the tools called and not called, with why, as tables', async () => {
    const called = await rows(page, 'table.tools-called');
    expect(called).toContainEqual(['echo', '2', 'readOnlyHint', '']);
    expect(called).toContainEqual(['trigger-long-running-operation', '2', '--args', '']);
    const notCalled = await rows(page, 'table.tools-not-called');
    expect(notCalled).toContainEqual([
      'gzip-file-as-resource',
      'annotated readOnlyHint: false; use --call gzip-file-as-resource, --call-all or --args to call it',
    ]);
  });

  it('shows the version comparison as a table, from the clients’ side', async () => {
    expect(await rows(page, 'table.comparison')).toEqual([
      [
        'block-type-unsupported-in-version',
        'get-resource-links',
        '/result/content/*/type',
        '2024-11-05',
        '2025-06-18',
        'older clients only',
      ],
    ]);
  });

  it('summarizes the findings per rule, linked to the rule docs', async () => {
    const rules = await rows(page, 'table.rules');
    expect(rules[0]).toEqual([
      'block-type-unsupported-in-version',
      'error',
      '1',
      'Content block types must exist in the negotiated protocol version',
    ]);
    expect(await page.locator('table.rules a').first().getAttribute('href')).toBe(
      `${DOCS}block-type-unsupported-in-version.md`,
    );
    // Without a docs base a relative link would be dead wherever the page is opened: the id is code.
    const summary = unlinked.match(/<table class="rules">[\s\S]*?<\/table>/)?.[0] ?? '';
    expect(summary).toContain('<code>block-type-unsupported-in-version</code>');
    expect(summary).not.toContain('<a ');
  });

  it('says which call, with which arguments, a finding came from', async () => {
    const finding = page.locator('details.finding').filter({ hasText: 'block-type-unsupported-in-version' });
    await finding.locator('summary').click();
    expect(await finding.locator('.body').textContent()).toContain(
      'Callget-resource-links#1 in 2024-11-05, arguments {} (synthesized)',
    );
  });

  it('loads nothing and runs no script but its own', async () => {
    expect(await page.locator('pre', { hasText: '"versions"' }).isVisible()).toBe(false);
    expect(pageErrors).toEqual([]);
    expect(consoleErrors).toEqual([]);
    expect(requests).toEqual([url]);
  });
});
