/**
 * A rule's check run on its own, as the engine would run it without any fast path or plan: the oracle
 * the fast-path and engine tests hold the validators to.
 */

import type { JsonObject } from '../../../src/core/json.js';
import { createOutputSchemaCompiler } from '../../../src/core/schema.js';
import type { CheckContext, Report, Rule } from '../../../src/rules/types.js';
import { features, type ProtocolVersion } from '../../../src/spec/versions.js';
import { payloadAt, sniffSync } from '../../../src/validate/engine.js';

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
