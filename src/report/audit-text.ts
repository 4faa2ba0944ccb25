/**
 * The terminal report of an audit: the versions the server negotiated, then findings grouped by
 * version and tool (repeats of one finding across calls folded into one line), the tools that were
 * not called and why, what differs between versions, and the tail of the server's stderr.
 */

import pc from 'picocolors';
import { pointerPattern, type VersionDifference } from '../audit/compare.js';
import type { ToolDetail, VersionDetail } from '../audit/run.js';
import type { Finding, Severity } from '../core/finding.js';
import { clientsAffected } from './text.js';
import { type Report, SEVERITY_ORDER } from './types.js';

export interface AuditTextOptions {
  readonly color?: boolean;
}

interface Folded {
  readonly finding: Finding;
  readonly calls: string[];
  readonly pointers: Set<string>;
  count: number;
}

/**
 * One line per defect: the same rule and message at the same place in other calls, or at sibling
 * places (content/1, content/2, …), fold into the first occurrence.
 */
function fold(findings: readonly Finding[]): Folded[] {
  const byKey = new Map<string, Folded>();
  for (const f of findings) {
    const key = [f.rule, pointerPattern(f.pointer), f.message].join('\u0000');
    const folded = byKey.get(key) ?? { finding: f, calls: [], pointers: new Set<string>(), count: 0 };
    folded.count++;
    folded.pointers.add(f.pointer);
    if (f.location?.call && !folded.calls.includes(f.location.call)) folded.calls.push(f.location.call);
    byKey.set(key, folded);
  }
  return [...byKey.values()].sort(
    (a, b) =>
      SEVERITY_ORDER[a.finding.severity] - SEVERITY_ORDER[b.finding.severity] ||
      a.finding.rule.localeCompare(b.finding.rule) ||
      a.finding.pointer.localeCompare(b.finding.pointer),
  );
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

type Colors = ReturnType<typeof pc.createColors>;
type Line = (c: Colors, paint: Record<Severity, (s: string) => string>) => string;

/**
 * The versions side by side, from a client's point of view: which clients cannot connect or are
 * answered with another version, then each finding that only some versions have, said as the clients
 * it reaches (older ones, newer ones, or some) and the clients it spares.
 */
function comparisonLines(
  versions: readonly VersionDetail[],
  differences: readonly VersionDifference[],
): Line[] {
  const lines: Line[] = [];
  for (const v of versions) {
    const why = (fallback: string) => (c: Colors) => c.dim(`(${v.detail ?? fallback})`);
    if (v.status === 'refused')
      lines.push(
        (c) =>
          `${v.requested}: ${c.red('refused')}; a client that speaks only ${v.requested} cannot connect ${why('refused')(c)}`,
      );
    else if (v.status === 'failed')
      lines.push(
        (c) =>
          `${v.requested}: ${c.red('no answer')}; ${v.requested} clients cannot connect ${why('failed')(c)}`,
      );
    else if (v.answered && v.answered !== v.requested)
      lines.push(
        () =>
          `${v.requested}: answered with ${v.answered}; a ${v.requested} client works only if it also speaks ${v.answered}, else it disconnects`,
      );
  }
  for (const d of differences) {
    lines.push(
      (c, paint) =>
        `${paint[d.severity](d.severity)} ${d.rule}${d.tool ? ` in tool ${d.tool}` : ''}${d.pointer ? c.dim(` at ${d.pointer}`) : ''}: reaches only ${d.reaches === 'some' ? 'some' : d.reaches} clients (${d.presentIn.join(', ')}), not ${d.absentIn.join(', ')}`,
    );
  }
  if (lines.length === 0)
    lines.push(
      () => 'every version the server accepts behaves the same: no finding is specific to one version',
    );
  return lines;
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
  const comparison = (details.comparison ?? []) as VersionDifference[];
  const out: string[] = [];

  const server = details.server as { name?: unknown; version?: unknown } | undefined;
  out.push(c.bold(`mcp-shape audit of ${String(details.target)}`));
  out.push(
    c.dim(
      `transport ${String(details.transport)}${server ? ` · server ${String(server.name)} ${String(server.version)}` : ''}`,
    ),
  );
  out.push('');

  out.push(c.bold('Protocol versions'));
  for (const v of versions) {
    const counts = report.findings.filter((f) => f.location?.protocolVersion === (v.answered ?? v.requested));
    let line: string;
    switch (v.status) {
      case 'audited':
        line = `${v.answered !== v.requested ? `answered ${v.answered} · ` : ''}${plural(v.tools ?? 0, 'tool')}, ${plural(v.calls ?? 0, 'call')}, ${plural(counts.filter((f) => f.severity === 'error').length, 'error')}`;
        break;
      case 'same-as':
        line = c.dim(`answered ${v.answered}: same as the ${v.sameAs} audit`);
        break;
      case 'refused':
        line = c.dim(`not supported (${v.detail ?? 'refused'})`);
        break;
      case 'failed':
        line = c.red(`failed: ${v.detail ?? 'no answer'}`);
        break;
    }
    out.push(`  ${v.requested}  ${line}`);
  }

  const byVersion = new Map<string, Finding[]>();
  for (const f of report.findings) {
    const version = f.location?.protocolVersion ?? '(no version)';
    byVersion.set(version, [...(byVersion.get(version) ?? []), f]);
  }
  for (const [version, findings] of byVersion) {
    out.push('');
    out.push(c.bold(c.underline(`Protocol ${version}`)));
    const byTool = new Map<string, Finding[]>();
    for (const f of findings) {
      const tool = f.location?.tool ?? '';
      byTool.set(tool, [...(byTool.get(tool) ?? []), f]);
    }
    for (const tool of [...byTool.keys()].sort()) {
      out.push(`  ${tool ? `tool ${c.bold(tool)}` : 'session (handshake, tools/list, stream)'}`);
      for (const { finding, calls, count, pointers } of fold(byTool.get(tool) ?? [])) {
        const more = pointers.size > 1 ? ` +${pointers.size - 1} more` : '';
        const where = finding.pointer === '' ? '' : `${c.dim(`${finding.pointer}${more}`)}  `;
        const times = count > 1 ? c.dim(` ×${count}`) : '';
        const callList =
          calls.length > 0 ? c.dim(` (${calls.slice(0, 3).join(', ')}${calls.length > 3 ? ', …' : ''})`) : '';
        out.push(
          `    ${paint[finding.severity](finding.severity.padEnd(7))} ${where}${finding.message}  ${c.dim(finding.rule)}${times}${callList}`,
        );
        if (finding.fix) out.push(`            ${c.dim('fix:')} ${finding.fix.description}`);
        const clients = clientsAffected(finding.rule);
        if (clients && finding.severity !== 'info') out.push(`            ${c.dim('breaks:')} ${clients}`);
      }
    }
  }

  const called = tools.filter((t) => t.called);
  const notCalled = tools.filter((t) => !t.called);
  out.push('');
  out.push(c.bold('Tools'));
  for (const t of called)
    out.push(`  ${c.green('called')}      ${t.name} ${c.dim(`(${plural(t.calls, 'call')}, ${t.because})`)}`);
  for (const t of notCalled)
    out.push(`  ${c.dim('not called')}  ${t.name} ${c.dim(`— ${t.reason ?? t.skipped?.join('; ') ?? ''}`)}`);
  for (const t of tools)
    for (const s of t.skipped ?? [])
      if (t.called) out.push(`  ${c.yellow('skipped')}     ${t.name} ${c.dim(`— ${s}`)}`);
  const unknown = (details.unknownTools ?? []) as string[];
  if (unknown.length > 0)
    out.push(
      `  ${c.yellow('unknown')}     ${unknown.join(', ')} ${c.dim('(named in --call/--args, not listed by the server)')}`,
    );

  if (versions.length > 1) {
    out.push('');
    out.push(c.bold('Version comparison: what clients of each version meet'));
    for (const line of comparisonLines(versions, comparison)) out.push(`  ${line(c, paint)}`);
  }

  const stderr = (details.stderrTail ?? []) as string[];
  if (stderr.length > 0) {
    out.push('');
    out.push(c.bold('Server stderr (last lines)'));
    for (const block of stderr)
      for (const line of block.split('\n').slice(-8)) out.push(c.dim(`  | ${line}`));
  }

  out.push('');
  const { errors, warnings, infos, checked } = report.summary;
  const line = `${plural(errors, 'error')}, ${plural(warnings, 'warning')}, ${plural(infos, 'info')} in ${plural(checked, 'call')} across ${plural(Number(report.summary.versionsAudited ?? 0), 'version')}`;
  out.push(
    errors > 0 ? c.red(c.bold(`✖ ${line}`)) : warnings > 0 ? c.yellow(`⚠ ${line}`) : c.green(`✔ ${line}`),
  );
  return `${out.join('\n')}\n`;
}
