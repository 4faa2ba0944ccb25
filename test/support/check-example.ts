/** Runs a rule's docs example through the public validators, as a user's document would be. */

import type { Finding } from '../../src/core/finding.js';
import type { Example, Rule, SessionEvent } from '../../src/rules/types.js';
import { runFrame, runSession } from '../../src/validate/engine.js';
import { validateMessage, validateToolResult, validateToolsList } from '../../src/validate/index.js';

export async function findingsForExample(rule: Rule, example: Example): Promise<Finding[]> {
  const protocolVersion = example.protocolVersion ?? rule.versions[rule.versions.length - 1];
  switch (rule.subject) {
    case 'frame':
      if (!example.frame) throw new Error(`${rule.id}: frame rules need example.frame`);
      return runFrame(example.frame, { version: protocolVersion ?? '2026-07-28' });
    case 'session':
      return runSession(example.value as SessionEvent, { version: protocolVersion ?? '2026-07-28' });
    case 'message':
      return validateMessage(example.value, {
        protocolVersion,
        tools: example.tool ? [example.tool] : undefined,
      });
    case 'result':
      return validateToolResult(example.value, { protocolVersion, tool: example.tool });
    case 'block':
      return validateToolResult(
        { content: [example.value], ...(protocolVersion === '2026-07-28' ? { resultType: 'complete' } : {}) },
        { protocolVersion, tool: example.tool },
      );
    case 'tools-list':
      return validateToolsList(example.value, { protocolVersion });
    case 'tool':
      return validateToolsList(
        {
          tools: [example.value],
          ...(protocolVersion === '2026-07-28'
            ? { resultType: 'complete', ttlMs: 0, cacheScope: 'public' }
            : {}),
        },
        { protocolVersion },
      );
  }
}
