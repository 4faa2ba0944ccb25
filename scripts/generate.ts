/** Writes src/rules/index.ts and docs/rules/*.md from the rule modules. `npm run generate`. */

import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listRuleModules } from './rule-modules.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { renderRuleIndexModule, renderRuleDoc, renderRuleIndexDoc } = await import('../src/docs/rule-doc.js');

function writeIfChanged(path: string, content: string): void {
  let current: string | undefined;
  try {
    current = readFileSync(path, 'utf8');
  } catch {
    current = undefined;
  }
  if (current !== content) {
    writeFileSync(path, content);
    console.log(`wrote ${path.slice(root.length + 1)}`);
  }
}

const modules = listRuleModules(join(root, 'src/rules'));
writeIfChanged(join(root, 'src/rules/index.ts'), renderRuleIndexModule(modules));

// Import after writing the index so newly added rules are included.
const { RULES } = await import(`../src/rules/index.js?${Date.now()}`);
const docsDir = join(root, 'docs/rules');
mkdirSync(docsDir, { recursive: true });
const expected = new Set<string>(['README.md']);
for (const rule of RULES) {
  expected.add(`${rule.id}.md`);
  writeIfChanged(join(docsDir, `${rule.id}.md`), renderRuleDoc(rule));
}
writeIfChanged(join(docsDir, 'README.md'), renderRuleIndexDoc(RULES));

// The configuration schema names every rule id, so it is regenerated with the catalog.
const { CONFIG_SCHEMA_PATH, renderConfigSchema } = await import('../src/config/schema.js');
mkdirSync(dirname(join(root, CONFIG_SCHEMA_PATH)), { recursive: true });
writeIfChanged(join(root, CONFIG_SCHEMA_PATH), renderConfigSchema(RULES));
for (const file of readdirSync(docsDir)) {
  if (!expected.has(file)) {
    rmSync(join(docsDir, file));
    console.log(`removed docs/rules/${file}`);
  }
}
