import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint, RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import plugin, { STATIC_RULES } from '../../src/eslint/index.js';
import { ruleDocsUrl } from '../../src/report/rule-links.js';
import { RULES } from '../../src/rules/catalog.js';
import { scanSource } from '../../src/scan/index.js';
import { REPO_ROOT } from '../support/cli.js';

// RuleTester builds its own describe/it blocks; hand it vitest's.
RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const js = new RuleTester({ languageOptions: { ecmaVersion: 'latest', sourceType: 'module' } });
const ts = new RuleTester({ languageOptions: { parser: tseslint.parser } });

const header = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
const server = new McpServer({ name: 's', version: '1' });
`;

function rule(id: string) {
  const found = plugin.rules[id];
  if (!found) throw new Error(`no ESLint rule ${id}`);
  return found;
}

describe('plugin shape', () => {
  it('has one ESLint rule per static catalog rule, with the catalog id', () => {
    expect(Object.keys(plugin.rules).sort()).toEqual(STATIC_RULES.map((r) => r.id).sort());
    expect(STATIC_RULES.length).toBeGreaterThan(20);
    for (const r of STATIC_RULES) expect(['result', 'block', 'message']).toContain(r.subject);
  });

  it('recommended turns errors and warnings on at their catalog severity', () => {
    const config = plugin.configs.recommended;
    expect(config?.plugins?.['mcp-shape']).toBe(plugin);
    for (const r of STATIC_RULES) {
      const expected = r.severity === 'error' ? 'error' : r.severity === 'warning' ? 'warn' : undefined;
      expect(config?.rules?.[`mcp-shape/${r.id}`], r.id).toBe(expected);
    }
  });

  it('links each rule to its catalog doc only through the package homepage (no file: links)', () => {
    // package.json sets no homepage, so there is nothing to link to; with one it is the same URL
    // the reports use (test/report/rule-links.test.ts).
    expect(rule('block-mime-type-missing').meta?.docs?.url).toBe(ruleDocsUrl('block-mime-type-missing'));
    expect(rule('block-mime-type-missing').meta?.docs?.url).toBeUndefined();
    expect(RULES.filter((r) => r.subject === 'tool').every((r) => !plugin.rules[r.id])).toBe(true);
  });

  it('reports what mcp-shape scan reports, with the recommended config', async () => {
    const files = [
      'fixtures/scan/js/blocks.mjs',
      'fixtures/scan/js/results.mjs',
      'fixtures/scan/ts/sdk-v2-server.ts',
    ];
    const eslint = new ESLint({
      cwd: REPO_ROOT,
      overrideConfigFile: true,
      overrideConfig: [
        plugin.configs.recommended ?? {},
        { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } },
      ],
    });
    for (const file of files) {
      const [result] = await eslint.lintFiles([file]);
      const linted = (result?.messages ?? []).map(
        (m) => `${m.ruleId?.replace('mcp-shape/', '')}@${m.line}:${m.column}`,
      );
      const scanned = await scanSource(file, readFileSync(join(REPO_ROOT, file), 'utf8'));
      const expected = scanned.findings.map((f) => `${f.rule}@${f.location?.line}:${f.location?.column}`);
      expect(linted.sort(), file).toEqual(expected.sort());
    }
  });
});

js.run('block-mime-type-missing (espree)', rule('block-mime-type-missing'), {
  valid: [
    `${header}server.registerTool('shot', {}, async () => ({ content: [{ type: 'image', data: 'aGk=', mimeType: 'image/png' }] }));`,
    // Not an MCP file: the same literal is left alone.
    `export const block = { type: 'image', data: 'aGk=' };`,
    // Unknown mimeType: nothing to say statically.
    `${header}server.registerTool('shot', {}, async ({ m }) => ({ content: [{ type: 'image', data: 'aGk=', mimeType: m }] }));`,
  ],
  invalid: [
    {
      code: `${header}function img(data) {\n  return { type: 'image', data };\n}\nserver.registerTool('shot', {}, async () => ({ content: [img('aGk=')] }));`,
      errors: [{ messageId: 'finding', line: 4, column: 10 }],
    },
  ],
});

js.run('result-not-object (espree)', rule('result-not-object'), {
  valid: [
    // FastMCP wraps strings into text content.
    `import { FastMCP } from 'fastmcp';\nconst s = new FastMCP({ name: 'f', version: '1' });\ns.addTool({ name: 'hi', execute: async () => 'hi' });`,
  ],
  invalid: [
    {
      code: `${header}server.tool('read_file', async ({ path }) => \`contents of \${path}\`);`,
      errors: [
        {
          message:
            'the tools/call result is a JSON string; it must be an object with a "content" array in tool "read_file" (the whole result)',
          line: 3,
        },
      ],
    },
  ],
});

js.run('envelope-extra-member (espree)', rule('envelope-extra-member'), {
  valid: [
    `// tools/call bridge\nexport const ok = (id) => ({ jsonrpc: '2.0', id, result: { content: [] } });`,
  ],
  invalid: [
    {
      code: `// tools/call bridge\nexport function send(id, requestId) {\n  const payload = { jsonrpc: '2.0', id, result: { content: [] } };\n  payload['requestId'] = requestId;\n  return payload;\n}`,
      errors: [{ messageId: 'finding', line: 4, column: 3 }],
    },
  ],
});

ts.run('block-type-unknown (typescript-eslint)', rule('block-type-unknown'), {
  valid: [
    `${header}const schema = { type: 'object' as const, properties: {} };\nserver.registerTool('t', { inputSchema: schema }, async (): Promise<{ content: { type: 'text'; text: string }[] }> => ({ content: [{ type: 'text', text: 'ok' }] }));`,
  ],
  invalid: [
    {
      code: `${header}server.registerTool('t', {}, async () => ({\n  content: [{ type: 'object' as string, text: '{}' }],\n}) satisfies unknown);`,
      errors: [{ messageId: 'finding', line: 4, column: 21 }],
    },
  ],
});

describe('settings', () => {
  it('places findings on the lines ESLint counts: a lone CR, U+2028 and U+2029 end a line in JavaScript', async () => {
    const eslint = new ESLint({
      cwd: REPO_ROOT,
      overrideConfigFile: true,
      overrideConfig: [plugin.configs.recommended ?? {}],
    });
    for (const lineBreak of ['\r', '\r\n', '\n']) {
      const source = [
        "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';",
        '/* a comment with a line separator \u2028 and a paragraph separator \u2029 in it */',
        "const server = new McpServer({ name: 'x', version: '1.0.0' });",
        "server.tool('t', async () => ({ content: [{ type: 'object', object: 1 }] }));",
      ].join(lineBreak);
      const [result] = await eslint.lintText(source, { filePath: 'server.mjs' });
      const linted = (result?.messages ?? []).map((m) => `${m.line}:${m.column}`);
      const scanned = await scanSource('server.mjs', source);
      expect(linted, JSON.stringify(lineBreak)).toEqual(['6:51']);
      expect(scanned.findings.map((f) => `${f.location?.line}:${f.location?.column}`)).toEqual(linted);
    }
  });

  it('escapes what its messages quote from the source: no escape sequence or line break reaches a formatter', async () => {
    const eslint = new ESLint({
      cwd: REPO_ROOT,
      overrideConfigFile: true,
      overrideConfig: [plugin.configs.recommended ?? {}],
    });
    const source = [
      "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';",
      "const server = new McpServer({ name: 'x', version: '1.0.0' });",
      "server.tool('t\\u001b]0;owned\\u0007\\nPASS', async () => ({ content: [{ type: 'object', object: 1 }] }));",
    ].join('\n');
    const [result] = await eslint.lintText(source, { filePath: 'server.mjs' });
    const messages = (result?.messages ?? []).map((m) => m.message);
    expect(messages).toEqual([expect.stringContaining('in tool "t\\x1b]0;owned\\x07\\nPASS"')]);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: what must not be left is the point.
    for (const message of messages) expect(message).not.toMatch(/[\u0000-\u001f]/);
  });

  it('throws on a protocolVersion that names no version, rather than judging by the default', async () => {
    for (const protocolVersion of ['2024-11-5', 'bogus', 20250618]) {
      const eslint = new ESLint({
        cwd: REPO_ROOT,
        overrideConfigFile: true,
        overrideConfig: [plugin.configs.recommended ?? {}, { settings: { mcpShape: { protocolVersion } } }],
      });
      await expect(
        eslint.lintText(`${header}server.registerTool('t', {}, async () => ({ content: [] }));`, {
          filePath: join(REPO_ROOT, 'server.js'),
        }),
        String(protocolVersion),
      ).rejects.toThrow(/settings\.mcpShape\.protocolVersion .* is none of 2024-11-05/);
    }
  });
});

ts.run('structured-content-not-object (typescript-eslint, settings)', rule('structured-content-not-object'), {
  valid: [
    {
      // 2026-07-28 allows any JSON value as structuredContent.
      code: `${header}server.registerTool('rows', {}, async () => ({ content: [{ type: 'text', text: '[1]' }], structuredContent: [1] }));`,
      settings: { mcpShape: { protocolVersion: '2026-07-28' } },
    },
  ],
  invalid: [
    {
      code: `${header}server.registerTool('rows', {}, async () => ({ content: [{ type: 'text', text: '[1]' }], structuredContent: [1] }));`,
      errors: [{ messageId: 'finding', line: 3 }],
    },
  ],
});
