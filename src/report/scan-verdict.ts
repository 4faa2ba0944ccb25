/** The scan verdict (the return-content-types check) as text, appended to the scan's text report. */

import { VERDICT_CHECK, type Verdict } from '../scan/verdict.js';

/** The verdict as text lines, appended to the text report. */
export function renderVerdict(verdict: Verdict): string {
  const lines = [
    `${VERDICT_CHECK}: ${verdict.status.toUpperCase()}`,
    `  ${verdict.detail.replace(/^\w+: /, '')}`,
  ];
  for (const tool of verdict.tools) {
    lines.push(
      `  ${tool.tool} (${tool.file}:${tool.line}): ${tool.typed}/${tool.returns} typed${tool.invalid ? `, ${tool.invalid} wrong` : ''}${tool.unresolved ? `, ${tool.unresolved} unresolved` : ''}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Reports carry their details as plain JSON; this recognises a scan verdict among them. */
export function verdictOf(details: Readonly<Record<string, unknown>> | undefined): Verdict | undefined {
  const verdict = details?.verdict as Partial<Verdict> | undefined;
  return verdict && typeof verdict.status === 'string' && Array.isArray(verdict.tools)
    ? (verdict as Verdict)
    : undefined;
}
