/**
 * Runs a rule's docs example through the public validators, as a user's document would be: the
 * asynchronous ones, and the synchronous ones, which must agree with them.
 */

import type { Finding } from '../../src/core/finding.js';
import type { Example, Rule, SessionEvent } from '../../src/rules/types.js';
import { runFrame, runSession } from '../../src/validate/engine.js';
import {
  validateMessage,
  validateMessageSync,
  validateToolResult,
  validateToolResultSync,
  validateToolsList,
  validateToolsListSync,
} from '../../src/validate/index.js';
import { disagreement, fileTypeOnlyBlocks } from './sync-agreement.js';

async function agreeing(
  asyncFindings: Promise<Finding[]>,
  syncFindings: Finding[],
  document: unknown,
  base: readonly string[] = [],
): Promise<Finding[]> {
  const findings = await asyncFindings;
  const differs = disagreement(findings, syncFindings, await fileTypeOnlyBlocks(document, base));
  if (differs)
    throw new Error(`the synchronous validator disagrees on ${JSON.stringify(document)}:\n${differs}`);
  return findings;
}

export async function findingsForExample(rule: Rule, example: Example): Promise<Finding[]> {
  const protocolVersion = example.protocolVersion ?? rule.versions[rule.versions.length - 1];
  switch (rule.subject) {
    case 'frame':
      if (!example.frame) throw new Error(`${rule.id}: frame rules need example.frame`);
      return runFrame(example.frame, { version: protocolVersion ?? '2026-07-28' });
    case 'session':
      return runSession(example.value as SessionEvent, { version: protocolVersion ?? '2026-07-28' });
    case 'message': {
      const options = { protocolVersion, tools: example.tool ? [example.tool] : undefined };
      const message = example.value;
      return agreeing(validateMessage(message, options), validateMessageSync(message, options), message, [
        'result',
      ]);
    }
    case 'result': {
      const options = { protocolVersion, tool: example.tool };
      const result = example.value;
      return agreeing(validateToolResult(result, options), validateToolResultSync(result, options), result);
    }
    case 'block': {
      const options = { protocolVersion, tool: example.tool };
      const result = {
        content: [example.value],
        ...(protocolVersion === '2026-07-28' ? { resultType: 'complete' } : {}),
      };
      return agreeing(validateToolResult(result, options), validateToolResultSync(result, options), result);
    }
    case 'tools-list':
      return agreeing(
        validateToolsList(example.value, { protocolVersion }),
        validateToolsListSync(example.value, { protocolVersion }),
        example.value,
      );
    case 'tool': {
      const list = {
        tools: [example.value],
        ...(protocolVersion === '2026-07-28'
          ? { resultType: 'complete', ttlMs: 0, cacheScope: 'public' }
          : {}),
      };
      return agreeing(
        validateToolsList(list, { protocolVersion }),
        validateToolsListSync(list, { protocolVersion }),
        list,
      );
    }
  }
}
