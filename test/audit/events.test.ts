/** Every event the audit can observe is judged by a catalog rule, so it has docs and report metadata. */

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type AuditEvent, auditFindings } from '../../src/audit/events.js';
import { buildReport } from '../../src/report/build.js';
import { renderReport } from '../../src/report/index.js';
import { getRule } from '../../src/rules/catalog.js';
import { root } from './support.js';

/** One event of each kind, keyed by kind so the compiler says when a kind is added without a sample. */
const SAMPLES: { readonly [K in AuditEvent['event']]: [Extract<AuditEvent, { event: K }>, string] } = {
  timeout: [{ event: 'timeout', method: 'tools/call slow', ms: 15000 }, 'audit-timeout'],
  'server-exited': [
    { event: 'server-exited', method: 'tools/call crash', detail: 'exited with code 1' },
    'audit-server-exited',
  ],
  'response-too-large': [{ event: 'response-too-large', bytes: 99, limit: 10 }, 'audit-response-too-large'],
  'http-error': [{ event: 'http-error', method: 'tools/list', status: 500, body: '' }, 'audit-http-error'],
  'response-unmatched': [{ event: 'response-unmatched', id: '42' }, 'audit-response-unmatched'],
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
  'pagination-loop': [{ event: 'pagination-loop', cursor: '"2"' }, 'audit-pagination-loop'],
  'call-error': [
    { event: 'call-error', tool: 'get', code: '-32602', detail: 'bad arguments' },
    'audit-call-error',
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
