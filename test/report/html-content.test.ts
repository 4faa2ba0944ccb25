/**
 * What the HTML report says, as markup, without a browser: the verdict and counts, the severity
 * filter, each finding's body (rule, rationale in paragraphs, fix, places, clients, link), the version
 * matrix, the details, and an audit's header and tables. html.test.ts and html-audit.test.ts show the
 * page working in Chromium; these pin the content, and run where a mutation run can afford them.
 */

import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/core/finding.js';
import { buildReport } from '../../src/report/build.js';
import { renderHtml } from '../../src/report/html.js';
import {
  auditHeaderHtml,
  auditSectionsHtml,
  callFactHtml,
  esc,
  rulesSummaryHtml,
} from '../../src/report/html-sections.js';
import type { Report } from '../../src/report/types.js';
import { getRule } from '../../src/rules/catalog.js';
import { auditReport, checkReport, cleanReport, framedFinding, scanReport } from './fixtures.js';

/** The markup of the one finding whose message is `message`. */
function findingMarkup(html: string, message: string): string {
  const at = html.indexOf(`<span class="message">${message}</span>`);
  expect(at, message).toBeGreaterThan(-1);
  const start = html.lastIndexOf('<details class="finding', at);
  return html.slice(start, html.indexOf('</details>', at) + '</details>'.length);
}

/** The `<tbody>` rows of the table with class `name`, each cell's inner HTML. */
function tableRows(html: string, name: string): string[][] {
  const table = new RegExp(`<table class="${name}">[\\s\\S]*?</table>`).exec(html)?.[0] ?? '';
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(table)?.[1] ?? '';
  return [...body.matchAll(/<tr>(.*?)<\/tr>/g)].map((row) =>
    [...(row[1] ?? '').matchAll(/<td>(.*?)<\/td>/g)].map((cell) => cell[1] ?? ''),
  );
}

const finding = (over: Partial<Finding> & Pick<Finding, 'rule' | 'message'>): Finding => ({
  severity: 'error',
  pointer: '/x',
  ...over,
});

describe('HTML report: the verdict, counts and filter', () => {
  it('says what was checked, in the noun of the command, singular or plural', () => {
    expect(renderHtml(checkReport())).toContain(
      '<p class="verdict failed" data-run="failed">Failed (--fail-on error): 3 errors, 1 warning, 1 info in 8 documents checked</p>',
    );
    expect(renderHtml(auditReport())).toContain(
      '<p class="verdict failed" data-run="failed">Failed (--fail-on error): 2 errors, 2 warnings, 0 infos in 6 calls checked</p>',
    );
    expect(renderHtml(buildReport('scan', [], 1))).toContain(
      '<p class="verdict passed" data-run="passed">Passed (--fail-on error): 0 errors, 0 warnings, 0 infos in 1 file checked</p>',
    );
  });

  it('has one count card per severity and one for what was checked', () => {
    const html = renderHtml(checkReport());
    expect(html).toContain(
      [
        '<section class="summary" aria-label="Summary">',
        '<div class="count error" data-count="error"><span class="n">3</span>errors</div>',
        '<div class="count warning" data-count="warning"><span class="n">1</span>warnings</div>',
        '<div class="count info" data-count="info"><span class="n">1</span>info</div>',
        '<div class="count checked" data-count="checked"><span class="n">8</span>documents checked</div>',
        '</section>',
      ].join('\n'),
    );
  });

  it('offers a filter box for each severity present, and only those', () => {
    const html = renderHtml(
      buildReport(
        'check',
        [
          finding({ rule: 'envelope-extra-member', message: 'e' }),
          finding({ rule: 'envelope-extra-member', severity: 'info', message: 'i' }),
        ],
        1,
      ),
    );
    expect(html).toContain(
      '<fieldset><legend>Show</legend><label><input type="checkbox" data-filter="error" checked> errors</label><label><input type="checkbox" data-filter="info" checked> info</label></fieldset>',
    );
    expect(html).toContain('<button type="button" id="toggle-all" data-open="false">Expand all</button>');
    expect(html).not.toContain('<p class="ok">');
  });

  it('says "No findings." for a clean report, without a toolbar, rule summary or details', () => {
    const html = renderHtml(cleanReport());
    expect(html).toContain('<p class="ok">No findings.</p>');
    expect(html).not.toContain('class="toolbar"');
    expect(html).not.toContain('<section class="rules"');
    expect(html).not.toContain('report-details');
    expect(html).not.toContain('<section class="group">');
  });

  it('titles the page after the command', () => {
    const html = renderHtml(scanReport());
    expect(html).toContain('<title>mcp-shape scan report</title>');
    expect(html).toContain('<h1>mcp-shape scan report</h1>');
  });
});

describe('HTML report: a finding', () => {
  it('shows severity, pointer, message and rule in its summary, and (root) for the empty pointer', () => {
    const html = renderHtml(
      buildReport('check', [finding({ rule: 'envelope-extra-member', message: 'm', pointer: '' })], 1),
    );
    expect(html).toContain(
      '<details class="finding error" data-severity="error">\n<summary><span class="sev error">error</span><code class="pointer">(root)</code><span class="message">m</span><code class="rule-id">envelope-extra-member</code></summary>',
    );
    // A finding without a location is in the group of the document itself.
    expect(html).toContain('<section class="group">\n<h2>(document)</h2>');
  });

  it('carries the rule title, the rationale as paragraphs with code spans, the fix and the clients', () => {
    const rule = getRule('envelope-extra-member');
    const body = findingMarkup(
      renderHtml(checkReport()),
      esc('extra top-level member "requestId" in a JSON-RPC message'),
    );
    expect(body).toContain(`<h3>${rule?.title}</h3>`);
    expect(body).toContain(
      '<p>JSON-RPC 2.0 defines only <code>jsonrpc</code>, <code>id</code>, <code>method</code>, <code>params</code>, <code>result</code> and <code>error</code>. No MCP schema.json forbids',
    );
    expect(body).toContain(
      '<dt>Fix</dt><dd>Remove &quot;requestId&quot; from the envelope; move vendor data into `result._meta`. <em>(automatic with <code>mcp-shape repair</code>)</em></dd>',
    );
    expect(body).toContain(
      '<dt>Clients affected</dt><dd>TypeScript SDK v1 client (drops the message: the call hangs), TypeScript SDK v2 client (drops the message: the call hangs), Claude Code (drops the message: the call hangs), Gemini CLI (drops the message: the call hangs)<ul>',
    );
    expect(body).toContain(
      '<li><strong>TypeScript SDK v2 client</strong>: envelope schemas are still <code>.strict()</code>; the call times out <small>(@modelcontextprotocol/client 2.4.0 (envelope schemas are .strict()); reproduced, the call times out)</small></li>',
    );
    expect(body.match(/<li>/g)).toHaveLength(rule?.clients.length ?? -1);
    expect(body).toContain('<dt>Rule</dt><dd>envelope-extra-member</dd>');
  });

  it('splits a rationale of several paragraphs into as many, each on one line', () => {
    const rule = getRule('structured-content-not-object');
    const paragraphs = rule?.rationale.split(/\n\s*\n/) ?? [];
    expect(paragraphs.length).toBeGreaterThan(1);
    const body = findingMarkup(
      renderHtml(buildReport('check', [finding({ rule: 'structured-content-not-object', message: 'm' })], 1)),
      'm',
    );
    const shown = [...body.matchAll(/<p>(.*?)<\/p>/g)].map((m) => m[1] ?? '');
    expect(shown).toHaveLength(paragraphs.length);
    // Each paragraph on one line, its code spans as <code>.
    expect(shown.map((p) => p.replace(/<\/?code>/g, '`'))).toEqual(
      paragraphs.map((p) => esc(p.trim().replace(/\s*\n\s*/g, ' '))),
    );
  });

  it('says a fix is manual by leaving out the repair note', () => {
    const body = findingMarkup(
      renderHtml(
        buildReport(
          'check',
          [
            finding({
              rule: 'envelope-extra-member',
              message: 'm',
              fix: { description: 'do it', automatic: false },
            }),
          ],
          1,
        ),
      ),
      'm',
    );
    expect(body).toContain('<dt>Fix</dt><dd>do it</dd>');
  });

  it('names a rule outside the catalog by its id alone: no title, rationale or clients', () => {
    const body = findingMarkup(
      renderHtml(checkReport()),
      'structuredContent has no text block carrying the same data',
    );
    expect(body).not.toContain('<h3>');
    expect(body).not.toContain('<p>');
    expect(body).not.toContain('Clients affected');
    expect(body).toContain('<dl><dt>Rule</dt><dd>result-text-mirror-missing</dd></dl>');
  });

  it('links the rule id to its doc only with a docs base, and never a rule outside the catalog', () => {
    const html = renderHtml(checkReport(), { docsBaseUrl: 'https://example.test/rules' });
    expect(html).toContain(
      '<dt>Rule</dt><dd><a href="https://example.test/rules/envelope-extra-member.md" rel="noopener noreferrer">envelope-extra-member</a></dd>',
    );
    expect(html).toContain('<dt>Rule</dt><dd>result-text-mirror-missing</dd>');
  });

  it('says how often and where a folded finding was seen, the first 50 places', () => {
    const occurrences = Array.from({ length: 52 }, (_, n) => ({
      pointer: `/x/${n}`,
      location: { protocolVersion: '2025-06-18' },
    }));
    const folded: Finding = { ...finding({ rule: 'envelope-extra-member', message: 'm' }), occurrences };
    const body = findingMarkup(renderHtml(buildReport('check', [folded], 1)), 'm');
    const places = occurrences.slice(0, 50).map((o) => `2025-06-18 ${o.pointer}`);
    expect(body).toContain(`<dt>Seen 52 times</dt><dd>${places.join('; ')}; +2 more</dd>`);
  });

  it('says which call a finding of an audit came from, with the arguments it sent', () => {
    const calls = [
      {
        protocolVersion: '2025-06-18',
        tool: 's',
        call: 's#1',
        arguments: { q: 1 },
        argumentsFrom: 'synthesized',
        latencyMs: 1,
        outcome: 'result',
      },
    ];
    const audit = buildReport(
      'audit',
      [
        finding({
          rule: 'envelope-extra-member',
          message: 'm',
          location: { call: 's#1', protocolVersion: '2025-06-18' },
        }),
      ],
      1,
      { details: { versions: [], calls } },
    );
    expect(findingMarkup(renderHtml(audit), 'm')).toContain(
      '<dl><dt>Call</dt><dd><code>s#1</code> in 2025-06-18, arguments <code>{&quot;q&quot;:1}</code> (synthesized)</dd><dt>Clients affected</dt>',
    );
  });

  it('shows a scan finding with its code frame', () => {
    const body = findingMarkup(renderHtml(buildReport('scan', [framedFinding()], 1)), 'unknown type');
    expect(body).toContain('<pre class="frame"><span class="ctx">1 | a</span>');
  });
});

describe('HTML report: versions and details', () => {
  const matrixReport = (extra: { verdict?: string; all?: boolean }) =>
    buildReport('check', [], 1, {
      summary: extra.verdict === undefined ? {} : { versionVerdict: extra.verdict },
      details: {
        versionMatrix: {
          all: extra.all ?? false,
          versions: [
            {
              protocolVersion: '2025-03-26',
              verdict: 'fail',
              errors: 2,
              warnings: 1,
              infos: 0,
              reasons: ['<no> structuredContent'],
            },
            { protocolVersion: '2025-06-18', verdict: 'pass', errors: 0, warnings: 0, infos: 3, reasons: [] },
          ],
        },
        source: 'x.json',
      },
    });

  it('shows the version verdict and the matrix, a row per version with why it fails', () => {
    const html = renderHtml(matrixReport({ verdict: 'valid for 2025-06-18; fails 2025-03-26' }));
    expect(html).toContain(
      '<section class="versions" aria-label="Protocol versions">\n<p class="version-verdict">valid for 2025-06-18; fails 2025-03-26</p>\n<table>',
    );
    expect(html).toContain(
      '<tr data-version="2025-03-26"><td>2025-03-26</td><td class="fail">fail</td><td>2</td><td>1</td><td>0</td><td>&lt;no&gt; structuredContent (+1 more)</td></tr>',
    );
    expect(html).toContain(
      '<tr data-version="2025-06-18"><td>2025-06-18</td><td class="pass">pass</td><td>0</td><td>0</td><td>3</td><td></td></tr>',
    );
  });

  it('shows the version verdict alone when the matrix was not asked for', () => {
    const html = renderHtml(buildReport('check', [], 1, { summary: { versionVerdict: 'fails 2025-03-26' } }));
    expect(html).toContain(
      '<section class="versions" aria-label="Protocol versions">\n<p class="version-verdict">fails 2025-03-26</p>\n</section>',
    );
  });

  it('shows the matrix without a verdict line when asked for every version, and nothing when neither', () => {
    const all = renderHtml(matrixReport({ all: true }));
    expect(all).toContain('<section class="versions" aria-label="Protocol versions">\n<table>');
    expect(all).not.toContain('version-verdict');
    expect(renderHtml(matrixReport({}))).not.toContain('<section class="versions"');
  });

  it('shows the details other than the matrix as JSON, and none when only the matrix is there', () => {
    const html = renderHtml(matrixReport({ all: true }));
    expect(html).toContain(
      '<details class="report-details"><summary>Details</summary><pre>{\n  &quot;source&quot;: &quot;x.json&quot;\n}</pre></details>',
    );
    const only = buildReport('check', [], 1, { details: { versionMatrix: { all: true, versions: [] } } });
    expect(renderHtml(only)).not.toContain('report-details');
  });
});

describe('HTML report: sections', () => {
  it('summarizes rules worst first, then by count, then by id, each with its title', () => {
    const findings = [
      finding({ rule: 'tool-name-invalid', severity: 'warning', message: 'a' }),
      finding({ rule: 'envelope-extra-member', message: 'b' }),
      finding({ rule: 'block-mime-type-missing', message: 'c' }),
      finding({ rule: 'envelope-extra-member', message: 'd' }),
      finding({ rule: 'block-mime-type-missing', message: 'e' }),
      finding({ rule: 'block-audio-invalid', message: 'f' }),
      finding({ rule: 'unknown-rule', severity: 'info', message: 'g' }),
    ];
    const rows = tableRows(rulesSummaryHtml(findings), 'rules');
    expect(rows).toEqual([
      [
        '<code>block-mime-type-missing</code>',
        '<span class="sev error">error</span>',
        '2',
        esc(getRule('block-mime-type-missing')?.title ?? ''),
      ],
      [
        '<code>envelope-extra-member</code>',
        '<span class="sev error">error</span>',
        '2',
        esc(getRule('envelope-extra-member')?.title ?? ''),
      ],
      [
        '<code>block-audio-invalid</code>',
        '<span class="sev error">error</span>',
        '1',
        esc(getRule('block-audio-invalid')?.title ?? ''),
      ],
      [
        '<code>tool-name-invalid</code>',
        '<span class="sev warning">warning</span>',
        '1',
        esc(getRule('tool-name-invalid')?.title ?? ''),
      ],
      ['<code>unknown-rule</code>', '<span class="sev info">info</span>', '1', ''],
    ]);
    expect(rulesSummaryHtml([])).toBe('');
    expect(rulesSummaryHtml(findings, 'https://d.test/r/')).toContain(
      '<a href="https://d.test/r/block-mime-type-missing.md" rel="noopener noreferrer"><code>block-mime-type-missing</code></a>',
    );
  });

  it("an audit's header: server, target, transport and date; nothing for other commands", () => {
    const report = (details: Record<string, unknown>, command: Report['command'] = 'audit') =>
      buildReport(command, [], 0, { details: { versions: [], ...details } });
    expect(
      auditHeaderHtml(
        report({
          server: { name: 'srv', version: '1.2' },
          target: 'node s.js',
          transport: 'stdio',
          startedAt: '2026-01-02T03:04:05.678Z',
        }),
      ),
    ).toBe(
      '<dl class="facts"><div><dt>Server</dt><dd data-fact="server">srv 1.2</dd></div><div><dt>Target</dt><dd data-fact="target">node s.js</dd></div><div><dt>Transport</dt><dd data-fact="transport">stdio</dd></div><div><dt>Date</dt><dd data-fact="date">2026-01-02 03:04:05 UTC</dd></div></dl>',
    );
    expect(auditHeaderHtml(report({ server: {} }))).toBe(
      '<dl class="facts"><div><dt>Server</dt><dd data-fact="server">?</dd></div></dl>',
    );
    expect(auditHeaderHtml(report({ server: null, target: 1, transport: 2, startedAt: 3 }))).toBe(
      '<dl class="facts"></dl>',
    );
    expect(auditHeaderHtml(report({ target: 'x' }, 'check'))).toBe('');
    expect(auditHeaderHtml(buildReport('audit', [], 0))).toBe('');
    expect(auditSectionsHtml(report({ target: 'x' }, 'scan'))).toBe('');
  });

  it("an audit's versions, with every status said in words", () => {
    const html = auditSectionsHtml(
      buildReport('audit', [], 0, {
        details: {
          versions: [
            { requested: '2025-06-18', status: 'audited', answered: '2025-06-18', tools: 3, calls: 0 },
            { requested: '2025-03-26', status: 'same-as', sameAs: '2025-06-18' },
            { requested: '2024-11-05', status: 'same-as' },
            { requested: '2025-11-25', status: 'refused', detail: 'answered "<2024-11-05>"' },
            { requested: '2026-07-28', status: 'failed' },
          ],
          tools: 'not a list',
        },
      }),
    );
    expect(
      html.startsWith(
        '<section class="audit" aria-label="Audit">\n<table class="audit-versions">\n<caption>Protocol versions</caption>',
      ),
    ).toBe(true);
    expect(tableRows(html, 'audit-versions')).toEqual([
      [
        '<code>2025-06-18</code>',
        '<span class="status audited">audited</span>',
        '<code>2025-06-18</code>',
        '3',
        '0',
        '',
      ],
      ['<code>2025-03-26</code>', '<span class="status same-as">same as 2025-06-18</span>', '', '', '', ''],
      ['<code>2024-11-05</code>', '<span class="status same-as">same as ?</span>', '', '', '', ''],
      [
        '<code>2025-11-25</code>',
        '<span class="status refused">not supported</span>',
        '',
        '',
        '',
        'answered &quot;&lt;2024-11-05&gt;&quot;',
      ],
      ['<code>2026-07-28</code>', '<span class="status failed">failed</span>', '', '', '', ''],
    ]);
    expect(html).not.toContain('tools-called');
    expect(html).not.toContain('tools-not-called');
    expect(html).not.toContain('comparison');
  });

  it("an audit's tools called and not called, with why and what was skipped", () => {
    const html = auditSectionsHtml(
      buildReport('audit', [], 0, {
        details: {
          versions: [],
          tools: [
            {
              name: 'a',
              called: true,
              because: 'readOnlyHint',
              calls: 2,
              versions: [],
              skipped: ['x bad', 'y bad'],
            },
            { name: 'b', called: true, calls: 1, versions: [] },
            { name: 'c', called: false, reason: 'not read-only', calls: 0, versions: [] },
            { name: 'd', called: false, calls: 0, versions: [], skipped: ['p', 'q'] },
            { name: 'e', called: false, calls: 0, versions: [] },
          ],
        },
      }),
    );
    expect(tableRows(html, 'tools-called')).toEqual([
      ['<code>a</code>', '2', 'readOnlyHint', 'x bad; y bad'],
      ['<code>b</code>', '1', '', ''],
    ]);
    expect(tableRows(html, 'tools-not-called')).toEqual([
      ['<code>c</code>', 'not read-only'],
      ['<code>d</code>', 'p; q'],
      ['<code>e</code>', ''],
    ]);
    expect(html).toContain(
      '<caption>Tools called</caption>\n<thead><tr><th scope="col">Tool</th><th scope="col">Calls</th><th scope="col">Why</th><th scope="col">Skipped</th></tr></thead>',
    );
  });

  it("an audit's version comparison, from the clients' side", () => {
    const html = auditSectionsHtml(
      buildReport('audit', [], 0, {
        details: {
          versions: [],
          comparison: [
            {
              rule: 'envelope-extra-member',
              severity: 'error',
              tool: 't',
              pointer: '/a/*',
              presentIn: ['2024-11-05', '2025-03-26'],
              absentIn: ['2025-06-18'],
              reaches: 'older',
            },
            {
              rule: 'unknown-rule',
              severity: 'error',
              pointer: '',
              presentIn: ['2025-06-18'],
              absentIn: [],
              reaches: 'newer',
            },
            {
              rule: 'unknown-rule',
              severity: 'error',
              pointer: '',
              presentIn: [],
              absentIn: [],
              reaches: 'some',
            },
          ],
        },
      }),
      'https://d.test/',
    );
    expect(tableRows(html, 'comparison')).toEqual([
      [
        '<a href="https://d.test/envelope-extra-member.md" rel="noopener noreferrer"><code>envelope-extra-member</code></a>',
        '<code>t</code>',
        '<code>/a/*</code>',
        '2024-11-05, 2025-03-26',
        '2025-06-18',
        'older clients only',
      ],
      ['<code>unknown-rule</code>', '', '', '2025-06-18', '', 'newer clients only'],
      ['<code>unknown-rule</code>', '', '', '', '', 'some clients'],
    ]);
  });

  it("a finding's call, with the arguments it sent, matched on call and version", () => {
    const calls = [
      {
        protocolVersion: '2025-03-26',
        tool: 's',
        call: 's#1',
        arguments: { q: 'old' },
        argumentsFrom: 'synthesized',
        latencyMs: 1,
        outcome: 'result',
      },
      {
        protocolVersion: '2025-06-18',
        tool: 's',
        call: 's#1',
        arguments: { q: '<b>\u001b' },
        argumentsFrom: '--args',
        latencyMs: 1,
        outcome: 'result',
      },
    ];
    const report = buildReport('audit', [], 2, { details: { versions: [], calls } });
    const at = (call: string | undefined, protocolVersion: string) =>
      callFactHtml(
        { ...finding({ rule: 'r', message: 'm' }), location: { ...(call ? { call } : {}), protocolVersion } },
        report,
      );
    expect(at('s#1', '2025-06-18')).toBe(
      '<dt>Call</dt><dd><code>s#1</code> in 2025-06-18, arguments <code>{&quot;q&quot;:&quot;&lt;b&gt;\\u001b&quot;}</code> (--args)</dd>',
    );
    expect(at('s#1', '2025-03-26')).toContain('{&quot;q&quot;:&quot;old&quot;}');
    expect(at('s#2', '2025-06-18')).toBe('');
    expect(at(undefined, '2025-06-18')).toBe('');
    expect(
      callFactHtml(
        { ...finding({ rule: 'r', message: 'm' }), location: { call: 's#1', protocolVersion: '2025-06-18' } },
        buildReport('check', [], 1),
      ),
    ).toBe('');
  });

  it('escapes and shows control characters in every string', () => {
    expect(esc('<a href="x">\u001b[2J</a> & \'')).toBe(
      '&lt;a href=&quot;x&quot;&gt;\\x1b[2J&lt;/a&gt; &amp; &#39;',
    );
  });
});

describe('HTML report: the page around the findings, byte for byte', () => {
  const warn = (rule: string, message: string, file?: string): Finding =>
    finding({ rule, message, severity: 'warning', ...(file ? { location: { file } } : {}) });

  it('puts a section a location, its findings one a line, with the pointer in each summary', () => {
    const html = renderHtml(
      buildReport(
        'check',
        [warn('r-one', 'm1', 'a.json'), warn('r-two', 'm2', 'a.json'), warn('r-one', 'm3', 'b.json')],
        2,
      ),
    );
    const details = (rule: string, message: string) =>
      [
        '<details class="finding warning" data-severity="warning">',
        `<summary><span class="sev warning">warning</span><code class="pointer">/x</code><span class="message">${message}</span><code class="rule-id">${rule}</code></summary>`,
        `<div class="body">\n<dl><dt>Rule</dt><dd>${rule}</dd></dl></div>`,
        '</details>',
      ].join('\n');
    expect(html.slice(html.indexOf('<main>'), html.indexOf('</main>') + '</main>'.length)).toBe(
      [
        '<main>',
        '<section class="group">',
        '<h2>a.json</h2>',
        details('r-one', 'm1'),
        details('r-two', 'm2'),
        '</section>',
        '<section class="group">',
        '<h2>b.json</h2>',
        details('r-one', 'm3'),
        '</section>',
        '<p id="filtered-out" class="empty" hidden>No findings match the severity filter.</p>',
        '</main>',
      ].join('\n'),
    );
    // No version section and no details: nothing but the line breaks around where they would be.
    expect(html).toContain('documents checked</div>\n</section>\n\n<section class="rules"');
    expect(html).toContain('</main>\n\n<script>');
  });

  it('names the clients a catalog rule breaks, each with what it does and the source, and none for a rule without', () => {
    const body = findingMarkup(
      renderHtml(
        buildReport(
          'check',
          [warn('block-mime-type-malformed', 'mm'), warn('result-server-info-invalid', 'rt')],
          1,
        ),
      ),
      'mm',
    );
    expect(body).toContain(
      '<dt>Clients affected</dt><dd>OpenAI Codex (misreads it), LibreChat (misreads it)<ul><li><strong>OpenAI Codex</strong>: sends the image to the model as a <code>data:&lt;mimeType&gt;;base64</code> URL built from the declared type <small>(codex-rs/protocol/src/models.rs (inferred))</small></li><li><strong>LibreChat</strong>: builds an <code>image_url</code> artifact <code>data:&lt;mime&gt;;base64,…</code> from the declared type <small>(LibreChat packages/api/src/mcp/parsers.ts (inferred))</small></li></ul></dd><dt>Rule</dt>',
    );
    const none = findingMarkup(
      renderHtml(buildReport('check', [warn('result-server-info-invalid', 'rt')], 1)),
      'rt',
    );
    expect(none).not.toContain('Clients affected');
    expect(none).toContain('<dl><dt>Rule</dt><dd>result-server-info-invalid</dd></dl>');
  });

  it('shows the version verdict and the matrix as one table', () => {
    const html = renderHtml(
      buildReport('check', [], 1, {
        summary: { versionVerdict: 'fails 2025-03-26' },
        details: {
          versionMatrix: {
            all: false,
            versions: [
              {
                protocolVersion: '2025-03-26',
                verdict: 'fail',
                errors: 2,
                warnings: 0,
                infos: 1,
                reasons: ['bad <x>'],
              },
            ],
          },
        },
      }),
    );
    const start = html.indexOf('<section class="versions"');
    expect(html.slice(start, html.indexOf('</section>', start) + '</section>'.length)).toBe(
      [
        '<section class="versions" aria-label="Protocol versions">',
        '<p class="version-verdict">fails 2025-03-26</p>',
        '<table><thead><tr><th>Protocol version</th><th>Verdict</th><th>Errors</th><th>Warnings</th><th>Info</th><th>Fails because</th></tr></thead><tbody>',
        '<tr data-version="2025-03-26"><td>2025-03-26</td><td class="fail">fail</td><td>2</td><td>0</td><td>1</td><td>bad &lt;x&gt; (+1 more)</td></tr>',
        '</tbody></table>',
        '</section>',
      ].join('\n'),
    );
  });
});
