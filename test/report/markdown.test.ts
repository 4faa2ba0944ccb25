import fc from 'fast-check';
import { marked, type Token, type Tokens } from 'marked';
import { describe, expect, it } from 'vitest';
import { codeSpan, escapeMarkdown, renderMarkdown } from '../../src/report/markdown.js';
import { runs } from '../support/runs.js';
import { auditReport, checkReport, cleanReport, HOSTILE_MESSAGE_SHOWN, hostileReport } from './fixtures.js';

/** Every token of a type, at any depth (marked's own walker). */
function tokensOf<T extends Token>(tokens: Token[], type: T['type']): T[] {
  const found: T[] = [];
  marked.walkTokens(tokens, (token) => {
    if (token.type === type) found.push(token as T);
  });
  return found;
}

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};

/** The text a reader sees in rendered inline HTML that must contain no tags at all. */
function visibleText(html: string): string {
  expect(html).not.toMatch(/</);
  return html.replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e] ?? e);
}

function cellText(cell: Tokens.TableCell): string {
  return visibleText(
    marked
      .parser([{ type: 'paragraph', raw: cell.text, text: cell.text, tokens: cell.tokens }])
      .replace(/^<p>|<\/p>\n?$/g, ''),
  );
}

describe('Markdown report', () => {
  it('check: summary table, rules table, findings grouped by location with title, fix and clients inline', () => {
    const markdown = renderMarkdown(checkReport());
    // package.json has no homepage, so there is no page to link to: no dead relative links.
    expect(markdown).not.toContain('docs/rules');
    const tokens = marked.lexer(markdown);
    const [title] = tokensOf<Tokens.Heading>(tokens, 'heading');
    expect(title?.depth).toBe(2);
    expect(title?.text).toBe('mcp-shape check: ❌ 3 errors, 1 warning in 8 documents');

    const [summary, rules] = tokensOf<Tokens.Table>(tokens, 'table');
    expect(summary?.header.map((c) => c.text)).toEqual(['Errors', 'Warnings', 'Info', 'Documents checked']);
    expect(summary?.rows.map((r) => r.map((c) => c.text))).toEqual([['3', '1', '1', '8']]);
    expect(rules?.header.map((c) => c.text)).toEqual(['Rule', 'Severity', 'Findings', 'Title']);
    expect(rules?.rows.map((r) => [r[0]?.text, r[2]?.text])).toEqual([
      ['`block-mime-type-missing`', '2'],
      ['`envelope-extra-member`', '1'],
      ['`result-text-mirror-missing`', '1'],
      ['`result-image-beside-structured`', '1'],
    ]);
    expect(rules?.rows[1]?.[3]?.text).toBe('JSON-RPC messages must not carry extra top-level members');

    const groups = tokensOf<Tokens.Heading>(tokens, 'heading').filter((h) => h.depth === 4);
    expect(
      groups.map((h) => cellText({ text: h.text, tokens: h.tokens, header: false, align: null })),
    ).toEqual([
      'session.jsonl:3 · 2025-06-18 · tool get_weather · call 2',
      'session.jsonl:5 · 2025-06-18 · tool get_weather · call 3',
      'session.jsonl:7 · 2025-06-18 · tool get_weather · call 4',
    ]);

    const lists = tokens.filter((t): t is Tokens.List => t.type === 'list');
    expect(lists.map((l) => l.items.length)).toEqual([3, 1, 1]);
    const first = lists[0]?.items[0];
    const links = tokensOf<Tokens.Link>(first?.tokens ?? [], 'link');
    expect(links).toEqual([]);
    expect(tokensOf<Tokens.Codespan>(first?.tokens ?? [], 'codespan').map((c) => c.text)).toEqual([
      'envelope-extra-member',
      '/requestId',
      'mcp-shape repair',
    ]);
    const [nested] = tokensOf<Tokens.List>(first?.tokens ?? [], 'list');
    expect(nested?.items.map((i) => i.text.split(':')[0])).toEqual(['Fix', 'Clients affected']);
    expect(nested?.items[1]?.text).toContain('TypeScript SDK v1 client (drops the message: the call hangs)');
    // Info findings are advice: no "clients affected" line.
    expect(tokensOf<Tokens.List>(lists[2]?.items[0]?.tokens ?? [], 'list')).toEqual([]);
  });

  it('links catalog rules under a docs base (the homepage), and never rules outside the catalog', () => {
    const tokens = marked.lexer(
      renderMarkdown(checkReport(), { docsBaseUrl: 'https://example.test/docs/rules' }),
    );
    const hrefs = tokensOf<Tokens.Link>(tokens, 'link').map((l) => l.href);
    expect(hrefs[0]).toBe('https://example.test/docs/rules/block-mime-type-missing.md');
    expect(hrefs).toContain('https://example.test/docs/rules/envelope-extra-member.md');
    expect(hrefs.some((h) => h.includes('result-text-mirror-missing'))).toBe(false);
  });

  it('audit: command details in a collapsed JSON block', () => {
    const tokens = marked.lexer(renderMarkdown(auditReport()));
    const [summary] = tokensOf<Tokens.Table>(tokens, 'table');
    expect(summary?.header[3]?.text).toBe('Calls checked');
    const [code] = tokensOf<Tokens.Code>(tokens, 'code');
    expect(code?.lang).toBe('json');
    expect(JSON.parse(code?.text ?? '')).toEqual(auditReport().details);
    expect(tokensOf<Tokens.HTML>(tokens, 'html').map((h) => h.text.trim())).toEqual([
      '<details><summary>Details</summary>',
      '</details>',
    ]);
  });

  it('a clean report is a title and the summary table', () => {
    const tokens = marked.lexer(renderMarkdown(cleanReport()));
    expect(tokens.filter((t) => t.type !== 'space').map((t) => t.type)).toEqual(['heading', 'table']);
    expect(tokensOf<Tokens.Heading>(tokens, 'heading')[0]?.text).toBe(
      'mcp-shape check: ✅ 0 errors, 0 warnings in 3 documents',
    );
  });

  it('escapes pipes, backticks and markup in server data', () => {
    const markdown = renderMarkdown(hostileReport());
    const tokens = marked.lexer(markdown);
    // No HTML from the data: the only HTML in a report is the Details block, absent here.
    expect(tokensOf<Tokens.HTML>(tokens, 'html')).toEqual([]);
    const html = marked.parse(markdown, { async: false });
    expect(html).not.toMatch(/<script|<img|<i>|<b>|<\/span>|<\/dd>/);

    const item = tokens.filter((t): t is Tokens.List => t.type === 'list')[0]?.items[0];
    // The message's backticks open no code span; the pointer's backticks and pipe stay in its span.
    expect(tokensOf<Tokens.Codespan>(item?.tokens ?? [], 'codespan').map((c) => c.text)).toEqual([
      'envelope-extra-member',
      '/result/a`b|c/<i>',
    ]);
    const [paragraph] = item?.tokens.filter((t): t is Tokens.Text => t.type === 'text') ?? [];
    const shown = visibleText(
      marked.parseInline(paragraph?.text.split(': ').slice(1).join(': ') ?? '', { async: false }),
    );
    expect(shown).toBe(HOSTILE_MESSAGE_SHOWN);
    const groups = tokensOf<Tokens.Heading>(tokens, 'heading').filter((h) => h.depth === 4);
    expect(groups.map((h) => h.text)).toEqual([
      'evil"\\<b\\>.json · 2025-06-18 · tool \\<script\\>x\\</script\\>',
    ]);
  });

  it('escapeMarkdown keeps any text literal, in a paragraph and in one table cell', () => {
    const special = [...'\\`*_[]<>|~&#!()-+.=: a1"\'\n\t'];
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...special), maxLength: 40 }), (text) => {
        const expected = text.replace(/\n/g, ' ');
        const inline = visibleText(marked.parseInline(`x ${escapeMarkdown(text)} x`, { async: false }));
        expect(inline).toBe(`x ${expected} x`);
        const table = marked.lexer(`| h |\n|---|\n| x ${escapeMarkdown(text)} x |\n`);
        const rows = tokensOf<Tokens.Table>(table, 'table')[0]?.rows;
        expect(rows?.length).toBe(1);
        expect(rows?.[0]?.length).toBe(1);
        expect(cellText(rows?.[0]?.[0] as Tokens.TableCell)).toBe(`x ${expected} x`);
      }),
      { numRuns: runs(500) },
    );
  });

  it('codeSpan holds any text, including backticks and edge spaces', () => {
    const chars = [...'`` a|<&\\*'];
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...chars), minLength: 1, maxLength: 20 }), (text) => {
        fc.pre(text.trim() !== '');
        const [span] = tokensOf<Tokens.Codespan>(marked.lexer(`x ${codeSpan(text)} x`), 'codespan');
        expect(span?.text).toBe(text);
      }),
      { numRuns: runs(500) },
    );
  });
});
