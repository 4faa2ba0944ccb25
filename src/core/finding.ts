/** Findings are data: every command produces them and every reporter formats them. */

export type Severity = 'error' | 'warning' | 'info';

export const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info'];

/** Where a finding happened beyond the checked document itself. */
export interface Location {
  /** Source file, for `check` inputs and `scan`. */
  readonly file?: string;
  /** 1-based line and column, for `scan` and JSONL recordings. */
  readonly line?: number;
  readonly column?: number;
  /** The protocol version the document was checked against. */
  readonly protocolVersion?: string;
  /** The tool whose result or definition is at fault. */
  readonly tool?: string;
  /** The call, for audits: an index or a label such as `get_weather#2`. */
  readonly call?: string;
  /** `scan`: where the offending expression ends (1-based, inclusive line, exclusive column). */
  readonly endLine?: number;
  readonly endColumn?: number;
  /** `scan`: the source lines around the finding, for code frames. */
  readonly snippet?: SourceSnippet;
  /** `scan`: the branch conditions under which the offending value is produced. */
  readonly when?: readonly string[];
  /** `scan`: the tool returns the defect reaches (one defect reached by three tools lists three). */
  readonly reaches?: readonly ReachedReturn[];
}

/** Lines of a source file, as read (untrusted: reporters escape them). */
export interface SourceSnippet {
  /** The line number of `lines[0]`. */
  readonly startLine: number;
  readonly lines: readonly string[];
  /** When lines are too long to show whole: the 1-based column each shown line starts at. */
  readonly firstColumn?: number;
}

export interface ReachedReturn {
  readonly tool: string;
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** The return statement's line, when it is not in the finding's own snippet. */
  readonly snippet?: SourceSnippet;
}

export interface FixSuggestion {
  /** What to change, in words. */
  readonly description: string;
  /** `repair()` can apply this fix automatically. */
  readonly automatic: boolean;
}

/** One place a folded finding was seen. */
export interface Occurrence {
  readonly pointer: string;
  readonly location?: Location;
  /** The message there, when it differs from the finding's (it names another protocol version). */
  readonly message?: string;
}

export interface Finding {
  /** Stable rule id, e.g. `block-mime-type-missing`. */
  readonly rule: string;
  readonly severity: Severity;
  readonly message: string;
  /** RFC 6901 JSON Pointer into the checked document (`""` is the whole document). */
  readonly pointer: string;
  readonly location?: Location;
  readonly fix?: FixSuggestion;
  /**
   * When the same defect was seen in several places (versions, calls, sibling blocks) and folded
   * into this one finding: every place, this finding's own `pointer` and `location` first.
   */
  readonly occurrences?: readonly Occurrence[];
  /**
   * The finding's identity across runs (src/policy/fingerprint.ts), set by the command line for
   * baselines and SARIF `partialFingerprints`.
   */
  readonly fingerprint?: string;
}

export function countBySeverity(findings: readonly Finding[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const f of findings) counts[f.severity]++;
  return counts;
}

export function hasErrors(findings: readonly Finding[]): boolean {
  return findings.some((f) => f.severity === 'error');
}
