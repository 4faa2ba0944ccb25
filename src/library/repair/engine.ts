/**
 * The repair loop shared by `repair()` (a CallToolResult) and `repairMessage()` (a JSON-RPC message).
 *
 * 1. Validate the input. With nothing to repair, return the input object itself, with no fixes.
 * 2. Otherwise deep-copy it once (unless the caller owns it), and apply the rules' repairs in rounds:
 *    every repairable finding of a validation whose subject does not overlap another's is fixed in the
 *    same round, then the document is validated again, reusing what did not change (payload facts are
 *    kept for the whole repair, untouched blocks keep their findings), until a round has nothing left
 *    to fix. Repairs of warnings run too (the text mirror, for instance); a repair that returns
 *    `undefined` is not tried again until something else changed.
 * 3. Then the generic fallback (./fallback.ts) handles every error no rule could repair: it replaces a
 *    broken block by a text block saying what was dropped, moves a broken result member into text, and
 *    as a last resort rebuilds the result around its data as text. Every fallback step is a lossy fix.
 *
 * Both phases are bounded, so a rule whose repair does not make progress cannot hang a server.
 *
 * The loop is synchronous: payloads are sniffed by the synchronous sniffer. `runRepair` (asynchronous)
 * also asks file-type about payloads that sniffer cannot place, and repairs again with its answers.
 */

import { appendAll } from '../../core/append.js';
import { isObject, type JsonObject } from '../../core/json.js';
import { type PayloadFacts, payloadFactsAt, rememberPayloadFacts } from '../../core/payload.js';
import { getIn, type PathSegment, toPointer } from '../../core/pointer.js';
import { FactScope, runInScope, shareHolderFacts } from '../../core/run-memo.js';
import type { Sniffed } from '../../core/sniff.js';
import { getRule } from '../../rules/catalog.js';
import type { RepairContext, Rule } from '../../rules/types.js';
import { features, type ProtocolVersion } from '../../spec/versions.js';
import {
  BlockFindings,
  type EngineFinding,
  type EngineOptions,
  type PayloadSniffer,
  payloadAt,
} from '../../validate/engine.js';
import {
  type FileTypeAnswers,
  fileTypeAnswers,
  mediaPayloads,
  type PayloadPlace,
} from '../../validate/index.js';
import { convertBlock } from '../webmcp/blocks.js';
import { cloneJson } from './clone.js';
import { applyFallback, fallbackBlockIndex } from './fallback.js';

/** One change repair made. */
export interface Fix {
  /** The rule whose finding the fix answers. */
  readonly rule: string;
  /** JSON Pointer of the finding, in the input document. */
  readonly pointer: string;
  readonly description: string;
  /** Data was dropped, or replaced by a description of it. */
  readonly lossy?: boolean;
}

/** What the engine's runs need besides the document: the scope, sniffing, and reusable findings. */
export type RunOptions = Pick<EngineOptions, 'scope' | 'sniff' | 'blockFindings'>;

/** What the loop needs to know about the document it repairs. */
export interface RepairTarget {
  readonly version: ProtocolVersion;
  readonly tool?: JsonObject;
  /** Path of the CallToolResult inside the document (`[]` for a bare result, `['result']` in a response). */
  resultPath(document: unknown): readonly PathSegment[] | undefined;
  validate(document: unknown, run: RunOptions): EngineFinding[];
}

export interface RepairOptions extends RepairLimits {
  /** The caller built the input and hands it over: repair it in place instead of copying it first. */
  readonly owned?: boolean;
  /** JSON texts the caller made of objects in the input, so the validation need not make them again. */
  readonly knownJson?: ReadonlyMap<object, string>;
  /** Payloads the caller encoded from bytes, with their facts, so the validation need not decode them. */
  readonly knownPayloads?: readonly KnownPayload[];
  /**
   * The scope a quick check of the input ran in (isQuietMessage), so that the repair's validations reuse
   * what it decoded rather than decoding every payload again.
   */
  readonly scope?: FactScope;
}

export interface KnownPayload {
  readonly holder: object;
  readonly key: string;
  readonly facts: PayloadFacts;
}

/** A scope for the validations of one repair, told what the caller knows of its payloads. */
function repairScope(options: RepairOptions): FactScope {
  const scope = options.scope ?? new FactScope();
  for (const { holder, key, facts } of options.knownPayloads ?? [])
    rememberPayloadFacts(scope, holder, key, facts);
  return scope;
}

const MAX_RULE_STEPS = 500;
const MAX_REPAIRS_PER_FINDING = 3;
const MAX_FALLBACK_STEPS = 200;
/** Rounds of "repair, then ask file-type about payloads the repair produced" in `runRepair`. */
const MAX_FILE_TYPE_PASSES = 3;

function needsRepair(finding: EngineFinding): boolean {
  if (finding.severity === 'error') return true;
  return finding.severity === 'warning' && getRule(finding.rule)?.repair !== undefined;
}

function findingKey(f: EngineFinding): string {
  return `${f.rule}\u0000${f.pointer}\u0000${f.messageId}`;
}

/**
 * Thrown when a repair needs more validation passes than the caller's budget allows: the proxy gives
 * each message a budget and forwards it unchanged past it, so no message can stall the stream.
 */
export class RepairBudgetExceeded extends Error {
  constructor(readonly budget: number) {
    super(`repair needed more than ${budget} validation passes`);
    this.name = 'RepairBudgetExceeded';
  }
}

export interface RepairLimits {
  /**
   * Validation passes the repair may make (the first validation, which finds whether anything needs
   * repair, is free); past it, the repair throws RepairBudgetExceeded.
   */
  readonly budget?: number;
}

/** The validation passes a repair has left, shared by every pass of `runRepair`. */
class Budget {
  private used = 0;

  constructor(private readonly limit: number) {}

  spend(): void {
    if (++this.used > this.limit) throw new RepairBudgetExceeded(this.limit);
  }
}

export interface RepairRun {
  readonly document: unknown;
  readonly fixes: Fix[];
  /** Errors still reported after every step: those no repair and no fallback move could answer. */
  readonly remaining: EngineFinding[];
}

/**
 * file-type's answers, by the payload they are about. Keyed by the text, not by the object holding it:
 * a repair works on a copy of its input, made afresh for every pass, and a repair may move a payload
 * (a `data:` prefix stripped), while the same bytes always get the same answer.
 */
type PayloadAnswers = ReadonlyMap<string, Sniffed>;

/**
 * What the bytes of a payload are, for the validations and repairs of one repair pass: file-type's
 * answers where the caller has them, else the synchronous sniffer. Payloads it could not place are
 * noted, so the asynchronous `runRepair` knows what to ask file-type.
 */
class Sniffer {
  readonly unplaced = new Map<object, PayloadPlace>();

  constructor(
    private readonly scope: FactScope,
    private readonly answers: PayloadAnswers,
  ) {}

  readonly sniff: PayloadSniffer = (holder, key) => {
    if (this.answers.size > 0) {
      const payload = (holder as JsonObject)[key];
      const answer = typeof payload === 'string' ? this.answers.get(payload) : undefined;
      if (answer) return answer;
    }
    const sniffed = runInScope(this.scope, () => payloadFactsAt(holder, key)?.sniffed);
    if (sniffed && !sniffed.settled) this.unplaced.set(holder, { holder: holder as JsonObject, key });
    return sniffed;
  };
}

/** Repairs synchronously: payloads are sniffed by the synchronous sniffer only. */
export function runRepairSync(input: unknown, target: RepairTarget, options: RepairOptions = {}): RepairRun {
  return repairPass(input, target, options, repairScope(options), NO_ANSWERS, budgetOf(options)).run;
}

const NO_ANSWERS: PayloadAnswers = new Map();

function budgetOf(options: RepairLimits): Budget {
  return new Budget(options.budget ?? Number.POSITIVE_INFINITY);
}

/**
 * Repairs, asking file-type about the payloads the synchronous sniffer cannot place (a TIFF without
 * its mimeType, say), as the asynchronous validators do. Payloads a repair itself produces and the
 * sniffer cannot place are asked about afterwards and the input repaired again with the answers,
 * except when the caller handed over the input to repair in place.
 */
export async function runRepair(
  input: unknown,
  target: RepairTarget,
  options: RepairOptions = {},
): Promise<RepairRun> {
  const scope = repairScope(options);
  const base = target.resultPath(input);
  const payloads = base === undefined ? [] : mediaPayloads(getIn(input, base));
  const answers = new Map<string, Sniffed>();
  const pending = fileTypeAnswers(payloads, scope);
  // Not awaited when file-type had nothing to answer (the common case): a turn of the microtask queue
  // costs more than repairing a small result.
  learn(answers, payloads, pending instanceof Promise ? await pending : pending);
  // Payloads file-type was asked about already, placed or not: it would answer the same again.
  const asked = new Set<unknown>(payloads.map(({ holder, key }) => holder[key]));
  const budget = budgetOf(options);
  let pass = repairPass(input, target, options, scope, answers, budget);
  for (let i = 0; i < MAX_FILE_TYPE_PASSES && !options.owned; i++) {
    const unasked = pass.unplaced.filter(({ holder, key }) => !asked.has(holder[key]));
    for (const { holder, key } of unasked) asked.add(holder[key]);
    const found = unasked.length === 0 ? NO_FILE_TYPE_ANSWERS : await fileTypeAnswers(unasked, scope);
    if (found.size === 0) break;
    learn(answers, unasked, found);
    pass = repairPass(input, target, options, scope, answers, budget);
  }
  return pass.run;
}

const NO_FILE_TYPE_ANSWERS: FileTypeAnswers = new Map();

/** file-type's answers about the payloads at `places` (keyed by their holders), by payload. */
function learn(answers: Map<string, Sniffed>, places: readonly PayloadPlace[], found: FileTypeAnswers): void {
  if (found.size === 0) return;
  for (const { holder, key } of places) {
    const sniffed = found.get(holder);
    const payload = holder[key];
    if (sniffed && typeof payload === 'string') answers.set(payload, sniffed);
  }
}

function repairPass(
  input: unknown,
  target: RepairTarget,
  options: RepairOptions,
  scope: FactScope,
  answers: PayloadAnswers,
  budget: Budget,
): { run: RepairRun; unplaced: PayloadPlace[] } {
  const sniffer = new Sniffer(scope, answers);
  const runOptions = { scope, sniff: sniffer.sniff };
  scope.knownJson = options.knownJson;
  const first = target.validate(input, runOptions);
  // The caller's texts describe the input as it is; the first change may make them stale.
  scope.knownJson = undefined;
  if (!first.some(needsRepair)) {
    return { run: { document: input, fixes: [], remaining: [] }, unplaced: [...sniffer.unplaced.values()] };
  }

  const document = options.owned ? input : cloneJson(input);
  if (document !== input) sharePayloadFacts(scope, target, input, document);
  const state: LoopState = {
    document,
    // A copy is the same JSON, so the first validation's findings hold for it too.
    findings: first,
    fixes: [],
    target,
    sniffer,
    // Written out: spreading runOptions (it holds a bound sniffer) took V8's slow path, an eighth of
    // repairing a small result.
    run: { scope, sniff: sniffer.sniff, blockFindings: new BlockFindings() },
    budget,
  };
  convertWebMcpBlocks(state);
  ruleRepairs(state);
  // One round: what the fallback leaves (text blocks saying what was dropped, a result marked isError
  // or rebuilt around its data as text) invites no rule repair. Idempotence rests on that, and the
  // property tests hold repair(repair(x)) to repair(x). Earlier versions ran the two phases again while
  // the fallback did something; no input, generated or hand-made, ever needed the second round.
  const remaining = fallbackRepairs(state);
  const run =
    state.fixes.length === 0
      ? { document: input, fixes: [], remaining }
      : { document: state.document, fixes: state.fixes, remaining };
  return { run, unplaced: [...sniffer.unplaced.values()] };
}

/** The copy's payloads are the input's strings: what the first validation found about them holds. */
function sharePayloadFacts(scope: FactScope, target: RepairTarget, input: unknown, copy: unknown): void {
  const base = target.resultPath(input);
  if (base === undefined) return;
  const from = mediaPayloads(getIn(input, base));
  const to = mediaPayloads(getIn(copy, base));
  for (let i = 0; i < from.length && i < to.length; i++) {
    shareHolderFacts(scope, (from[i] as PayloadPlace).holder, (to[i] as PayloadPlace).holder);
  }
}

interface LoopState {
  document: unknown;
  /**
   * The findings of `document` as it is now, when they are known: a validation of an unchanged
   * document is not repeated (the last one of the rule repairs is the first of the fallback, say).
   * Whatever changes the document forgets them.
   */
  findings: EngineFinding[] | undefined;
  readonly fixes: Fix[];
  readonly target: RepairTarget;
  readonly sniffer: Sniffer;
  readonly run: RunOptions & { readonly blockFindings: BlockFindings };
  readonly budget: Budget;
}

function validateState(state: LoopState): EngineFinding[] {
  if (state.findings !== undefined) return state.findings;
  state.budget.spend();
  state.findings = state.target.validate(state.document, state.run);
  return state.findings;
}

/**
 * WebMCP's `html` and `link` blocks go through the WebMCP converters before the rules see them: the
 * catalog's generic conversion would embed the HTML unsanitized and make a resource_link of any URL,
 * `javascript:` included. The fixes answer the unknown-type finding the blocks raise.
 */
function convertWebMcpBlocks(state: LoopState): void {
  const base = state.target.resultPath(state.document);
  const result = base === undefined ? undefined : getIn(state.document, base);
  if (base === undefined || !isObject(result) || !Array.isArray(result.content)) return;
  if (!result.content.some((block) => isObject(block) && (block.type === 'html' || block.type === 'link'))) {
    return;
  }
  state.findings = undefined;
  const contentPointer = toPointer([...base, 'content']);
  result.content = result.content.flatMap((block, index) => {
    const converted =
      isObject(block) && (block.type === 'html' || block.type === 'link')
        ? convertBlock(block, index, contentPointer)
        : undefined;
    if (!converted) return [block];
    for (const fix of converted.fixes) state.fixes.push({ ...fix, rule: 'block-type-unknown' });
    return converted.blocks;
  });
}

/**
 * The repairable findings of one validation that can be fixed together: at most one per subject, and
 * none whose subject contains another's (a result-level repair may rebuild the blocks it holds).
 */
function batch(candidates: readonly EngineFinding[]): EngineFinding[] {
  const chosen: EngineFinding[] = [];
  // The chosen subjects as a tree of their path segments, so that each candidate is checked along its
  // own path: checked against every chosen one, a result of 12,000 broken blocks took 1.7 s to repair,
  // growing with the square of their number.
  const root: SubjectNode = { chosen: false, below: undefined };
  for (const finding of candidates) {
    let node = root;
    for (const segment of finding.subjectPath) {
      if (node.chosen) break;
      node.below ??= new Map();
      let next = node.below.get(segment);
      if (!next) {
        next = { chosen: false, below: undefined };
        node.below.set(segment, next);
      }
      node = next;
    }
    // Free unless a chosen subject on the way contains this one, or one below it is contained in it. (A
    // candidate that is not free created no node: past a new node, every node is new and empty.)
    if (!node.chosen && node.below === undefined) {
      node.chosen = true;
      chosen.push(finding);
    }
  }
  return chosen;
}

/**
 * A path segment in batch's tree: whether a chosen subject ends here, and the segments below (made when
 * the first is: most nodes are leaves, and a Map for each took a quarter of a second of repairing
 * 100,000 broken blocks).
 */
interface SubjectNode {
  chosen: boolean;
  below: Map<PathSegment, SubjectNode> | undefined;
}

/** Phase 1: the rules' own repairs, all non-conflicting ones of a validation at a time. */
function ruleRepairs(state: LoopState): void {
  // A repair that declined may succeed once another repair changed the document (a mimeType can be
  // sniffed once a data: prefix is gone), so declines are forgotten after every change. A repair that
  // keeps "succeeding" at the same place is not making progress and is cut off.
  let declined = new Set<string>();
  const applied = new Map<string, number>();
  let findings = validateState(state);
  for (let step = 0; step < MAX_RULE_STEPS; step++) {
    const candidates = findings.filter((f) => {
      if (getRule(f.rule)?.repair === undefined || !needsRepair(f)) return false;
      const key = findingKey(f);
      return !declined.has(key) && (applied.get(key) ?? 0) < MAX_REPAIRS_PER_FINDING;
    });
    if (candidates.length === 0) return;
    const declinedNow = new Set<string>();
    let changed = false;
    // Last to first: a repair that splices its item out of an array (tool-not-object) then never shifts
    // the item a later finding of the same batch points at. The fixes keep document order.
    const chosen = batch(candidates);
    const fixes: Fix[] = [];
    for (let i = chosen.length - 1; i >= 0; i--) {
      const finding = chosen[i] as EngineFinding;
      const key = findingKey(finding);
      const touched = getIn(state.document, finding.subjectPath);
      // Even a repair that declines or throws may have changed something on its way.
      state.findings = undefined;
      const outcome = applyRuleRepair(finding, state);
      if (!outcome) {
        declinedNow.add(key);
        continue;
      }
      fixes.push({ rule: finding.rule, pointer: finding.pointer, ...outcome });
      applied.set(key, (applied.get(key) ?? 0) + 1);
      changed = true;
      // A block rule's repair changes its block (and at most members of the result, which no block rule
      // reads); any other repair may change anything below its subject.
      if (getRule(finding.rule)?.subject === 'block') state.run.blockFindings.forget(touched);
      else state.run.blockFindings.clear();
    }
    appendAll(state.fixes, fixes.reverse());
    declined = changed ? declinedNow : new Set([...declined, ...declinedNow]);
    // A repair can make an html or link block an item of the content (content that was one block, say):
    // it goes through the WebMCP converters too, or the catalog's generic conversion would embed it.
    if (changed) convertWebMcpBlocks(state);
    findings = validateState(state);
  }
}

/**
 * Phase 2: whatever errors are left, handled generically and lossily; returns the errors it leaves. Each
 * step answers the first error it can, and with it every other block a block rule faults (see
 * replaceBrokenBlocks). Past half its steps, or as soon as the errors left need more steps than are left
 * before that, it takes the last resort, which rebuilds the result as an error around its data as text.
 * The step cap guards the loop: after the last resort no rule faults the result, so only a fallback that
 * stopped making progress would reach it.
 */
function fallbackRepairs(state: LoopState): EngineFinding[] {
  let rebuilt = false;
  for (let step = 0; ; step++) {
    const remaining = validateState(state).filter((f) => f.severity === 'error');
    if (step === MAX_FALLBACK_STEPS) return remaining;
    const lastResort =
      rebuilt ||
      step >= MAX_FALLBACK_STEPS / 2 ||
      stepsToAnswer(remaining, state) > MAX_FALLBACK_STEPS / 2 - step;
    // The first error the fallback can answer: one it cannot (a response's missing id, which only the
    // request knows) must not keep it from the errors after it (the blocks of that response's result).
    let error: EngineFinding | undefined;
    let fallback: ReturnType<typeof applyFallback>;
    for (const candidate of remaining) {
      fallback = applyFallback(state.document, candidate, state.target, lastResort);
      if (fallback) {
        error = candidate;
        break;
      }
    }
    if (!fallback || !error) return remaining;
    // Fallback steps replace blocks and result members; they never edit a block in place, so the
    // findings of the blocks they leave alone still hold.
    state.document = fallback.document;
    state.findings = undefined;
    // A second rebuild would produce the same result; the last resort also marks it as an error.
    rebuilt ||= fallback.rebuilt === true;
    state.fixes.push({
      rule: error.rule,
      pointer: error.pointer,
      description: fallback.description,
      lossy: true,
    });
    if (!lastResort && !fallback.rebuilt) replaceBrokenBlocks(state, remaining, error);
  }
}

/** A finding of a block rule, about a block the fallback would replace. */
function brokenBlockIndex(finding: EngineFinding, state: LoopState): number | undefined {
  if (getRule(finding.rule)?.subject !== 'block') return undefined;
  return fallbackBlockIndex(state.document, finding, state.target);
}

/**
 * Replaces, in the step that answered `first`, every other block a block rule faults, once each. A block
 * rule's findings depend on its block alone (the engine keeps them per block), so replacing one block
 * changes no other's, and the blocks need no validation between them. One per step, each step a
 * validation of the whole result, 100 broken blocks among 80,000 good ones took 5.7 s.
 */
function replaceBrokenBlocks(
  state: LoopState,
  remaining: readonly EngineFinding[],
  first: EngineFinding,
): void {
  const replaced = new Set<number>();
  const firstIndex = fallbackBlockIndex(state.document, first, state.target);
  if (firstIndex !== undefined) replaced.add(firstIndex);
  for (const candidate of remaining) {
    const index = brokenBlockIndex(candidate, state);
    if (index === undefined || replaced.has(index)) continue;
    const fallback = applyFallback(state.document, candidate, state.target, false);
    if (!fallback) continue;
    replaced.add(index);
    state.document = fallback.document;
    state.fixes.push({
      rule: candidate.rule,
      pointer: candidate.pointer,
      description: fallback.description,
      lossy: true,
    });
  }
}

/** The fallback steps `errors` need, the blocks that block rules fault all counting as one. */
function stepsToAnswer(errors: readonly EngineFinding[], state: LoopState): number {
  let steps = 0;
  let blocks = false;
  for (const error of errors) {
    if (brokenBlockIndex(error, state) === undefined) steps++;
    else blocks = true;
  }
  return blocks ? steps + 1 : steps;
}

/** Sniffs the value at a path of the document, for a repair. */
export type PathSniffer = (absolutePath: readonly PathSegment[]) => Sniffed | undefined;

/** What a rule's `repair` gets for one finding; exported so rule tests build it the same way. */
export function repairContext(
  finding: EngineFinding,
  document: unknown,
  target: Pick<RepairTarget, 'version' | 'tool'>,
  sniffed: PathSniffer,
): RepairContext {
  return {
    version: target.version,
    features: features(target.version),
    tool: target.tool,
    root: document,
    subjectPath: finding.subjectPath,
    resultPath: finding.resultPath,
    findingPath: finding.path,
    messageId: finding.messageId,
    data: finding.data,
    sniffed,
  };
}

/** Runs the repair of `finding`'s rule, which ruleRepairs chose it for having one. */
function applyRuleRepair(
  finding: EngineFinding,
  state: LoopState,
): { description: string; lossy?: boolean } | undefined {
  const repair = getRule(finding.rule)?.repair as NonNullable<Rule['repair']>;
  const document = state.document;
  const ctx = repairContext(finding, document, state.target, (path) => {
    const payload = payloadAt(document, path);
    return payload && state.sniffer.sniff(payload.holder, payload.key);
  });
  try {
    const outcome = repair(ctx);
    if (!outcome) return undefined;
    return outcome.lossy
      ? { description: outcome.description, lossy: true }
      : { description: outcome.description };
  } catch {
    // A throwing repair is a rule bug; the fallback still gets the finding, so the guarantee holds.
    return undefined;
  }
}

/** The tool definition given by the caller, when it is one. */
export function toolDefinition(tool: unknown): JsonObject | undefined {
  return isObject(tool) ? tool : undefined;
}
