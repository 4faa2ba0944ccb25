/**
 * The rule engine: walks a document, hands each node to the rules whose subject it is, and turns
 * their reports into findings. It is synchronous and pure; sniffing (asynchronous) happens before it
 * in validate/index.ts, and static analysis calls it directly on partial documents.
 */

import type { Finding, FixSuggestion } from '../core/finding.js';
import { isObject, type JsonObject } from '../core/json.js';
import { pathIsUncertain } from '../core/opaque.js';
import { type PathSegment, toPointer } from '../core/pointer.js';
import { startRun } from '../core/run-memo.js';
import { createOutputSchemaCompiler, type OutputSchemaCompiler } from '../core/schema.js';
import type { Sniffed } from '../core/sniff.js';
import { RULES } from '../rules/index.js';
import type { CheckContext, Frame, Report, Rule, SessionEvent, Subject } from '../rules/types.js';
import { features, type ProtocolVersion, type VersionFeatures } from '../spec/versions.js';

/** A finding plus what the repair engine needs to act on it. */
export interface EngineFinding extends Finding {
  readonly data: Readonly<Record<string, string | number | boolean>>;
  readonly messageId: string;
  /** Absolute path of the offending value. */
  readonly path: readonly PathSegment[];
  /** Absolute path of the node the rule checked. */
  readonly subjectPath: readonly PathSegment[];
  /** Absolute path of the enclosing result, when the subject is inside one. */
  readonly resultPath: readonly PathSegment[] | undefined;
}

export interface EngineOptions {
  readonly version: ProtocolVersion;
  /** The tool definition a result answers. */
  readonly tool?: JsonObject;
  /** Tool definitions by name, to find the tool of a tools/call response from its request. */
  readonly tools?: ReadonlyMap<string, JsonObject>;
  readonly request?: JsonObject;
  readonly partial?: boolean;
  /** Sniffed payloads by absolute JSON Pointer. */
  readonly sniffed?: ReadonlyMap<string, Sniffed>;
  readonly schemas?: OutputSchemaCompiler;
  /** Restrict to these rules (default: the whole catalog). */
  readonly rules?: readonly Rule[];
}

let sharedSchemas: OutputSchemaCompiler | undefined;

function defaultSchemas(): OutputSchemaCompiler {
  sharedSchemas ??= createOutputSchemaCompiler();
  return sharedSchemas;
}

type RuleTable = ReadonlyMap<Subject, readonly Rule[]>;

/** Rules by version and subject, cached because the catalog is fixed at run time. */
const ruleTables = new WeakMap<readonly Rule[], Map<ProtocolVersion, RuleTable>>();

function ruleTable(rules: readonly Rule[], version: ProtocolVersion): RuleTable {
  let byVersion = ruleTables.get(rules);
  if (!byVersion) {
    byVersion = new Map();
    ruleTables.set(rules, byVersion);
  }
  let bySubject = byVersion.get(version);
  if (!bySubject) {
    const table = new Map<Subject, Rule[]>();
    for (const rule of rules) {
      if (!rule.versions.includes(version)) continue;
      table.set(rule.subject, [...(table.get(rule.subject) ?? []), rule]);
    }
    bySubject = table;
    byVersion.set(version, bySubject);
  }
  return bySubject;
}

const NO_RULES: readonly Rule[] = [];

export function formatTemplate(template: string, data: Readonly<Record<string, unknown>>): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
    Object.hasOwn(data, name) ? String(data[name]) : whole,
  );
}

/**
 * The context rules see. One per run, re-aimed at each node, rather than one object and two closures per
 * node: validation is on the proxy's hot path, and rules use the context only during their check call.
 */
class NodeContext implements CheckContext {
  readonly version: ProtocolVersion;
  readonly features: VersionFeatures;
  readonly request: JsonObject | undefined;
  readonly partial: boolean;
  readonly schemas: OutputSchemaCompiler;
  tool: JsonObject | undefined;
  rule: Rule | undefined;
  subjectPath: readonly PathSegment[] = [];
  resultPath: readonly PathSegment[] | undefined;

  constructor(private readonly run: Run) {
    const { version, request, partial = false } = run.options;
    this.version = version;
    this.features = features(version);
    this.request = request;
    this.partial = partial;
    this.schemas = run.schemas;
  }

  sniffed(path: readonly PathSegment[]): Sniffed | undefined {
    return this.run.options.sniffed?.get(toPointer([...this.subjectPath, ...path]));
  }

  report(report: Report): void {
    if (this.rule) this.run.record(this.rule, report, this.subjectPath, this.resultPath);
  }
}

class Run {
  readonly findings: EngineFinding[] = [];
  readonly schemas: OutputSchemaCompiler;
  private readonly table: RuleTable;
  private readonly ctx: NodeContext;

  constructor(
    readonly root: unknown,
    readonly options: EngineOptions,
  ) {
    startRun();
    this.schemas = options.schemas ?? defaultSchemas();
    this.table = ruleTable(options.rules ?? RULES, options.version);
    this.ctx = new NodeContext(this);
  }

  apply(
    subject: Subject,
    node: unknown,
    subjectPath: readonly PathSegment[],
    resultPath: readonly PathSegment[] | undefined,
    tool?: JsonObject,
  ): void {
    const rules = this.table.get(subject) ?? NO_RULES;
    if (rules.length === 0) return;
    const ctx = this.ctx;
    ctx.tool = tool;
    ctx.subjectPath = subjectPath;
    ctx.resultPath = resultPath;
    for (const rule of rules) {
      if (ctx.partial && rule.needsCompleteDocument) continue;
      ctx.rule = rule;
      try {
        rule.check(node, ctx);
      } catch (error) {
        // A rule bug must not hide the other findings or crash a proxy; it becomes a finding itself.
        this.findings.push(internalError(rule, error, subjectPath, resultPath));
      }
    }
    ctx.rule = undefined;
  }

  record(
    rule: Rule,
    report: Report,
    subjectPath: readonly PathSegment[],
    resultPath: readonly PathSegment[] | undefined,
  ): void {
    const path = [...subjectPath, ...(report.path ?? [])];
    if (this.options.partial && pathIsUncertain(this.root, path)) return;
    const messageId = report.messageId ?? 'default';
    const data = report.data ?? {};
    const template = rule.messages[messageId] ?? rule.messages.default;
    const fix: FixSuggestion | undefined = rule.fix
      ? { description: formatTemplate(rule.fix, data), automatic: rule.repair !== undefined }
      : undefined;
    this.findings.push({
      rule: rule.id,
      severity: rule.messageSeverity?.[messageId] ?? rule.severity,
      message: formatTemplate(template, data),
      pointer: toPointer(path),
      ...(fix ? { fix } : {}),
      data,
      messageId,
      path,
      subjectPath,
      resultPath,
    });
  }

  toolResult(result: unknown, path: readonly PathSegment[], tool: JsonObject | undefined): void {
    this.apply('result', result, path, path, tool);
    if (isObject(result) && Array.isArray(result.content)) {
      result.content.forEach((block, i) => {
        this.apply('block', block, [...path, 'content', i], path, tool);
      });
    }
  }

  toolsList(list: unknown, path: readonly PathSegment[]): void {
    this.apply('tools-list', list, path, path);
    if (isObject(list) && Array.isArray(list.tools)) {
      list.tools.forEach((tool, i) => {
        this.apply('tool', tool, [...path, 'tools', i], path);
      });
    }
  }

  message(message: unknown): void {
    this.apply('message', message, [], undefined);
    if (!isObject(message) || !Object.hasOwn(message, 'result')) return;
    const kind = responseKind(message.result, this.options.request);
    if (kind === 'tools/call') this.toolResult(message.result, ['result'], this.toolFor());
    else if (kind === 'tools/list') this.toolsList(message.result, ['result']);
  }

  private toolFor(): JsonObject | undefined {
    if (this.options.tool) return this.options.tool;
    const params = this.options.request?.params;
    const name = isObject(params) ? params.name : undefined;
    return typeof name === 'string' ? this.options.tools?.get(name) : undefined;
  }
}

function internalError(
  rule: Rule,
  error: unknown,
  subjectPath: readonly PathSegment[],
  resultPath: readonly PathSegment[] | undefined,
): EngineFinding {
  const detail = error instanceof Error ? error.message : String(error);
  return {
    rule: rule.id,
    severity: 'info',
    message: `rule ${rule.id} failed internally and was skipped: ${detail}`,
    pointer: toPointer(subjectPath),
    data: { internal: true },
    messageId: 'internal',
    path: subjectPath,
    subjectPath,
    resultPath,
  };
}

/** Which result a response carries: from its request when known, else from its shape. */
export function responseKind(
  result: unknown,
  request: JsonObject | undefined,
): 'tools/call' | 'tools/list' | undefined {
  const method = request?.method;
  if (method === 'tools/call' || method === 'tools/list') return method;
  if (typeof method === 'string') return undefined;
  if (!isObject(result)) return undefined;
  if (Array.isArray(result.tools)) return 'tools/list';
  if (['content', 'structuredContent', 'toolResult', 'isError'].some((k) => Object.hasOwn(result, k))) {
    return 'tools/call';
  }
  return undefined;
}

export function runToolResult(result: unknown, options: EngineOptions): EngineFinding[] {
  const run = new Run(result, options);
  run.toolResult(result, [], options.tool);
  return run.findings;
}

export function runToolsList(list: unknown, options: EngineOptions): EngineFinding[] {
  const run = new Run(list, options);
  run.toolsList(list, []);
  return run.findings;
}

export function runMessage(message: unknown, options: EngineOptions): EngineFinding[] {
  const run = new Run(message, options);
  run.message(message);
  return run.findings;
}

export function runSession(event: SessionEvent, options: EngineOptions): EngineFinding[] {
  const run = new Run(event, options);
  run.apply('session', event, [], undefined);
  return run.findings;
}

export function runFrame(frame: Frame, options: EngineOptions): EngineFinding[] {
  const run = new Run(frame, options);
  run.apply('frame', frame, [], undefined);
  return run.findings;
}
