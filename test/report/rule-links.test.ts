import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderRuleDoc } from '../../src/docs/rule-doc.js';
import { renderHtml } from '../../src/report/html.js';
import { readPackage, ruleDocsUrl, rulesDocsBase } from '../../src/report/rule-links.js';
import { RULES } from '../../src/rules/catalog.js';
import { REPO_ROOT } from '../support/cli.js';
import { checkReport } from './fixtures.js';

describe('rule doc links', () => {
  it('come from the package homepage: a GitHub repository links into docs/rules, a site serves the package', () => {
    expect(rulesDocsBase('https://github.com/acme/mcp-shape#readme')).toBe(
      'https://github.com/acme/mcp-shape/blob/HEAD/docs/rules/',
    );
    expect(rulesDocsBase('https://github.com/acme/mcp-shape.git')).toBe(
      'https://github.com/acme/mcp-shape/blob/HEAD/docs/rules/',
    );
    expect(rulesDocsBase('https://mcp-shape.example/docs?x=1')).toBe(
      'https://mcp-shape.example/docs/docs/rules/',
    );
    for (const none of [undefined, '', 'not a url', 'file:///home/me/mcp-shape']) {
      expect(rulesDocsBase(none)).toBeUndefined();
    }
    expect(ruleDocsUrl('block-mime-type-missing', 'https://x.example/rules')).toBe(
      'https://x.example/rules/block-mime-type-missing.md',
    );
    expect(ruleDocsUrl('block-mime-type-missing', undefined)).toBeUndefined();
  });

  it('take http and https homepages, drop their query and fragment, and link a GitHub repository page only', () => {
    expect(rulesDocsBase('http://mcp-shape.example')).toBe('http://mcp-shape.example/docs/rules/');
    expect(rulesDocsBase('https://mcp-shape.example/pkg/#top')).toBe(
      'https://mcp-shape.example/pkg/docs/rules/',
    );
    expect(rulesDocsBase('https://github.com/acme/mcp-shape/')).toBe(
      'https://github.com/acme/mcp-shape/blob/HEAD/docs/rules/',
    );
    expect(rulesDocsBase('https://github.com/acme/mcp-shape?tab=readme')).toBe(
      'https://github.com/acme/mcp-shape/blob/HEAD/docs/rules/',
    );
    // A page inside a repository, or another host, is a site that serves the package's files.
    expect(rulesDocsBase('https://github.com/acme/mcp-shape/tree/main')).toBe(
      'https://github.com/acme/mcp-shape/tree/main/docs/rules/',
    );
    expect(rulesDocsBase('https://gitlab.com/acme/mcp-shape')).toBe(
      'https://gitlab.com/acme/mcp-shape/docs/rules/',
    );
    expect(rulesDocsBase('ftp://example.org/x')).toBeUndefined();
    expect(ruleDocsUrl('a b/c', 'https://x.example/rules/')).toBe('https://x.example/rules/a%20b%2Fc.md');
    expect(ruleDocsUrl('r', '')).toBeUndefined();
    // This package has no homepage, so the default base links nothing.
    expect(ruleDocsUrl('block-mime-type-missing')).toBeUndefined();
    expect(readPackage().version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('are absent from reports when package.json has no homepage; HTML carries the rule inline instead', () => {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { homepage?: string };
    expect(pkg.homepage).toBeUndefined();
    const html = renderHtml(checkReport());
    expect(html).not.toMatch(/href="[^"]*docs\/rules/);
    expect(html).toContain('JSON-RPC messages must not carry extra top-level members');
    const linked = renderHtml(checkReport(), { docsBaseUrl: 'https://example.test/rules/' });
    expect(linked).toContain('href="https://example.test/rules/envelope-extra-member.md"');
  });
});

describe('rule docs', () => {
  const PRIVATE = /client-compat|spec-versions|shared\/reference|\.md §/;

  it('cite public sources (repositories, issues, SDK builds), never a file of this repository', () => {
    for (const rule of RULES) {
      for (const impact of rule.clients) expect(impact.source, rule.id).not.toMatch(PRIVATE);
      expect(renderRuleDoc(rule), rule.id).not.toMatch(PRIVATE);
    }
    for (const file of readdirSync(join(REPO_ROOT, 'docs/rules'))) {
      expect(readFileSync(join(REPO_ROOT, 'docs/rules', file), 'utf8'), file).not.toMatch(PRIVATE);
    }
  });
});
