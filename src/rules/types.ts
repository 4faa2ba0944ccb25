/**
 * The shape of a rule. Each rule lives in its own module under src/rules/<subject>/<id>.ts and
 * default-exports `defineRule({...})`. Everything that reports a problem (check, audit, scan, the
 * ESLint plugin, the proxy) and the generated docs read these definitions.
 */

import type { ClientImpact } from '../clients/catalog.js';
import type { Severity } from '../core/finding.js';
import type { JsonObject } from '../core/json.js';
import type { PathSegment } from '../core/pointer.js';
import type { OutputSchemaCompiler } from '../core/schema.js';
import type { Sniffed } from '../core/sniff.js';
import type { ProtocolVersion, VersionFeatures } from '../spec/versions.js';

/**
 * What a rule looks at:
 * - `frame`: one raw transport frame (a stdout line, an HTTP body or SSE event), before JSON parsing;
 * - `message`: a whole JSON-RPC message;
 * - `result`: a CallToolResult (the `result` of a tools/call response);
 * - `block`: one item of `content`;
 * - `tools-list`: a ListToolsResult;
 * - `tool`: one item of `tools`;
 * - `session`: an event an audit observed on a live connection that is no document (a request that
 *   got no answer, a response nobody asked for, a refused version, …); see `SessionEvent`.
 */
export type Subject = 'frame' | 'message' | 'result' | 'block' | 'tools-list' | 'tool' | 'session';

/** The transports a live connection carries frames over. */
export type WireTransport = 'stdio' | 'http' | 'sse';

/** A raw transport frame, for `frame` rules. */
export interface Frame {
  /** `file`: a line of a saved input `check` reads, whose transport is not known. */
  readonly transport: WireTransport | 'file';
  readonly text: string;
  /** The HTTP Content-Type, for HTTP bodies. */
  readonly contentType?: string;
  /**
   * The first byte that is not UTF-8, when the frame's bytes are not: `text` is then their decoding
   * with U+FFFD in its place, as a lenient client reads it.
   */
  readonly invalidUtf8?: InvalidUtf8;
}

/** Where a byte sequence stops being UTF-8: the offset of the first bad byte, and its value. */
export interface InvalidUtf8 {
  readonly offset: number;
  readonly byte: number;
}

/**
 * What an audit saw happen, for `session` rules: `event` names it, the other members are its facts.
 * The audit (src/audit/events.ts) decides what happened, because it must act on it (stop paging,
 * restart a crashed server); the rule decides what it means: severity, message, the clients it
 * breaks, and its docs. A right example may be an event the audit never reports (an answer in time).
 */
export interface SessionEvent {
  readonly event: string;
  readonly [fact: string]: unknown;
}

export interface Example {
  /** The document as the rule sees it (for `block` rules: the block; for `result`: the result…). */
  readonly value: unknown;
  /** Version to check the example against; defaults to the newest version the rule applies to. */
  readonly protocolVersion?: ProtocolVersion;
  /** A tool definition the example result belongs to, for outputSchema rules. */
  readonly tool?: JsonObject;
  /** For `frame` rules, the frame itself. */
  readonly frame?: Frame;
  /**
   * The value as JavaScript source, for a value JSON cannot show (a BigInt, a circular reference): the
   * docs print it instead of the value's JSON.
   */
  readonly source?: string;
}

export interface Report {
  /** Which message template to use; defaults to `default`. */
  readonly messageId?: string;
  /** Path of the offending value, relative to the subject node; defaults to the node itself. */
  readonly path?: readonly PathSegment[];
  /** Values for the `{{name}}` placeholders of the message; kept on the finding as data. */
  readonly data?: Readonly<Record<string, string | number | boolean>>;
  /**
   * The rule's repair would decline this finding (nothing it could write is right): the finding's
   * `fix.automatic` is false then, so that it claims only what repair() does.
   */
  readonly manual?: boolean;
}

export interface CheckContext {
  readonly version: ProtocolVersion;
  readonly features: VersionFeatures;
  /** The tool definition the checked result answers, when known. */
  readonly tool?: JsonObject;
  /** The request the checked message answers, when known. */
  readonly request?: JsonObject;
  /** The document is a static evaluation of source code (see core/opaque.ts). */
  readonly partial: boolean;
  /** What the bytes at `path` (relative to the subject) look like; `undefined` when not sniffed. */
  sniffed(path: readonly PathSegment[]): Sniffed | undefined;
  readonly schemas: OutputSchemaCompiler;
  report(report: Report): void;
}

/**
 * A repair mutates `ctx.root`, a private deep copy of the checked document, and says what it did.
 * It returns `undefined` when it cannot repair this occurrence; the repair engine then falls back to
 * a generic, lossy replacement. Repairs run until no repairable finding is left, so they need not
 * handle every finding at once, but each call must make progress.
 */
export interface RepairContext {
  readonly version: ProtocolVersion;
  readonly features: VersionFeatures;
  readonly tool?: JsonObject;
  /** The mutable document. */
  readonly root: unknown;
  /** Absolute path of the subject node within `root`. */
  readonly subjectPath: readonly PathSegment[];
  /** Absolute path of the enclosing CallToolResult or ListToolsResult, when there is one. */
  readonly resultPath?: readonly PathSegment[];
  /** Absolute path the finding points at. */
  readonly findingPath: readonly PathSegment[];
  readonly messageId: string;
  readonly data: Readonly<Record<string, string | number | boolean>>;
  sniffed(absolutePath: readonly PathSegment[]): Sniffed | undefined;
}

export interface RepairOutcome {
  /** What was done, in words; becomes the `Fix.description`. */
  readonly description: string;
  /** Data was dropped or replaced with a description of it. */
  readonly lossy?: boolean;
}

export interface RuleDefinition {
  /** Stable kebab-case id; never reuse or rename one that has shipped. */
  readonly id: string;
  readonly subject: Subject;
  readonly severity: Severity;
  /**
   * Messages whose findings have another severity than the rule's: a rule that judges by degree
   * (a late answer that only some clients give up on, say) words each degree as its own message.
   */
  readonly messageSeverity?: Readonly<Record<string, Severity>>;
  /** One line, imperative or descriptive: "Image and audio blocks need a mimeType". */
  readonly title: string;
  /** Why it matters: the spec text it enforces and what clients do. Markdown. */
  readonly rationale: string;
  /** Protocol versions in which the rule applies. */
  readonly versions: readonly ProtocolVersion[];
  /** Clients that break on the defect, and how. */
  readonly clients: readonly ClientImpact[];
  /** Message templates; `{{name}}` placeholders are filled from `Report.data`. `default` is required. */
  readonly messages: { readonly default: string } & Readonly<Record<string, string>>;
  /** How to fix it by hand, in words; `{{name}}` placeholders as in messages. */
  readonly fix?: string;
  /** A document that breaks the rule and one that follows it; the docs test checks both. */
  readonly examples: { readonly wrong: Example; readonly right: Example };
  /**
   * The check compares values across the document (for instance the text mirror against
   * structuredContent), so it is skipped on partial documents from static analysis.
   */
  readonly needsCompleteDocument?: boolean;
  /**
   * Only for defects that are a security problem, not just a broken result: GitHub code scanning files
   * such rules under security and ranks them by `severity` (CVSS-like, 0.1–10).
   */
  readonly security?: { readonly severity: number; readonly why: string };
  check(node: unknown, ctx: CheckContext): void;
  repair?(ctx: RepairContext): RepairOutcome | undefined;
}

export type Rule = RuleDefinition;

/** Identity function that gives rule modules type checking and a single place to add defaults. */
export function defineRule(rule: RuleDefinition): Rule {
  return rule;
}
