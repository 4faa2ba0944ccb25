/**
 * Test helpers for the envelope, result and tools rules: run one document through the engine, and
 * apply one rule's repair to its first finding the way the repair engine does (deep copy, mutate,
 * re-check).
 */

import type { JsonObject } from '../../src/core/json.js';
import { getRule } from '../../src/rules/catalog.js';
import type { RepairContext, RepairOutcome } from '../../src/rules/types.js';
import { features, type ProtocolVersion } from '../../src/spec/versions.js';
import {
  type EngineFinding,
  type EngineOptions,
  runMessage,
  runToolResult,
  runToolsList,
} from '../../src/validate/engine.js';

export type Kind = 'message' | 'result' | 'tools-list';

export interface RunOptions {
  readonly version?: ProtocolVersion;
  readonly tool?: JsonObject;
  readonly request?: JsonObject;
}

export function run(kind: Kind, doc: unknown, options: RunOptions = {}): EngineFinding[] {
  const engine: EngineOptions = {
    version: options.version ?? '2026-07-28',
    tool: options.tool,
    request: options.request,
  };
  if (kind === 'message') return runMessage(doc, engine);
  if (kind === 'tools-list') return runToolsList(doc, engine);
  return runToolResult(doc, engine);
}

/** Findings of one rule, as `[messageId, pointer]` pairs. */
export function hits(ruleId: string, kind: Kind, doc: unknown, options: RunOptions = {}): string[][] {
  return run(kind, doc, options)
    .filter((f) => f.rule === ruleId)
    .map((f) => [f.messageId, f.pointer]);
}

/** Findings of one rule, whole: `[messageId, pointer, message]`, the words a user reads included. */
export function said(ruleId: string, kind: Kind, doc: unknown, options: RunOptions = {}): string[][] {
  return run(kind, doc, options)
    .filter((f) => f.rule === ruleId)
    .map((f) => [f.messageId, f.pointer, f.message]);
}

export interface Repaired {
  readonly doc: unknown;
  readonly outcome: RepairOutcome | undefined;
  /** Findings of the same rule after the repair. */
  readonly after: EngineFinding[];
}

/** Applies `ruleId`'s repair to its first finding on a deep copy of `doc`. */
export function repairOnce(ruleId: string, kind: Kind, doc: unknown, options: RunOptions = {}): Repaired {
  const rule = getRule(ruleId);
  if (!rule?.repair) throw new Error(`${ruleId} has no repair`);
  const finding = run(kind, doc, options).find((f) => f.rule === ruleId);
  if (!finding) throw new Error(`${ruleId} reported nothing to repair`);
  const root = structuredClone(doc);
  const outcome = rule.repair(repairContextOf(finding, root, options));
  return { doc: root, outcome, after: run(kind, root, options).filter((f) => f.rule === ruleId) };
}

/**
 * Runs `ruleId`'s repair for its finding on `before`, on a copy of `after`, where that defect is already
 * gone: what a repair does with a finding that no longer holds.
 */
export function repairStale(
  ruleId: string,
  kind: Kind,
  before: unknown,
  after: unknown,
  options: RunOptions = {},
): { outcome: RepairOutcome | undefined; root: unknown } {
  const finding = run(kind, before, options).find((f) => f.rule === ruleId);
  if (!finding) throw new Error(`${ruleId} reported nothing`);
  const root = structuredClone(after);
  const outcome = getRule(ruleId)?.repair?.(repairContextOf(finding, root, options));
  return { outcome, root };
}

/** What a rule's repair gets for `finding`, applied to `root` (no sniffing). */
export function repairContextOf(
  finding: EngineFinding,
  root: unknown,
  options: RunOptions = {},
): RepairContext {
  const version = options.version ?? '2026-07-28';
  return {
    version,
    features: features(version),
    tool: options.tool,
    root,
    subjectPath: finding.subjectPath,
    resultPath: finding.resultPath,
    findingPath: finding.path,
    messageId: finding.messageId,
    data: finding.data,
    sniffed: () => undefined,
  };
}

/** Repairs every finding of `ruleId` until none is left (or a repair gives up). */
export function repairAll(ruleId: string, kind: Kind, doc: unknown, options: RunOptions = {}): Repaired {
  let current: Repaired = {
    doc,
    outcome: undefined,
    after: run(kind, doc, options).filter((f) => f.rule === ruleId),
  };
  for (let i = 0; i < 20 && current.after.length > 0; i++) {
    const next = repairOnce(ruleId, kind, current.doc, options);
    if (!next.outcome) return next;
    current = next;
  }
  return current;
}
