/**
 * The HTML report's sections as whole markup (src/report/html-sections.ts): the rules table and an
 * audit's tables with their captions and column heads, the header facts, the call a finding came from,
 * and the catalog Markdown the finding bodies carry. html-content.test.ts reads cells out of the
 * tables; these pin every byte around them.
 */

import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/core/finding.js';
import { buildReport } from '../../src/report/build.js';
import {
  auditHeaderHtml,
  auditSectionsHtml,
  callFactHtml,
  rationaleHtml,
  rulesSummaryHtml,
} from '../../src/report/html-sections.js';
import { getRule } from '../../src/rules/catalog.js';

const finding = (rule: string, severity: Finding['severity'] = 'error'): Finding => ({
  rule,
  severity,
  message: 'm',
  pointer: '/x',
});

describe('rulesSummaryHtml', () => {
  it('is a captioned table with a head row and one row a rule', () => {
    expect(rulesSummaryHtml([finding('block-mime-type-missing'), finding('no-such-rule', 'warning')])).toBe(
      [
        '<section class="rules" aria-label="Rules">',
        '<table class="rules">',
        '<caption>Rules</caption>',
        '<thead><tr><th scope="col">Rule</th><th scope="col">Severity</th><th scope="col">Findings</th><th scope="col">Title</th></tr></thead>',
        '<tbody>',
        `<tr><td><code>block-mime-type-missing</code></td><td><span class="sev error">error</span></td><td>1</td><td>${getRule('block-mime-type-missing')?.title}</td></tr>`,
        '<tr><td><code>no-such-rule</code></td><td><span class="sev warning">warning</span></td><td>1</td><td></td></tr>',
        '</tbody>',
        '</table>',
        '</section>',
      ].join('\n'),
    );
  });
});

describe('auditSectionsHtml', () => {
  it('is the versions, tools called, tools not called and comparison tables, each captioned and headed', () => {
    const audit = buildReport('audit', [], 0, {
      details: {
        versions: [
          { requested: '2025-06-18', status: 'audited', answered: '2025-06-18', tools: 2, calls: 1 },
        ],
        tools: [
          { name: 'get', called: true, because: 'read-only', calls: 1, versions: ['2025-06-18'] },
          { name: 'put', called: false, reason: 'not read-only', calls: 0, versions: ['2025-06-18'] },
        ],
        comparison: [
          {
            rule: 'envelope-extra-member',
            severity: 'error',
            tool: 'get',
            pointer: '/a',
            presentIn: ['2024-11-05', '2025-03-26'],
            absentIn: ['2025-06-18'],
            reaches: 'older',
          },
        ],
      },
    });
    const head = (...cells: string[]) =>
      `<thead><tr>${cells.map((c) => `<th scope="col">${c}</th>`).join('')}</tr></thead>`;
    expect(auditSectionsHtml(audit)).toBe(
      [
        '<section class="audit" aria-label="Audit">',
        '<table class="audit-versions">',
        '<caption>Protocol versions</caption>',
        head('Requested', 'Status', 'Answered', 'Tools', 'Calls', 'Detail'),
        '<tbody>',
        '<tr><td><code>2025-06-18</code></td><td><span class="status audited">audited</span></td><td><code>2025-06-18</code></td><td>2</td><td>1</td><td></td></tr>',
        '</tbody>',
        '</table>',
        '<table class="tools-called">',
        '<caption>Tools called</caption>',
        head('Tool', 'Calls', 'Why', 'Skipped'),
        '<tbody>',
        '<tr><td><code>get</code></td><td>1</td><td>read-only</td><td></td></tr>',
        '</tbody>',
        '</table>',
        '<table class="tools-not-called">',
        '<caption>Tools not called</caption>',
        head('Tool', 'Why not'),
        '<tbody>',
        '<tr><td><code>put</code></td><td>not read-only</td></tr>',
        '</tbody>',
        '</table>',
        '<table class="comparison">',
        '<caption>Version comparison: findings some versions have and others do not</caption>',
        head('Rule', 'Tool', 'Where', 'Present in', 'Absent in', 'Reaches'),
        '<tbody>',
        '<tr><td><code>envelope-extra-member</code></td><td><code>get</code></td><td><code>/a</code></td><td>2024-11-05, 2025-03-26</td><td>2025-06-18</td><td>older clients only</td></tr>',
        '</tbody>',
        '</table>',
        '</section>',
      ].join('\n'),
    );
  });
});

describe('auditHeaderHtml', () => {
  it('names a server only from an object, and turns only a trailing .sssZ into UTC', () => {
    const header = (details: Record<string, unknown>) =>
      auditHeaderHtml(buildReport('audit', [], 0, { details }));
    expect(header({ server: 'demo 1.0', startedAt: 'at 2026-01-02T03:04:05.678Z later' })).toBe(
      '<dl class="facts"><div><dt>Date</dt><dd data-fact="date">at 2026-01-02 03:04:05.678Z later</dd></div></dl>',
    );
    expect(header({ server: ['demo'] })).toBe('<dl class="facts"></dl>');
  });
});

describe('callFactHtml', () => {
  it('is empty for a finding of an audit that names no call', () => {
    const audit = buildReport('audit', [], 1, {
      details: {
        calls: [{ protocolVersion: '2025-06-18', arguments: {}, argumentsFrom: 'synthesized' }],
      },
    });
    expect(callFactHtml(finding('result-not-object'), audit)).toBe('');
    expect(
      callFactHtml({ ...finding('result-not-object'), location: { protocolVersion: '2025-06-18' } }, audit),
    ).toBe('');
  });
});

describe('rationaleHtml', () => {
  it('makes a paragraph of each run of lines, split at blank lines even with spaces in them', () => {
    expect(rationaleHtml('One `a`\nline.\n \t\nTwo\nthree\nfour.')).toBe(
      '<p>One <code>a</code> line.</p>\n<p>Two three four.</p>',
    );
  });
});
