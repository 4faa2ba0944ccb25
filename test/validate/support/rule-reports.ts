/**
 * A rule's check run on its own, as the engine would run it without any fast path or plan: the oracle
 * the fast-path and engine tests hold the validators to.
 */

import { isObject, type JsonObject } from '../../../src/core/json.js';
import { toPointer } from '../../../src/core/pointer.js';
import { createOutputSchemaCompiler } from '../../../src/core/schema.js';
import { RULES } from '../../../src/rules/catalog.js';
import type { CheckContext, Report, Rule } from '../../../src/rules/types.js';
import { features, type ProtocolVersion } from '../../../src/spec/versions.js';
import { payloadAt, sniffSync } from '../../../src/validate/engine.js';
import { validateToolResultSync } from '../../../src/validate/index.js';

const schemas = createOutputSchemaCompiler();

/** Runs one rule's check on `node` and returns its reports. */
export function reports(
  rule: Rule,
  node: unknown,
  version: ProtocolVersion,
  tool: JsonObject | undefined,
): Report[] {
  const out: Report[] = [];
  const ctx: CheckContext = {
    version,
    features: features(version),
    tool,
    partial: false,
    schemas,
    sniffed: (path) => {
      const payload = payloadAt(node, path);
      return payload && sniffSync(payload.holder, payload.key);
    },
    report: (report) => out.push(report),
  };
  rule.check(node, ctx);
  return out;
}

/**
 * What every result and block rule, each run on its own on the result and on each of its blocks,
 * reports: `rule pointer data`, sorted.
 */
export function everyRuleFinds(result: unknown, version: ProtocolVersion, tool?: JsonObject): string[] {
  const applicable = RULES.filter((r) => r.versions.includes(version));
  const out: string[] = [];
  const add = (subject: Rule['subject'], node: unknown, at: (string | number)[]) => {
    for (const r of applicable) {
      if (r.subject !== subject) continue;
      for (const report of reports(r, node, version, tool)) {
        out.push(
          `${r.id} ${toPointer([...at, ...(report.path ?? [])])} ${JSON.stringify(report.data ?? {})}`,
        );
      }
    }
  };
  add('result', result, []);
  if (isObject(result) && Array.isArray(result.content)) {
    result.content.forEach((block, i) => {
      add('block', block, ['content', i]);
    });
  }
  return out.sort();
}

/** What validateToolResultSync finds, in the form of everyRuleFinds. */
export function validatorFinds(result: unknown, version: ProtocolVersion, tool?: JsonObject): string[] {
  return validateToolResultSync(result, { protocolVersion: version, tool })
    .map((f) => `${f.rule} ${f.pointer} ${JSON.stringify((f as { data?: unknown }).data ?? {})}`)
    .sort();
}
