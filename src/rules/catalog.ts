/** Look-ups over the rule catalog. */

import { RULES } from './index.js';
import type { Rule } from './types.js';

export { RULES };

const BY_ID = new Map<string, Rule>(RULES.map((r) => [r.id, r]));

export function getRule(id: string): Rule | undefined {
  return BY_ID.get(id);
}

export function ruleIds(): string[] {
  return [...BY_ID.keys()];
}
