/**
 * The verdict of the AuditBuffet check `mcp-server.tool-definitions.return-content-types`: count the
 * tool handlers and their return statements, count those that return a properly typed content array,
 * pass only when none is wrong, fail naming each tool and what is wrong, skip when there are no tools.
 */

import type { ReturnStatus } from './analyze.js';
import type { Framework } from './frameworks.js';

export const VERDICT_CHECK = 'mcp-server.tool-definitions.return-content-types';

export interface ScannedReturn {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly status: ReturnStatus;
  /** Error findings for this return: "image block has no mimeType". */
  readonly problems: readonly string[];
}

export interface ScannedHandler {
  readonly tool: string;
  readonly framework: Framework;
  readonly file: string;
  readonly line: number;
  readonly returns: readonly ScannedReturn[];
}

export interface ToolTally {
  readonly tool: string;
  readonly framework: Framework;
  readonly file: string;
  readonly line: number;
  readonly returns: number;
  readonly typed: number;
  readonly invalid: number;
  readonly unresolved: number;
}

export interface Verdict {
  readonly check: typeof VERDICT_CHECK;
  readonly status: 'pass' | 'fail' | 'skip';
  readonly handlers: number;
  readonly returns: number;
  /** Returns whose statically known value is a content array the rules accept. */
  readonly typed: number;
  readonly invalid: number;
  /** Returns whose value the source does not fix (`return await fetchResult()`); not counted as wrong. */
  readonly unresolved: number;
  readonly detail: string;
  /** One line per wrong return: `screenshot: image block has no mimeType (src/server.ts:12:7)`. */
  readonly problems: readonly string[];
  readonly tools: readonly ToolTally[];
}

const MAX_DETAIL_PROBLEMS = 5;

export function computeVerdict(handlers: readonly ScannedHandler[]): Verdict {
  const tools: ToolTally[] = handlers.map((h) => ({
    tool: h.tool,
    framework: h.framework,
    file: h.file,
    line: h.line,
    returns: h.returns.length,
    typed: h.returns.filter((r) => r.status === 'typed').length,
    invalid: h.returns.filter((r) => r.status === 'invalid').length,
    unresolved: h.returns.filter((r) => r.status === 'unresolved').length,
  }));
  const sum = (key: 'returns' | 'typed' | 'invalid' | 'unresolved') => tools.reduce((n, t) => n + t[key], 0);
  const counts = {
    returns: sum('returns'),
    typed: sum('typed'),
    invalid: sum('invalid'),
    unresolved: sum('unresolved'),
  };
  const problems = handlers.flatMap((h) =>
    h.returns
      .filter((r) => r.status === 'invalid')
      .map((r) => `${h.tool}: ${[...new Set(r.problems)].join('; ')} (${r.file}:${r.line}:${r.column})`),
  );
  const base = { check: VERDICT_CHECK, handlers: handlers.length, ...counts, problems, tools } as const;
  if (handlers.length === 0) {
    return { ...base, status: 'skip', detail: 'skip: no MCP server tool handlers found' };
  }
  const tally = `${counts.typed} of ${counts.returns} return statements in ${handlers.length} tool handler${handlers.length === 1 ? '' : 's'} return a properly typed content array`;
  const unresolved =
    counts.unresolved > 0
      ? `; ${counts.unresolved} could not be resolved statically (check them at run time with \`mcp-shape audit\`)`
      : '';
  if (counts.invalid === 0) return { ...base, status: 'pass', detail: `pass: ${tally}${unresolved}` };
  const shown = problems.slice(0, MAX_DETAIL_PROBLEMS).join('; ');
  const more =
    problems.length > MAX_DETAIL_PROBLEMS ? `; and ${problems.length - MAX_DETAIL_PROBLEMS} more` : '';
  return {
    ...base,
    status: 'fail',
    detail: `fail: ${tally}; ${counts.invalid} do not: ${shown}${more}${unresolved}`,
  };
}
