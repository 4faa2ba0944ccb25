/**
 * The messages the official SDKs send when a server's own SDK refuses what a tool handler returned,
 * and a one-line summary of what was wrong in them. The SDKs check a handler's result before sending
 * it; a result that fails reaches no client, which gets one of these instead:
 *
 * - TypeScript SDK v1 (`@modelcontextprotocol/sdk` 1.32.2, server/index.js and server/mcp.js) and v2
 *   (`@modelcontextprotocol/server` 2.4.0): a JSON-RPC -32602 error `Invalid tools/call result: <zod
 *   issues as JSON>` for a result that fails CallToolResultSchema, and an `isError` result `Output
 *   validation error: Invalid structured content for tool <name>: <issues>` (or `… has an output
 *   schema but no structured content was provided`) for structuredContent that fails the outputSchema.
 *   v1 prefixes its messages with `MCP error -32602: ` and writes issues as `<message> at <path>`; v2
 *   writes `<path>: <message>`. Older v1 releases (zod 3) dump zod 3 issues, with `unionErrors`.
 * - Python SDK v1.29.0 (src/mcp/server/lowlevel/server.py): `isError` results `Output validation
 *   error: <jsonschema message>`, `Output validation error: outputSchema defined but no structured
 *   output returned`, and the pydantic error of building the CallToolResult (`N validation errors for
 *   CallToolResult` …); FastMCP (src/mcp/server/fastmcp/tools/base.py) wraps its own checks as
 *   `Error executing tool <name>: N validation error(s) for <name>Output` (the return value against
 *   the output model) or `… for <name>Arguments` (the arguments).
 *
 * The argument checks of the same SDKs (`Input validation error: …`, `Invalid arguments for tool …`)
 * are classified too, so that a caller can tell a rejected result from rejected arguments.
 */

import { isObject } from '../../core/json.js';

export type RejectionKind =
  /** The handler's CallToolResult failed the SDK's result schema. */
  | 'result'
  /** structuredContent failed (or was missing for) the tool's outputSchema. */
  | 'structured'
  /** The arguments the client sent failed the tool's inputSchema. */
  | 'arguments';

export interface SdkRejection {
  readonly kind: RejectionKind;
  /** Which SDK's wording it is: `TypeScript SDK`, `Python SDK` or `Python FastMCP`. */
  readonly sdk: string;
  /** What was wrong, on one line: `content.0.type: expected text|image, got "object"`. */
  readonly problem: string;
}

/** At most this many problems are named; the rest are counted. */
const MAX_PROBLEMS = 3;

const TS = 'TypeScript SDK';
const PY = 'Python SDK';
const FASTMCP = 'Python FastMCP';

type Reader = (match: RegExpExecArray) => SdkRejection | undefined;

/** Each SDK message, most specific first, and how to read it. */
const READERS: readonly (readonly [RegExp, Reader])[] = [
  [
    /^Invalid tools\/call result: ([\s\S]*)$/,
    (m) => ({ kind: 'result', sdk: TS, problem: summarize(zodProblems(m[1] ?? '', 'result')) }),
  ],
  [
    /^(?:Output validation error: Tool .* has an output schema but no structured content was provided|Tool .* has an output schema but did not return structured content)$/,
    () => ({ kind: 'structured', sdk: TS, problem: MISSING_STRUCTURED }),
  ],
  [
    /^Output validation error: Invalid structured content for tool .*?: ([\s\S]*)$/,
    (m) => ({ kind: 'structured', sdk: TS, problem: summarize(issueLines(m[1] ?? '', 'structuredContent')) }),
  ],
  [
    /^Structured content does not match the tool's output schema: ([\s\S]*)$/,
    (m) => ({ kind: 'structured', sdk: TS, problem: `structuredContent: ${firstLine(m[1] ?? '')}` }),
  ],
  [
    /^(?:Input validation error: )?Invalid arguments for tool .*?: ([\s\S]*)$/,
    (m) => {
      const rest = m[1] ?? '';
      const problems = rest.trimStart().startsWith('[')
        ? zodProblems(rest, 'arguments')
        : issueLines(rest, 'arguments');
      return { kind: 'arguments', sdk: TS, problem: summarize(problems) };
    },
  ],
  [
    /^Output validation error: outputSchema defined but no structured output returned$/,
    () => ({ kind: 'structured', sdk: PY, problem: MISSING_STRUCTURED }),
  ],
  [
    /^Output validation error: ([\s\S]*)$/,
    (m) => ({ kind: 'structured', sdk: PY, problem: `structuredContent: ${firstLine(m[1] ?? '')}` }),
  ],
  [
    /^Input validation error: ([\s\S]*)$/,
    (m) => ({ kind: 'arguments', sdk: PY, problem: `arguments: ${firstLine(m[1] ?? '')}` }),
  ],
  [
    /^\d+ validation errors? for CallToolResult\r?\n([\s\S]*)$/,
    (m) => ({ kind: 'result', sdk: PY, problem: summarize(pydanticProblems(m[1] ?? '', 'result')) }),
  ],
  [
    /^Error executing tool (.+?): \d+ validation errors? for (\w+)\r?\n([\s\S]*)$/,
    ([, tool = '', model = '', rest = '']) => {
      if (model === `${tool}Arguments`) {
        return { kind: 'arguments', sdk: FASTMCP, problem: summarize(pydanticProblems(rest, 'arguments')) };
      }
      // FastMCP names its output model after the function; a model of the tool's own code is the
      // tool's own business, not a rejection by the SDK.
      if (model === `${tool}Output` || model === `${tool}DictOutput`) {
        return {
          kind: 'structured',
          sdk: FASTMCP,
          problem: summarize(pydanticProblems(rest, 'structuredContent')),
        };
      }
      return undefined;
    },
  ],
];

/** Classifies an error message (JSON-RPC `error.message` or an `isError` text), or undefined. */
export function sdkRejection(message: string): SdkRejection | undefined {
  const text = message.replace(/^MCP error -?\d+: /, '').trim();
  for (const [pattern, read] of READERS) {
    const match = pattern.exec(text);
    if (match) return read(match);
  }
  return undefined;
}

const MISSING_STRUCTURED = 'structuredContent: missing, but the tool declares an outputSchema';

function firstLine(text: string): string {
  return text.trim().split(/\r?\n/)[0] ?? '';
}

function summarize(problems: readonly string[]): string {
  const unique = [...new Set(problems)];
  if (unique.length === 0) return 'the SDK gave no details';
  const shown = unique.slice(0, MAX_PROBLEMS).join('; ');
  return unique.length > MAX_PROBLEMS ? `${shown}; +${unique.length - MAX_PROBLEMS} more` : shown;
}

type Segment = string | number;

/**
 * `content.0.type` for a place in the result (its paths are what a server author knows), and
 * `structuredContent.celsius` or `arguments.city` for places in those values.
 */
function dotted(root: string, path: readonly Segment[]): string {
  if (root === 'result' && path.length > 0) return path.map(String).join('.');
  return [root, ...path.map(String)].join('.');
}

/** `"Invalid input: expected number, received string"` → `expected number, got string`. */
function plainMessage(message: string): string {
  return message
    .replace(/^Invalid input: /, '')
    .replace(/, received /, ', got ')
    .replace(/^expected (\w+), got undefined$/, 'missing (expected $1)')
    .replace(/^Required$/, 'missing');
}

// ---------------------------------------------------------------------------------------------
// zod (the TypeScript SDKs): the error message is the JSON array of issues.

interface ZodIssue {
  readonly code?: unknown;
  readonly path?: unknown;
  readonly message?: unknown;
  readonly expected?: unknown;
  readonly received?: unknown;
  readonly values?: unknown;
  readonly keys?: unknown;
  /** zod 4: one issue list per union branch. */
  readonly errors?: unknown;
  /** zod 3: one ZodError per union branch. */
  readonly unionErrors?: unknown;
}

function zodProblems(json: string, root: string): string[] {
  let issues: unknown;
  try {
    issues = JSON.parse(json);
  } catch {
    return [`${root}: ${firstLine(json)}`];
  }
  return Array.isArray(issues) ? issues.flatMap((issue) => zodIssue(issue, [], root)) : [];
}

function pathOf(issue: ZodIssue): Segment[] {
  return Array.isArray(issue.path)
    ? issue.path.filter((s): s is Segment => typeof s === 'string' || typeof s === 'number')
    : [];
}

/** zod 3 gives union branch issues absolute paths, zod 4 relative ones; both become absolute. */
function absolute(base: readonly Segment[], path: readonly Segment[]): Segment[] {
  const startsWithBase = base.length > 0 && base.every((s, i) => path[i] === s);
  return startsWithBase ? [...path] : [...base, ...path];
}

function branchesOf(issue: ZodIssue): ZodIssue[][] {
  if (Array.isArray(issue.errors)) return issue.errors.filter(Array.isArray) as ZodIssue[][];
  if (Array.isArray(issue.unionErrors)) {
    return issue.unionErrors
      .map((e) => (isObject(e) && Array.isArray(e.issues) ? (e.issues as ZodIssue[]) : []))
      .filter((b) => b.length > 0);
  }
  return [];
}

/** The literal a branch wanted for `type` at `at`, when the branch failed on its discriminator. */
function typeMismatch(
  branch: readonly ZodIssue[],
  at: readonly Segment[],
): { wanted: string[]; got?: unknown } | undefined {
  for (const issue of branch) {
    const path = absolute(at, pathOf(issue));
    if (path.length !== at.length + 1 || path[at.length] !== 'type') continue;
    if (issue.code === 'invalid_value' && Array.isArray(issue.values)) {
      return { wanted: issue.values.map(String) };
    }
    if (issue.code === 'invalid_literal') return { wanted: [String(issue.expected)], got: issue.received };
  }
  return undefined;
}

function zodIssue(raw: unknown, base: readonly Segment[], root: string): string[] {
  if (!isObject(raw)) return [];
  const issue = raw as ZodIssue;
  const path = absolute(base, pathOf(issue));
  const branches = branchesOf(issue);
  if (branches.length > 0) {
    // A union of block types: the branch whose `type` matched says what is really wrong; when no
    // branch matched, the type itself is wrong.
    const mismatches = branches.map((b) => typeMismatch(b, path));
    const matched = branches.filter((_, i) => mismatches[i] === undefined);
    if (matched.length === 0) {
      const wanted = [...new Set(mismatches.flatMap((m) => m?.wanted ?? []))];
      const got = mismatches.find((m) => m?.got !== undefined)?.got;
      return [
        `${dotted(root, [...path, 'type'])}: expected ${wanted.join('|')}${got === undefined ? '' : `, got ${JSON.stringify(got)}`}`,
      ];
    }
    const fewest = matched.reduce((best, b) => (b.length < best.length ? b : best));
    return fewest.flatMap((inner) => zodIssue(inner, path, root));
  }
  const where = dotted(root, path);
  switch (issue.code) {
    case 'invalid_type': {
      const received =
        typeof issue.received === 'string'
          ? issue.received
          : /received (\w+)/.exec(String(issue.message ?? ''))?.[1];
      if (received === 'undefined') return [`${where}: missing (expected ${String(issue.expected)})`];
      return [`${where}: expected ${String(issue.expected)}${received ? `, got ${received}` : ''}`];
    }
    case 'invalid_value':
      return [`${where}: expected ${Array.isArray(issue.values) ? issue.values.map(String).join('|') : '?'}`];
    case 'unrecognized_keys':
      return [
        `${where}: unexpected ${Array.isArray(issue.keys) ? issue.keys.map((k) => JSON.stringify(k)).join(', ') : 'keys'}`,
      ];
    default:
      return [`${where}: ${plainMessage(String(issue.message ?? issue.code ?? 'invalid'))}`];
  }
}

/**
 * The structuredContent issues of the TypeScript SDKs, one per line: v1 writes `<message> at <a.b>`,
 * v2 `<a.b>: <message>`.
 */
function issueLines(text: string, root: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => {
      const v1 = /^(.*) at ([\w$.[\]-]+)$/.exec(line);
      if (v1) return `${root}.${v1[2]}: ${plainMessage(v1[1] ?? '')}`;
      const v2 = /^([\w$.[\]-]+): (.*)$/.exec(line);
      if (v2) return `${root}.${v2[1]}: ${plainMessage(v2[2] ?? '')}`;
      return `${root}: ${plainMessage(line)}`;
    });
}

// ---------------------------------------------------------------------------------------------
// pydantic (the Python SDK): `loc` lines, each followed by `  message [type=…, input_value=…, …]`.

interface PydanticError {
  readonly loc: string[];
  readonly message: string;
  readonly type: string;
  readonly input?: string;
}

function pydanticErrors(text: string): PydanticError[] {
  const errors: PydanticError[] = [];
  let loc: string[] | undefined;
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '' || /^\s{4,}For further information/.test(line)) continue;
    if (!/^\s/.test(line)) {
      loc = line.trim().split('.');
      continue;
    }
    const detail = /^\s+(.*?)(?: \[type=([\w.]+)(?:, input_value=(.*?))?(?:, input_type=\w+)?\])?$/.exec(
      line,
    );
    if (!detail || !loc) continue;
    errors.push({ loc, message: detail[1] ?? '', type: detail[2] ?? '', input: detail[3] });
    loc = undefined;
  }
  return errors;
}

/** A union member in a pydantic `loc` is a class name; MCP member names start lower case. */
const isUnionTag = (segment: string) => /^[A-Z][A-Za-z0-9]*$/.test(segment);

/** `'object'` (a Python repr) → `"object"`. */
function pythonValue(input: string | undefined): string | undefined {
  if (input === undefined) return undefined;
  const quoted = /^'(.*)'$/.exec(input);
  return quoted ? JSON.stringify(quoted[1]) : input;
}

function pydanticMessage(error: PydanticError): string {
  if (error.type === 'missing') return 'missing';
  const got = pythonValue(error.input);
  const literal = /^Input should be (.*)$/.exec(error.message);
  const wanted = literal ? literal[1] : error.message;
  return got === undefined ? `expected ${wanted}` : `expected ${wanted}, got ${got}`;
}

function pydanticProblems(text: string, root: string): string[] {
  const errors = pydanticErrors(text);
  const problems: string[] = [];
  // Errors of union members, grouped by where the union is and then by member.
  const unions = new Map<string, Map<string, PydanticError[]>>();
  for (const error of errors) {
    const tagAt = error.loc.findIndex(isUnionTag);
    if (tagAt === -1) {
      problems.push(`${dotted(root, error.loc)}: ${pydanticMessage(error)}`);
      continue;
    }
    const at = dotted(root, error.loc.slice(0, tagAt));
    const members = unions.get(at) ?? new Map<string, PydanticError[]>();
    const tag = error.loc[tagAt] as string;
    members.set(tag, [...(members.get(tag) ?? []), { ...error, loc: error.loc.slice(tagAt + 1) }]);
    unions.set(at, members);
  }
  for (const [at, members] of unions) {
    const branches = [...members.values()];
    const isTypeMismatch = (e: PydanticError) =>
      e.loc.length === 1 && e.loc[0] === 'type' && e.type === 'literal_error';
    const matched = branches.filter(
      (b) => !b.some(isTypeMismatch) && !b.some((e) => e.type === 'model_type'),
    );
    if (matched.length > 0) {
      const fewest = matched.reduce((best, b) => (b.length < best.length ? b : best));
      for (const e of fewest) problems.push(`${[at, ...e.loc].join('.')}: ${pydanticMessage(e)}`);
      continue;
    }
    const literals = branches.flatMap((b) => b.filter(isTypeMismatch));
    if (literals.length > 0) {
      const wanted = [
        ...new Set(literals.map((e) => /^Input should be '(.*)'$/.exec(e.message)?.[1] ?? e.message)),
      ];
      const got = pythonValue(literals[0]?.input);
      problems.push(`${at}.type: expected ${wanted.join('|')}${got === undefined ? '' : `, got ${got}`}`);
    } else {
      const got = pythonValue(branches[0]?.[0]?.input);
      problems.push(`${at}: expected a content block object${got === undefined ? '' : `, got ${got}`}`);
    }
  }
  return problems;
}
