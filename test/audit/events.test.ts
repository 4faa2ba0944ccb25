/** Every event the audit can observe is judged by a catalog rule, so it has docs and report metadata. */

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type AuditEvent, auditFindings } from '../../src/audit/events.js';
import type { Finding } from '../../src/core/finding.js';
import { buildReport } from '../../src/report/build.js';
import { affectedClients, breaksLine } from '../../src/report/clients.js';
import { renderReport } from '../../src/report/index.js';
import { getRule } from '../../src/rules/catalog.js';
import { root } from './support.js';

/** One event of each kind, keyed by kind so the compiler says when a kind is added without a sample. */
const SAMPLES: { readonly [K in AuditEvent['event']]: [Extract<AuditEvent, { event: K }>, string] } = {
  timeout: [{ event: 'timeout', method: 'tools/call slow', ms: 61000 }, 'audit-timeout'],
  answered: [{ event: 'answered', method: 'tools/call slow', ms: 70000 }, 'audit-timeout'],
  'server-exited': [
    { event: 'server-exited', method: 'tools/call crash', detail: 'exited with code 1' },
    'audit-server-exited',
  ],
  'response-too-large': [{ event: 'response-too-large', bytes: 99, limit: 10 }, 'audit-response-too-large'],
  'http-error': [{ event: 'http-error', method: 'tools/list', status: 500, body: '' }, 'audit-http-error'],
  'response-unmatched': [{ event: 'response-unmatched', id: '42' }, 'audit-response-unmatched'],
  'response-id-converted': [
    { event: 'response-id-converted', id: '"42"', request: '42', method: 'tools/call get' },
    'audit-response-id-converted',
  ],
  'version-refused': [
    { event: 'version-refused', version: '2024-11-05', detail: 'nope' },
    'audit-version-refused',
  ],
  'initialize-result': [
    {
      event: 'initialize-result',
      version: '2025-06-18',
      result: { protocolVersion: 'v1', capabilities: {}, serverInfo: { name: 's', version: '1' } },
    },
    'audit-version-unknown',
  ],
  'discover-unsupported': [
    { event: 'discover-unsupported', detail: 'HTTP 400' },
    'audit-discover-unsupported',
  ],
  'discover-invalid': [{ event: 'discover-invalid', problem: 'no array' }, 'audit-discover-invalid'],
  'tools-capability-missing': [
    { event: 'tools-capability-missing', count: 2 },
    'audit-tools-capability-missing',
  ],
  'tools-list-failed': [{ event: 'tools-list-failed', detail: '-32603 boom' }, 'audit-tools-list-failed'],
  'pagination-loop': [{ event: 'pagination-loop', cursor: '"2"', loop: 'earlier' }, 'audit-pagination-loop'],
  'tool-name-duplicate': [
    {
      event: 'tool-name-duplicate',
      name: '"get"',
      page: 2,
      index: 0,
      firstPage: 1,
      firstIndex: 3,
      more: 0,
      uses: 'no definition of it has an outputSchema',
    },
    'audit-tool-name-duplicate',
  ],
  'call-error': [
    { event: 'call-error', tool: 'get', code: '-32603', detail: 'backend down' },
    'audit-call-error',
  ],
  'arguments-rejected': [
    { event: 'arguments-rejected', tool: 'get', detail: 'arguments.id: missing', from: 'synthesized' },
    'audit-arguments-rejected',
  ],
};

/** Where events are reported: the version must be one the rule applies to. */
const versionOf = (event: AuditEvent) =>
  event.event === 'discover-unsupported' || event.event === 'discover-invalid' ? '2026-07-28' : '2025-06-18';

describe('audit events', () => {
  it.each(Object.values(SAMPLES))('%o is judged by %s, a documented catalog rule', (event, ruleId) => {
    const location = { protocolVersion: versionOf(event), tool: 'get', call: 'get#1' };
    const findings = auditFindings(event, location, '/error');
    expect(findings.map((f) => f.rule)).toEqual([ruleId]);
    expect(findings[0]).toMatchObject({ pointer: '/error', location });
    expect(getRule(ruleId)?.subject).toBe('session');
    expect(existsSync(join(root, 'docs/rules', `${ruleId}.md`))).toBe(true);
  });

  describe("audit-timeout judges latency against each client's own default", () => {
    const judge = (event: AuditEvent) =>
      auditFindings(event, { protocolVersion: '2025-06-18', tool: 'slow', call: 'slow#1' });

    it('says nothing of a 20 s answer: no client with a known default gives up that soon', () => {
      expect(judge({ event: 'answered', method: 'tools/call slow', ms: 20_000 })).toEqual([]);
    });

    it('is an error naming exactly the 60 s clients when an answer takes 61 s', () => {
      const [finding] = judge({ event: 'answered', method: 'tools/call slow', ms: 61_000 });
      expect(finding).toMatchObject({ rule: 'audit-timeout', severity: 'error' });
      expect(finding?.message).toBe(
        'tools/call slow answered after 61 s, longer than TypeScript SDK v1 client (60 s), TypeScript SDK v2 client (60 s), Claude Desktop / claude.ai (60 s), Zed (60 s), Cline / Roo Code (60 s) wait by default',
      );
      expect((finding as { data?: { affected?: string } }).data?.affected).toBe(
        'ts-sdk-v1,ts-sdk-v2,claude-desktop,zed,cline',
      );
    });

    it('names Claude Desktop for a response too large only when it is known to be past its 1 MiB cap', () => {
      const clients = (bytes: number, limit: number) => {
        const [finding] = auditFindings({ event: 'response-too-large', bytes, limit }, {});
        return affectedClients(finding as Finding).map((c) => c.client);
      };
      // Over a cap of 1,000 bytes (--max-response-size), 2,000 bytes are within Claude Desktop's.
      expect(clients(2000, 1000)).toEqual([]);
      expect(clients(16 * 1024 * 1024 + 1, 16 * 1024 * 1024)).toEqual(['claude-desktop']);
    });

    it('is a warning, naming no client, when nothing answered within a --timeout shorter than every default', () => {
      const [unjudged] = judge({ event: 'timeout', method: 'tools/call slow', ms: 15_000 });
      expect(unjudged).toMatchObject({ severity: 'warning' });
      expect(unjudged?.message).toMatch(
        /^no response to tools\/call slow in the 15 s the audit waited .*rerun with a longer --timeout/,
      );
      // No client gave up in 15 s: the report's "breaks:" line names none.
      expect(affectedClients(unjudged as Finding)).toEqual([]);
      expect(breaksLine(unjudged as Finding)).toBeUndefined();
      // Clients other than the official SDKs alone would make it a warning too; today every client
      // with a known default waits at least as long as the SDKs, so that degree is declared, not met.
      expect(getRule('audit-timeout')?.messageSeverity).toEqual({ clients: 'warning', unjudged: 'warning' });
    });

    it('names the 300 s clients too when the wait reached 5 minutes, and spares Gemini CLI (600 s)', () => {
      const [finding] = judge({ event: 'timeout', method: 'tools/call slow', ms: 300_000 });
      expect(finding?.message).toMatch(
        /^tools\/call slow got no answer in 300 s, longer than .*OpenAI Codex \(300 s\), Goose \(300 s\) wait by default$/,
      );
      expect(finding?.message).not.toContain('Gemini');
      expect(finding?.message).not.toContain('Python');
    });
  });

  describe('audit-response-unmatched tells a lost answer from a harmless one', () => {
    const judge = (event: AuditEvent) => auditFindings(event, { protocolVersion: '2025-06-18' });

    it('is an error naming the requests that were waiting, when some were', () => {
      const [lost] = judge({ event: 'response-unmatched', id: '1003', waiting: 'tools/call echo (id 3)' });
      expect(lost).toMatchObject({ rule: 'audit-response-unmatched', severity: 'error' });
      expect(lost?.message).toBe(
        'a response with id 1003 answers no request the audit sent, while tools/call echo (id 3) waited: clients drop it, and the request it was meant for waits until they give up',
      );
    });

    it('is a warning for a second answer, and for an answer while nothing waited', () => {
      const [twice] = judge({ event: 'response-unmatched', id: '3', answered: true });
      expect(twice).toMatchObject({ severity: 'warning' });
      expect(twice?.message).toBe(
        'a second response with id 3: its request was answered already, and clients drop this one',
      );
      const [stray] = judge({ event: 'response-unmatched', id: '"x"' });
      expect(stray).toMatchObject({ severity: 'warning' });
      expect(stray?.message).toBe('a response with id "x" answers no request the audit sent');
    });
  });

  it('reports each missing member of an initialize result', () => {
    const findings = auditFindings(
      { event: 'initialize-result', version: '2025-03-26', result: { protocolVersion: '2025-03-26' } },
      { protocolVersion: '2025-03-26' },
    );
    expect(findings.map((f) => f.message)).toEqual([
      'the initialize result for 2025-03-26 has no capabilities object',
      'the initialize result for 2025-03-26 has no serverInfo with name and version',
    ]);
  });

  it('accepts a complete initialize result with a published version', () => {
    const result = {
      protocolVersion: '2025-03-26',
      capabilities: {},
      serverInfo: { name: 's', version: '1' },
    };
    expect(
      auditFindings(
        { event: 'initialize-result', version: '2025-06-18', result },
        { protocolVersion: '2025-06-18' },
      ),
    ).toEqual([]);
  });

  it('links audit findings to their rule docs in Markdown and HTML reports (through the homepage only)', () => {
    const [event] = SAMPLES.timeout;
    const findings = auditFindings(event, { protocolVersion: '2025-06-18', tool: 'slow', call: 'slow#1' });
    const report = buildReport('audit', findings, 1);
    const docsBaseUrl = 'https://example.test/docs/rules/';
    expect(renderReport(report, 'markdown', { docsBaseUrl })).toContain(`(${docsBaseUrl}audit-timeout.md)`);
    expect(renderReport(report, 'html', { docsBaseUrl })).toContain(`href="${docsBaseUrl}audit-timeout.md"`);
    // package.json has no homepage: no relative link that would be dead in a CI artifact.
    expect(renderReport(report, 'markdown')).not.toContain('docs/rules/');
  });
});
