/** Finds the rule modules: every .ts file in a subject folder of src/rules. */

import { readdirSync } from 'node:fs';
import { join } from 'node:path';

export const RULE_FOLDERS = ['transport', 'envelope', 'result', 'block', 'tools', 'session'] as const;

export function listRuleModules(rulesDir: string): string[] {
  const modules: string[] = [];
  for (const folder of RULE_FOLDERS) {
    let files: string[];
    try {
      files = readdirSync(join(rulesDir, folder));
    } catch {
      continue;
    }
    for (const file of files)
      if (file.endsWith('.ts') && !file.endsWith('.test.ts')) modules.push(`${folder}/${file}`);
  }
  return modules.sort();
}
