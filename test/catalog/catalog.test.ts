import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listRuleModules } from '../../scripts/rule-modules.js';
import { CLIENTS } from '../../src/clients/catalog.js';
import { renderRuleDoc, renderRuleIndexDoc, renderRuleIndexModule } from '../../src/docs/rule-doc.js';
import { RULES } from '../../src/rules/catalog.js';
import { findingsForExample } from '../support/check-example.js';

const root = join(import.meta.dirname, '../..');

describe('rule catalog', () => {
  it('has unique, kebab-case ids', () => {
    const ids = RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it('names each rule module after its id', () => {
    const modules = listRuleModules(join(root, 'src/rules'));
    const ids = new Set(RULES.map((r) => r.id));
    for (const m of modules) expect(ids).toContain(m.replace(/^.*\//, '').replace(/\.ts$/, ''));
    expect(modules.length).toBe(RULES.length);
  });

  it('src/rules/index.ts is generated from the rule modules (run `npm run generate`)', () => {
    const modules = listRuleModules(join(root, 'src/rules'));
    expect(readFileSync(join(root, 'src/rules/index.ts'), 'utf8')).toBe(renderRuleIndexModule(modules));
  });

  it('docs/rules is in sync with the catalog (run `npm run generate`)', () => {
    const dir = join(root, 'docs/rules');
    const files = readdirSync(dir).sort();
    expect(files).toEqual([...RULES.map((r) => `${r.id}.md`), 'README.md'].sort());
    for (const rule of RULES)
      expect(readFileSync(join(dir, `${rule.id}.md`), 'utf8')).toBe(renderRuleDoc(rule));
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toBe(renderRuleIndexDoc(RULES));
  });

  it('rule docs show fix placeholders as ‹name›, never as raw {{templates}}', () => {
    const withPlaceholder = RULES.filter((r) => r.fix?.includes('{{'));
    expect(withPlaceholder.length).toBeGreaterThan(0);
    for (const rule of RULES) expect(renderRuleDoc(rule), rule.id).not.toMatch(/\{\{\s*\w+\s*\}\}/);
    const doc = renderRuleDoc(withPlaceholder[0] as (typeof RULES)[number]);
    expect(doc).toMatch(/‹\w+›/);
  });

  it('every rule has versions, a rationale, known clients and a default message', () => {
    for (const rule of RULES) {
      expect(rule.versions.length, rule.id).toBeGreaterThan(0);
      expect(rule.rationale.length, rule.id).toBeGreaterThan(40);
      expect(rule.messages.default, rule.id).toBeTruthy();
      for (const c of rule.clients) expect(Object.keys(CLIENTS), rule.id).toContain(c.client);
    }
  });

  describe.each(RULES.map((r) => [r.id, r] as const))('%s', (_id, rule) => {
    it('reports its wrong example', async () => {
      const findings = await findingsForExample(rule, rule.examples.wrong);
      expect(findings.map((f) => f.rule)).toContain(rule.id);
    });

    it('does not report its right example', async () => {
      const findings = await findingsForExample(rule, rule.examples.right);
      expect(findings.filter((f) => f.rule === rule.id)).toEqual([]);
    });
  });
});
