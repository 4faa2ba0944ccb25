/**
 * The terminal report of check and scan, and what renderReport adds around every format: the scan
 * verdict on top, the policy notes (baseline, --min-severity) below, JSON as the report itself. The
 * CLI tests show these through a real process; these call the reporters in this process.
 */

import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/core/finding.js';
import { renderAuditText } from '../../src/report/audit-text.js';
import { buildReport } from '../../src/report/build.js';
import { breaksLine, clientsText } from '../../src/report/clients.js';
import { detailsForPeople } from '../../src/report/details.js';
import { renderReport, supportedFormats } from '../../src/report/index.js';
import { renderJson } from '../../src/report/json.js';
import { policyNotesMarkdown, policyNotesText } from '../../src/report/policy-notes.js';
import { renderVerdict, scanVerdictHtml, verdictOf } from '../../src/report/scan-verdict.js';
import { groupLabel, renderText, sortFindings } from '../../src/report/text.js';
import type { Report } from '../../src/report/types.js';
import {
  failureReason,
  matrixTextLines,
  showMatrix,
  versionMatrixOf,
  versionVerdictOf,
} from '../../src/report/version-matrix.js';
import { auditReport, checkReport } from './fixtures.js';

const finding = (over: Partial<Finding> & Pick<Finding, 'rule'>): Finding => ({
  severity: 'error',
  message: 'm',
  pointer: '/p',
  ...over,
});

describe('groupLabel and sortFindings', () => {
  it('labels a location by file and position, version, tool and call', () => {
    expect(groupLabel(undefined)).toBe('');
    expect(groupLabel({})).toBe('');
    expect(groupLabel({ file: 'a.json' })).toBe('a.json');
    expect(groupLabel({ file: 'a.json', line: 3 })).toBe('a.json:3');
    expect(groupLabel({ file: 'a.ts', line: 3, column: 7 })).toBe('a.ts:3:7');
    expect(groupLabel({ line: 4, column: 2 })).toBe('line 4');
    expect(groupLabel({ file: 'a.json', protocolVersion: '2025-06-18', tool: 't', call: 't#1' })).toBe(
      'a.json · 2025-06-18 · tool t · call t#1',
    );
  });

  it('sorts by label (numbers as numbers), then severity, then pointer', () => {
    const at = (line: number, severity: Finding['severity'], pointer: string) =>
      finding({ rule: 'r', severity, pointer, location: { file: 'a.json', line } });
    const sorted = sortFindings([
      at(10, 'error', '/a'),
      at(9, 'info', '/a'),
      at(9, 'error', '/b'),
      at(9, 'error', '/a'),
      at(9, 'warning', '/a'),
    ]);
    expect(sorted.map((f) => `${f.location?.line} ${f.severity} ${f.pointer}`)).toEqual([
      '9 error /a',
      '9 error /b',
      '9 warning /a',
      '9 info /a',
      '10 error /a',
    ]);
  });
});

describe('renderText', () => {
  it('groups findings under their location, with fix, clients broken and the summary line', () => {
    const text = renderText(checkReport(), { color: false });
    expect(text).toBe(
      [
        'session.jsonl:3 · 2025-06-18 · tool get_weather · call 2',
        `  error   /requestId  extra top-level member "requestId" in a JSON-RPC message  envelope-extra-member`,
        '          fix: Remove "requestId" from the envelope; move vendor data into `result._meta`. (repairable)',
        `          breaks: ${breaksLine({ rule: 'envelope-extra-member' })}`,
        '  error   /result/content/0  image block has no mimeType  block-mime-type-missing',
        '          fix: Add "mimeType": "image/png". (repairable)',
        `          breaks: ${breaksLine({ rule: 'block-mime-type-missing' })}`,
        '  error   /result/content/2  image block has no mimeType  block-mime-type-missing',
        '          fix: Add "mimeType": "image/png". (repairable)',
        `          breaks: ${breaksLine({ rule: 'block-mime-type-missing' })}`,
        '',
        'session.jsonl:5 · 2025-06-18 · tool get_weather · call 3',
        '  warning /result/structuredContent  structuredContent has no text block carrying the same data  result-text-mirror-missing',
        '',
        'session.jsonl:7 · 2025-06-18 · tool get_weather · call 4',
        '  info    /result/content/1  an image next to structuredContent is not shown to the model by Codex  result-image-beside-structured',
        '',
        '✖ 3 errors, 1 warning, 1 info in 8 documents checked',
        '',
      ].join('\n'),
    );
  });

  it('names the document itself and the root pointer, leaves out a manual fix note and the clients of an info', () => {
    const text = renderText(
      buildReport(
        'scan',
        [
          finding({
            rule: 'envelope-extra-member',
            severity: 'info',
            pointer: '',
            fix: { description: 'by hand', automatic: false },
          }),
        ],
        1,
      ),
      { color: false },
    );
    expect(text).toBe(
      [
        '(document)',
        '  info    (root)  m  envelope-extra-member',
        '          fix: by hand',
        '',
        '✔ 0 errors, 0 warnings, 1 info in 1 file checked',
        '',
      ].join('\n'),
    );
  });

  it('says the verdict in a word and a sign: errors, warnings only, or clean', () => {
    const last = (report: Report) => renderText(report, { color: false }).trimEnd().split('\n').at(-1);
    expect(last(buildReport('audit', [], 1))).toBe('✔ 0 errors, 0 warnings, 0 infos in 1 call checked');
    expect(last(buildReport('audit', [finding({ rule: 'r', severity: 'warning' })], 2))).toBe(
      '⚠ 0 errors, 1 warning, 0 infos in 2 calls checked',
    );
    expect(renderText(buildReport('check', [], 0), { color: false })).toBe(
      '✔ 0 errors, 0 warnings, 0 infos in 0 documents checked\n',
    );
  });

  it('paints severities, the summary and the frame when asked for colour, and only then', () => {
    const report = buildReport(
      'check',
      [
        finding({
          rule: 'r',
          severity: 'warning',
          location: { file: 'a.ts', line: 1, column: 1, snippet: { startLine: 1, lines: ['x'] } },
        }),
        finding({ rule: 'r', severity: 'info', location: { file: 'b.ts' } }),
      ],
      1,
    );
    const text = renderText(report, { color: true });
    expect(text).toContain('\u001b[33mwarning\u001b[39m');
    expect(text).toContain('\u001b[34minfo   \u001b[39m');
    expect(text).toContain('\u001b[4ma.ts:1:1\u001b[24m');
    expect(text).toContain('\u001b[33m⚠ 0 errors, 1 warning, 1 info in 1 document checked\u001b[39m');
    // The caret line takes the finding's colour.
    expect(text).toContain('\u001b[33m^\u001b[39m');
    const errors = renderText(buildReport('check', [finding({ rule: 'r' })], 1), { color: true });
    expect(errors).toContain('\u001b[31merror  \u001b[39m');
    expect(errors).toContain(
      '\u001b[31m\u001b[1m✖ 1 error, 0 warnings, 0 infos in 1 document checked\u001b[22m\u001b[39m',
    );
    expect(renderText(buildReport('check', [], 1), { color: true })).toContain('\u001b[32m✔');
    expect(renderText(report, { color: false })).not.toContain('\u001b');
  });

  it('keeps untrusted text to one escaped line', () => {
    const text = renderText(
      buildReport(
        'check',
        [finding({ rule: 'r', message: 'a\u001b[2Jb\nsecond', location: { file: 'x\u001b.json' } })],
        1,
      ),
      { color: false },
    );
    expect(text).toContain('x\\x1b.json');
    expect(text).toContain('a\\x1b[2Jb (1 more line)');
    expect(text).not.toContain('\u001b');
  });

  it('shows the version matrix asked for with --protocol all, and the line saying where the verdict changes', () => {
    const report = buildReport('check', [], 1, {
      summary: { versionVerdict: 'valid for 2025-06-18; fails 2025-03-26' },
      details: {
        versionMatrix: {
          all: true,
          versions: [
            {
              protocolVersion: '2025-03-26',
              verdict: 'fail',
              errors: 1,
              warnings: 0,
              infos: 0,
              reasons: ['no structuredContent'],
            },
            {
              protocolVersion: '2025-06-18',
              verdict: 'pass',
              errors: 0,
              warnings: 2,
              infos: 10,
              reasons: [],
            },
          ],
        },
      },
    });
    expect(renderText(report, { color: false })).toBe(
      [
        'protocol    verdict  errors  warnings  infos',
        '2025-03-26  fail          1         0      0  no structuredContent',
        '2025-06-18  pass          0         2     10',
        '',
        'valid for 2025-06-18; fails 2025-03-26',
        '✔ 0 errors, 0 warnings, 0 infos in 1 document checked',
        '',
      ].join('\n'),
    );
    // Not asked for: the line only.
    const some = { ...report, details: { versionMatrix: { all: false, versions: [] } } };
    expect(renderText(some, { color: false }).split('\n')[0]).toBe('valid for 2025-06-18; fails 2025-03-26');
  });
});

describe('clients a finding breaks', () => {
  it('at most three, a run of the same effect said once, and how many more', () => {
    expect(breaksLine({ rule: 'envelope-extra-member' })).toBe(
      'TypeScript SDK v1 client, TypeScript SDK v2 client, Claude Code (drops the message: the call hangs) +1 more',
    );
    expect(breaksLine({ rule: 'envelope-extra-member' }, 10)).toBe(
      'TypeScript SDK v1 client, TypeScript SDK v2 client, Claude Code, Gemini CLI (drops the message: the call hangs)',
    );
    expect(breaksLine({ rule: 'no-such-rule' })).toBeUndefined();
  });

  it('narrowed to the clients a finding names in data.affected', () => {
    const finding = { rule: 'envelope-extra-member', data: { affected: 'claude-code,nobody' } };
    expect(clientsText(finding)).toBe('Claude Code (drops the message: the call hangs)');
    expect(breaksLine({ rule: 'envelope-extra-member', data: { affected: '' } })).toBeUndefined();
    // Not a list of ids: every client of the rule.
    expect(clientsText({ rule: 'envelope-extra-member', data: { affected: 3 } })).toBe(
      'TypeScript SDK v1 client (drops the message: the call hangs), TypeScript SDK v2 client (drops the message: the call hangs), Claude Code (drops the message: the call hangs), Gemini CLI (drops the message: the call hangs)',
    );
    expect(clientsText({ rule: 'no-such-rule' })).toBeUndefined();
  });
});

describe('the version matrix read back from a report', () => {
  it('takes only a matrix with a list of versions, and shows it when asked for or when the verdict differs', () => {
    const with_ = (versionMatrix: unknown, versionVerdict?: string) =>
      buildReport('check', [], 1, {
        details: { versionMatrix },
        summary: versionVerdict ? { versionVerdict } : {},
      });
    expect(versionMatrixOf(with_(null))).toBeUndefined();
    expect(versionMatrixOf(with_({ versions: 'x' }))).toBeUndefined();
    expect(versionMatrixOf(with_({ versions: [] }))).toEqual({ all: false, versions: [] });
    expect(versionMatrixOf(with_({ all: 'yes', versions: [] }))?.all).toBe(false);
    expect(showMatrix(with_({ all: false, versions: [] }))).toBeUndefined();
    expect(showMatrix(with_({ all: true, versions: [] }))).toEqual({ all: true, versions: [] });
    expect(showMatrix(with_({ all: false, versions: [] }, 'fails 2025-03-26'))).toEqual({
      all: false,
      versions: [],
    });
    expect(showMatrix(with_({ all: false, versions: [] }, ''))).toBeUndefined();
  });

  it('gives the first reason a version fails, with how many errors more', () => {
    const row = { protocolVersion: '2025-06-18', warnings: 0, infos: 0 } as const;
    expect(failureReason({ ...row, verdict: 'pass', failing: 0, errors: 0, reasons: ['ignored'] })).toBe('');
    expect(failureReason({ ...row, verdict: 'fail', failing: 1, errors: 1, reasons: ['a', 'b'] })).toBe('a');
    expect(failureReason({ ...row, verdict: 'fail', failing: 3, errors: 3, reasons: ['a'] })).toBe(
      'a (+2 more)',
    );
    expect(failureReason({ ...row, verdict: 'fail', failing: 2, errors: 2, reasons: [] })).toBe(
      'error findings (+1 more)',
    );
    // Under --fail-on warning the warnings that fail it are counted too.
    expect(failureReason({ ...row, verdict: 'fail', failing: 3, errors: 0, reasons: ['w'] })).toBe(
      'w (+2 more)',
    );
    expect(
      matrixTextLines({
        all: true,
        versions: [
          { ...row, verdict: 'fail', failing: 1, errors: 1, reasons: [`x\u001b${'y'.repeat(200)}`] },
        ],
      })[1],
    ).toMatch(/^2025-06-18 {2}fail {10}1 {9}0 {6}0 {2}x\\x1by+…$/);
  });
});

describe('the scan verdict', () => {
  const verdict = {
    check: 'mcp-server.tool-definitions.return-content-types',
    status: 'fail',
    handlers: 2,
    returns: 5,
    typed: 2,
    typedByDeclaration: 1,
    invalid: 2,
    unresolved: 1,
    detail: 'fail: 2 of 5 return statements in 2 tool handlers are typed; 2 wrong',
    problems: ["Tool 'shot': image block has no mimeType (s.ts:14)", "Tool '<b>': bad\u001b[2J (s.ts:20)"],
    unproven: ['proxy (s.ts:30:5): the result of upstream.callTool()'],
    tools: [
      {
        tool: 'shot',
        framework: 'sdk',
        file: 's.ts',
        line: 10,
        returns: 3,
        typed: 1,
        typedByDeclaration: 1,
        invalid: 1,
        unresolved: 1,
      },
      {
        tool: 'ok',
        framework: 'sdk',
        file: 's.ts',
        line: 40,
        returns: 2,
        typed: 2,
        typedByDeclaration: 0,
        invalid: 0,
        unresolved: 0,
      },
    ],
  };
  const scan = (details: Record<string, unknown>) => buildReport('scan', [], 1, { details });

  it('as text: status, tally, what is wrong, what is not proven, and a line per tool', () => {
    expect(renderVerdict(verdict as never)).toBe(
      [
        'mcp-server.tool-definitions.return-content-types: FAIL',
        '  2 of 5 return statements in 2 tool handlers are typed',
        '  wrong (2):',
        "    Tool 'shot': image block has no mimeType (s.ts:14)",
        "    Tool '<b>': bad\\x1b[2J (s.ts:20)",
        '  not proven (1; check these at run time with `mcp-shape audit`):',
        '    proxy (s.ts:30:5): the result of upstream.callTool()',
        '  shot (s.ts:10): 1/3 typed, 1 by declaration, 1 wrong, 1 unresolved',
        '  ok (s.ts:40): 2/2 typed',
        '',
      ].join('\n'),
    );
    const clean = {
      ...verdict,
      status: 'pass',
      problems: [],
      unproven: [],
      tools: [],
      detail: 'pass: 3 of 3',
    };
    expect(renderVerdict(clean as never)).toBe(
      'mcp-server.tool-definitions.return-content-types: PASS\n  3 of 3\n',
    );
  });

  it('as text, a name with line breaks stays on its line: no line is of the server making', () => {
    const forged = 't\nmcp-server.tool-definitions.return-content-types: PASS\n✔ 0 errors';
    const hostile = {
      ...verdict,
      problems: [`Tool '${forged}': bad (s.ts:4)`],
      unproven: [`${forged} (s.ts:5:1): unknown`],
      tools: [{ ...verdict.tools[0], tool: forged }],
    };
    const lines = renderVerdict(hostile as never).split('\n');
    expect(lines.filter((line) => line.includes('PASS') || line.startsWith('✔'))).toEqual([
      "    Tool 't\\nmcp-server.tool-definitions.return-content-types: PASS\\n✔ 0 errors': bad (s.ts:4)",
      '    t\\nmcp-server.tool-definitions.return-content-types: PASS\\n✔ 0 errors (s.ts:5:1): unknown',
      '  t\\nmcp-server.tool-definitions.return-content-types: PASS\\n✔ 0 errors (s.ts:10): 1/3 typed, 1 by declaration, 1 wrong, 1 unresolved',
    ]);
  });

  it('as HTML, escaped', () => {
    const html = scanVerdictHtml(scan({ verdict }));
    expect(html).toBe(
      [
        '<section class="scan-verdict fail" aria-label="Verdict">',
        '<h2>mcp-server.tool-definitions.return-content-types: <span class="status">FAIL</span></h2>',
        '<p>2 of 5 return statements in 2 tool handlers are typed</p>',
        '<h3>Wrong (2)</h3>',
        // A document cannot carry ESC: U+FFFD stands in for it.
        '<ul><li>Tool &#39;shot&#39;: image block has no mimeType (s.ts:14)</li><li>Tool &#39;&lt;b&gt;&#39;: bad\uFFFD[2J (s.ts:20)</li></ul>',
        '<h3>Not proven (1)</h3>',
        '<p>The value is not known statically; check these at run time with <code>mcp-shape audit</code>.</p>',
        '<ul><li>proxy (s.ts:30:5): the result of upstream.callTool()</li></ul>',
        '<h3>Tools</h3>',
        '<ul><li>shot (s.ts:10): 1/3 typed, 1 by declaration, 1 wrong, 1 unresolved</li><li>ok (s.ts:40): 2/2 typed</li></ul>',
        '</section>',
      ].join('\n'),
    );
    const clean = { ...verdict, status: 'pass', problems: [], unproven: [], tools: [] };
    expect(scanVerdictHtml(scan({ verdict: clean }))).toBe(
      '<section class="scan-verdict pass" aria-label="Verdict">\n<h2>mcp-server.tool-definitions.return-content-types: <span class="status">PASS</span></h2>\n<p>2 of 5 return statements in 2 tool handlers are typed</p>\n</section>',
    );
    expect(scanVerdictHtml(buildReport('check', [], 1, { details: { verdict } }))).toBe('');
  });

  it('is recognised only with a status and a list of tools', () => {
    expect(verdictOf(undefined)).toBeUndefined();
    expect(verdictOf({ verdict: 'breaks clients' })).toBeUndefined();
    expect(verdictOf({ verdict: { status: 'fail' } })).toBeUndefined();
    expect(verdictOf({ verdict: { status: 1, tools: [] } })).toBeUndefined();
    expect(verdictOf({ verdict })).toBe(verdict);
  });

  it('opens the text report of a scan, and only of a scan', () => {
    expect(renderReport(scan({ verdict }), 'text', { color: false })).toBe(
      `${renderVerdict(verdict as never)}\n${renderText(scan({ verdict }), { color: false })}`,
    );
    expect(renderReport(scan({}), 'text', { color: false })).toBe(renderText(scan({}), { color: false }));
    const check = buildReport('check', [], 1, { details: { verdict } });
    expect(renderReport(check, 'text', { color: false })).toBe(renderText(check, { color: false }));
  });
});

describe('policy notes', () => {
  const stale = [
    { fingerprint: 'f1', rule: 'envelope-extra-member', file: 'a.json', tool: 't', message: 'extra "x"' },
    { fingerprint: 'f2', rule: 'block-mime-type-missing', message: 'no *mime*\u001b' },
  ];
  const withPolicy = (baseline: unknown, summary: Record<string, unknown> = {}) =>
    buildReport('check', [], 1, { details: { baseline }, summary });

  it('say what a baseline hid and which of its entries no longer occur', () => {
    const report = withPolicy({ file: '.mcp-shape-baseline.json', hidden: 3, stale });
    expect(policyNotesText(report)).toBe(
      [
        'baseline .mcp-shape-baseline.json: 3 known findings hidden; 2 entries no longer occur (update it with --write-baseline)',
        '  stale: envelope-extra-member  a.json · tool t: extra "x"',
        '  stale: block-mime-type-missing  (document): no *mime*\\x1b',
        '',
      ].join('\n'),
    );
    expect(policyNotesText(withPolicy({ file: 'b.json', hidden: 1, stale: [stale[0]] }))).toMatch(
      /^baseline b\.json: 1 known finding hidden; 1 entry no longer occurs \(update it with --write-baseline\)\n/,
    );
    expect(policyNotesText(withPolicy({ file: 'b.json', hidden: 0, stale: [] }))).toBe(
      'baseline b.json: 0 known findings hidden\n',
    );
    const markdown = policyNotesMarkdown(report, (t) => t.replaceAll('*', '\\*'));
    expect(markdown).toBe(
      [
        '',
        '### Baseline and filters',
        '',
        '- baseline .mcp-shape-baseline.json: 3 known findings hidden; 2 entries no longer occur (update it with --write-baseline)',
        '  - stale: envelope-extra-member a.json · tool t: extra "x"',
        '  - stale: block-mime-type-missing (document): no \\*mime\\*\u001b',
        '',
      ].join('\n'),
    );
  });

  it('say how many findings --min-severity left out and that --fail-on still counts them', () => {
    const below = (count: number) =>
      withPolicy(undefined, { belowMinSeverity: count, minSeverity: 'error', failOn: 'warning' });
    expect(policyNotesText(below(2))).toBe(
      '2 findings below --min-severity error not shown (--fail-on warning still counts them)\n',
    );
    expect(policyNotesText(below(1))).toMatch(/^1 finding below/);
    expect(policyNotesText(below(0))).toBe('');
    expect(policyNotesMarkdown(below(1), (t) => t)).toBe(
      '\n### Baseline and filters\n\n- 1 finding below --min-severity error not shown (--fail-on warning still counts them)\n',
    );
  });

  it('say nothing without a well-formed baseline or a count', () => {
    for (const baseline of [
      undefined,
      { file: 'b', hidden: '3', stale: [] },
      { file: 'b', hidden: 3, stale: 'x' },
    ]) {
      expect(policyNotesText(withPolicy(baseline))).toBe('');
      expect(policyNotesMarkdown(withPolicy(baseline), (t) => t)).toBe('');
    }
    expect(policyNotesText(withPolicy(undefined, { belowMinSeverity: '2' }))).toBe('');
  });

  it('follow the text and Markdown reports, are a section of the HTML page, and in no other format', () => {
    const report = withPolicy({ file: 'b.json', hidden: 1, stale: [] });
    expect(
      renderReport(report, 'text', { color: false }).endsWith(
        'checked\nbaseline b.json: 1 known finding hidden\n',
      ),
    ).toBe(true);
    expect(renderReport(report, 'markdown')).toContain('### Baseline and filters');
    expect(renderReport(report, 'html')).toContain('<li>baseline b.json: 1 known finding hidden</li>');
    for (const format of ['json', 'junit', 'sarif'] as const) {
      expect(renderReport(report, format)).not.toContain('known finding hidden');
    }
  });
});

describe('renderReport', () => {
  it('renders every format, JSON as the report itself', () => {
    expect(supportedFormats()).toEqual(['text', 'json', 'sarif', 'junit', 'markdown', 'html']);
    const report = checkReport();
    expect(JSON.parse(renderReport(report, 'json'))).toEqual(JSON.parse(JSON.stringify(report)));
    expect(renderReport(report, 'json')).toBe(renderJson(report));
    expect(renderReport(report, 'sarif', { cwd: '/repo', root: '/repo' })).toMatch(/^\{\n {2}"\$schema"/);
    expect(renderReport(report, 'junit')).toMatch(/^<\?xml/);
    expect(renderReport(report, 'markdown')).toMatch(/^#/);
    expect(renderReport(report, 'html')).toMatch(/^<!doctype html>/);
    expect(() => renderReport(report, 'yaml' as never)).toThrow('no renderer for format yaml');
  });

  it('renders an audit as the audit report, in text', () => {
    const report = auditReport();
    expect(renderReport(report, 'text', { color: false })).toBe(renderAuditText(report, { color: false }));
    expect(
      renderReport(report, 'text', { color: false }).startsWith('mcp-shape audit of node server.js'),
    ).toBe(true);
  });

  it('JSON: indented, with a final newline, and what a terminal obeys escaped', () => {
    const report = buildReport('check', [finding({ rule: 'r', message: 'a\u009b2Jb\u202e' })], 1);
    const json = renderJson(report);
    expect(json.startsWith('{\n  "schemaVersion": 1,')).toBe(true);
    expect(json.endsWith('}\n')).toBe(true);
    expect(json).toContain('a\\u009b2Jb\\u202e');
    expect(JSON.parse(json).findings[0].message).toBe('a\u009b2Jb\u202e');
  });
});

describe('details for people', () => {
  it("leaves out the text of an audit's raw responses, keeping their size", () => {
    const details = {
      target: 't',
      calls: [
        { call: 'a#1', response: { text: 'x'.repeat(100), bytes: 100 } },
        { call: 'b#1' },
        'odd',
        { call: 'c#1', response: 'raw' },
      ],
    };
    expect(detailsForPeople(details)).toEqual({
      target: 't',
      calls: [
        { call: 'a#1', response: { bytes: 100 } },
        { call: 'b#1' },
        'odd',
        { call: 'c#1', response: 'raw' },
      ],
    });
    expect(details.calls[0]).toEqual({ call: 'a#1', response: { text: 'x'.repeat(100), bytes: 100 } });
    const plain = { target: 't', calls: 'none' };
    expect(detailsForPeople(plain)).toEqual(plain);
    expect(detailsForPeople(plain)).not.toBe(plain);
  });
});

describe('how wide each value of the text report may be', () => {
  const long = (n: number, c: string) => c.repeat(n);

  it('gives a location 200 characters, a pointer 100, a message and a fix 240, the version line 1000', () => {
    const finding: Finding = {
      rule: 'no-such-rule',
      severity: 'error',
      message: long(230, 'm'),
      pointer: `/${long(150, 'p')}`,
      location: { file: long(190, 'f') },
      fix: { description: long(230, 'x'), automatic: false },
    };
    const verdict = long(900, 'v');
    const lines = renderText(buildReport('check', [finding], 1, { summary: { versionVerdict: verdict } }), {
      color: false,
    }).split('\n');
    expect(lines).toEqual([
      long(190, 'f'),
      `  error   /${long(98, 'p')}…  ${long(230, 'm')}  no-such-rule`,
      `          fix: ${long(230, 'x')}`,
      '',
      verdict,
      '✖ 1 error, 0 warnings, 0 infos in 1 document checked',
      '',
    ]);
  });

  it('gives the version verdict only when it is a line of text', () => {
    const verdictOfSummary = (versionVerdict: unknown) =>
      versionVerdictOf(buildReport('check', [], 1, { summary: { versionVerdict } }));
    expect(verdictOfSummary('fails 2025-03-26')).toBe('fails 2025-03-26');
    expect(verdictOfSummary('')).toBeUndefined();
    expect(verdictOfSummary(5)).toBeUndefined();
    expect(verdictOfSummary(undefined)).toBeUndefined();
  });

  it('gives a matrix row its reason in 120 characters, and a baseline headline 400', () => {
    const row = { protocolVersion: '2025-06-18', warnings: 0, infos: 0 } as const;
    const [, line] = matrixTextLines({
      all: true,
      versions: [{ ...row, verdict: 'fail', failing: 1, errors: 1, reasons: [long(150, 'r')] }],
    });
    expect(line).toBe(`2025-06-18  fail          1         0      0  ${long(119, 'r')}…`);
    const file = long(300, 'b');
    expect(
      policyNotesText(buildReport('check', [], 1, { details: { baseline: { file, hidden: 2, stale: [] } } })),
    ).toBe(`baseline ${file}: 2 known findings hidden\n`);
  });
});
