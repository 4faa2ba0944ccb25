import fc from 'fast-check';
import { marked, type Token, type Tokens } from 'marked';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/core/finding.js';
import { buildReport } from '../../src/report/build.js';
import { codeSpan, escapeMarkdown, renderMarkdown } from '../../src/report/markdown.js';
import { runs } from '../support/runs.js';
import {
  auditReport,
  checkReport,
  cleanReport,
  framedFinding,
  HOSTILE_MESSAGE_SHOWN,
  hostileReport,
} from './fixtures.js';

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

  it('escapeMarkdown puts what GFM would link by itself in a code span: no link comes from server text', () => {
    const text =
      'Session expired, sign in again at https://evil.example/login?a=1|b or www.evil.example, or mail help@evil.example.';
    const escaped = escapeMarkdown(text);
    expect(escaped).toBe(
      'Session expired, sign in again at `https://evil.example/login?a=1|b` or `www.evil.example`, or mail `help@evil.example`.',
    );
    expect(marked.parseInline(escaped, { async: false, gfm: true })).not.toMatch(/<a /);
    const cell = marked.lexer(`| h |\n|---|\n| ${escaped.replace(/\|/g, '\\|')} |\n`);
    expect(tokensOf<Tokens.Table>(cell, 'table')[0]?.rows[0]).toHaveLength(1);
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

describe('Markdown report, exactly', () => {
  /** The report's lines, with each "Clients affected" list (catalog data) reduced to its label. */
  const lines = (markdown: string) =>
    markdown.split('\n').map((l) => l.replace(/^( {2}- Clients affected:) .+$/, '$1 …'));

  it('check: the version matrix, warnings only, a folded finding, advice, and details without response text', () => {
    const place = (pointer: string) => ({
      pointer,
      location: { file: 'a.json', protocolVersion: '2025-06-18' },
    });
    const folded: Finding = {
      rule: 'block-mime-type-missing',
      severity: 'warning',
      message: 'no mimeType',
      ...place('/content/0'),
      fix: { description: 'set it', automatic: false },
      occurrences: [place('/content/0'), place('/content/1')],
    };
    const info: Finding = {
      rule: 'result-server-info-invalid',
      severity: 'info',
      message: 'advice',
      pointer: '',
      location: { file: 'a.json' },
    };
    const report = buildReport('check', [folded, info], 1, {
      summary: { versionVerdict: 'valid for 2025-06-18; fails 2024-11-05' },
      details: {
        versionMatrix: {
          all: false,
          versions: [
            {
              protocolVersion: '2024-11-05',
              verdict: 'fail',
              errors: 2,
              warnings: 0,
              infos: 0,
              reasons: ['a | b'],
            },
            { protocolVersion: '2025-06-18', verdict: 'pass', errors: 0, warnings: 1, infos: 1, reasons: [] },
          ],
        },
        calls: [{ call: 'get#1', response: { text: 'SECRET', bytes: 6 } }, 'odd', { call: 'get#2' }],
        note: '```x```',
      },
    });
    expect(lines(renderMarkdown(report))).toEqual([
      '## mcp-shape check: ⚠️ 0 errors, 1 warning in 1 document',
      '',
      '| Errors | Warnings | Info | Documents checked |',
      '|---:|---:|---:|---:|',
      '| 0 | 1 | 1 | 1 |',
      '',
      '**Protocol versions:** valid for 2025-06-18; fails 2024-11-05',
      '',
      '### Protocol versions',
      '',
      '| Protocol version | Verdict | Errors | Warnings | Info | Fails because |',
      '|---|---|---:|---:|---:|---|',
      '| 2024-11-05 | ❌ fail | 2 | 0 | 0 | a \\| b (+1 more) |',
      '| 2025-06-18 | ✅ pass | 0 | 1 | 1 |  |',
      '',
      '### Rules',
      '',
      '| Rule | Severity | Findings | Title |',
      '|---|---|---:|---|',
      '| `block-mime-type-missing` | ⚠️ warning | 1 | Image and audio blocks need a mimeType |',
      '| `result-server-info-invalid` | ℹ️ info | 1 | \\`\\_meta\\["io.modelcontextprotocol/serverInfo"\\]\\` must be an Implementation |',
      '',
      '### Findings',
      '',
      '#### a.json',
      '',
      '- **ℹ️ info** `result-server-info-invalid` at (root): advice',
      '',
      '#### a.json · 2025-06-18',
      '',
      '- **⚠️ warning** `block-mime-type-missing` at `/content/0`: no mimeType',
      '  - Fix: set it',
      '  - Seen 2 times: 2025-06-18 /content/0; 2025-06-18 /content/1',
      '  - Clients affected: …',
      '',
      '<details><summary>Details</summary>',
      '',
      // A fence longer than any backtick run inside; responses without their text.
      '````json',
      '{',
      '  "note": "```x```",',
      '  "calls": [',
      '    {',
      '      "call": "get#1",',
      '      "response": {',
      '        "bytes": 6',
      '      }',
      '    },',
      '    "odd",',
      '    {',
      '      "call": "get#2"',
      '    }',
      '  ]',
      '}',
      '````',
      '',
      '</details>',
      '',
    ]);
  });

  it('scan: the verdict before the findings, and the code frame of a finding', () => {
    const finding = framedFinding('unknown');
    const verdict = {
      check: 'mcp-server.tool-definitions.return-content-types',
      status: 'fail',
      handlers: 1,
      returns: 2,
      typed: 1,
      typedByDeclaration: 0,
      invalid: 1,
      unresolved: 0,
      detail: 'fail: 1 of 2 return statements *typed*; more',
      problems: ['p'],
      unproven: [],
      tools: [],
    };
    const markdown = lines(renderMarkdown(buildReport('scan', [finding], 1, { details: { verdict } })));
    expect(markdown.slice(0, 10)).toEqual([
      '## mcp-shape scan: ❌ 1 error, 0 warnings in 1 file',
      '',
      '| Errors | Warnings | Info | Files checked |',
      '|---:|---:|---:|---:|',
      '| 1 | 0 | 0 | 1 |',
      '',
      '### ❌ `mcp-server.tool-definitions.return-content-types`: FAIL',
      '',
      '1 of 2 return statements \\*typed\\*; more',
      '',
    ]);
    const item = markdown.indexOf('- **❌ error** `block-type-unknown` at (root): unknown');
    expect(markdown.slice(item + 1, item + 8)).toEqual([
      '  - Clients affected: …',
      '  ```',
      '    1 | a',
      '  > 2 |   x()',
      '      |   ^^^',
      '    3 | b',
      '  ```',
    ]);
    for (const [status, mark] of [
      ['pass', '✅'],
      ['skip', '➖'],
    ] as const) {
      const other = renderMarkdown(
        buildReport('scan', [], 1, { details: { verdict: { ...verdict, status } } }),
      );
      expect(other).toContain(
        `### ${mark} \`mcp-server.tool-definitions.return-content-types\`: ${status.toUpperCase()}`,
      );
    }
  });

  it('scan: a tool or file name with a line break stays inside the code frame (no raw HTML, no end of the block)', () => {
    const name = 't\n<img src="https://evil.example/t.png">\n```\n[Approve](https://evil.example/a)';
    const finding = framedFinding('unknown');
    const location = {
      ...finding.location,
      when: ['q\n<script>x</script>'],
      reaches: [{ tool: name, file: `s.ts\n<b>bold</b>`, line: 9, column: 1 }],
    } as Finding['location'];
    const markdown = renderMarkdown(buildReport('scan', [{ ...finding, location }], 1));
    const html = marked.parse(markdown, { async: false });
    expect(html).not.toMatch(/<img|<script|<b>|<a /);
    // Every line of the frame is in its code block, the names on one line each.
    const code = tokensOf<Tokens.Code>(marked.lexer(markdown), 'code');
    expect(code).toHaveLength(1);
    expect(code[0]?.text).toContain(
      'reaches: the return of tool "t\\n<img src="https://evil.example/t.png">\\n```\\n[Approve](https://evil.example/a)" at s.ts\\n<b>bold</b>:9',
    );
  });

  it('renders a text of 150,000 backtick runs, in a code span and in a code block, without overflowing the stack', () => {
    const runs = '`x'.repeat(150_000);
    const finding = { ...framedFinding(runs), pointer: `/${runs}` };
    const markdown = renderMarkdown(buildReport('check', [finding], 1));
    // The pointer in a code span two backticks wide, one more than its longest run.
    expect(markdown).toContain(`\`\`/${runs}\`\``);
    const code = tokensOf<Tokens.Code>(
      marked.lexer(renderMarkdown(buildReport('scan', [framedFinding(runs)], 1, {}))),
      'code',
    );
    expect(code).toHaveLength(1);
  });

  it('orders the rules table by severity, then count, then id; unknown rules plain, pipes escaped', () => {
    const of = (rule: string, severity: Finding['severity']): Finding => ({
      rule,
      severity,
      message: 'm',
      pointer: '',
    });
    const findings = [
      of('result-server-info-invalid', 'info'),
      of('not|catalog', 'warning'),
      of('block-type-unknown', 'error'),
      // Advice about a rule that breaks clients still names none.
      { ...of('block-mime-type-missing', 'info'), location: { file: 'x.json' } },
    ];
    const markdown = renderMarkdown(buildReport('check', findings, 1));
    const table = markdown.split('\n').filter((l) => /^\| `/.test(l));
    expect(table.map((row) => row.split(' | ').slice(0, 2).join(' | '))).toEqual([
      '| `block-type-unknown` | ❌ error',
      '| `not\\|catalog` | ⚠️ warning',
      '| `block-mime-type-missing` | ℹ️ info',
      '| `result-server-info-invalid` | ℹ️ info',
    ]);
    expect(table[1]).toBe('| `not\\|catalog` | ⚠️ warning | 1 |  |');
    expect(markdown).toContain('#### (document)\n');
    const lines = markdown.split('\n');
    const advice = lines.indexOf('- **ℹ️ info** `block-mime-type-missing` at (root): m');
    expect(advice).toBeGreaterThan(0);
    expect(lines[advice + 1]).toBe('');
    // Details without backticks get the shortest fence.
    expect(renderMarkdown(buildReport('check', [], 1, { details: { a: 1 } }))).toContain(
      '\n```json\n{\n  "a": 1\n}\n```\n',
    );
  });

  it('opens with a scan verdict only for a scan', () => {
    const verdict = { status: 'pass', detail: 'pass: all typed', tools: [] };
    expect(renderMarkdown(buildReport('check', [], 1, { details: { verdict } }))).not.toContain('### ✅');
  });
});

describe('escapeMarkdown and codeSpan, exactly', () => {
  it('fold line breaks into one space', () => {
    // Text is terminal-safe first: a carriage return shows as \x0d (escaped for Markdown).
    expect(escapeMarkdown('a\rb\r\nc\nd')).toBe('a\\\\x0db\\\\x0d c d');
    expect(codeSpan('a\rb\r\nc\nd')).toBe('`a b c d`');
  });

  it('pad a code span only where a space or backtick at an edge needs it', () => {
    expect(codeSpan(' a ')).toBe('`  a  `');
    expect(codeSpan(' a')).toBe('` a`');
    expect(codeSpan('a ')).toBe('`a `');
    expect(codeSpan('`a')).toBe('`` `a ``');
    expect(codeSpan('a``b')).toBe('```a``b```');
  });
});
