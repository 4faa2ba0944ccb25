/**
 * The language-neutral half of `scan`: the front ends (js/, python/) find tool handlers and compute
 * the abstract values each return may produce; this module turns those values into concrete partial
 * documents, applies the framework's wrapping, judges them with the same rule engine as `check`
 * (`partial: true`: nothing is reported about what the source does not fix), proves or refutes
 * "typed" for the verdict, and maps every finding back to the literal that causes it and the
 * returns it reaches. No rule logic lives here: ids and messages are the catalog's.
 */

import { appendAll } from '../core/append.js';
import type { FixSuggestion, Severity } from '../core/finding.js';
import { isObject, type JsonObject } from '../core/json.js';
import { isOpaque, isOpen } from '../core/opaque.js';
import { getIn, type PathSegment, toPointer } from '../core/pointer.js';
import resultRejectedByServer from '../rules/result/result-rejected-by-server.js';
import type { Rule } from '../rules/types.js';
import { DEFAULT_PROTOCOL_VERSION, features, type ProtocolVersion } from '../spec/versions.js';
import { type EngineFinding, formatTemplate, runMessage, runToolResult } from '../validate/engine.js';
import { concretize, originOf } from './abstract/concretize.js';
import type { Heap } from './abstract/heap.js';
import { type Guard, MAYBE_MISSING_KEY, namesAllocation, type Site, type Value } from './abstract/value.js';
import { asCallToolResult, type Framework, structuredMustBeResult, type WrapOptions } from './frameworks.js';
import { type DeclaredScope, DISJUNCTIONS, type Proof, proveResult, proveStructured } from './proof.js';
import { isWrapped, judgeLax, type LaxType, schemaAtPath } from './pydantic-lax.js';
import {
  builtAlike,
  markOpen,
  raisesWhy,
  refusedModel,
  SerializedOpaque,
  UnknownValue,
  ValuePositions,
} from './values.js';

/**
 * Static code serves every client, so the default is the version clients negotiate today
 * (2025-11-25): structuredContent must still be an object there, and results need no `resultType`,
 * which 2026-07-28 SDKs add themselves.
 */
export const SCAN_DEFAULT_PROTOCOL: ProtocolVersion = DEFAULT_PROTOCOL_VERSION;

/** One return statement of a handler: every value it may produce, and the heap they live in. */
export interface ReturnSite {
  readonly site: Site;
  readonly value: Value;
  readonly heap: Heap;
  /** Set when the return could not be analysed at all (analysis budget, a handler out of reach). */
  readonly unresolved?: string;
  /** A gateway's return: the JSON-RPC response carrying the result, whose own defects count too. */
  readonly envelope?: StandaloneDocument;
  /**
   * What the handler's declared return type (`Promise<CallToolResult>`, `-> list[TextContent]`)
   * covers: members of the value the analysis cannot see are proven by it.
   */
  readonly declared?: DeclaredScope;
}

export interface HandlerSite {
  /** The tool name, or a label such as `(tools/call handler)` when the source does not fix it. */
  readonly tool: string;
  readonly framework: Framework;
  /** The registration (or the gateway function). */
  readonly site: Site;
  readonly returns: readonly ReturnSite[];
  readonly wrap?: WrapOptions;
  /**
   * The tool's outputSchema as JSON Schema, when the source fixes it (a zod shape given to
   * `registerTool`, js/zod.ts): the structuredContent of every return is checked against it.
   */
  readonly outputSchema?: Record<string, unknown>;
  /**
   * Why no structuredContent of this tool can be shown to match its outputSchema, which the framework
   * checks: the source does not fix the schema, or zod rejects values the model of it accepts.
   */
  readonly outputSchemaUnproven?: string;
  /**
   * The framework checks structuredContent against the outputSchema itself before sending anything
   * (McpServer, python-sdk's low-level server), whatever version the client negotiated.
   */
  readonly serverChecksOutput?: boolean;
}

/** A value built outside a handler return that the rules can still check. */
export interface StandaloneDocument {
  readonly kind: 'message' | 'result' | 'block';
  readonly value: Value;
  readonly heap: Heap;
  readonly site: Site;
  /** The enclosing function, for messages. */
  readonly owner?: string;
  /**
   * The HTTP status a message is sent with, when the source sets one (400 or more; 0 when the
   * status is chosen at run time): a JSON-RPC error for a transport-level failure (401/404/405/500
   * handlers), as the SDK's transports send.
   */
  readonly httpStatus?: number;
}

export interface Extracted {
  readonly handlers: readonly HandlerSite[];
  readonly documents: readonly StandaloneDocument[];
}

/** A return a defect reaches: the tool and its return statement. */
export interface Reach {
  readonly tool: string;
  readonly site: Site;
}

export interface StaticFinding {
  readonly rule: string;
  readonly severity: Severity;
  /** The catalog's message. */
  readonly message: string;
  readonly pointer: string;
  readonly fix?: FixSuggestion;
  /** The literal or expression to fix. */
  readonly site: Site;
  /** The branch conditions under which the offending value arises. */
  readonly guards: readonly Guard[];
  /** Every handler return the defect reaches (none for standalone documents). */
  readonly reaches: readonly Reach[];
  /** The function that builds a standalone document. */
  readonly owner?: string;
  /** Why the severity differs from the catalog's (a transport-level error response). */
  readonly note?: string;
}

/** `typed`: proven valid content; `invalid`: an error finding; `unresolved`: not statically known. */
export type ReturnStatus = 'typed' | 'invalid' | 'unresolved';

export interface ReturnSummary {
  readonly site: Site;
  readonly status: ReturnStatus;
  /** Why an unresolved return is not proven. */
  readonly reason?: string;
  /** Typed only thanks to a declared type (`Promise<CallToolResult>`, `-> list[TextContent]`). */
  readonly byDeclaration?: boolean;
  /** Error findings for this return, for the verdict detail. */
  readonly problems: readonly StaticFinding[];
}

export interface HandlerSummary {
  readonly tool: string;
  readonly framework: Framework;
  readonly site: Site;
  readonly returns: readonly ReturnSummary[];
}

export interface StaticAnalysis {
  readonly findings: readonly StaticFinding[];
  readonly handlers: readonly HandlerSummary[];
}

export interface AnalyzeOptions {
  readonly version: ProtocolVersion;
  readonly rules?: readonly Rule[];
}

const STATUS_RANK: Record<ReturnStatus, number> = { typed: 0, unresolved: 1, invalid: 2 };

/**
 * An unknown value whose JSON type is known, at a place where the type alone decides a rule: a
 * template string returned as the whole result, `content: JSON.stringify(x)`, `structuredContent:
 * rows.map(…)`. Containers become open and empty so nothing is inferred about their members.
 */
function representative(value: unknown): unknown {
  // A type the input has only under a branch test is no proof of what the value is.
  if (!(value instanceof UnknownValue) || value.declared || value.tested !== undefined) return value;
  switch (value.kind) {
    case 'string':
      return value.source;
    case 'number':
      // Any number: worded as an integer only where it surely is one.
      return value.integral ? 0 : 0.5;
    case 'boolean':
      return false;
    case 'array':
      return markOpen([]);
    case 'object':
      return markOpen({});
    default:
      return value;
  }
}

/** The members each block type requires to be strings. */
const STRING_MEMBERS: Readonly<Record<string, readonly string[]>> = {
  text: ['text'],
  image: ['data', 'mimeType'],
  audio: ['data', 'mimeType'],
  resource_link: ['uri', 'name'],
};

/**
 * A block member the protocol requires to be a string, holding an unknown of another known JSON type
 * (`"text": len(rows)`, `text: count`): a defect by its type alone, like the top-level members
 * `representative` stands in for. The engine drops findings about an unknown, so the return was left
 * unresolved where it surely fails.
 */
function stringMembersOfKnownKind(block: unknown): void {
  if (!isObject(block) || isOpaque(block) || typeof block.type !== 'string') return;
  if (!Object.hasOwn(STRING_MEMBERS, block.type)) return;
  for (const key of STRING_MEMBERS[block.type] as readonly string[]) {
    const value = block[key];
    if (value instanceof UnknownValue && value.kind !== undefined && value.kind !== 'string') {
      const stand = representative(value);
      if (stand !== value) block[key] = stand;
    }
  }
}

/**
 * Members whose presence alone is the defect (`error: <any string>` without isError, a legacy
 * `toolResult`). The engine drops findings whose path ends on an unknown value, so an unknown value
 * of a fitting type stands in as its source text: the rules only need to see that something is there.
 */
function presence(holder: Record<string, unknown>, key: string): void {
  const value = holder[key];
  // A boolean or number could be `false`/`0`, which is no error; anything else is a payload.
  if (value instanceof UnknownValue && value.kind !== 'boolean' && value.kind !== 'number')
    holder[key] = value.source || key;
}

/**
 * Whether a result's `isError` is a boolean known only at run time (it stands in as `false`). It is most
 * often the very test that chose the error payload (`text: failed ? JSON.stringify({ error }) : 'ok',
 * isError: failed`), which the analysis does not tie to it: an error payload is not reported beside it.
 */
function isErrorUndecided(result: unknown): boolean {
  const isError = isObject(result) && !isOpaque(result) ? result.isError : undefined;
  return isError instanceof UnknownValue && isError.kind === 'boolean';
}

function concretizeResult(result: unknown, positions: ValuePositions): unknown {
  const root = representative(result);
  if (!isObject(root) || isOpaque(root)) return root;
  const mirrors = mirrorsOfStructuredContent(root, positions);
  for (const key of ['content', 'structuredContent', 'isError']) {
    if (Object.hasOwn(root, key)) {
      const inner = representative(root[key]);
      if (inner !== root[key]) root[key] = inner;
    }
  }
  if (Array.isArray(root.content) && !isOpaque(root.content)) {
    for (const block of root.content) stringMembersOfKnownKind(block);
  }
  presence(root, 'error');
  presence(root, 'toolResult');
  if (isObject(root.structuredContent) && !isOpaque(root.structuredContent))
    presence(root.structuredContent, 'error');
  else if (!Object.hasOwn(root, 'structuredContent')) serializedErrorPayload(root);
  // Exactly the text the mirror rules compare structuredContent with.
  for (const block of mirrors) block.text = JSON.stringify(root.structuredContent);
  return root;
}

/**
 * The only block is a text block holding `JSON.stringify({ error: String(e) })` (`json.dumps(...)`): its
 * text is unknown, but certainly the JSON of an object with an `error` member, which is the defect
 * result-error-without-is-error reports, whatever the member's value. The text stands in as exactly
 * that member, the unknown value as its source text (as `presence` does). Not where the result has
 * structuredContent: the mirror rules would compare that stand-in with it.
 */
function serializedErrorPayload(root: Record<string, unknown>): void {
  const content = root.content;
  if (!Array.isArray(content) || isOpaque(content) || content.length !== 1) return;
  const block = content[0];
  if (!isObject(block) || isOpaque(block) || block.type !== 'text') return;
  const text = block.text;
  if (!(text instanceof SerializedOpaque)) return;
  const serialized = text.serialized;
  if (!isObject(serialized) || isOpaque(serialized) || !Object.hasOwn(serialized, 'error')) return;
  const error = serialized.error;
  // JSON.stringify leaves out a member that is undefined, so only a value surely written counts.
  const written =
    error instanceof UnknownValue
      ? error.kind === 'string' || error.kind === 'object' || error.kind === 'array'
      : error !== undefined && typeof error !== 'function';
  if (!written) return;
  block.text = JSON.stringify({ error: error instanceof UnknownValue ? error.source || 'error' : error });
}

/**
 * Text blocks whose text is `JSON.stringify(E)` / `json.dumps(E)` of the value `structuredContent` is
 * built from (or a framework's own mirror): unknown text, but certainly the mirror. Without this,
 * every mirror of a value computed at run time would be reported as missing.
 */
function mirrorsOfStructuredContent(
  root: Record<string, unknown>,
  positions: ValuePositions,
): Record<string, unknown>[] {
  if (!Object.hasOwn(root, 'structuredContent') || !Array.isArray(root.content)) return [];
  const structured = root.structuredContent;
  // A value that may be missing: its JSON text is the mirror of whatever it is. Any other unknown is
  // matched by its key only where the key names an allocation (an object cut off as too large); else
  // by its origin (mayBeMirror): two inputs typed alike (`z.any()`) share a key.
  const of =
    structured instanceof UnknownValue
      ? structured.maybeMissing
        ? MAYBE_MISSING_KEY
        : structured.key !== undefined && namesAllocation(structured.key)
          ? structured.key
          : undefined
      : positions.keyOf(structured);
  return root.content.filter(
    (block): block is Record<string, unknown> =>
      isObject(block) &&
      !isOpaque(block) &&
      block.text instanceof SerializedOpaque &&
      ((of !== undefined && block.text.of.includes(of)) || mayBeMirror(block.text, structured)),
  );
}

/**
 * `JSON.stringify({ n })` beside `structuredContent: { n }`: two objects built apart, so no identity
 * links them, but they are built alike from the same values, so their texts are the same.
 */
function mayBeMirror(text: SerializedOpaque, structured: unknown): boolean {
  return text.serialized !== undefined && builtAlike(text.serialized, structured, madeFromOneVariant);
}

function madeFromOneVariant(a: UnknownValue, b: UnknownValue): boolean {
  const origin = originOf.get(a);
  return origin !== undefined && origin === originOf.get(b);
}

function engineOptions(options: AnalyzeOptions): {
  version: ProtocolVersion;
  partial: true;
  rules?: readonly Rule[];
} {
  return { version: options.version, partial: true, ...(options.rules ? { rules: options.rules } : {}) };
}

export function analyze(extracted: Extracted, options: AnalyzeOptions): StaticAnalysis {
  const findings = new FindingSet();
  const engine = engineOptions(options);
  // A table of positions per return and per document: each describes only the documents built for it.
  const handlers: HandlerSummary[] = extracted.handlers.map((handler) => ({
    tool: handler.tool,
    framework: handler.framework,
    site: handler.site,
    returns: handler.returns.map((ret) =>
      judgeReturn(handler, ret, new ValuePositions(), engine, findings, options.version),
    ),
  }));
  for (const doc of extracted.documents) {
    for (const f of checkDocument(doc, new ValuePositions(), engine)) findings.add(f, undefined);
  }
  return { findings: findings.list(), handlers };
}

function judgeReturn(
  handler: HandlerSite,
  ret: ReturnSite,
  positions: ValuePositions,
  engine: ReturnType<typeof engineOptions>,
  findings: FindingSet,
  version: ProtocolVersion,
): ReturnSummary {
  if (ret.unresolved !== undefined)
    return { site: ret.site, status: 'unresolved', reason: ret.unresolved, problems: [] };
  const reach: Reach = { tool: handler.tool, site: ret.site };
  const { docs, incomplete } = concretize(ret.value, ret.heap, positions);
  let status: ReturnStatus = 'typed';
  let reason: string | undefined;
  let byDeclaration = false;
  const problems: StaticFinding[] = [];
  const ctx = {
    site: ret.site,
    keyOf: (v: unknown) => positions.keyOf(v),
    adopt: (to: object, from: object, members: Readonly<Record<string, string>>) =>
      positions.adopt(to, from, members),
  };
  const tool = handler.outputSchema
    ? { name: handler.tool, inputSchema: { type: 'object' }, outputSchema: handler.outputSchema }
    : undefined;
  // A framework that checks structuredContent itself fails the call in a version without it too: the
  // check is judged in the first version that has it.
  const structuredVersion =
    handler.serverChecksOutput && features(version).structuredContent === 'none' ? '2025-06-18' : version;
  for (const doc of docs) {
    const sent = asCallToolResult(handler.framework, doc, ctx, handler.wrap);
    const undecided = isErrorUndecided(sent);
    const wrapped = concretizeResult(sent, positions);
    const annotated = againstAnnotation(doc, handler.wrap, positions, engine, ret.site);
    const refusals =
      annotated.findings.length > 0
        ? { findings: [] }
        : refusedConstructions(doc, handler.framework, positions, engine, ret.site);
    const located = [
      ...locateAll(
        runToolResult(wrapped, tool ? { ...engine, tool } : engine).filter(
          (f) =>
            (f.rule !== 'structured-content-schema-mismatch' || schemaVerdictIsCertain(wrapped, f)) &&
            !(f.rule === 'result-error-without-is-error' && undecided),
        ),
        positions,
        wrapped,
        ret.site,
      ),
      ...structuredAsResult(wrapped, handler.wrap, positions, engine, ret.site),
      ...(tool
        ? kindMismatches(wrapped, tool, positions, { ...engine, version: structuredVersion }, ret.site)
        : []),
      ...annotated.findings,
      ...refusals.findings,
      // Only FastMCP converts its helpers; another framework fails on them its own way (judged above).
      ...(handler.framework === 'fastmcp-python' ? raisingHelpers(doc, positions, ret.site) : []),
      ...(tool && structuredVersion !== version
        ? locateAll(
            runToolResult(wrapped, { ...engine, version: structuredVersion, tool }).filter(
              (f) =>
                SERVER_OUTPUT_RULES.has(f.rule) &&
                (f.rule !== 'structured-content-schema-mismatch' || schemaVerdictIsCertain(wrapped, f)),
            ),
            positions,
            wrapped,
            ret.site,
          ).map((f) => ({ ...f, note: SERVER_OUTPUT_NOTE }))
        : []),
    ];
    for (const f of located) findings.add(f, reach);
    const errors = located.filter((f) => f.severity === 'error');
    appendAll(problems, errors);
    let outcome: ReturnStatus;
    if (errors.length > 0) outcome = 'invalid';
    else {
      const proof = proveWrapped(
        wrapped,
        handler.wrap,
        version,
        ret.declared,
        handler.outputSchema !== undefined,
        handler.framework === 'mcp-python-lowlevel',
      );
      const structured =
        handler.outputSchema || handler.outputSchemaUnproven
          ? proveStructured(wrapped, handler.outputSchema, handler.outputSchemaUnproven, structuredVersion)
          : proof;
      if (proof.proven && !structured.proven) {
        outcome = 'unresolved';
        reason ??= structured.reason;
      } else if (proof.proven && (annotated.unknown ?? refusals.unknown) !== undefined) {
        outcome = 'unresolved';
        reason ??= annotated.unknown ?? refusals.unknown;
      } else if (proof.proven) {
        outcome = 'typed';
        byDeclaration ||= proof.byDeclaration;
      } else {
        outcome = 'unresolved';
        reason ??= proof.reason;
      }
    }
    if (STATUS_RANK[outcome] > STATUS_RANK[status]) status = outcome;
  }
  if (ret.envelope) {
    // A response the client drops (an extra member, a bad id) fails the tool whatever its result says.
    const errors = checkDocument(ret.envelope, positions, engine).filter((f) => f.severity === 'error');
    for (const f of errors) findings.add(f, reach);
    if (errors.length > 0) {
      // The message check sees the result's defects again: each is one problem of this return.
      const known = new Set(problems.map(problemKey));
      appendAll(
        problems,
        errors.filter((f) => !known.has(problemKey(f))),
      );
      status = 'invalid';
    }
  }
  if (status === 'typed' && incomplete) {
    status = 'unresolved';
    reason = 'too many combinations of possible values to check them all';
  }
  return {
    site: ret.site,
    status,
    ...(status === 'unresolved' && reason ? { reason } : {}),
    ...(status === 'typed' && byDeclaration ? { byDeclaration } : {}),
    problems,
  };
}

/**
 * Proves what the client receives; under standalone `fastmcp`'s `-> CallToolResult` its
 * structuredContent must be a valid CallToolResult too (see `structuredAsResult`).
 */
function proveWrapped(
  wrapped: unknown,
  wrap: WrapOptions | undefined,
  version: ProtocolVersion,
  declared: DeclaredScope,
  needsStructured: boolean,
  literalsJudged: boolean,
): Proof {
  const proof = proveResult(wrapped, version, declared, needsStructured, literalsJudged);
  if (!proof.proven || !structuredMustBeResult(wrap) || !isObject(wrapped) || isOpaque(wrapped)) return proof;
  if (!Object.hasOwn(wrapped, 'structuredContent')) return proof;
  const structured = proveResult(wrapped.structuredContent, version);
  return structured.proven
    ? proof
    : {
        proven: false,
        reason: `structuredContent, checked against CallToolResult's schema: ${structured.reason}`,
      };
}

/**
 * Standalone `fastmcp` under `-> CallToolResult` sends the returned value as structuredContent and
 * advertises CallToolResult's schema as outputSchema (frameworks.ts): clients that check
 * structuredContent reject the call when the value is not a valid CallToolResult. What breaks that
 * schema is what the result rules call an error, reported where the value was built.
 */
function structuredAsResult(
  wrapped: unknown,
  wrap: WrapOptions | undefined,
  positions: ValuePositions,
  engine: ReturnType<typeof engineOptions>,
  rootAt: Site,
): StaticFinding[] {
  if (!structuredMustBeResult(wrap) || !isObject(wrapped) || isOpaque(wrapped)) return [];
  const structured = wrapped.structuredContent;
  if (!isObject(structured) || isOpaque(structured)) return [];
  return locateAll(runToolResult(structured, engine), positions, structured, rootAt)
    .filter((f) => f.severity === 'error')
    .map((f) => ({
      ...f,
      pointer: `/structuredContent${f.pointer}`,
      note: "standalone fastmcp sends the value as structuredContent, checked against CallToolResult's schema",
    }));
}

/** What a framework's own check of structuredContent against the outputSchema answers with an error. */
const SERVER_OUTPUT_RULES = new Set([
  'structured-content-schema-mismatch',
  'structured-content-missing-for-output-schema',
]);
const SERVER_OUTPUT_NOTE =
  'the server checks structuredContent against the outputSchema whatever version the client negotiated, and answers with an error';

/** Rejections reported per return: enough to fix it, as for any outputSchema mismatch. */
const MAX_ANNOTATION_FINDINGS = 10;

/** The schema a rejection is worded against is made here, not by the user: its path is left out. */
const OUR_SCHEMA_PATH = / \(outputSchema #[^)]*\)$/;

/** A value of each JSON kind, standing for an unknown one of that kind. */
const OF_KIND: Record<string, () => unknown> = {
  string: () => '',
  number: () => 0.5,
  boolean: () => false,
  array: () => [],
  object: () => ({}),
};

/** Schema keywords under which a part's `type` alone no longer decides whether it fits. */
const UNDECIDED_BY_TYPE = ['$ref', '$dynamicRef', 'anyOf', 'oneOf', 'allOf', 'not', 'if', 'then', 'else'];

/**
 * structuredContent members the source gives only their JSON type, where the outputSchema wants
 * another (`n: String(x)` under `n: z.number()`): every value of that kind fails, and the framework
 * checks before it sends, so the call fails for every client. Each is judged as a value of its kind,
 * as pydantic's rejections are (withKnownLeaf), and located where it was built.
 */
function kindMismatches(
  wrapped: unknown,
  tool: { readonly outputSchema?: unknown },
  positions: ValuePositions,
  engine: ReturnType<typeof engineOptions>,
  rootAt: Site,
): StaticFinding[] {
  if (!isObject(wrapped) || wrapped.isError === true || !isObject(tool.outputSchema)) return [];
  return conflictingLeaves(wrapped.structuredContent, tool.outputSchema, ['structuredContent'], 0).flatMap(
    (path) => {
      const judged = withKnownLeaf(wrapped, path);
      const pointer = toPointer(path);
      // Located at the container that holds the member, in the document as built: one unknown may
      // stand in several places (`String(n)` in the text and in structuredContent alike).
      const found = runToolResult(judged, { ...engine, tool: tool as JsonObject })
        .filter(
          (f) =>
            f.rule === 'structured-content-schema-mismatch' &&
            f.severity === 'error' &&
            f.pointer === pointer,
        )
        .map((f) => ({ ...f, path: f.path.slice(0, -1) }));
      return locateAll(found, positions, wrapped, rootAt);
    },
  );
}

/**
 * Paths to the unknowns of a known JSON type that `schema` refuses by its `type` alone. Only through
 * containers the source shows whole (a spread may replace a member) and schemas whose `properties` and
 * `items` lead there plainly; an unknown that may be missing, or whose type only a branch test or a
 * declaration tells, is no proof.
 */
function conflictingLeaves(
  value: unknown,
  schema: unknown,
  path: readonly PathSegment[],
  depth: number,
): PathSegment[][] {
  if (depth > 64 || !isObject(schema) || UNDECIDED_BY_TYPE.some((k) => Object.hasOwn(schema, k))) return [];
  if (value instanceof UnknownValue) {
    if (value.maybeMissing || value.declared || value.tested !== undefined || value.kind === undefined)
      return [];
    return refusesKind(schema.type, value.kind) ? [[...path]] : [];
  }
  if (typeof value !== 'object' || value === null || isOpaque(value) || isOpen(value)) return [];
  if (Array.isArray(value)) {
    if (!isObject(schema.items)) return [];
    return value.flatMap((item, i) => conflictingLeaves(item, schema.items, [...path, i], depth + 1));
  }
  const properties = isObject(schema.properties) ? schema.properties : {};
  return Object.keys(value).flatMap((key) =>
    Object.hasOwn(properties, key)
      ? conflictingLeaves((value as JsonObject)[key], properties[key], [...path, key], depth + 1)
      : [],
  );
}

/**
 * Whether a schema `type` refuses every value of `kind`, judged on the value or on its JSON alike (a
 * low-level server's clients check the JSON): an unknown number may be an integer, or NaN, which JSON
 * writes as null; an unknown object may have a `toJSON` (a Date is written as a string), so it is never
 * judged by its kind.
 */
function refusesKind(type: unknown, kind: string): boolean {
  if (type === undefined || kind === 'object') return false;
  const types = Array.isArray(type) ? type : [type];
  if (kind === 'number') return !['number', 'integer', 'null'].some((t) => types.includes(t));
  return !types.includes(kind);
}

/**
 * `doc` with the unknown at `path` (if that is what it holds) replaced by a value of its kind, the
 * containers on the way copied; anything else as it is.
 */
function withKnownLeaf(doc: unknown, path: readonly PathSegment[]): unknown {
  if (path.length === 0) {
    const kind = doc instanceof UnknownValue ? doc.kind : undefined;
    const stand = kind === undefined ? undefined : OF_KIND[kind];
    return stand ? stand() : doc;
  }
  if (typeof doc !== 'object' || doc === null || doc instanceof UnknownValue) return doc;
  const [segment, ...rest] = path as [PathSegment, ...PathSegment[]];
  const member = (doc as Record<PathSegment, unknown>)[segment];
  const replaced = withKnownLeaf(member, rest);
  if (replaced === member) return doc;
  const copy = Object.assign(Array.isArray(doc) ? [] : {}, doc) as Record<PathSegment, unknown>;
  copy[segment] = replaced;
  return copy;
}

/**
 * The SDK's FastMCP validates what a tool returns against its return annotation (`-> int`,
 * `-> list[str]`, `-> dict[str, float]`; src/scan/pydantic-lax.ts) before sending anything: a value
 * pydantic rejects is never sent, the client gets an error result instead. Each rejection is reported
 * as the outputSchema mismatch it is, where the value was built; a value pydantic may convert or
 * reject only at run time leaves the return unproven.
 */
function againstAnnotation(
  value: unknown,
  wrap: WrapOptions | undefined,
  positions: ValuePositions,
  engine: ReturnType<typeof engineOptions>,
  rootAt: Site,
): { findings: StaticFinding[]; unknown?: string } {
  const annotation = wrap?.annotation;
  if (!annotation) return { findings: [] };
  // The standalone `fastmcp` checks nothing: it sends the value as structuredContent, and lists the
  // JSON Schema of the annotation as the outputSchema clients check it against (strictly, where
  // they have structuredContent at all).
  const standalone = wrap?.standalone === true;
  if (standalone && features(engine.version).structuredContent === 'none') return { findings: [] };
  const returned = value === undefined ? null : value;
  const verdict = judgeLax(annotation.type, returned, standalone);
  const structuredContent = isWrapped(annotation.type) ? { result: returned } : returned;
  const checked = { content: [], structuredContent };
  // A long annotation is named by its start: a message is one line.
  const named = annotation.text.length > 60 ? `${annotation.text.slice(0, 57)}…` : annotation.text;
  // A BaseModel built with arguments pydantic refuses raises already there (the interpreter hands such
  // a construction over as the fields it was given): an error result all the same.
  const built = annotation.type.kind === 'model' && annotation.type.validatedWhenBuilt === true;
  const note = standalone
    ? `the standalone fastmcp sends the return value as structuredContent, which clients check against the outputSchema it derives from \`-> ${named}\``
    : `FastMCP validates the return value against \`-> ${named}\`${built ? ' (pydantic validates a model already when it is built)' : ''} and sends an error result in its place`;
  const findings = schemaRejections(
    checked,
    annotation.type,
    verdict.rejected,
    positions,
    engine,
    rootAt,
  ).map((f) => ({ ...f, note }));
  // A rejection no finding could word still keeps the return from counting as typed.
  const why =
    verdict.unknown ??
    (findings.length === 0 && verdict.rejected.length > 0
      ? standalone
        ? "the annotation's schema rejects it"
        : 'pydantic rejects it'
      : undefined);
  return why === undefined
    ? { findings }
    : { findings, unknown: `the return value, checked against \`-> ${named}\`: ${why}` };
}

/**
 * Each path pydantic rejects in `checked.structuredContent` (checked against `type`), as the
 * structuredContent-schema-mismatch error it is, located where the value was built.
 */
function schemaRejections(
  checked: { content: unknown[]; structuredContent: unknown },
  type: LaxType,
  rejected: readonly (readonly PathSegment[])[],
  positions: ValuePositions,
  engine: ReturnType<typeof engineOptions>,
  rootAt: Site,
): StaticFinding[] {
  // FastMCP validates whatever version the client negotiated; the finding is worded in the first
  // version that has structuredContent when the scanned one has none.
  const version = features(engine.version).structuredContent === 'none' ? '2025-06-18' : engine.version;
  return rejected.slice(0, MAX_ANNOTATION_FINDINGS).flatMap((path) => {
    const outputSchema = schemaAtPath(type, path);
    const tool = { name: 'tool', inputSchema: { type: 'object' }, outputSchema };
    const prefix = isWrapped(type) ? ['structuredContent', 'result'] : ['structuredContent'];
    // Rules leave a value known only at run time alone; one rejected for its kind alone (an `int`
    // parameter under `-> str`) is judged as a value of that kind, and located at the return.
    const judged = withKnownLeaf(checked, [...prefix, ...path]);
    return locateAll(runToolResult(judged, { ...engine, version, tool }), positions, judged, rootAt)
      .filter((f) => f.rule === 'structured-content-schema-mismatch' && f.severity === 'error')
      .map((f) => ({ ...f, message: f.message.replace(OUR_SCHEMA_PATH, '') }));
  });
}

/**
 * A pydantic model built with arguments it surely refuses (the interpreter's `refusedModel`) raises
 * ValidationError where it is built, however the tool goes on to use it: returned bare (no annotation
 * checks it then), dumped (`.model_dump()`), or inside a dict or list. FastMCP answers every such call
 * with an error result. Each refusal is reported at the refused argument, as the annotation's check
 * reports one under `-> Model`, and worded by the model's name rather than a structuredContent the
 * client never gets. (The caller skips this where the annotation's check reported anything: that return
 * is invalid already, and a refusal under `-> Model` is what that check reports.)
 */
function refusedConstructions(
  doc: unknown,
  framework: Framework,
  positions: ValuePositions,
  engine: ReturnType<typeof engineOptions>,
  rootAt: Site,
): { findings: StaticFinding[]; unknown?: string } {
  const findings: StaticFinding[] = [];
  let unworded: string | undefined;
  for (const { value: built, mark: model } of markedIn(doc, refusedModel)) {
    const note = `\`${model.name}(…)\` raises ValidationError where it is built (pydantic validates a model when it is built), and ${RAISED[framework]}`;
    const checked = { content: [], structuredContent: built };
    const worded = schemaRejections(
      checked,
      model,
      judgeLax(model, built).rejected,
      positions,
      engine,
      rootAt,
    );
    // As in againstAnnotation: a refusal no finding words still raises, so the return is not typed.
    if (worded.length === 0) unworded ??= `\`${model.name}(…)\` raises ValidationError where it is built`;
    for (const f of worded)
      findings.push({
        ...f,
        message: f.message.replace(/^structuredContent/, `${model.name}(…)`),
        pointer: '',
        note,
      });
  }
  return unworded === undefined ? { findings } : { findings, unknown: unworded };
}

/**
 * FastMCP helpers that surely raise (`Image(data=<str>)`, the interpreter's `helperRaises`): FastMCP
 * sends an error result in place of the return, so the tool fails for every client, which is what
 * result-rejected-by-server says of a result the server's own framework refuses. Reported at the call.
 */
function raisingHelpers(doc: unknown, positions: ValuePositions, rootAt: Site): StaticFinding[] {
  return markedIn(doc, raisesWhy).map(({ mark: why, path }) => {
    const placed = positions.locate(doc, rootAt, path);
    return {
      rule: resultRejectedByServer.id,
      severity: 'error',
      message: formatTemplate(resultRejectedByServer.messages.default as string, {
        sdk: 'FastMCP',
        via: 'isError result',
        problem: why,
      }),
      pointer: '',
      site: placed.site,
      guards: placed.guards,
      reaches: [],
      note: 'FastMCP sends an error result in place of the return, on every call that returns this',
    };
  });
}

interface Marked<T> {
  readonly value: object;
  readonly mark: T;
  readonly path: readonly PathSegment[];
}

/**
 * The objects `value` holds, itself included, that `markOf` finds a mark on (a refused construction, a
 * raising helper), with their paths; bounded in depth, and shared or circular parts are walked once.
 */
function markedIn<T>(
  value: unknown,
  markOf: (value: unknown) => T | undefined,
  path: PathSegment[] = [],
  found: Marked<T>[] = [],
  seen = new Set<object>(),
): Marked<T>[] {
  if (typeof value !== 'object' || value === null || seen.has(value) || path.length > MAX_MARK_DEPTH)
    return found;
  seen.add(value);
  const mark = markOf(value);
  if (mark !== undefined) found.push({ value, mark, path: [...path] });
  const array = Array.isArray(value);
  for (const key of Object.keys(value)) {
    // One path array for the walk, copied only where a mark is found: this runs on every return.
    path.push(array ? Number(key) : key);
    markedIn((value as Record<string, unknown>)[key], markOf, path, found, seen);
    path.pop();
  }
  return found;
}

const MAX_MARK_DEPTH = 64;

/** What the client gets when the handler raises. */
const RAISED: Record<Framework, string> = {
  'fastmcp-python': 'FastMCP sends an error result in place of the return',
  'mcp-python-lowlevel': "the SDK's low-level server sends an error result in place of the return",
  'mcp-sdk': 'the call fails instead of returning',
  'fastmcp-ts': 'the call fails instead of returning',
  gateway: 'the call fails instead of returning',
};

/** Schema keywords where a failure may come from any part of the instance (another branch, an item). */
const DISJUNCTIVE = new RegExp(`/(${DISJUNCTIONS.join('|')})(/|$)`);

/**
 * Whether an outputSchema mismatch is the source's doing, not an unknown's: the value at the error's
 * path holds nothing the source leaves open (a missing required member of an object with a spread
 * may be in the spread); under a union, a negation or a condition, the whole structuredContent must,
 * since the branch that should have matched may have failed on an unknown elsewhere.
 */
function schemaVerdictIsCertain(wrapped: unknown, f: EngineFinding): boolean {
  const judged = DISJUNCTIVE.test(String(f.data.schemaPath ?? '')) ? ['structuredContent'] : f.path;
  return isCertain(getIn(wrapped, judged as readonly PathSegment[]));
}

/**
 * Whether a value holds nothing the source leaves open: the schema's verdict on a container with an
 * unknown member or a spread may be that unknown's doing.
 */
function isCertain(value: unknown, depth = 0): boolean {
  if (isOpaque(value) || isOpen(value)) return false;
  if (typeof value !== 'object' || value === null) return true;
  if (depth > 64) return false;
  return Object.values(value).every((v) => isCertain(v, depth + 1));
}

/** One defect: a rule's message at one place. */
function problemKey(f: StaticFinding): string {
  return `${f.rule}\u0000${f.site.file.id}:${f.site.start}:${f.site.end}\u0000${f.message}`;
}

function checkDocument(
  doc: StandaloneDocument,
  positions: ValuePositions,
  engine: ReturnType<typeof engineOptions>,
): StaticFinding[] {
  const out: StaticFinding[] = [];
  const { docs } = concretize(doc.value, doc.heap, positions);
  for (const value of docs) {
    if (doc.kind === 'message') {
      const message = presenceOnly(value);
      // The result a response carries is judged as a handler's is (a text block that is the JSON of
      // a structuredContent known only at run time is its mirror).
      if (isObject(message) && !isOpaque(message) && Object.hasOwn(message, 'result'))
        message.result = concretizeResult(message.result, positions);
      for (const f of locateAll(runMessage(message, engine), positions, message, doc.site, doc.owner)) {
        out.push(doc.httpStatus !== undefined ? asTransportError(f, doc.httpStatus) : f);
      }
    } else if (doc.kind === 'result') {
      const result = concretizeResult(value, positions);
      appendAll(out, locateAll(runToolResult(result, engine), positions, result, doc.site, doc.owner));
    } else {
      // A lone block is checked inside an open result, keeping only what the block rules say about it.
      const holder = markOpen({ content: [value] });
      out.push(
        ...locateAll(runToolResult(holder, engine), positions, holder, doc.site, doc.owner).filter((f) =>
          f.pointer.startsWith('/content/0'),
        ),
      );
    }
  }
  return out;
}

/**
 * `{"jsonrpc": "2.0", "error": …, "id": null}` sent with an HTTP error status is what the SDK's own
 * transports send for a request they cannot read; clients act on the HTTP status. The id rule is
 * about responses to requests, so here it is advice, not an error.
 */
function asTransportError(f: StaticFinding, status: number): StaticFinding {
  if (f.rule !== 'envelope-id-invalid') return f;
  const sent = status > 0 ? `HTTP status ${status}` : 'an HTTP error status';
  return {
    ...f,
    severity: 'info',
    note: `sent with ${sent} for a transport-level failure, as the SDK's transports do; clients act on the status`,
  };
}

/** The members JSON-RPC 2.0 defines; anything else on an envelope is wrong whatever its value. */
const JSONRPC_MEMBERS = new Set(['jsonrpc', 'id', 'method', 'params', 'result', 'error']);

/**
 * `payload["requestId"] = request_id`: the value is unknown, but an extra envelope member is wrong
 * for its presence alone, so such members get a placeholder value.
 */
function presenceOnly(message: unknown): unknown {
  if (!isObject(message) || isOpaque(message)) return message;
  for (const key of Object.keys(message)) {
    if (!JSONRPC_MEMBERS.has(key) && isOpaque(message[key])) message[key] = null;
  }
  return message;
}

function locateAll(
  found: readonly EngineFinding[],
  positions: ValuePositions,
  root: unknown,
  rootAt: Site,
  owner?: string,
): StaticFinding[] {
  return (
    found
      .filter((f) => f.messageId !== 'internal')
      // A value built from an input by its type (`node.map(…)` where `Array.isArray(node)`) is what
      // the input is, which the source does not fix: its type is no proven defect, nor is a finding
      // about anything that holds it (an outputSchema whose member it is).
      .filter((f) => !positions.dependsOnDerived(root, f.path as readonly PathSegment[]))
      .map((f) => {
        const placed = positions.locate(root, rootAt, f.path as readonly PathSegment[]);
        return {
          rule: f.rule,
          severity: f.severity,
          message: f.message,
          pointer: f.pointer,
          ...(f.fix ? { fix: f.fix } : {}),
          site: placed.site,
          guards: placed.guards,
          reaches: [],
          ...(owner ? { owner } : {}),
        };
      })
  );
}

/**
 * Findings without repeats: one defect (a rule at one literal) is one finding, however many tools'
 * returns it reaches; those returns are listed on it.
 */
class FindingSet {
  private readonly byKey = new Map<string, { finding: StaticFinding; reaches: Reach[] }>();

  add(finding: StaticFinding, reach: Reach | undefined): void {
    const key = problemKey(finding);
    let entry = this.byKey.get(key);
    if (!entry) {
      entry = { finding, reaches: [] };
      this.byKey.set(key, entry);
    }
    if (reach && !entry.reaches.some((r) => r.tool === reach.tool && r.site === reach.site))
      entry.reaches.push(reach);
  }

  list(): StaticFinding[] {
    return [...this.byKey.values()].map(({ finding, reaches }) => ({ ...finding, reaches }));
  }
}
