/**
 * The verdict of the AuditBuffet check `mcp-server.tool-definitions.return-content-types`: count the
 * tool handlers and their return statements, count those that return a properly typed content array,
 * pass only when all of them do, fail naming each tool and what is wrong, skip when there are no tools.
 *
 * "All of them" is taken literally: a return counts as typed only when every value it may produce is
 * proven to be a valid content array, or when a declared type proves what the analysis cannot see
 * ("typed by declaration"). A return whose value the source does not fix (`return await
 * upstream.callTool(…)`) keeps the verdict from passing; it is listed apart from the wrong ones, with
 * the reason, since nothing is known to be wrong with it.
 */

import type { ReturnStatus } from './analyze.js';
import type { Framework } from './frameworks.js';

export const VERDICT_CHECK = 'mcp-server.tool-definitions.return-content-types';

export interface ScannedReturn {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly status: ReturnStatus;
  /** Why an unresolved return is not proven. */
  readonly reason?: string;
  /** Typed thanks to a declared type (`Promise<CallToolResult>`, `-> list[TextContent]`). */
  readonly byDeclaration?: boolean;
  /**
   * Error findings for this return, each with the branch it arises in and where to fix it:
   * `unknown content block type "object" … when \`isinstance(result, str)\` is false (server.py:29)`.
   */
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
  readonly typedByDeclaration: number;
  readonly invalid: number;
  readonly unresolved: number;
}

export interface Verdict {
  readonly check: typeof VERDICT_CHECK;
  readonly status: 'pass' | 'fail' | 'skip';
  readonly handlers: number;
  readonly returns: number;
  /** Returns proven to produce a content array of valid blocks. */
  readonly typed: number;
  /** Of those, the ones proven by a declared type rather than by their value. */
  readonly typedByDeclaration: number;
  readonly invalid: number;
  /** Returns whose value the source does not fix (`return await fetchResult()`): not proven typed. */
  readonly unresolved: number;
  readonly detail: string;
  /** One line per defect of a wrong return: `Tool 'screenshot': image block has no mimeType (src/server.ts:14)`. */
  readonly problems: readonly string[];
  /** One line per unresolved return, with why: `proxy (src/server.ts:30:5): the result of upstream.callTool() …`. */
  readonly unproven: readonly string[];
  readonly tools: readonly ToolTally[];
  /** Files that could not be scanned, a line each (`src/x.py (syntax error: …)`); absent when none. */
  readonly unscanned?: readonly string[];
}

const MAX_DETAIL_ITEMS = 5;

/**
 * The verdict of the scanned handlers. `unscanned` are the files that could not be scanned (a syntax
 * error, too large, unreadable): what handlers they hold is not known, so the verdict is no PASS while
 * there are any, and no SKIP either (it might have found handlers there).
 */
export function computeVerdict(
  handlers: readonly ScannedHandler[],
  unscanned: readonly { readonly file: string; readonly reason: string }[] = [],
): Verdict {
  const tools: ToolTally[] = handlers.map((h) => ({
    tool: h.tool,
    framework: h.framework,
    file: h.file,
    line: h.line,
    returns: h.returns.length,
    typed: h.returns.filter((r) => r.status === 'typed').length,
    typedByDeclaration: h.returns.filter((r) => r.status === 'typed' && r.byDeclaration).length,
    invalid: h.returns.filter((r) => r.status === 'invalid').length,
    unresolved: h.returns.filter((r) => r.status === 'unresolved').length,
  }));
  const sum = (key: 'returns' | 'typed' | 'typedByDeclaration' | 'invalid' | 'unresolved') =>
    tools.reduce((n, t) => n + t[key], 0);
  const counts = {
    returns: sum('returns'),
    typed: sum('typed'),
    typedByDeclaration: sum('typedByDeclaration'),
    invalid: sum('invalid'),
    unresolved: sum('unresolved'),
  };
  const problems = [
    ...new Set(
      handlers.flatMap((h) =>
        h.returns
          .filter((r) => r.status === 'invalid')
          .flatMap((r) => r.problems.map((p) => `Tool '${h.tool}': ${p}`)),
      ),
    ),
  ];
  const unproven = handlers.flatMap((h) =>
    h.returns
      .filter((r) => r.status === 'unresolved')
      .map((r) => `${h.tool} (${r.file}:${r.line}:${r.column})${r.reason ? `: ${r.reason}` : ''}`),
  );
  const unscannedLines = unscanned.map((u) => `${u.file} (${u.reason})`);
  const notScanned =
    unscanned.length === 0
      ? undefined
      : `${unscanned.length} file${unscanned.length === 1 ? '' : 's'} could not be scanned, so the tool handlers in ${unscanned.length === 1 ? 'it are' : 'them are'} not proven: ${listed(unscannedLines)}`;
  const base = {
    check: VERDICT_CHECK,
    handlers: handlers.length,
    ...counts,
    problems,
    unproven,
    tools,
    ...(unscannedLines.length > 0 ? { unscanned: unscannedLines } : {}),
  } as const;
  if (handlers.length === 0) {
    if (notScanned) return { ...base, status: 'fail', detail: `fail: no tool handlers found; ${notScanned}` };
    return { ...base, status: 'skip', detail: 'skip: no MCP server tool handlers found' };
  }
  const declared =
    counts.typedByDeclaration > 0 ? ` (${counts.typedByDeclaration} typed by declaration)` : '';
  const tally = `${counts.typed} of ${counts.returns} return statements in ${handlers.length} tool handler${handlers.length === 1 ? '' : 's'} return a properly typed content array${declared}`;
  if (counts.typed === counts.returns && !notScanned)
    return { ...base, status: 'pass', detail: `pass: ${tally}` };
  const parts = [tally];
  if (counts.invalid > 0)
    parts.push(`${counts.invalid} ${counts.invalid === 1 ? 'does' : 'do'} not: ${listed(problems)}`);
  if (counts.unresolved > 0) {
    parts.push(
      `${counts.unresolved} ${counts.unresolved === 1 ? 'is' : 'are'} not proven (the value is not known statically; check at run time with \`mcp-shape audit\`): ${listed(unproven)}`,
    );
  }
  if (notScanned) parts.push(notScanned);
  return { ...base, status: 'fail', detail: `fail: ${parts.join('; ')}` };
}

/** The first few items of a list, and how many more there are. */
function listed(items: readonly string[]): string {
  const shown = items.slice(0, MAX_DETAIL_ITEMS).join('; ');
  return items.length > MAX_DETAIL_ITEMS ? `${shown}; and ${items.length - MAX_DETAIL_ITEMS} more` : shown;
}
