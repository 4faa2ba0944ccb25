/**
 * The JUnit XML report, for CI test-report views (GitLab, Jenkins, Azure DevOps, GitHub actions that
 * read JUnit).
 *
 * Layout: one <testsuite> per group (file, protocol version and tool), one <testcase> per checked
 * unit (a document or JSONL line, an audit call, a source line), and one <failure> listing every
 * finding of the unit. Units without findings are not named in the report, so they are counted in one
 * passing testcase ("12 other documents: no findings") and the test totals still add up to what was
 * checked.
 *
 * Warnings are failures too (type="warning"): GitLab shows only <failure>, <error> and <skipped>
 * text and ignores <system-out> and <properties> of passing tests, and Jenkins shows properties
 * nowhere by default. A warning breaks named clients, so it should be seen in the test view;
 * the job's pass/fail still follows mcp-shape's exit code, which counts errors only, and Jenkins'
 * "unstable" for test failures fits warnings. Info findings (advice) never fail a testcase; they go
 * to <system-out>, which Jenkins shows.
 *
 * An audit's tools that were not called (not read-only, not named with --call) are <skipped>
 * testcases with the reason, which both GitLab and Jenkins list.
 *
 * Hand-written rather than built with an XML library: it is a few elements, and every string goes
 * through escapeXmlText/escapeXmlAttribute.
 */

import type { Finding, Location, Severity } from '../core/finding.js';
import { getRule } from '../rules/catalog.js';
import { clientsText } from './clients.js';
import { codeFrameText } from './code-frame.js';
import { unfold } from './fold.js';
import { checkedNoun, plural, ruleDocsHref } from './outline.js';
import { runVerdict } from './run-verdict.js';
import { inlineSafe, terminalSafe } from './terminal.js';
import { groupLabel, sortFindings } from './text.js';
import type { Report } from './types.js';
import { failureReason, versionMatrixOf, versionVerdictOf } from './version-matrix.js';
import { escapeXmlAttribute, escapeXmlText } from './xml.js';

// CI logs are read in terminals too: what the input said is escaped for them before XML.
const attr = (value: string) => escapeXmlAttribute(terminalSafe(value));
const text = (value: string) => escapeXmlText(terminalSafe(value));

export interface JunitOptions {
  /** URL of the rule docs directory; default: from the package homepage, else no links. */
  readonly docsBaseUrl?: string;
}

interface TestCase {
  readonly name: string;
  readonly file?: string;
  readonly findings: Finding[];
  /** Why the unit was not checked (an audit's tool that was not called). */
  readonly skipped?: string;
  /** The run's own failure, when no finding shown fails a test case but the run exits 1. */
  readonly runFailure?: string;
}

interface TestSuite {
  readonly name: string;
  readonly cases: TestCase[];
  /** The cases by name: a run of 100,000 findings looked each one up in a list (quadratic time). */
  readonly byName: Map<string, TestCase>;
}

export function renderJunit(report: Report, options: JunitOptions = {}): string {
  return `${junitLines(report, options).join('\n')}\n`;
}

/** renderJunit's text in pieces (a line each), for a report whose text may be longer than a string can be. */
export function* renderJunitPieces(report: Report, options: JunitOptions = {}): Generator<string> {
  for (const line of junitLines(report, options)) yield `${line}\n`;
}

/** The lines of the JUnit document. */
function junitLines(report: Report, options: JunitOptions): string[] {
  const suites = buildSuites(report);
  const cases = suites.flatMap((s) => s.cases);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${attr(`mcp-shape ${report.command}`)}" ${counts(cases)}>`,
  ];
  suites.forEach((suite, index) => {
    lines.push(`  <testsuite name="${attr(suite.name)}" ${counts(suite.cases)}>`);
    // check's version matrix is not a test of its own (the exit code follows the chosen version), so
    // it goes on the first suite: as properties, and as output Jenkins and GitLab show.
    if (index === 0) lines.push(...versionProperties(report));
    for (const testCase of suite.cases) lines.push(...renderCase(suite, testCase, options));
    if (index === 0) lines.push(...versionOutput(report));
    lines.push('  </testsuite>');
  });
  lines.push('</testsuites>');
  return lines;
}

function versionProperties(report: Report): string[] {
  const matrix = versionMatrixOf(report);
  if (!matrix) return [];
  const line = versionVerdictOf(report);
  const properties = matrix.versions.map(
    (row) =>
      `      <property name="protocol ${attr(row.protocolVersion)}" value="${attr(`${row.verdict}: ${plural(row.errors, 'error')}, ${plural(row.warnings, 'warning')}, ${plural(row.infos, 'info')}`)}"/>`,
  );
  if (line) properties.unshift(`      <property name="protocol versions" value="${attr(line)}"/>`);
  return ['    <properties>', ...properties, '    </properties>'];
}

function versionOutput(report: Report): string[] {
  const matrix = versionMatrixOf(report);
  const line = versionVerdictOf(report);
  if (!line && !matrix?.all) return [];
  const rows = matrix?.all
    ? matrix.versions.map((row) => `${row.protocolVersion}: ${row.verdict} ${failureReason(row)}`.trimEnd())
    : [];
  return [`    <system-out>${text([...(line ? [line] : []), ...rows].join('\n'))}</system-out>`];
}

function isFailing(testCase: TestCase): boolean {
  return testCase.runFailure !== undefined || testCase.findings.some((f) => f.severity !== 'info');
}

function counts(cases: readonly TestCase[]): string {
  const failures = cases.filter(isFailing).length;
  const skipped = cases.filter((c) => c.skipped !== undefined).length;
  return `tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}"`;
}

function buildSuites(report: Report): TestSuite[] {
  const suites = new Map<string, TestSuite>();
  const fallbackName = `mcp-shape ${report.command}`;
  const suiteFor = (name: string): TestSuite => {
    let suite = suites.get(name);
    if (!suite) {
      suite = { name, cases: [], byName: new Map() };
      suites.set(name, suite);
    }
    return suite;
  };

  const counted = new Set<string>();
  // A folded finding fails every call it was seen in: each place is its own test case.
  for (const finding of sortFindings(report.findings.flatMap(unfold))) {
    const location = finding.location;
    const suite = suiteFor(suiteLabel(location) || fallbackName);
    const name = unitLabel(report.command, location);
    let testCase = suite.byName.get(name);
    if (!testCase) {
      testCase = { name, findings: [], ...(location?.file ? { file: location.file } : {}) };
      suite.cases.push(testCase);
      suite.byName.set(name, testCase);
      const unit = countedUnit(report.command, location);
      if (unit !== undefined) counted.add(unit);
    }
    testCase.findings.push(finding);
  }

  const clean = report.summary.checked - counted.size;
  if (clean > 0 || report.findings.length === 0) {
    const noun = checkedNoun(report.command);
    const name =
      report.findings.length === 0
        ? `${plural(report.summary.checked, noun)}: no findings`
        : `${plural(clean, `other ${noun}`)}: no findings`;
    // Nothing a server sent was checked: the documents are skipped, not passed.
    const nothing = runVerdict(report).nothingChecked;
    suiteFor(fallbackName).cases.push({ name, findings: [], ...(nothing ? { skipped: nothing } : {}) });
  }
  for (const tool of toolsNotCalled(report)) {
    suiteFor(fallbackName).cases.push({
      name: `tool ${tool.name}: not called`,
      findings: [],
      skipped: tool.reason,
    });
  }
  const all = [...suites.values()];
  const run = runVerdict(report);
  if (run.failed && !all.some((suite) => suite.cases.some(isFailing))) {
    // The run exits 1 on what no test case fails: findings below --min-severity, or info under
    // --fail-on info. A report of a failed run must not read as a pass.
    const why = run.why ?? `fails --fail-on ${run.failOn} on ${plural(report.summary.infos, 'info finding')}`;
    suiteFor(fallbackName).cases.push({ name: `--fail-on ${run.failOn}`, findings: [], runFailure: why });
  }
  return [...suites.values()];
}

/** An audit's `details.tools` entries with `called: false` (ToolDetail in src/audit/run.ts). */
function toolsNotCalled(report: Report): { name: string; reason: string }[] {
  const tools = report.command === 'audit' ? report.details?.tools : undefined;
  if (!Array.isArray(tools)) return [];
  return tools.flatMap((tool: unknown) => {
    if (typeof tool !== 'object' || tool === null) return [];
    const { name, called, reason } = tool as Record<string, unknown>;
    if (called !== false || typeof name !== 'string') return [];
    return [{ name, reason: typeof reason === 'string' ? reason : 'not called' }];
  });
}

/** The group a unit belongs to: everything in its location but the line, column and call. */
function suiteLabel(location: Location | undefined): string {
  if (!location) return '';
  const { line: _line, column: _column, call: _call, ...group } = location;
  return groupLabel(group);
}

function unitLabel(command: Report['command'], location: Location | undefined): string {
  const parts: string[] = [];
  if (location?.line !== undefined) {
    parts.push(`line ${location.line}${location.column !== undefined ? `:${location.column}` : ''}`);
  }
  if (location?.call !== undefined) parts.push(`call ${location.call}`);
  if (parts.length > 0) return parts.join(' · ');
  // No line and no call: in an audit the finding is about a tool's definition (from tools/list) or
  // the server as a whole; elsewhere about the whole checked document.
  if (command !== 'audit') return 'document';
  return location?.tool !== undefined ? 'tool definition' : 'server';
}

/**
 * The checked unit a finding belongs to, in the sense of `summary.checked` (documents for check,
 * calls for audit, files for scan), or undefined when the finding is outside any such unit (an
 * audit's tools/list).
 */
function countedUnit(command: Report['command'], location: Location | undefined): string | undefined {
  switch (command) {
    case 'scan':
      return location?.file ?? '';
    case 'audit':
      return location?.call === undefined
        ? undefined
        : JSON.stringify([location.protocolVersion, location.tool, location.call]);
    default:
      return JSON.stringify([location?.file, location?.line]);
  }
}

const FAILURE_ORDER: readonly Severity[] = ['error', 'warning'];

function renderCase(suite: TestSuite, testCase: TestCase, options: JunitOptions): string[] {
  const open = `    <testcase name="${attr(testCase.name)}" classname="${attr(suite.name)}"${
    testCase.file ? ` file="${attr(testCase.file)}"` : ''
  }`;
  if (testCase.skipped !== undefined) {
    return [`${open}>`, `      <skipped message="${attr(testCase.skipped)}"/>`, '    </testcase>'];
  }
  if (testCase.runFailure !== undefined) {
    return [
      `${open}>`,
      `      <failure type="run" message="${attr(testCase.runFailure)}"/>`,
      '    </testcase>',
    ];
  }
  if (testCase.findings.length === 0) return [`${open}/>`];

  const lines = [`${open}>`];
  const failing = testCase.findings.filter((f) => f.severity !== 'info');
  if (failing.length > 0) {
    // A testcase may carry one <failure> (Ant and Surefire schemas), so it lists every finding.
    const worst = FAILURE_ORDER.find((s) => failing.some((f) => f.severity === s)) ?? 'warning';
    const first = failing[0] as Finding;
    const counts = FAILURE_ORDER.map((s) => [s, failing.filter((f) => f.severity === s).length] as const)
      .filter(([, n]) => n > 0)
      .map(([s, n]) => plural(n, s))
      .join(', ');
    const message = `${counts}: ${first.message}${failing.length > 1 ? ' …' : ''}`;
    const bodies = failing.map((f) => text(describe(f, options)));
    lines.push(
      ...elementLines(`      <failure type="${worst}" message="${attr(message)}">`, bodies, '</failure>'),
    );
  }
  const infos = testCase.findings.filter((f) => f.severity === 'info');
  if (infos.length > 0) {
    lines.push(
      ...elementLines(
        '      <system-out>',
        infos.map((f) => text(describe(f, options))),
        '</system-out>',
      ),
    );
  }
  lines.push('    </testcase>');
  return lines;
}

/**
 * An element whose text is `bodies` (escaped, at least one) apart by blank lines, as lines of the
 * document: the text of one line holding them all (escaping goes character by character), which for a
 * testcase of millions of findings would be longer than a string can be.
 */
function elementLines(open: string, bodies: readonly string[], close: string): string[] {
  const lines = bodies.flatMap((body, index) => (index === 0 ? [body] : ['', body]));
  lines[0] = `${open}${lines[0]}`;
  lines[lines.length - 1] = `${lines[lines.length - 1]}${close}`;
  return lines;
}

/** A finding as plain text, the way CI test views show a failure body. */
function describe(finding: Finding, options: JunitOptions): string {
  const rule = getRule(finding.rule);
  const lines = [
    // A pointer is one line: a line break of a server's key in it is shown as `\n`.
    `${finding.severity} ${finding.rule} at ${finding.pointer === '' ? '(root)' : inlineSafe(finding.pointer)}`,
    finding.message,
  ];
  if (rule) lines.push(`rule: ${rule.title}`);
  if (finding.fix)
    lines.push(`fix: ${finding.fix.description}${finding.fix.automatic ? ' (repairable)' : ''}`);
  const clients = clientsText(finding);
  if (clients) lines.push(`breaks: ${clients}`);
  const href = ruleDocsHref(finding.rule, options.docsBaseUrl);
  if (href) lines.push(`docs: ${href}`);
  lines.push(...codeFrameText(finding.location, ''));
  return lines.join('\n');
}
