import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type DefaultTreeAdapterMap, parse } from 'parse5';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReport } from '../../src/report/build.js';
import { renderHtml } from '../../src/report/html.js';
import type { Report } from '../../src/report/types.js';
import { launchChromium } from '../support/chromium.js';
import { auditReport, checkReport, cleanReport, HOSTILE_MESSAGE_SHOWN, hostileReport } from './fixtures.js';

type Element = DefaultTreeAdapterMap['element'];
type Node = DefaultTreeAdapterMap['node'];

/** check's findings plus the hostile ones, with audit's details: every part of the page at once. */
function fullReport(): Report {
  const findings = [...checkReport().findings, ...hostileReport().findings];
  return buildReport('check', findings, 9, { details: auditReport().details ?? {} });
}

function elements(node: Node): Element[] {
  const found: Element[] = [];
  const visit = (n: Node): void => {
    if ('tagName' in n) found.push(n);
    if ('childNodes' in n) for (const child of n.childNodes) visit(child);
    if ('content' in n && n.content) visit(n.content);
  };
  visit(node);
  return found;
}

function attribute(element: Element, name: string): string | undefined {
  return element.attrs.find((a) => a.name === name)?.value;
}

function textOf(node: Node): string {
  if (node.nodeName === '#text' && 'value' in node) return node.value;
  return 'childNodes' in node ? node.childNodes.map(textOf).join('') : '';
}

function hasClass(element: Element, name: string): boolean {
  return (attribute(element, 'class') ?? '').split(' ').includes(name);
}

describe('HTML report (static)', () => {
  const report = fullReport();
  const all = elements(parse(renderHtml(report)));

  it('is self-contained: one inline script and style, no URL that loads anything', () => {
    const tags = all.map((e) => e.tagName);
    expect(tags.filter((t) => t === 'script')).toHaveLength(1);
    expect(tags.filter((t) => t === 'style')).toHaveLength(1);
    for (const forbidden of ['img', 'link', 'iframe', 'object', 'embed', 'base', 'form']) {
      expect(tags).not.toContain(forbidden);
    }
    for (const element of all) {
      expect(element.attrs.map((a) => a.name)).not.toContain('src');
      expect(element.attrs.filter((a) => a.name.startsWith('on'))).toEqual([]);
      const href = attribute(element, 'href');
      if (href !== undefined) expect(href).toMatch(/^docs\/rules\/[a-z0-9-]+\.md$/);
    }
  });

  it('allows exactly its own inline script and style through the Content-Security-Policy', () => {
    const meta = all.find((e) => attribute(e, 'http-equiv') === 'Content-Security-Policy');
    const policy = attribute(meta as Element, 'content') ?? '';
    const hash = (element: Element | undefined) =>
      `'sha256-${createHash('sha256')
        .update(textOf(element as Element))
        .digest('base64')}'`;
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain(`script-src ${hash(all.find((e) => e.tagName === 'script'))}`);
    expect(policy).toContain(`style-src ${hash(all.find((e) => e.tagName === 'style'))}`);
  });

  it('shows every finding once, as text, in the terminal order', () => {
    const findings = all.filter((e) => e.tagName === 'details' && hasClass(e, 'finding'));
    expect(findings).toHaveLength(report.findings.length);
    const messages = all.filter((e) => hasClass(e, 'message')).map(textOf);
    expect(messages).toContain(HOSTILE_MESSAGE_SHOWN);
    expect(messages).toContain('a warning with <b>markup</b> & "quotes"');
    expect(findings.map((f) => attribute(f, 'data-severity'))).toEqual([
      'error',
      'warning',
      'error',
      'error',
      'error',
      'warning',
      'info',
    ]);
    const groups = all.filter((e) => e.tagName === 'h2').map(textOf);
    expect(groups[0]).toBe('evil"<b>.json · 2025-06-18 · tool <script>x</script>');
  });

  it('says "No findings" for a clean report and has no filter', () => {
    const clean = elements(parse(renderHtml(cleanReport())));
    expect(clean.filter((e) => hasClass(e, 'ok')).map(textOf)).toEqual(['No findings.']);
    expect(clean.filter((e) => e.tagName === 'input')).toEqual([]);
  });
});

describe('HTML report in chromium', () => {
  let browser: Browser;
  let server: Server;
  let url: string;
  let page: Page;
  const pageErrors: string[] = [];
  const consoleErrors: string[] = [];
  const requests: string[] = [];

  beforeAll(async () => {
    const html = renderHtml(fullReport());
    server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(html);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/report.html`;
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    // CSP violations (a blocked script or style) are reported as console errors.
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

  it('shows the summary counts', async () => {
    const count = (name: string) => page.locator(`[data-count="${name}"] .n`).textContent();
    expect(await count('error')).toBe('4');
    expect(await count('warning')).toBe('2');
    expect(await count('info')).toBe('1');
    expect(await count('checked')).toBe('9');
    expect(await page.locator('[data-count="checked"]').textContent()).toBe('9documents checked');
  });

  it('expands a finding on click, with rationale, fix and clients affected', async () => {
    const finding = page.locator('details.finding').filter({ hasText: '/requestId' }).first();
    const body = finding.locator('.body');
    expect(await body.isVisible()).toBe(false);
    await finding.locator('summary').click();
    expect(await body.isVisible()).toBe(true);
    const text = await body.textContent();
    expect(text).toContain('JSON-RPC messages must not carry extra top-level members');
    expect(text).toContain('the official TypeScript SDK (v1 and v2) parses envelopes');
    expect(text).toContain('Remove "requestId" from the envelope');
    expect(text).toContain('TypeScript SDK v1 client (drops the message: the call hangs)');
    await finding.locator('summary').click();
    expect(await body.isVisible()).toBe(false);
  });

  it('hides warnings (and groups left empty) when the warning filter is unchecked', async () => {
    const warnings = page.locator('details.finding[data-severity="warning"]');
    const errors = page.locator('details.finding[data-severity="error"]');
    const warningOnlyGroup = page.locator('section.group').filter({ hasText: 'call 3' });
    expect(await warnings.count()).toBe(2);
    expect(await warnings.first().isVisible()).toBe(true);
    await page.locator('input[data-filter="warning"]').uncheck();
    for (const warning of await warnings.all()) expect(await warning.isVisible()).toBe(false);
    for (const error of await errors.all()) expect(await error.isVisible()).toBe(true);
    expect(await warningOnlyGroup.isVisible()).toBe(false);
    expect(await page.locator('#filtered-out').isVisible()).toBe(false);

    await page.locator('input[data-filter="error"]').uncheck();
    await page.locator('input[data-filter="info"]').uncheck();
    expect(await page.locator('#filtered-out').isVisible()).toBe(true);

    for (const severity of ['error', 'warning', 'info'])
      await page.locator(`input[data-filter="${severity}"]`).check();
    expect(await warningOnlyGroup.isVisible()).toBe(true);
    expect(await warnings.first().isVisible()).toBe(true);
  });

  it('expands and collapses every shown finding at once', async () => {
    const toggle = page.locator('#toggle-all');
    await toggle.click();
    expect(await page.locator('details.finding:not([open])').count()).toBe(0);
    expect(await toggle.textContent()).toBe('Collapse all');
    await toggle.click();
    expect(await page.locator('details.finding[open]').count()).toBe(0);
  });

  it('runs no script from finding data, shows it as text, and loads nothing else', async () => {
    const injected = await page.evaluate(() => (window as unknown as { __injected?: unknown }).__injected);
    expect(injected).toBeUndefined();
    expect(await page.locator('script').count()).toBe(1);
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.locator('.message', { hasText: 'window.__injected = 1' }).textContent()).toBe(
      HOSTILE_MESSAGE_SHOWN,
    );
    expect(await page.locator('h2').first().textContent()).toBe(
      'evil"<b>.json · 2025-06-18 · tool <script>x</script>',
    );
    // The script did run (it is allowed by hash): the toggle button reacted above.
    expect(pageErrors).toEqual([]);
    expect(consoleErrors).toEqual([]);
    expect(requests).toEqual([url]);
  });
});
