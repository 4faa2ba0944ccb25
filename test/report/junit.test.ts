import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { renderJunit } from '../../src/report/junit.js';
import type { Report } from '../../src/report/types.js';
import { escapeXmlAttribute, escapeXmlText, toXmlChars } from '../../src/report/xml.js';
import {
  auditReport,
  checkReport,
  cleanReport,
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
