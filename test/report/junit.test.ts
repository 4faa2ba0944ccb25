import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/core/finding.js';
import { buildReport } from '../../src/report/build.js';
import { renderJunit } from '../../src/report/junit.js';
import type { Report } from '../../src/report/types.js';
import { escapeHtml, escapeXmlAttribute, escapeXmlText, toXmlChars } from '../../src/report/xml.js';
import { REPO_ROOT, runNode } from '../support/cli.js';
import {
  auditReport,
  checkReport,
  cleanReport,
  framedFinding,
  HOSTILE_MESSAGE_SHOWN,
  hostileReport,
  scanReport,
} from './fixtures.js';

interface Failure {
  readonly '#text': string;
  readonly type: string;
  readonly message: string;
}
interface TestCase {
  readonly name: string;
  readonly classname: string;
  readonly file?: string;
  readonly failure?: Failure;
  readonly 'system-out'?: string;
  readonly skipped?: { readonly message: string };
}
interface TestSuite {
  readonly name: string;
  readonly tests: string;
  readonly failures: string;
  readonly skipped: string;
  readonly testcase?: TestCase[];
}
interface Parsed {
  readonly testsuites: {
    readonly name: string;
    readonly tests: string;
    readonly failures: string;
    readonly skipped: string;
    readonly testsuite?: TestSuite[];
  };
}

/** Characters XML 1.0 forbids; fast-xml-parser's validator does not check them, so the test does. */
const INVALID_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

function parse(report: Report): { xml: string; doc: Parsed; suites: TestSuite[]; cases: TestCase[] } {
  const xml = renderJunit(report);
  expect(XMLValidator.validate(xml)).toBe(true);
  expect(xml).not.toMatch(INVALID_XML_CHAR);
  const doc = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    trimValues: false,
    // Decodes character references such as &#10; in attributes.
    htmlEntities: true,
    isArray: (name) => name === 'testsuite' || name === 'testcase',
  }).parse(xml) as Parsed;
  const suites = doc.testsuites.testsuite ?? [];
  return { xml, doc, suites, cases: suites.flatMap((s) => s.testcase ?? []) };
}

function expectConsistentCounts(doc: Parsed, suites: TestSuite[], cases: TestCase[]): void {
  expect(Number(doc.testsuites.tests)).toBe(cases.length);
  expect(Number(doc.testsuites.failures)).toBe(cases.filter((c) => c.failure).length);
  expect(Number(doc.testsuites.skipped)).toBe(cases.filter((c) => c.skipped).length);
  for (const suite of suites) {
    expect(Number(suite.tests)).toBe(suite.testcase?.length ?? 0);
    expect(Number(suite.failures)).toBe((suite.testcase ?? []).filter((c) => c.failure).length);
    expect(Number(suite.skipped)).toBe((suite.testcase ?? []).filter((c) => c.skipped).length);
  }
}

describe('JUnit report', () => {
  it('check session: a suite per file, version and tool; a testcase per line; clean lines counted', () => {
    const report = checkReport();
    const { doc, suites, cases } = parse(report);
    expectConsistentCounts(doc, suites, cases);
    expect(doc.testsuites.name).toBe('mcp-shape check');
    expect(suites.map((s) => s.name)).toEqual([
      'session.jsonl · 2025-06-18 · tool get_weather',
      'mcp-shape check',
    ]);
    expect(cases.map((c) => c.name)).toEqual([
      'line 3 · call 2',
      'line 5 · call 3',
      'line 7 · call 4',
      '5 other documents: no findings',
    ]);
    // 8 documents checked: 3 with findings + 5 clean.
    expect(Number(doc.testsuites.tests)).toBe(4);
    // Line 3 (errors) and line 5 (a warning) fail; line 7 only has advice.
    expect(Number(doc.testsuites.failures)).toBe(2);
    const [line3, line5, line7] = cases;
    expect(line3?.file).toBe('session.jsonl');
    expect(line3?.failure?.type).toBe('error');
    expect(line3?.failure?.message).toBe(
      '3 errors: extra top-level member "requestId" in a JSON-RPC message …',
    );
    const body = line3?.failure?.['#text'] ?? '';
    for (const f of report.findings.slice(0, 3)) {
      expect(body).toContain(`error ${f.rule} at ${f.pointer}\n${f.message}`);
    }
    expect(body).toContain(
      'fix: Remove "requestId" from the envelope; move vendor data into `result._meta`. (repairable)',
    );
    expect(body).toContain('breaks: TypeScript SDK v1 client (drops the message: the call hangs)');
    // No homepage in package.json: the rule's title stands in for a link that would be dead in CI.
    expect(body).toContain('rule: JSON-RPC messages must not carry extra top-level members');
    expect(body).not.toContain('docs:');
    expect(renderJunit(report, { docsBaseUrl: 'https://example.test/rules/' })).toContain(
      'docs: https://example.test/rules/envelope-extra-member.md',
    );
    expect(line5?.failure?.type).toBe('warning');
    expect(line5?.failure?.message).toBe(
      '1 warning: structuredContent has no text block carrying the same data',
    );
    expect(line7?.failure).toBeUndefined();
    expect(line7?.['system-out']).toContain('info result-image-beside-structured at /result/content/1');
  });

  it('audit: a suite per protocol version and tool; calls and tool definitions as testcases', () => {
    const { doc, suites, cases } = parse(auditReport());
    expectConsistentCounts(doc, suites, cases);
    expect(suites.map((s) => [s.name, (s.testcase ?? []).map((c) => c.name)])).toEqual([
      ['2025-06-18 · tool search', ['call search#1']],
      ['2025-11-25 · tool fetch page', ['tool definition']],
      ['2025-11-25 · tool search', ['call search#1']],
      // 6 calls made, 2 of them with findings (the tool definition is not a call).
      ['mcp-shape audit', ['4 other calls: no findings', 'tool delete_all: not called']],
    ]);
    expect(cases.map((c) => c.failure?.type)).toEqual(['error', 'warning', 'error', undefined, undefined]);
    // The tool the audit did not call is a skipped testcase that says why.
    expect(doc.testsuites.skipped).toBe('1');
    expect(cases[4]?.skipped?.message).toBe(
      'not read-only; use --call delete_all, --call-all or --args to call it',
    );
    expect(cases[2]?.failure?.message).toBe(
      '1 error, 1 warning: extra top-level member "requestId" in a JSON-RPC message …',
    );
  });

  it('scan: a suite per file, a testcase per source line, clean files counted', () => {
    const { doc, suites, cases } = parse(scanReport());
    expectConsistentCounts(doc, suites, cases);
    expect(suites.map((s) => [s.name, (s.testcase ?? []).map((c) => c.name)])).toEqual([
      ['src/server.ts', ['line 12:5', 'line 30:14']],
      ['tools.py', ['line 8:12']],
      ['mcp-shape scan', ['2 other files: no findings']],
    ]);
    expect(cases.filter((c) => c.failure).map((c) => c.file)).toEqual([
      'src/server.ts',
      'src/server.ts',
      'tools.py',
    ]);
  });

  it('a clean run is one passing testcase', () => {
    const { doc, suites, cases } = parse(cleanReport());
    expectConsistentCounts(doc, suites, cases);
    expect(cases).toEqual([{ name: '3 documents: no findings', classname: 'mcp-shape check' }]);
  });

  it('escapes markup and quotes and replaces characters XML 1.0 forbids', () => {
    const { xml, cases } = parse(hostileReport());
    expect(xml).not.toContain('<script>');
    expect(xml).not.toContain('<img');
    const [testCase] = cases;
    expect(testCase?.name).toBe('document');
    expect(testCase?.classname).toBe('evil"<b>.json · 2025-06-18 · tool <script>x</script>');
    expect(testCase?.file).toBe('evil"<b>.json');
    const expected = HOSTILE_MESSAGE_SHOWN;
    expect(testCase?.failure?.['#text']).toContain(`\n${expected}\n`);
    expect(testCase?.failure?.message).toBe(`1 error, 1 warning: ${expected} …`);
    expect(testCase?.failure?.['#text']).toContain(
      'warning result-text-mirror-missing at (root)\na warning with <b>markup</b> & "quotes"',
    );
  });

  it('keeps line breaks in attribute values as character references', () => {
    const escaped = escapeXmlAttribute('a\nb\tc\r"\'<&>');
    expect(escaped).toBe('a&#10;b&#9;c&#13;&quot;&apos;&lt;&amp;&gt;');
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', htmlEntities: true }).parse(
      `<x v="${escaped}"/>`,
    ) as { x: { v: string } };
    expect(doc.x.v).toBe('a\nb\tc\r"\'<&>');
  });

  it('replaces forbidden characters but keeps tabs, newlines, astral characters and U+FFFD itself', () => {
    expect(toXmlChars('a\u0000b\u0008c\u000Bd\u001Fe\uFFFEf\uFFFFg\uDC00h')).toBe(
      'a\uFFFDb\uFFFDc\uFFFDd\uFFFDe\uFFFDf\uFFFDg\uFFFDh',
    );
    expect(toXmlChars('tab\tnl\ncr\r😀\uFFFD\u00e9')).toBe('tab\tnl\ncr\r😀\uFFFD\u00e9');
    expect(escapeXmlText(']]> & <')).toBe(']]&gt; &amp; &lt;');
  });
});

describe('JUnit report, exactly', () => {
  const at = (
    file: string,
    line: number,
    severity: Finding['severity'],
    rule = 'block-mime-type-missing',
  ): Finding => ({
    rule,
    severity,
    message: `${severity} in ${file}`,
    pointer: '/content/0',
    location: { file, line },
    fix: { description: 'set mimeType', automatic: false },
  });

  it("puts check's version matrix on the first suite only, as properties and as output", () => {
    const report = buildReport('check', [at('a.json', 1, 'error'), at('b.json', 2, 'warning')], 2, {
      summary: { versionVerdict: 'valid for 2025-06-18; fails 2024-11-05' },
      details: {
        versionMatrix: {
          all: true,
          versions: [
            {
              protocolVersion: '2024-11-05',
              verdict: 'fail',
              errors: 2,
              warnings: 1,
              infos: 0,
              reasons: ['r1'],
            },
            { protocolVersion: '2025-06-18', verdict: 'pass', errors: 0, warnings: 1, infos: 1, reasons: [] },
          ],
        },
      },
    });
    const xml = renderJunit(report).split('\n');
    expect(xml.slice(0, 8)).toEqual([
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<testsuites name="mcp-shape check" tests="2" failures="2" errors="0" skipped="0">',
      '  <testsuite name="a.json" tests="1" failures="1" errors="0" skipped="0">',
      '    <properties>',
      '      <property name="protocol versions" value="valid for 2025-06-18; fails 2024-11-05"/>',
      '      <property name="protocol 2024-11-05" value="fail: 2 errors, 1 warning, 0 infos"/>',
      '      <property name="protocol 2025-06-18" value="pass: 0 errors, 1 warning, 1 info"/>',
      '    </properties>',
    ]);
    // The first suite closes with the matrix as output; the second has neither.
    expect(xml.join('\n')).toContain(
      [
        '    <system-out>valid for 2025-06-18; fails 2024-11-05',
        '2024-11-05: fail r1 (+1 more)',
        '2025-06-18: pass</system-out>',
        '  </testsuite>',
        '  <testsuite name="b.json" tests="1" failures="1" errors="0" skipped="0">',
        '    <testcase name="line 2" classname="b.json" file="b.json">',
      ].join('\n'),
    );
    expect(xml.filter((l) => l.includes('<properties>') || l.includes('<system-out>'))).toHaveLength(2);
  });

  it('has no matrix output for one version asked that agrees with the others', () => {
    const matrix = {
      all: false,
      versions: [
        { protocolVersion: '2025-06-18', verdict: 'pass', errors: 0, warnings: 0, infos: 0, reasons: [] },
      ],
    };
    const xml = renderJunit(buildReport('check', [], 1, { details: { versionMatrix: matrix } }));
    expect(xml).toContain(
      '<property name="protocol 2025-06-18" value="pass: 0 errors, 0 warnings, 0 infos"/>',
    );
    expect(xml).not.toContain('protocol versions');
    expect(xml).not.toContain('<system-out>');
    // With the verdict line but not every version, the output is that line alone.
    const withLine = buildReport('check', [], 1, {
      summary: { versionVerdict: 'fails 2024-11-05' },
      details: { versionMatrix: matrix },
    });
    expect(renderJunit(withLine)).toContain('    <system-out>fails 2024-11-05</system-out>');
    // No matrix at all: no properties, no output, nothing but the one clean testcase.
    expect(renderJunit(buildReport('check', [], 1))).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<testsuites name="mcp-shape check" tests="1" failures="0" errors="0" skipped="0">',
        '  <testsuite name="mcp-shape check" tests="1" failures="0" errors="0" skipped="0">',
        '    <testcase name="1 document: no findings" classname="mcp-shape check"/>',
        '  </testsuite>',
        '</testsuites>',
        '',
      ].join('\n'),
    );
    // The verdict line without a matrix is still output.
    const lineOnly = buildReport('check', [], 1, { summary: { versionVerdict: 'fails 2024-11-05' } });
    expect(renderJunit(lineOnly)).toContain('    <system-out>fails 2024-11-05</system-out>');
    // Every version asked for, none failing: the rows alone.
    const allPass = buildReport('check', [], 1, { details: { versionMatrix: { ...matrix, all: true } } });
    expect(renderJunit(allPass)).toContain('    <system-out>2025-06-18: pass</system-out>');
  });

  it('lists failures and advice apart, each finding described in full', () => {
    const findings: Finding[] = [
      at('a.json', 1, 'error'),
      {
        ...at('a.json', 1, 'warning', 'tool-name-format'),
        fix: { description: 'rename it', automatic: true },
      },
      at('a.json', 1, 'info', 'result-server-info-invalid'),
      { ...at('a.json', 1, 'info', 'not-a-rule'), fix: undefined },
    ];
    const xml = renderJunit(buildReport('check', findings, 1));
    const mime = 'rule: Image and audio blocks need a mimeType\nfix: set mimeType';
    expect(xml).toContain(
      [
        '    <testcase name="line 1" classname="a.json" file="a.json">',
        '      <failure type="error" message="1 error, 1 warning: error in a.json …">error block-mime-type-missing at /content/0',
        'error in a.json',
        mime,
      ].join('\n'),
    );
    // Failures are separated by a blank line; a repairable fix says so; a rule without clients has no
    // "breaks" line; a rule outside the catalog no title; advice goes to the output, not the failure.
    expect(xml).toContain(
      [
        ' VS Code Copilot Chat (misreads it)',
        '',
        'warning tool-name-format at /content/0',
        'warning in a.json',
        'rule: Tool names should be 1–128 characters of `A-Z a-z 0-9 _ - .`',
        'fix: rename it (repairable)</failure>',
        '      <system-out>info result-server-info-invalid at /content/0',
        'info in a.json',
        'rule: `_meta["io.modelcontextprotocol/serverInfo"]` must be an Implementation',
        'fix: set mimeType',
        '',
        'info not-a-rule at /content/0',
        'info in a.json</system-out>',
        '    </testcase>',
      ].join('\n'),
    );
    // Only advice: no failure.
    const advice = renderJunit(
      buildReport('check', [at('a.json', 1, 'info', 'result-server-info-invalid')], 1),
    );
    expect(advice).not.toContain('<failure');
    expect(advice).toContain('failures="0"');
  });

  it("shows a scan finding's code frame in the failure", () => {
    const finding = framedFinding();
    expect(renderJunit(buildReport('scan', [finding], 1))).toContain(
      '\n  1 | a\n&gt; 2 |   x()\n    |   ^^^\n  3 | b</failure>',
    );
  });

  it('names units without a location: the document, the server, a file-less scan', () => {
    const bare = (command: 'check' | 'audit' | 'scan', checked: number) =>
      parse(
        buildReport(
          command,
          [{ rule: 'result-not-object', severity: 'error', message: 'm', pointer: '' }],
          checked,
        ),
      );
    expect(bare('check', 1).cases.map((c) => [c.name, c.classname])).toEqual([
      ['document', 'mcp-shape check'],
    ]);
    expect(bare('audit', 2).cases.map((c) => c.name)).toEqual(['server', '2 other calls: no findings']);
    expect(bare('scan', 2).cases.map((c) => c.name)).toEqual(['document', '1 other file: no findings']);
    // Every checked unit had findings: no "other" testcase; nothing checked at all: one clean one.
    expect(bare('check', 1).cases).toHaveLength(1);
    expect(parse(buildReport('check', [], 0)).cases.map((c) => c.name)).toEqual(['0 documents: no findings']);
  });

  it("skips only an audit's tools marked not called, whatever else details.tools holds", () => {
    const tools = [
      null,
      'get',
      { name: 5, called: false },
      { name: 'a', called: false },
      { name: 'b', called: true },
      { name: 'c', called: false, reason: 'why' },
    ];
    const skipped = (report: Report) =>
      parse(report)
        .cases.filter((c) => c.skipped)
        .map((c) => [c.name, c.skipped?.message]);
    expect(parse(buildReport('audit', [], 1, { details: { tools } })).cases.map((c) => c.name)).toEqual([
      '1 call: no findings',
      'tool a: not called',
      'tool c: not called',
    ]);
    expect(skipped(buildReport('audit', [], 1, { details: { tools } }))).toEqual([
      ['tool a: not called', 'not called'],
      ['tool c: not called', 'why'],
    ]);
    expect(skipped(buildReport('check', [], 1, { details: { tools } }))).toEqual([]);
    expect(skipped(buildReport('audit', [], 1))).toEqual([]);
  });
});

describe('escapeHtml', () => {
  it('escapes markup and both quotes, and replaces characters XML forbids', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>\u0000`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;\uFFFD',
    );
    expect(escapeHtml('plain text')).toBe('plain text');
  });
});

describe('JUnit report of a very large run', () => {
  // Each line's test case was looked up in a list of the cases before it: 60,000 findings took 24 s,
  // 100,000 over a minute. Rendered in a child process, so that a render that never ends is killed;
  // the limit is a stall guard, not a measure: the render takes seconds.
  it('has a test case for each of 100,000 failing lines', { timeout: 150_000 }, async () => {
    const script = join(mkdtempSync(join(tmpdir(), 'mcp-shape-junit-')), 'render.ts');
    const source = (path: string) => JSON.stringify(pathToFileURL(join(REPO_ROOT, path)).href);
    writeFileSync(
      script,
      [
        `import { buildReport } from ${source('src/report/build.ts')};`,
        `import { renderJunit } from ${source('src/report/junit.ts')};`,
        'const count = 100_000;',
        'const findings = Array.from({ length: count }, (_, i) => ({',
        "  rule: 'block-type-unknown', severity: 'error' as const, message: 'unknown type kind' + i,",
        "  pointer: '/result/content/0/type',",
        "  location: { file: 'many.ndjson', line: i + 1, protocolVersion: '2025-11-25', call: String(i) },",
        '}));',
        "const xml = renderJunit(buildReport('check', findings, count));",
        "const cases = xml.split('<testcase ').length - 1;",
        "process.stdout.write([xml.split('\\n', 2)[1], cases, ''].join('\\n'));",
        '',
      ].join('\n'),
    );
    const run = await runNode(['--import', 'tsx', script], { timeoutMs: 120_000 });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(
      '<testsuites name="mcp-shape check" tests="100000" failures="100000" errors="0" skipped="0">\n100000\n',
    );
  });
});
