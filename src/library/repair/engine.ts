/**
 * The repair loop shared by `repair()` (a CallToolResult) and `repairMessage()` (a JSON-RPC message).
 *
 * 1. Validate the input. With nothing to repair, return the input object itself, with no fixes.
 * 2. Otherwise deep-copy it once, and apply rule repairs one finding at a time, re-validating after
 *    each, until no repairable finding is left. Repairs of warnings run too (the text mirror, for
 *    instance); a repair that returns `undefined` is not tried again at that place.
 * 3. Then the generic fallback (./fallback.ts) handles every error no rule could repair: it replaces a
 *    broken block by a text block saying what was dropped, moves a broken result member into text, and
 *    as a last resort rebuilds the result around its data as text. Every fallback step is a lossy fix.
 *
 * Both phases are bounded, so a rule whose repair does not make progress cannot hang a server.
 */

import { isObject, type JsonObject } from '../../core/json.js';
import { getIn, type PathSegment, toPointer } from '../../core/pointer.js';
import { type Sniffed, sniffBase64 } from '../../core/sniff.js';
import { getRule } from '../../rules/catalog.js';
import type { RepairContext } from '../../rules/types.js';
import { features, type ProtocolVersion } from '../../spec/versions.js';
import type { EngineFinding } from '../../validate/engine.js';
import { mediaPayloads } from '../../validate/index.js';
import { convertBlock } from '../webmcp/blocks.js';
import { cloneJson } from './clone.js';
import { applyFallback, type FallbackStep, UnrepairableError } from './fallback.js';

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

/** What the loop needs to know about the document it repairs. */
export interface RepairTarget {
  readonly version: ProtocolVersion;
  readonly tool?: JsonObject;
  /** Path of the CallToolResult inside the document (`[]` for a bare result, `['result']` in a response). */
  resultPath(document: unknown): readonly PathSegment[] | undefined;
  validate(document: unknown, sniffed: ReadonlyMap<string, Sniffed>): EngineFinding[];
}

const MAX_RULE_STEPS = 500;
const MAX_REPAIRS_PER_FINDING = 3;
const MAX_FALLBACK_STEPS = 200;
const MAX_ROUNDS = 3;

/**
 * Sniffs the media payloads of the result at `base`, reusing earlier answers: a repair loop validates
 * many times, and the payload strings rarely change between rounds.
 */
export class PayloadSniffer {
  private readonly cache = new Map<string, Sniffed | undefined>();

  async sniff(document: unknown, base: readonly PathSegment[] | undefined): Promise<Map<string, Sniffed>> {
    const out = new Map<string, Sniffed>();
    if (base === undefined) return out;
    const jobs: Promise<void>[] = [];
    for (const [path, data] of mediaPayloads(getIn(document, base), base)) {
      const pointer = toPointer(path);
      if (this.cache.has(data)) {
        const known = this.cache.get(data);
        if (known) out.set(pointer, known);
        continue;
      }
      jobs.push(
        sniffBase64(data)
          .catch(() => undefined)
          .then((sniffed) => {
            this.cache.set(data, sniffed);
            if (sniffed) out.set(pointer, sniffed);
          }),
      );
    }
    await Promise.all(jobs);
    return out;
  }
}

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
  /** Validation passes the repair may make; past it, runRepair throws RepairBudgetExceeded. */
  readonly budget?: number;
}

export interface RepairRun {
  readonly document: unknown;
  readonly fixes: Fix[];
  /** Errors still reported after every step (empty unless the fallback itself ran out of steps). */
  readonly remaining: EngineFinding[];
}

export async function runRepair(
  input: unknown,
  target: RepairTarget,
  limits: RepairLimits = {},
): Promise<RepairRun> {
  const sniffer = new PayloadSniffer();
  const first = target.validate(input, await sniffer.sniff(input, target.resultPath(input)));
  if (!first.some(needsRepair)) return { document: input, fixes: [], remaining: [] };

  const state: LoopState = {
    document: cloneJson(input),
    fixes: [],
    target,
    sniffer,
    budget: limits.budget ?? Number.POSITIVE_INFINITY,
    validations: 0,
  };
  convertWebMcpBlocks(state);
  let remaining: EngineFinding[] = [];
  // The fallback's text blocks can invite rule repairs (a text mirror, say), so the two phases run
  // again until the fallback has nothing left to do; otherwise repairing the output would change it.
  for (let round = 0; round < MAX_ROUNDS; round++) {
    await ruleRepairs(state);
    const fallback = await fallbackRepairs(state);
    remaining = fallback.remaining;
    if (fallback.steps === 0) break;
  }
  return state.fixes.length === 0
    ? { document: input, fixes: [], remaining }
    : { document: state.document, fixes: state.fixes, remaining };
}

interface LoopState {
  document: unknown;
  readonly fixes: Fix[];
  readonly target: RepairTarget;
  readonly sniffer: PayloadSniffer;
  readonly budget: number;
  validations: number;
}

async function validateState(state: LoopState) {
  if (++state.validations > state.budget) throw new RepairBudgetExceeded(state.budget);
  const sniffed = await state.sniffer.sniff(state.document, state.target.resultPath(state.document));
  return { findings: state.target.validate(state.document, sniffed), sniffed };
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

/** Phase 1: the rules' own repairs, one finding at a time. */
async function ruleRepairs(state: LoopState): Promise<void> {
  // A repair that declined may succeed once another repair changed the document (a mimeType can be
  // sniffed once a data: prefix is gone), so declines are forgotten after every change. A repair that
  // keeps "succeeding" at the same place is not making progress and is cut off.
  const declined = new Set<string>();
  const applied = new Map<string, number>();
  for (let step = 0; step < MAX_RULE_STEPS; step++) {
    const { findings, sniffed } = await validateState(state);
    const candidate = findings.find((f) => {
      const key = findingKey(f);
      return (
        getRule(f.rule)?.repair !== undefined &&
        needsRepair(f) &&
        !declined.has(key) &&
        (applied.get(key) ?? 0) < MAX_REPAIRS_PER_FINDING
      );
    });
    if (!candidate) return;
    const key = findingKey(candidate);
    const outcome = applyRuleRepair(candidate, state.document, state.target, sniffed);
    if (outcome) {
      state.fixes.push({ rule: candidate.rule, pointer: candidate.pointer, ...outcome });
      applied.set(key, (applied.get(key) ?? 0) + 1);
      declined.clear();
    } else {
      declined.add(key);
    }
  }
}

/** Phase 2: whatever errors are left, handled generically and lossily. */
async function fallbackRepairs(state: LoopState): Promise<{ steps: number; remaining: EngineFinding[] }> {
  let rebuilt = false;
  for (let step = 0; step < MAX_FALLBACK_STEPS; step++) {
    const { findings } = await validateState(state);
    const remaining = findings.filter((f) => f.severity === 'error');
    const error = remaining[0];
    if (!error) return { steps: step, remaining };
    let fallback: FallbackStep;
    try {
      fallback = applyFallback(
        state.document,
        error,
        state.target,
        rebuilt || step >= MAX_FALLBACK_STEPS / 2,
      );
    } catch (failure) {
      if (failure instanceof UnrepairableError) return { steps: step, remaining };
      throw failure;
    }
    state.document = fallback.document;
    // A second rebuild would produce the same result; the last resort also marks it as an error.
    rebuilt ||= fallback.kind === 'rebuild';
    state.fixes.push({
      rule: error.rule,
      pointer: error.pointer,
      description: fallback.description,
      lossy: true,
    });
  }
  const { findings } = await validateState(state);
  return { steps: MAX_FALLBACK_STEPS, remaining: findings.filter((f) => f.severity === 'error') };
}

/** What a rule's `repair` gets for one finding; exported so rule tests build it the same way. */
export function repairContext(
  finding: EngineFinding,
  document: unknown,
  target: Pick<RepairTarget, 'version' | 'tool'>,
  sniffed: ReadonlyMap<string, Sniffed>,
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
    sniffed: (path) => sniffed.get(toPointer(path)),
  };
}

function applyRuleRepair(
  finding: EngineFinding,
  document: unknown,
  target: RepairTarget,
  sniffed: ReadonlyMap<string, Sniffed>,
): { description: string; lossy?: boolean } | undefined {
  const rule = getRule(finding.rule);
  if (!rule?.repair) return undefined;
  const ctx = repairContext(finding, document, target, sniffed);
  try {
    const outcome = rule.repair(ctx);
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
