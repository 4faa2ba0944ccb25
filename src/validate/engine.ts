/**
 * The rule engine: walks a document once, hands each node to the rules whose subject it is, and turns
 * their reports into findings. It is synchronous and pure. Facts several rules need (a payload's base64
 * check and sniffed type, the JSON of structuredContent, a text's parse) are computed once per run, in
 * the run's fact scope (core/run-memo.ts), and forgotten when it returns. The validators ask it to sniff
 * payloads; static analysis calls it directly on partial documents, without sniffing.
 */

import type { Finding, FixSuggestion } from '../core/finding.js';
import { isObject, type JsonObject } from '../core/json.js';
import { pathIsUncertain } from '../core/opaque.js';
import { payloadFactsAt } from '../core/payload.js';
import { type PathSegment, toPointer } from '../core/pointer.js';
import { FactScope, runInScope } from '../core/run-memo.js';
import { createOutputSchemaCompiler, type OutputSchemaCompiler } from '../core/schema.js';
import type { Sniffed } from '../core/sniff.js';
import { RULES } from '../rules/index.js';
import type { CheckContext, Frame, Report, Rule, SessionEvent, Subject } from '../rules/types.js';
import {
  BLOCK_TYPES,
  features,
  PROTOCOL_VERSIONS,
  type ProtocolVersion,
  type VersionFeatures,
} from '../spec/versions.js';
import {
  BLOCK_RULE_TYPES,
  builtTextShape,
  COVERED_BLOCK_RULES,
  COVERED_FOR_SHORT_TEXT,
  COVERED_LINK_BLOCK_RULES,
  COVERED_MEDIA_BLOCK_RULES,
  COVERED_MEDIA_RESULT_RULES,
  COVERED_RESOURCE_BLOCK_RULES,
  COVERED_RESULT_RULES,
  COVERED_SMALL_MEDIA_RESULT_RULES,
  isPlainMediaResult,
  isSmallPlainMediaResult,
  PlainBlock,
  PlainKind,
  plainBlockKind,
  resultShape,
  Shape,
  textBlockShape,
} from './fast-path.js';

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
  /**
   * What the bytes of the base64 payload at `holder[key]` are, for the rules that ask; without it they
   * are unknown (static analysis). The validators pass the synchronous sniffer (`sniffSync`), with
   * file-type's answers in the asynchronous ones.
   */
  readonly sniff?: PayloadSniffer;
  /** The fact scope to run in: a repair passes one scope to all its runs. Default: a fresh one. */
  readonly scope?: FactScope;
  /** Findings of blocks checked in an earlier run that have not changed since (a repair's re-runs). */
  readonly blockFindings?: BlockFindings;
  readonly schemas?: OutputSchemaCompiler;
  /** Restrict to these rules (default: the whole catalog). */
  readonly rules?: readonly Rule[];
  /** The document may stand for a JSON text too long to write (FactScope.unbounded). Default: false. */
  readonly unbounded?: boolean;
}

/**
 * The block rules' findings by block object, for the runs of one repair: block rules see only their
 * block, so a block the repair did not touch, still at the same place, has the same findings. The repair
 * engine forgets a block it changes in place, and everything when a repair reaches beyond one block.
 */
export class BlockFindings {
  private readonly byBlock = new Map<object, { path: readonly PathSegment[]; findings: EngineFinding[] }>();

  get(block: object, path: readonly PathSegment[]): EngineFinding[] | undefined {
    const hit = this.byBlock.get(block);
    return hit && samePath(hit.path, path) ? hit.findings : undefined;
  }

  set(block: object, path: readonly PathSegment[], findings: EngineFinding[]): void {
    this.byBlock.set(block, { path, findings });
  }

  forget(block: unknown): void {
    // A value that is no object was never a key: deleting it is a no-op.
    this.byBlock.delete(block as object);
  }

  clear(): void {
    this.byBlock.clear();
  }
}

function samePath(a: readonly PathSegment[], b: readonly PathSegment[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export type PayloadSniffer = (holder: object, key: string) => Sniffed | undefined;

/** The synchronous sniffer: the payload facts, computed once per validation (see payloadFactsAt). */
export const sniffSync: PayloadSniffer = (holder, key) => payloadFactsAt(holder, key)?.sniffed;

/** The payload a relative path names, as its holder and key; `undefined` when the holder is missing. */
export function payloadAt(
  node: unknown,
  path: readonly PathSegment[],
): { holder: object; key: string } | undefined {
  let holder = node;
  for (let i = 0; i < path.length - 1; i++) {
    if (holder === null || typeof holder !== 'object') return undefined;
    holder = (holder as Record<string | number, unknown>)[path[i] as string | number];
  }
  const key = path[path.length - 1];
  if (holder === null || typeof holder !== 'object' || key === undefined) return undefined;
  return { holder, key: String(key) };
}

let sharedSchemas: OutputSchemaCompiler | undefined;

function defaultSchemas(): OutputSchemaCompiler {
  sharedSchemas ??= createOutputSchemaCompiler();
  return sharedSchemas;
}

/**
 * A rule with its check bound to it: the engine calls thousands of checks per result, and loading
 * `check` from rule objects of many different shapes is a slow, megamorphic property access.
 */
interface CompiledRule {
  readonly rule: Rule;
  readonly check: Rule['check'];
}

/** The rules of one subject in one version, in catalog order, compiled once. */
interface Plan {
  readonly all: readonly CompiledRule[];
  /** Those that also run on partial documents from static analysis. */
  readonly partial: readonly CompiledRule[];
  /** Those that still run on a plain-text result (./fast-path.ts): the others report nothing there. */
  readonly plainText: readonly CompiledRule[];
  /** Those that still run on a plain-text result whose texts are all short. */
  readonly shortPlainText: readonly CompiledRule[];
  /** For blocks: those that can report on an object block of each standard type (BLOCK_RULE_TYPES). */
  readonly byBlockType?: Readonly<Record<string, readonly CompiledRule[]>>;
  /**
   * For blocks: by block type, those that still run on a plain block of that type (a plain media block,
   * resource link or embedded resource, ./fast-path.ts), of the ones that can report on the type.
   */
  readonly plainByType?: Readonly<Record<string, readonly CompiledRule[]>>;
  /** For results: those that still run on a plain media result (./fast-path.ts). */
  readonly plainMediaResult?: readonly CompiledRule[];
  /** For results: those that still run on a small plain media result (./fast-path.ts). */
  readonly smallMediaResult?: readonly CompiledRule[];
  /** For blocks: by PlainKind, those that still run on a plain block of that kind. */
  readonly byPlainKind?: readonly (readonly CompiledRule[])[];
  /** For blocks: the bits (1 << PlainKind) of the kinds with rules in byPlainKind. */
  readonly plainKindsAsked?: number;
}

type Plans = ReadonlyMap<Subject, Plan>;

function byBlockType(all: readonly CompiledRule[]): Record<string, readonly CompiledRule[]> {
  return Object.fromEntries(
    BLOCK_TYPES.map((type) => [
      type,
      all.filter(({ rule }) => BLOCK_RULE_TYPES[rule.id]?.includes(type) ?? true),
    ]),
  );
}

/** Which rules each kind of plain block covers (./fast-path.ts). */
const COVERED_BY_PLAIN_TYPE: Readonly<Record<string, ReadonlySet<string>>> = {
  image: COVERED_MEDIA_BLOCK_RULES,
  audio: COVERED_MEDIA_BLOCK_RULES,
  resource_link: COVERED_LINK_BLOCK_RULES,
  resource: COVERED_RESOURCE_BLOCK_RULES,
};

/** A block plan with the rules still to run on each type and kind of plain block. */
function withBlockPlans(plan: Plan): Plan {
  const byType = byBlockType(plan.all);
  const plain = plainByType(byType);
  const byPlainKind: (readonly CompiledRule[])[] = [];
  byPlainKind[PlainKind.ShortText] = plan.shortPlainText;
  byPlainKind[PlainKind.Text] = plan.plainText;
  byPlainKind[PlainKind.Image] = plain.image as readonly CompiledRule[];
  byPlainKind[PlainKind.Audio] = plain.audio as readonly CompiledRule[];
  byPlainKind[PlainKind.Link] = plain.resource_link as readonly CompiledRule[];
  byPlainKind[PlainKind.Resource] = plain.resource as readonly CompiledRule[];
  let asked = 0;
  byPlainKind.forEach((rules, kind) => {
    if (rules.length > 0) asked |= 1 << kind;
  });
  return { ...plan, byBlockType: byType, plainByType: plain, byPlainKind, plainKindsAsked: asked };
}

function plainByType(
  byType: Readonly<Record<string, readonly CompiledRule[]>>,
): Record<string, readonly CompiledRule[]> {
  return Object.fromEntries(
    Object.entries(COVERED_BY_PLAIN_TYPE).map(([type, covered]) => [
      type,
      // Every type of COVERED_BY_PLAIN_TYPE is a standard one, which byBlockType maps.
      (byType[type] as readonly CompiledRule[]).filter(({ rule }) => !covered.has(rule.id)),
    ]),
  );
}

/** The rules still to run on a block known to be a plain non-text block of a result (its type is set). */
function plainBlockRules(plan: Plan, block: unknown): readonly CompiledRule[] | undefined {
  return plan.plainByType?.[(block as JsonObject).type as string];
}

/**
 * The rules that can report on a block: fewer on a plain text, media, link or resource block
 * (./fast-path.ts), else those for its type when it is an object of a standard type.
 */
function blockRules(plan: Plan, block: unknown, run: Run): readonly CompiledRule[] {
  const text = textBlockShape(block);
  if (text !== Shape.Other) return planRules(plan, text, false);
  const sniff = run.options.sniff;
  if (sniff && plan.plainByType && plainBlockKind(block, run.features, sniff) !== PlainBlock.None) {
    return plainBlockRules(plan, block) as readonly CompiledRule[];
  }
  const type = isObject(block) ? block.type : undefined;
  const byType = plan.byBlockType;
  return typeof type === 'string' && byType !== undefined && Object.hasOwn(byType, type)
    ? (byType[type] as readonly CompiledRule[])
    : plan.all;
}

function planRules(plan: Plan, shape: Shape, partial: boolean): readonly CompiledRule[] {
  if (shape === Shape.ShortPlainText) return plan.shortPlainText;
  if (shape === Shape.PlainText) return plan.plainText;
  return partial ? plan.partial : plan.all;
}

const COVERED: Partial<Record<Subject, ReadonlySet<string>>> = {
  result: COVERED_RESULT_RULES,
  block: COVERED_BLOCK_RULES,
};

/** Plans by version and subject, cached because the catalog is fixed at run time. */
const compiled = new WeakMap<readonly Rule[], Map<ProtocolVersion, Plans>>();

let lastPlans: { rules: readonly Rule[]; version: ProtocolVersion; plans: Plans } | undefined;

function plansFor(rules: readonly Rule[], version: ProtocolVersion): Plans {
  if (lastPlans?.rules === rules && lastPlans.version === version) return lastPlans.plans;
  const plans = compilePlans(rules, version);
  lastPlans = { rules, version, plans };
  return plans;
}

function compilePlans(rules: readonly Rule[], version: ProtocolVersion): Plans {
  let byVersion = compiled.get(rules);
  if (!byVersion) {
    byVersion = new Map();
    compiled.set(rules, byVersion);
  }
  let plans = byVersion.get(version);
  if (!plans) {
    const bySubject = new Map<Subject, Rule[]>();
    for (const rule of rules) {
      if (!rule.versions.includes(version)) continue;
      bySubject.set(rule.subject, [...(bySubject.get(rule.subject) ?? []), rule]);
    }
    plans = new Map(
      [...bySubject].map(([subject, rules]) => {
        const all = rules.map((rule) => ({ rule, check: rule.check.bind(rule) }));
        const covered = COVERED[subject];
        const plan: Plan = {
          all,
          partial: all.filter(({ rule }) => !rule.needsCompleteDocument),
          plainText: all.filter(({ rule }) => !covered?.has(rule.id)),
          shortPlainText: all.filter(
            ({ rule }) => !covered?.has(rule.id) && !COVERED_FOR_SHORT_TEXT.has(rule.id),
          ),
          ...(subject === 'result'
            ? {
                plainMediaResult: all.filter(({ rule }) => !COVERED_MEDIA_RESULT_RULES.has(rule.id)),
                smallMediaResult: all.filter(({ rule }) => !COVERED_SMALL_MEDIA_RESULT_RULES.has(rule.id)),
              }
            : {}),
        };
        return [subject, subject === 'block' ? withBlockPlans(plan) : plan];
      }),
    );
    byVersion.set(version, plans);
  }
  return plans;
}

const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}/g;

/** A message template split at its `{{name}}` placeholders: `literals` has one more entry than `names`. */
interface Template {
  readonly literals: readonly string[];
  readonly names: readonly string[];
  /** Each placeholder as written, kept when the data has no such member. */
  readonly wholes: readonly string[];
}

/**
 * Templates split once: every finding formats its rule's message and fix, and a regex replace with a
 * callback per finding was a tenth of the time of repairing a broken result. The templates come from
 * the rule catalog, a fixed set; the bound only keeps a caller with endless templates from growing it.
 */
const templates = new Map<string, Template>();
const MAX_TEMPLATES = 2_000;

function splitTemplate(template: string): Template {
  const literals: string[] = [];
  const names: string[] = [];
  const wholes: string[] = [];
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    literals.push(template.slice(last, match.index));
    names.push(match[1] as string);
    wholes.push(match[0]);
    last = match.index + match[0].length;
  }
  literals.push(template.slice(last));
  return { literals, names, wholes };
}

export function formatTemplate(template: string, data: Readonly<Record<string, unknown>>): string {
  let split = templates.get(template);
  if (split === undefined) {
    split = splitTemplate(template);
    if (templates.size < MAX_TEMPLATES) templates.set(template, split);
  }
  const { literals, names, wholes } = split;
  if (names.length === 0) return template;
  let out = literals[0] as string;
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string;
    out += Object.hasOwn(data, name) ? quoted(String(data[name])) : (wholes[i] as string);
    out += literals[i + 1] as string;
  }
  return out;
}

/**
 * The most characters of one value a message quotes. Values come from what a server sent (an id, an
 * error message, a MIME type), and a server that sends megabytes of one made every report carry them
 * whole: a 2 MB id gave a 4 MB JSON report, more than a SARIF upload takes.
 */
export const MAX_QUOTED = 1_000;

/** `value` as a message or report quotes it: whole, or its first MAX_QUOTED characters and a count of the rest. */
export function quoted(value: string): string {
  if (value.length <= MAX_QUOTED) return value;
  // Never half a surrogate pair: the message must stay well-formed text.
  const end = isHighSurrogate(value.charCodeAt(MAX_QUOTED - 1)) ? MAX_QUOTED - 1 : MAX_QUOTED;
  return `${value.slice(0, end)}… (${(value.length - end).toLocaleString('en')} more characters)`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
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
  node: unknown;
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
    return this.run.sniff(this.node, path);
  }

  report(report: Report): void {
    if (this.rule) this.run.record(this.rule, report, this.subjectPath, this.resultPath);
  }
}

class Run {
  readonly findings: EngineFinding[] = [];
  readonly schemas: OutputSchemaCompiler;
  readonly features: VersionFeatures;
  private readonly plans: Plans;
  private readonly ctx: NodeContext;

  constructor(
    readonly root: unknown,
    readonly options: EngineOptions,
  ) {
    this.schemas = options.schemas ?? defaultSchemas();
    this.plans = plansFor(options.rules ?? RULES, options.version);
    this.ctx = new NodeContext(this);
    this.features = this.ctx.features;
  }

  /** What the bytes of the payload at `path` below `node` are, when the run sniffs and they decode. */
  sniff(node: unknown, path: readonly PathSegment[]): Sniffed | undefined {
    const sniff = this.options.sniff;
    const payload = sniff && payloadAt(node, path);
    return payload ? sniff(payload.holder, payload.key) : undefined;
  }

  apply(
    subject: Subject,
    node: unknown,
    subjectPath: readonly PathSegment[],
    resultPath: readonly PathSegment[] | undefined,
    tool?: JsonObject,
    shape = Shape.Other,
    only?: readonly CompiledRule[],
  ): void {
    const plan = this.plans.get(subject);
    if (!plan) return;
    const rules =
      only ??
      (subject === 'block' && shape === Shape.Other && !this.ctx.partial
        ? blockRules(plan, node, this)
        : planRules(plan, shape, this.ctx.partial));
    if (rules.length === 0) return;
    const ctx = this.ctx;
    ctx.tool = tool;
    ctx.node = node;
    ctx.subjectPath = subjectPath;
    ctx.resultPath = resultPath;
    for (let i = 0; i < rules.length; i++) {
      const { rule, check } = rules[i] as CompiledRule;
      ctx.rule = rule;
      try {
        check(node, ctx);
      } catch (error) {
        // A rule bug must not hide the other findings or crash a proxy; it becomes a finding itself.
        this.findings.push(internalError(rule, error, subjectPath, resultPath));
      }
    }
    ctx.rule = undefined;
    ctx.node = undefined;
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
    const severity = rule.messageSeverity?.[messageId] ?? rule.severity;
    // repair() leaves advice alone: an info finding's fix is never applied for the user; nor a finding
    // its rule's repair says it would decline.
    const fix: FixSuggestion | undefined = rule.fix
      ? {
          description: formatTemplate(rule.fix, data),
          automatic: rule.repair !== undefined && severity !== 'info' && report.manual !== true,
        }
      : undefined;
    this.findings.push({
      rule: rule.id,
      severity,
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
    const shape = this.ctx.partial ? Shape.Other : resultShape(result, this.ctx.features, tool);
    if (shape !== Shape.Other) {
      this.plainTextResult(result as JsonObject, path, tool, shape);
      return;
    }
    const mediaResultRules = this.plainMediaResultRules(result, tool);
    this.apply('result', result, path, path, tool, Shape.Other, mediaResultRules);
    if (!isObject(result) || !Array.isArray(result.content)) return;
    const content = result.content;
    const memo = this.options.blockFindings;
    // In a plain media result every block that is not plain text is a plain media, link or resource
    // block: known without judging it again.
    const blockPlan = mediaResultRules && this.plans.get('block');
    for (let i = 0; i < content.length; i++) {
      const block = content[i];
      const only =
        blockPlan && textBlockShape(block) === Shape.Other ? plainBlockRules(blockPlan, block) : undefined;
      if (only !== undefined && only.length === 0 && !memo) continue;
      const blockPath = [...path, 'content', i];
      const known = memo && isObject(block) ? memo.get(block, blockPath) : undefined;
      if (known) {
        for (const finding of known) this.findings.push(finding);
        continue;
      }
      const first = this.findings.length;
      this.apply('block', block, blockPath, path, tool, Shape.Other, only);
      if (memo && isObject(block)) memo.set(block, blockPath, this.findings.slice(first));
    }
  }

  /** The result rules that still run on a plain media result (./fast-path.ts), when it is one. */
  private plainMediaResultRules(
    result: unknown,
    tool: JsonObject | undefined,
  ): readonly CompiledRule[] | undefined {
    const sniff = this.options.sniff;
    const rules = this.plans.get('result')?.plainMediaResult;
    if (this.ctx.partial || !sniff || !rules) return undefined;
    return isPlainMediaResult(result, this.features, tool, sniff) ? rules : undefined;
  }

  /** A result of the plain-text shape: only the rules that could still report run. */
  private plainTextResult(
    result: JsonObject,
    path: readonly PathSegment[],
    tool: JsonObject | undefined,
    shape: Shape,
  ): void {
    this.apply('result', result, path, path, tool, shape);
    const blocks = this.plans.get('block');
    if (!blocks || planRules(blocks, shape, false).length === 0) return;
    const content = result.content as unknown[];
    for (let i = 0; i < content.length; i++) {
      this.apply('block', content[i], [...path, 'content', i], path, tool, shape);
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
    return toolOf(this.options);
  }
}

/** The tool a message's tools/call result answers: the given one, else the request's, by name. */
function toolOf(options: EngineOptions): JsonObject | undefined {
  if (options.tool) return options.tool;
  const params = options.request?.params;
  const name = isObject(params) ? params.name : undefined;
  return typeof name === 'string' ? options.tools?.get(name) : undefined;
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

/**
 * Whether the rules that still run on a plain-text result (./fast-path.ts) all stay silent on this one,
 * checked without setting up a run: the common clean result then costs little more than the walk that
 * recognised it. Any report, and the caller runs the engine properly.
 */
function quietPlainText(
  result: JsonObject,
  options: EngineOptions,
  tool: JsonObject | undefined,
  shape: Shape,
): boolean {
  const plans = plansFor(options.rules ?? RULES, options.version);
  const resultPlan = plans.get('result');
  const blockPlan = plans.get('block');
  const resultRules = resultPlan ? planRules(resultPlan, shape, false) : NO_RULES;
  const blockRules = blockPlan ? planRules(blockPlan, shape, false) : NO_RULES;
  if (resultRules.length === 0 && blockRules.length === 0) return true;
  const probe = new Probe(options, tool);
  if (!probe.quiet(resultRules, result)) return false;
  if (blockRules.length === 0) return true;
  const content = result.content as unknown[];
  for (let i = 0; i < content.length; i++) if (!probe.quiet(blockRules, content[i])) return false;
  return true;
}

const NO_RULES: readonly CompiledRule[] = [];

/**
 * Whether `result` is a small plain media result (./fast-path.ts, isSmallPlainMediaResult) on which the
 * rules that still run there all stay silent, checked with a Probe as quietPlainText checks a plain-text
 * result: the same rules, on the same blocks, as Run.toolResult runs on it, without setting up a run.
 * The walk sniffs payloads itself, as the synchronous sniffer does: a run with another sniffer (file-type's
 * answers) gets no quick answer. Any report, and the caller runs the engine.
 */
function quietPlainMedia(result: unknown, options: EngineOptions, tool: JsonObject | undefined): boolean {
  if (options.sniff !== sniffSync) return false;
  const plans = plansFor(options.rules ?? RULES, options.version);
  const resultRules = plans.get('result')?.smallMediaResult;
  const blockPlan = plans.get('block');
  const byKind = blockPlan?.byPlainKind;
  if (!resultRules || !byKind) return false;
  const asked = blockPlan.plainKindsAsked ?? 0;
  const probe = new Probe(options, tool);
  const quiet = (block: object, kind: PlainKind) =>
    probe.quiet(byKind[kind] as readonly CompiledRule[], block);
  if (!isSmallPlainMediaResult(result, probe.features, tool, asked, quiet)) return false;
  return resultRules.length === 0 || probe.quiet(resultRules, result);
}

/** A check context that only notes whether anything was reported. */
class Probe implements CheckContext {
  readonly version: ProtocolVersion;
  readonly features: VersionFeatures;
  readonly request: JsonObject | undefined;
  readonly partial = false;
  private node: unknown;
  private reported = false;

  constructor(
    private readonly options: EngineOptions,
    readonly tool: JsonObject | undefined,
  ) {
    this.version = options.version;
    this.features = features(options.version);
    this.request = options.request;
  }

  get schemas(): OutputSchemaCompiler {
    return this.options.schemas ?? defaultSchemas();
  }

  sniffed(path: readonly PathSegment[]): Sniffed | undefined {
    const sniff = this.options.sniff;
    const payload = sniff && payloadAt(this.node, path);
    return payload ? sniff(payload.holder, payload.key) : undefined;
  }

  report(): void {
    this.reported = true;
  }

  quiet(rules: readonly CompiledRule[], node: unknown): boolean {
    this.node = node;
    for (let i = 0; i < rules.length && !this.reported; i++) {
      try {
        (rules[i] as CompiledRule).check(node, this);
      } catch {
        // A failing rule becomes a finding in the full run.
        return false;
      }
    }
    return !this.reported;
  }
}

function inRun(
  root: unknown,
  options: EngineOptions,
  walk: (run: Run) => void,
  scope = options.scope ?? new FactScope(),
): EngineFinding[] {
  return inFactScope(scope, options, () => {
    const run = new Run(root, options);
    walk(run);
    return run.findings;
  });
}

/** Runs `fn` in `scope`, which says for its time whether the document may be unwritable (options.unbounded). */
function inFactScope<T>(scope: FactScope, options: EngineOptions, fn: () => T): T {
  // A run inside another's scope (none of the rules starts one today) leaves the outer run's flag be.
  const outer = scope.unbounded;
  scope.unbounded = options.unbounded === true;
  try {
    return runInScope(scope, fn);
  } finally {
    scope.unbounded = outer;
  }
}

export function runToolResult(result: unknown, options: EngineOptions): EngineFinding[] {
  const tool = options.tool;
  if (!options.partial && !options.rules && isQuietPlainText(result, options.version, tool)) return [];
  const shape = options.partial ? Shape.Other : resultShape(result, features(options.version), tool);
  if (shape !== Shape.Other && quietPlainText(result as JsonObject, options, tool, shape)) return [];
  if (shape === Shape.Other && !options.partial && quietPlainMedia(result, options, tool)) return [];
  return inRun(result, options, (run) => run.toolResult(result, [], tool));
}

/**
 * runToolResult's quick answer for a plain media result (quietPlainMedia), asked before anything else is
 * set up: for validateToolResultSync given a version and neither tool nor request. True only where the
 * run would find nothing. A handler's value is taken as it is, without the copy of it as sent: a result
 * the media shape admits holds only strings, booleans and plain objects and arrays of them, and JSON
 * leaves such a value as it is, except for a member that is `undefined`, which every check of the shape
 * reads as absent and the size rule leaves out as JSON does.
 */
export function isQuietMediaCall(result: unknown, version: ProtocolVersion): boolean {
  let options = quietMediaOptions[version];
  if (options === undefined) {
    // Bounded, though it is a handler's value (see FactScope.unbounded): the shape is four levels deep
    // at most, with no structuredContent to write, and the size rule's walk stops at the longest string.
    options = { version, sniff: sniffSync, unbounded: false };
    quietMediaOptions[version] = options;
  }
  return quietPlainMedia(result, options, undefined);
}

const quietMediaOptions: Partial<Record<ProtocolVersion, EngineOptions>> = {};

/**
 * The rules about a result as a whole (subject `result`) on the result at `path` in `root`, and nothing
 * else: no block rule, and no walk choosing rules by the result's shape, which reads its members. For a
 * result whose members throw when read (see `judged` in ./index.ts).
 */
export function runResultRules(
  root: unknown,
  path: readonly PathSegment[],
  result: unknown,
  options: EngineOptions,
): EngineFinding[] {
  return inRun(root, options, (run) => run.apply('result', result, path, path, options.tool));
}

/**
 * The rules about a message as a whole (subject `message`) and nothing else: no walk into its result.
 * For a message whose members throw when read (see `judged` in ./index.ts).
 */
export function runMessageRules(message: unknown, options: EngineOptions): EngineFinding[] {
  return inRun(message, options, (run) => run.apply('message', message, [], undefined));
}

/**
 * Whether `result` is a plain-text result on which no rule of the catalog can report (./fast-path.ts):
 * the answer for the commonest clean result, found without setting anything up.
 */
export function isQuietPlainText(
  result: unknown,
  version: ProtocolVersion,
  tool: JsonObject | undefined,
): boolean {
  const shape = resultShape(result, features(version), tool);
  return shape !== Shape.Other && shape >= silentShape(version);
}

/**
 * isQuietPlainText of a result for a tool without outputSchema, in the version a caller's option names;
 * `false` where it names none (the caller then says what is wrong with it). One lookup of the option
 * both checks it and finds the version's facts: on a small text result, the Set lookup of the check
 * and the two lookups of features and silentShape were a fifth of validateToolResultSync.
 */
export function isQuietPlainTextIn(result: unknown, version: unknown): boolean {
  if (typeof version !== 'string') return false;
  const facts = VERSION_FACTS[version];
  // A member every object inherits ('toString', '__proto__') holds no facts of a version of that name.
  if (facts === undefined || facts.version !== version) return false;
  const shape = resultShape(result, facts.features, undefined);
  if (shape === Shape.Other) return false;
  if (facts.silent === UNKNOWN) facts.silent = silentShape(facts.version);
  return shape >= facts.silent;
}

/** Of each version, by its name: its features, and (once asked) silentShape. */
interface VersionFacts {
  readonly version: ProtocolVersion;
  readonly features: VersionFeatures;
  silent: number;
}

const UNKNOWN = -1;

const VERSION_FACTS: Readonly<Record<string, VersionFacts | undefined>> = Object.fromEntries(
  PROTOCOL_VERSIONS.map((version) => [version, { version, features: features(version), silent: UNKNOWN }]),
);

/**
 * isQuietPlainText of the result `{ content: [{ type: "text", text }] }`, with `resultType: "complete"`
 * where `version` requires it and no tool outputSchema: for toolResult, which builds exactly that.
 */
export function isQuietBuiltText(text: string, version: ProtocolVersion): boolean {
  const shape = builtTextShape(text);
  return shape !== Shape.Other && shape >= silentShape(version);
}

function silentShape(version: ProtocolVersion): number {
  let silent = silentFrom[version];
  if (silent === undefined) {
    silent = firstSilentShape(version);
    silentFrom[version] = silent;
  }
  return silent;
}

/** By version, the catalog's firstSilentShape. */
const silentFrom: Partial<Record<ProtocolVersion, number>> = {};
export const NEVER = 99;

/**
 * The first shape (in order of Shape: plain text, then short plain text, which is narrower) on which
 * no result or block rule of `rules` runs in `version`; NEVER when some rule always runs. Computed from
 * the rules, not written down, so that a rule added to the catalog cannot be skipped by the quick answer.
 */
export function firstSilentShape(version: ProtocolVersion, rules: readonly Rule[] = RULES): number {
  const plans = plansFor(rules, version);
  const silent = (shape: Shape) =>
    (['result', 'block'] as const).every((subject) => {
      const plan = plans.get(subject);
      return !plan || planRules(plan, shape, false).length === 0;
    });
  if (silent(Shape.PlainText)) return Shape.PlainText;
  return silent(Shape.ShortPlainText) ? Shape.ShortPlainText : NEVER;
}

/**
 * The rules about a tools/list result as a whole (subject `tools-list`) and nothing else: no walk into
 * its tools. For a list whose members throw when read (see `judged` in ./index.ts).
 */
export function runToolsListRules(list: unknown, options: EngineOptions): EngineFinding[] {
  return inRun(list, options, (run) => run.apply('tools-list', list, [], []));
}

export function runToolsList(list: unknown, options: EngineOptions): EngineFinding[] {
  return inRun(list, options, (run) => run.toolsList(list, []));
}

export function runMessage(message: unknown, options: EngineOptions): EngineFinding[] {
  return inRun(message, options, (run) => run.message(message));
}

/**
 * Whether `runMessage(message, options)` would find nothing, answered without setting up a run for
 * the commonest messages, responses carrying a plain-text tools/call result or a small plain media one
 * (./fast-path.ts): the message rules are probed (they run, but no finding is built), then the result
 * as runToolResult would. `false` means "run it and see", never "it has findings". The repairing proxy
 * asks this of every message before it sets up a repair. `_scope`: no longer used (the media walk keeps
 * nothing it decoded: it decodes a payload only while the result is small enough to be quiet, so a run
 * that follows a "no" decodes at most that much again).
 */
export function isQuietMessage(message: unknown, options: EngineOptions, _scope?: FactScope): boolean {
  // An unbounded message may not be writable at all, which only a run finds out (its rules ask then).
  if (
    options.partial ||
    options.rules ||
    options.unbounded ||
    !isObject(message) ||
    !Object.hasOwn(message, 'result')
  ) {
    return false;
  }
  const result = message.result;
  if (responseKind(result, options.request) !== 'tools/call') return false;
  const tool = toolOf(options);
  const shape = resultShape(result, features(options.version), tool);
  const messagePlan = plansFor(RULES, options.version).get('message');
  if (messagePlan && !new Probe(options, undefined).quiet(messagePlan.all, message)) return false;
  if (shape === Shape.Other) {
    return quietPlainMedia(result, { ...options, sniff: options.sniff ?? sniffSync }, tool);
  }
  return (
    isQuietPlainText(result, options.version, tool) ||
    quietPlainText(result as JsonObject, options, tool, shape)
  );
}

export function runSession(event: SessionEvent, options: EngineOptions): EngineFinding[] {
  return inRun(event, options, (run) => run.apply('session', event, [], undefined));
}

export function runFrame(frame: Frame, options: EngineOptions): EngineFinding[] {
  return inRun(frame, options, (run) => run.apply('frame', frame, [], undefined));
}
