/**
 * The terminal report of an audit, short enough to read: what was audited (one line), the versions
 * and tools (a line per group), then each defect once, however many versions, calls and sibling
 * places it was seen in (the audit folds them), with where, the fix and the clients it breaks.
 * Everything the server said (its name, tool names, messages, stderr) is shown on one line, cut at a
 * sensible width and escaped for the terminal; the JSON report keeps every value whole.
 */

import pc from 'picocolors';
import type { CallRecord, ToolDetail, VersionDetail } from '../audit/run.js';
import { appendAll } from '../core/append.js';
import type { Finding, Location, Severity } from '../core/finding.js';
import { PROTOCOL_VERSIONS } from '../spec/versions.js';
import { breaksLine } from './clients.js';
import { type FindingLimit, shownFindings, TEXT_LIMIT } from './limit.js';
import { runVerdict } from './run-verdict.js';
import { oneLine, terminalSafe } from './terminal.js';
import { headlineMark, leftOutText } from './text.js';
import { type Report, SEVERITY_ORDER } from './types.js';

export interface AuditTextOptions {
  readonly color?: boolean;
  /** How many findings to show (default TEXT_LIMIT); the rest are counted, rule by rule. */
  readonly limit?: FindingLimit;
}

type Colors = ReturnType<typeof pc.createColors>;

/** Names listed on one line before `+N more`. */
const MAX_NAMES = 8;
/** Calls (or tools) listed in a finding's `where` before `+N more`. */
const MAX_PLACES = 3;
const INDENT = '        ';
/** Messages quote the server, but are ours too: wider than a bare server string, still one line. */
const MESSAGE_WIDTH = 240;

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

const rank = (version: string) => PROTOCOL_VERSIONS.indexOf(version as never);

function byVersion(a: string, b: string): number {
  return rank(a) - rank(b);
}

/** `a, b, c +4 more`, each name made safe. */
function names(list: readonly string[], max = MAX_NAMES): string {
  const shown = list.slice(0, max).map((n) => oneLine(n, { width: 60 }));
  return `${shown.join(', ')}${list.length > max ? ` +${list.length - max} more` : ''}`;
}

/**
 * Versions as a reader scans them: a run of three or more consecutive audited versions is
 * `first … last`, anything else is listed.
 */
function versionList(versions: readonly string[], audited: readonly string[]): string {
  const sorted = [...new Set(versions)].sort(byVersion);
  const order = [...audited].sort(byVersion);
  const positions = sorted.map((v) => order.indexOf(v));
  const consecutive = positions.every((p, i) => p !== -1 && (i === 0 || p === (positions[i - 1] ?? -2) + 1));
  if (consecutive && sorted.length >= 3) return `${sorted[0]} … ${sorted[sorted.length - 1]}`;
  return sorted.join(', ');
}

function occurrencesOf(finding: Finding): { pointer: string; location?: Location }[] {
  return finding.occurrences && finding.occurrences.length > 0
    ? [...finding.occurrences]
    : [{ pointer: finding.pointer, ...(finding.location ? { location: finding.location } : {}) }];
}

function distinct<T>(values: readonly (T | undefined)[]): T[] {
  return [...new Set(values.filter((v): v is T => v !== undefined))];
}

interface Context {
  readonly c: Colors;
  readonly paint: Record<Severity, (s: string) => string>;
  readonly versions: readonly VersionDetail[];
  readonly tools: readonly ToolDetail[];
  /** Versions audited, as the server answered them. */
  readonly audited: readonly string[];
}

/** Which clients a defect seen in only some versions reaches: `older clients only` and the like. */
function reach(
  present: readonly string[],
  toolsOfFinding: readonly string[],
  ctx: Context,
): string | undefined {
  const answeredOf = (requested: string) =>
    ctx.versions.find((v) => v.requested === requested)?.answered ?? requested;
  let comparable = ctx.audited;
  if (toolsOfFinding.length > 0) {
    const listing = ctx.tools.filter((t) => toolsOfFinding.includes(t.name)).flatMap((t) => t.versions);
    // A tool the report does not describe is compared across every audited version.
    if (listing.length > 0) comparable = ctx.audited.filter((v) => listing.map(answeredOf).includes(v));
  }
  const absent = comparable.filter((v) => !present.includes(v));
  // Versions that were refused or failed say so themselves; they are no comparison.
  if (absent.length === 0 || present.length === 0 || present.some((v) => !ctx.audited.includes(v)))
    return undefined;
  const newestPresent = Math.max(...present.map(rank));
  const oldestPresent = Math.min(...present.map(rank));
  if (newestPresent < Math.min(...absent.map(rank))) return 'older clients only';
  if (oldestPresent > Math.max(...absent.map(rank))) return 'newer clients only';
  return `not in ${absent.sort(byVersion).join(', ')}`;
}

/**
 * Where a finding was seen: `at /result/content/1/type +2 more · in 2024-11-05, 2025-03-26 (older
 * clients only), 2 calls (get-resource-links#1)`. Without a pointer or calls, only the versions.
 */
function where(finding: Finding, ctx: Context): { line: string; versionsOnly: boolean } {
  const occurrences = occurrencesOf(finding);
  const pointers = distinct(occurrences.map((o) => o.pointer)).filter((p) => p !== '');
  const present = distinct(occurrences.map((o) => o.location?.protocolVersion));
  const labels = distinct(occurrences.map((o) => o.location?.call));
  const tools = distinct(occurrences.map((o) => o.location?.tool));
  const parts: string[] = [];
  if (pointers.length > 0) {
    const first = oneLine(pointers[0] ?? '', { width: 80 });
    parts.push(`at ${first}${pointers.length > 1 ? ` +${pointers.length - 1} more` : ''}`);
  }
  const inWhat: string[] = [];
  if (present.length > 0) {
    const qualifier = reach(present, tools, ctx);
    inWhat.push(`${versionList(present, ctx.audited)}${qualifier ? ` (${qualifier})` : ''}`);
  }
  if (labels.length > 0) {
    // Labels repeat across versions (get#1 in each); the count is of calls made.
    const made = distinct(
      occurrences.map((o) =>
        o.location?.call ? `${o.location.protocolVersion} ${o.location.call}` : undefined,
      ),
    ).length;
    inWhat.push(`${plural(made, 'call')} (${names(labels, MAX_PLACES)})`);
    // The same defect outside any call: the handshake's or tools/list's response, a stray frame.
    const elsewhere = occurrences.filter((o) => !o.location?.call).length;
    if (elsewhere > 0) inWhat.push(`${plural(elsewhere, 'other message')}`);
  } else if (tools.length > 0) {
    inWhat.push(`${tools.length === 1 ? 'tool' : 'tools'} ${names(tools, MAX_PLACES)}`);
  }
  if (inWhat.length > 0) parts.push(`in ${inWhat.join(', ')}`);
  return {
    line: parts.join(' · '),
    versionsOnly: pointers.length === 0 && labels.length === 0 && tools.length === 0,
  };
}

/** A text of the finding (message, fix) naming every version it was folded across, not only the first. */
function withVersions(text: string, finding: Finding): string {
  const first = finding.location?.protocolVersion;
  const versions = distinct(occurrencesOf(finding).map((o) => o.location?.protocolVersion)).sort(byVersion);
  if (!first || versions.length < 2 || !text.includes(first)) return text;
  const joined = `${versions.slice(0, -1).join(', ')} and ${versions[versions.length - 1]}`;
  return text.split(first).join(joined);
}

function findingLines(finding: Finding, ctx: Context): string[] {
  const { c, paint } = ctx;
  const place = where(finding, ctx);
  const inline = place.versionsOnly && place.line ? c.dim(` · ${place.line}`) : '';
  const lines = [
    `${paint[finding.severity](finding.severity.padEnd(7))} ${oneLine(withVersions(finding.message, finding), { width: MESSAGE_WIDTH })}  ${c.dim(finding.rule)}${inline}`,
  ];
  if (!place.versionsOnly && place.line) lines.push(`${INDENT}${c.dim(place.line)}`);
  if (finding.fix)
    lines.push(`${INDENT}${c.dim('fix:')} ${oneLine(withVersions(finding.fix.description, finding))}`);
  const breaks = finding.severity === 'info' ? undefined : breaksLine(finding);
  if (breaks) lines.push(`${INDENT}${c.dim('breaks:')} ${breaks}`);
  return lines;
}

function versionsLine(ctx: Context): string {
  const { c } = ctx;
  const parts: string[] = [];
  const audited = ctx.versions.filter((v) => v.status === 'audited');
  if (audited.length > 0) {
    const counts = new Set(audited.map((v) => `${v.tools ?? 0}/${v.calls ?? 0}`));
    const [one] = audited;
    const each =
      counts.size === 1 && one
        ? `${plural(one.tools ?? 0, 'tool')}, ${plural(one.calls ?? 0, 'call')}${audited.length > 1 ? ' each' : ''}`
        : audited
            .map(
              (v) =>
                `${v.answered ?? v.requested}: ${plural(v.tools ?? 0, 'tool')}, ${plural(v.calls ?? 0, 'call')}`,
            )
            .join('; ');
    const answered = audited.map((v) => v.answered ?? v.requested);
    const renamed = audited.filter((v) => v.answered && v.answered !== v.requested);
    const asked = renamed.map((v) => `${v.requested} answered ${v.answered}`).join(', ');
    parts.push(`${versionList(answered, answered)} audited (${each}${asked ? `; ${asked}` : ''})`);
  }
  const sameAs = ctx.versions.filter((v) => v.status === 'same-as');
  for (const target of distinct(sameAs.map((v) => v.sameAs))) {
    const group = sameAs.filter((v) => v.sameAs === target).map((v) => v.requested);
    parts.push(c.dim(`${group.join(', ')} answered as ${target} (same audit)`));
  }
  for (const v of ctx.versions.filter((x) => x.status === 'refused'))
    parts.push(c.dim(`${v.requested} not supported (${oneLine(v.detail ?? 'refused', { width: 80 })})`));
  for (const v of ctx.versions.filter((x) => x.status === 'failed'))
    parts.push(c.red(`${v.requested} failed: ${oneLine(v.detail ?? 'no answer', { width: 100 })}`));
  return `${c.bold('versions')}    ${parts.join(' · ')}`;
}

/** A tool's reason, with its own name replaced, so tools with the same reason share a line. */
function sharedReason(tool: ToolDetail): string {
  const reason = tool.reason ?? tool.skipped?.[0]?.replace(/^\d{4}-\d{2}-\d{2}: /, '') ?? 'not called';
  return reason.split(`--call ${tool.name}`).join('--call NAME');
}

function toolLines(ctx: Context, unknown: readonly string[]): string[] {
  const { c } = ctx;
  const lines: string[] = [];
  const called = ctx.tools.filter((t) => t.called);
  for (const because of distinct(called.map((t) => t.because))) {
    const group = called.filter((t) => t.because === because);
    const total = group.reduce((n, t) => n + t.calls, 0);
    lines.push(
      `${c.green('called')}      ${names(group.map((t) => t.name))} ${c.dim(`(${because}; ${plural(total, 'call')})`)}`,
    );
  }
  const notCalled = ctx.tools.filter((t) => !t.called);
  for (const reason of distinct(notCalled.map(sharedReason))) {
    const group = notCalled.filter((t) => sharedReason(t) === reason);
    lines.push(`${c.dim('not called')}  ${names(group.map((t) => t.name))}${c.dim(`: ${oneLine(reason)}`)}`);
  }
  const partly = called.filter((t) => (t.skipped?.length ?? 0) > 0);
  for (const t of partly) {
    const why = distinct((t.skipped ?? []).map((s) => s.replace(/^\d{4}-\d{2}-\d{2}: /, '')));
    lines.push(
      `${c.yellow('skipped')}     ${oneLine(t.name, { width: 60 })}${c.dim(` in some versions: ${oneLine(why.join('; '))}`)}`,
    );
  }
  if (unknown.length > 0)
    lines.push(
      `${c.yellow('unknown')}     ${names(unknown)} ${c.dim('(named in --call/--args, not listed by the server)')}`,
    );
  return lines;
}

/** The server's stderr explains a crash, a hang or a failed start; on a clean audit it is noise. */
function wentWrong(report: Report, versions: readonly VersionDetail[]): boolean {
  const failures = new Set(['audit-server-exited', 'audit-timeout', 'audit-response-too-large']);
  return report.findings.some((f) => failures.has(f.rule)) || versions.some((v) => v.status === 'failed');
}

export function renderAuditText(report: Report, options: AuditTextOptions = {}): string {
  const c = pc.createColors(options.color ?? pc.isColorSupported);
  const paint: Record<Severity, (s: string) => string> = {
    error: (s) => c.red(s),
    warning: (s) => c.yellow(s),
    info: (s) => c.blue(s),
  };
  const details = report.details ?? {};
  const versions = (details.versions ?? []) as VersionDetail[];
  const tools = (details.tools ?? []) as ToolDetail[];
  const calls = (details.calls ?? []) as CallRecord[];
  const audited = distinct(
    versions.filter((v) => v.status === 'audited').map((v) => v.answered ?? v.requested),
  );
  const ctx: Context = { c, paint, versions, tools, audited };
  const out: string[] = [];

  const server = details.server as { name?: unknown; version?: unknown } | undefined;
  const about = [
    String(details.transport ?? ''),
    ...(server ? [`${String(server.name ?? '?')} ${String(server.version ?? '')}`.trim()] : []),
    ...(typeof details.startedAt === 'string'
      ? [details.startedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')]
      : []),
  ].filter((s) => s !== '');
  const aboutText = about.length > 0 ? ` ${c.dim(`(${oneLine(about.join(' · '), { width: 100 })})`)}` : '';
  out.push(
    `${c.bold(`mcp-shape audit of ${oneLine(String(details.target ?? ''), { width: 100 })}`)}${aboutText}`,
  );
  if (versions.length > 0) out.push(versionsLine(ctx));
  appendAll(out, toolLines(ctx, (details.unknownTools ?? []) as string[]));

  const shown = shownFindings(report.findings, options.limit ?? TEXT_LIMIT);
  const isShown = new Set(shown);
  const findings = report.findings
    .filter((f) => isShown.has(f))
    .sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || a.rule.localeCompare(b.rule));
  if (findings.length > 0) out.push('');
  for (const finding of findings) appendAll(out, findingLines(finding, ctx));
  const cut = leftOutText(report.findings, shown);
  if (cut.length > 0) out.push('', ...cut.slice(0, -1));

  const stderr = (details.stderrTail ?? []) as string[];
  if (stderr.length > 0 && wentWrong(report, versions)) {
    out.push('', c.bold('server stderr (last lines)'));
    for (const block of stderr)
      for (const line of block.split('\n').slice(-8))
        out.push(c.dim(`  | ${terminalSafe(line).slice(0, 200)}`));
  }

  out.push('');
  const { errors, warnings, infos } = report.summary;
  const run = runVerdict(report);
  const line = `${plural(errors, 'error')}, ${plural(warnings, 'warning')}, ${plural(infos, 'info')} in ${plural(calls.length || report.summary.checked, 'call')} across ${plural(Number(report.summary.versionsAudited ?? 0), 'version')}${run.why ? `: ${run.why}` : ''}`;
  out.push(headlineMark(run, errors + warnings, c, line));
  return `${out.join('\n')}\n`;
}
