/**
 * Runs one block rule's check and repair the way the repair engine does: validate (with sniffing),
 * take the rule's first finding, hand the rule a RepairContext on a private copy, validate again.
 */

import { isObject, type JsonObject } from '../../src/core/json.js';
import { FactScope } from '../../src/core/run-memo.js';
import { repairContext } from '../../src/library/repair/engine.js';
import { getRule } from '../../src/rules/catalog.js';
import type { RepairOutcome } from '../../src/rules/types.js';
import { features, type ProtocolVersion } from '../../src/spec/versions.js';
import {
  type EngineFinding,
  type PayloadSniffer,
  payloadAt,
  runToolResult,
} from '../../src/validate/engine.js';
import { fileTypeAnswers, mediaPayloads, sniffWith } from '../../src/validate/index.js';

export const LATEST: ProtocolVersion = '2026-07-28';

/** A result holding the given blocks, with `resultType` where the version requires it. */
export function resultOf(
  blocks: unknown[],
  version: ProtocolVersion = LATEST,
  extra: JsonObject = {},
): JsonObject {
  return {
    content: blocks,
    ...(features(version).resultTypeRequired ? { resultType: 'complete' } : {}),
    ...extra,
  };
}

/** Sniffs a result's payloads as the asynchronous validators do: file-type where the fast sniffer has no answer. */
async function snifferFor(result: unknown): Promise<PayloadSniffer> {
  return sniffWith(await fileTypeAnswers(mediaPayloads(result), new FactScope()));
}

export async function check(result: unknown, version: ProtocolVersion = LATEST): Promise<EngineFinding[]> {
  return runToolResult(result, { version, sniff: await snifferFor(result) });
}

export async function ruleFindings(ruleId: string, result: unknown, version: ProtocolVersion = LATEST) {
  return (await check(result, version)).filter((f) => f.rule === ruleId);
}

export interface RepairStep {
  readonly outcome: RepairOutcome | undefined;
  readonly document: JsonObject;
  readonly finding: EngineFinding;
}

/** Applies `ruleId`'s repair to its first finding in `result` (which must have one). */
export async function repairOnce(
  ruleId: string,
  result: JsonObject,
  version: ProtocolVersion = LATEST,
): Promise<RepairStep> {
  const rule = getRule(ruleId);
  if (!rule?.repair) throw new Error(`${ruleId} has no repair`);
  const document = structuredClone(result);
  const sniff = await snifferFor(document);
  const [finding] = runToolResult(document, { version, sniff }).filter((f) => f.rule === ruleId);
  if (!finding) throw new Error(`${ruleId} reports nothing on ${JSON.stringify(result).slice(0, 200)}`);
  const ctx = repairContext(finding, document, { version }, (path) => {
    const payload = payloadAt(document, path);
    return payload && sniff(payload.holder, payload.key);
  });
  return { outcome: rule.repair(ctx), document, finding };
}

/** Repairs every finding of `ruleId` in turn; fails when a repair makes no progress. */
export async function repairAll(ruleId: string, result: JsonObject, version: ProtocolVersion = LATEST) {
  let document = result;
  const outcomes: RepairOutcome[] = [];
  for (let round = 0; round < 20; round++) {
    if ((await ruleFindings(ruleId, document, version)).length === 0) return { document, outcomes };
    const step = await repairOnce(ruleId, document, version);
    if (!step.outcome) return { document, outcomes, stuck: step.finding };
    outcomes.push(step.outcome);
    document = step.document;
  }
  throw new Error(`${ruleId}: repair did not converge`);
}

export function errorsOf(findings: readonly EngineFinding[]): string[] {
  return findings.filter((f) => f.severity === 'error').map((f) => `${f.rule} ${f.pointer}`);
}

export function firstBlock(result: JsonObject): unknown {
  return Array.isArray(result.content) ? result.content[0] : undefined;
}

export function blockOf(result: JsonObject, i = 0): JsonObject {
  const block = Array.isArray(result.content) ? result.content[i] : undefined;
  if (!isObject(block)) throw new Error(`content[${i}] is not an object`);
  return block;
}

/** A 1×1 PNG, a tiny WAV header and a JPEG opening, as base64. */
export const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
export const WAV = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEARKwAAIhYAQACABAAZGF0YQAAAAA=';
export const PDF = btoa('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
export const SVG = btoa('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"></svg>');
