/**
 * The language-neutral half of `scan`: the JS and Python front ends find tool handlers and evaluate
 * what they return into partial values; this module applies the framework's wrapping, runs the same
 * rule engine as `check` with `partial: true`, and maps every finding back to a source position.
 */

import type { FixSuggestion, Severity } from '../core/finding.js';
import { isObject } from '../core/json.js';
import { isOpaque } from '../core/opaque.js';
import type { PathSegment } from '../core/pointer.js';
import type { Rule } from '../rules/types.js';
import { DEFAULT_PROTOCOL_VERSION, type ProtocolVersion } from '../spec/versions.js';
import { type EngineFinding, runMessage, runToolResult } from '../validate/engine.js';
import { asCallToolResult, type Framework, type WrapOptions } from './frameworks.js';
import { fingerprint, markOpen, SerializedOpaque, TypedOpaque, type ValuePositions } from './values.js';

/**
 * Static code serves every client, so the default is the newest version clients negotiate today
 * (2025-11-25): structuredContent must still be an object there, and results need no `resultType`,
 * which 2026-07-28 SDKs add themselves.
 */
export const SCAN_DEFAULT_PROTOCOL: ProtocolVersion = DEFAULT_PROTOCOL_VERSION;

/** One value a return statement may produce (a conditional or a helper can give several). */
export interface Outcome<P> {
  readonly value: unknown;
  readonly at: P;
}

export interface ReturnSite<P> {
  readonly at: P;
  readonly outcomes: readonly Outcome<P>[];
}

export interface HandlerSite<P> {
  /** The tool name, or a label such as `(tools/call handler)` when the source does not fix it. */
  readonly tool: string;
  readonly framework: Framework;
  readonly at: P;
  readonly returns: readonly ReturnSite<P>[];
  readonly wrap?: WrapOptions;
}

/** A value built outside a handler return that the rules can still check. */
export interface StandaloneDocument<P> {
  readonly kind: 'message' | 'result' | 'block';
  readonly value: unknown;
  readonly at: P;
  /** The enclosing function, for messages. */
  readonly owner?: string;
}

export interface Extracted<P> {
  readonly handlers: readonly HandlerSite<P>[];
  readonly documents: readonly StandaloneDocument<P>[];
  readonly positions: ValuePositions<P>;
}

export interface StaticFinding<P> {
  readonly rule: string;
  readonly severity: Severity;
  readonly message: string;
  readonly pointer: string;
  readonly fix?: FixSuggestion;
  readonly at: P;
  readonly tool?: string;
}

/** `typed`: a content array the rules accept; `invalid`: an error finding; `unresolved`: not statically known. */
export type ReturnStatus = 'typed' | 'invalid' | 'unresolved';

export interface ReturnSummary<P> {
  readonly at: P;
  readonly status: ReturnStatus;
  /** Error findings for this return, for the verdict detail. */
  readonly problems: readonly StaticFinding<P>[];
}

export interface HandlerSummary<P> {
  readonly tool: string;
  readonly framework: Framework;
  readonly at: P;
  readonly returns: readonly ReturnSummary<P>[];
}

export interface StaticAnalysis<P> {
  readonly findings: readonly StaticFinding<P>[];
  readonly handlers: readonly HandlerSummary<P>[];
}

export interface AnalyzeOptions {
  readonly version: ProtocolVersion;
  readonly rules?: readonly Rule[];
}

const STATUS_RANK: Record<ReturnStatus, number> = { typed: 0, unresolved: 1, invalid: 2 };

/**
 * Opaque values whose JSON type is known become a representative of that type at the places where the
 * type alone decides a rule: a template string returned as the whole result, `content: JSON.stringify(x)`,
 * `structuredContent: rows.map(…)`. Empty containers are marked open so nothing is inferred about
 * their members.
 */
function concretize(value: unknown): unknown {
  if (!(value instanceof TypedOpaque)) return value;
  switch (value.kind) {
    case 'string':
      return value.source;
    case 'number':
      return 0;
    case 'boolean':
      return false;
    case 'array':
      return markOpen([]);
    case 'object':
      return markOpen({});
  }
}

/**
 * Members whose presence alone is the defect (`error: message` without isError, a legacy
 * `toolResult`). The engine drops findings whose path ends on an opaque value, so an unknown value
 * here becomes its source text: the rules only need to see that something is there.
 */
const PRESENCE_MEMBERS = ['error', 'toolResult'];

function concretizeResult(result: unknown): unknown {
  const root = concretize(result);
  if (!isObject(root) || isOpaque(root)) return root;
  const mirrors = serializationsOfStructuredContent(root);
  for (const key of ['content', 'structuredContent', 'isError']) {
    if (Object.hasOwn(root, key)) {
      const inner = concretize(root[key]);
      if (inner !== root[key]) root[key] = inner;
    }
  }
  for (const key of PRESENCE_MEMBERS) {
    const value = root[key];
    if (isOpaque(value)) root[key] = value.source;
  }
  // Exactly the text the mirror rules compare structuredContent with.
  for (const block of mirrors) block.text = JSON.stringify(root.structuredContent);
  return root;
}

/**
 * Text blocks whose text is `JSON.stringify(E)` / `json.dumps(E)` of the same value `structuredContent`
 * is built from (`text: JSON.stringify(sc)` next to `structuredContent: sc`, or a framework's own
 * mirror). The value of `E` is unknown, so the text is too, but it certainly mirrors structuredContent;
 * without this, every mirror of a value computed at run time would be reported as missing. Matched by
 * fingerprint, taken before `concretize` changes structuredContent.
 */
function serializationsOfStructuredContent(root: Record<string, unknown>): Record<string, unknown>[] {
  if (!Object.hasOwn(root, 'structuredContent') || !Array.isArray(root.content)) return [];
  const of = fingerprint(root.structuredContent);
  return root.content.filter(
    (block): block is Record<string, unknown> =>
      isObject(block) && !isOpaque(block) && block.text instanceof SerializedOpaque && block.text.of === of,
  );
}

/**
 * Whether a checked result is the verdict's "properly typed": a statically known content array, or
 * the CreateTaskResult `{ task }` that answers a task-augmented call (2025-11-25 on), whose content
 * arrives later through tasks/result.
 */
function isTypedResult(result: unknown): boolean {
  if (!isObject(result) || isOpaque(result)) return false;
  return Array.isArray(result.content) || (result.content === undefined && Object.hasOwn(result, 'task'));
}

export function analyzeExtracted<P>(extracted: Extracted<P>, options: AnalyzeOptions): StaticAnalysis<P> {
  const findings = new FindingSet<P>();
  const engine = {
    version: options.version,
    partial: true,
    ...(options.rules ? { rules: options.rules } : {}),
  };
  const handlers: HandlerSummary<P>[] = extracted.handlers.map((handler) => ({
    tool: handler.tool,
    framework: handler.framework,
    at: handler.at,
    returns: handler.returns.map((site) => {
      let status: ReturnStatus = site.outcomes.length === 0 ? 'unresolved' : 'typed';
      const problems: StaticFinding<P>[] = [];
      for (const outcome of site.outcomes) {
        const wrapped = concretizeResult(asCallToolResult(handler.framework, outcome.value, handler.wrap));
        const located = locateAll(
          runToolResult(wrapped, engine),
          extracted.positions,
          wrapped,
          outcome.at,
          handler.tool,
        );
        for (const f of located) findings.add(f);
        const errors = located.filter((f) => f.severity === 'error');
        problems.push(...errors);
        const outcomeStatus: ReturnStatus =
          errors.length > 0 ? 'invalid' : isTypedResult(wrapped) ? 'typed' : 'unresolved';
        if (STATUS_RANK[outcomeStatus] > STATUS_RANK[status]) status = outcomeStatus;
      }
      return { at: site.at, status, problems };
    }),
  }));
  for (const doc of extracted.documents) {
    for (const f of checkDocument(doc, extracted.positions, engine)) findings.add(f);
  }
  return { findings: findings.list(), handlers };
}

function checkDocument<P>(
  doc: StandaloneDocument<P>,
  positions: ValuePositions<P>,
  engine: { version: ProtocolVersion; partial: boolean; rules?: readonly Rule[] },
): StaticFinding<P>[] {
  if (doc.kind === 'message') {
    const message = presenceOnly(doc.value);
    return locateAll(runMessage(message, engine), positions, message, doc.at, doc.owner);
  }
  if (doc.kind === 'result') {
    const result = concretizeResult(doc.value);
    return locateAll(runToolResult(result, engine), positions, result, doc.at, doc.owner);
  }
  // A lone block is checked inside an open result, keeping only what the block rules say about it.
  const holder = markOpen({ content: [doc.value] });
  return locateAll(runToolResult(holder, engine), positions, holder, doc.at, doc.owner).filter((f) =>
    f.pointer.startsWith('/content/0'),
  );
}

/** The members JSON-RPC 2.0 defines; anything else on an envelope is wrong whatever its value. */
const JSONRPC_MEMBERS = new Set(['jsonrpc', 'id', 'method', 'params', 'result', 'error']);

/**
 * `payload["requestId"] = request_id`: the value is unknown, but an extra envelope member is wrong
 * for its presence alone. The engine drops findings whose path ends on an opaque value, so such
 * members get a placeholder value (the evaluated object is private to this check).
 */
function presenceOnly(message: unknown): unknown {
  if (!isObject(message) || isOpaque(message)) return message;
  for (const key of Object.keys(message)) {
    if (!JSONRPC_MEMBERS.has(key) && isOpaque(message[key])) message[key] = null;
  }
  return message;
}

function locateAll<P>(
  found: readonly EngineFinding[],
  positions: ValuePositions<P>,
  root: unknown,
  rootAt: P,
  tool: string | undefined,
): StaticFinding<P>[] {
  return found
    .filter((f) => f.messageId !== 'internal')
    .map((f) => ({
      rule: f.rule,
      severity: f.severity,
      message: f.message,
      pointer: f.pointer,
      ...(f.fix ? { fix: f.fix } : {}),
      at: positions.locate(root, rootAt, f.path as readonly PathSegment[]),
      ...(tool ? { tool } : {}),
    }));
}

/** Findings without repeats: a helper shared by several handlers is reported once per defect. */
class FindingSet<P> {
  private readonly seen = new Set<string>();
  private readonly items: StaticFinding<P>[] = [];

  add(finding: StaticFinding<P>): void {
    const key = `${finding.rule}\u0000${JSON.stringify(finding.at)}\u0000${finding.message}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.items.push(finding);
  }

  list(): StaticFinding<P>[] {
    return this.items;
  }
}
