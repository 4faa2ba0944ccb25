import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ambiguousTool } from '../../src/cli/read-input.js';
import type { JsonObject } from '../../src/core/json.js';
import { CLI_TEST_TIMEOUT, runCli } from '../support/cli.js';
import { scratchDir } from '../support/scratch.js';

const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** A tool whose outputSchema asks for a numeric `n`. */
const COUNTER = {
  name: 'count',
  inputSchema: { type: 'object' },
  outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
};

const { dir, file } = scratchDir('check');

describe('mcp-shape check', { timeout: CLI_TEST_TIMEOUT }, () => {
  it('exits 0 on a clean result and says so', async () => {
    const path = file('clean.json', { content: [{ type: 'text', text: 'hi' }] });
    const run = await runCli(['check', path, '--protocol', '2025-06-18']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/0 errors/);
  });

  it('exits 1 and names rule, pointer and affected clients for a broken response', async () => {
    const path = file('broken.json', {
      jsonrpc: '2.0',
      id: 1,
      requestId: 'r-1',
      result: { content: [{ type: 'image', data: PNG_1X1 }] },
    });
    const run = await runCli(['check', path, '--protocol', '2025-06-18']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('/requestId');
    expect(run.stdout).toContain('envelope-extra-member');
    expect(run.stdout).toContain('/result/content/0/mimeType');
    expect(run.stdout).toContain('the bytes look like image/png');
    expect(run.stdout).toContain('breaks: TypeScript SDK v1 client');
  });

  it('prints the documented JSON report', async () => {
    const path = file('array-sc.json', { content: [], structuredContent: [1, 2] });
    const run = await runCli(['check', path, '--protocol', '2025-11-25', '--format', 'json']);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ schemaVersion: 1, command: 'check', summary: { checked: 1 } });
    const finding = report.findings.find((f: { rule: string }) => f.rule === 'structured-content-not-object');
    expect(finding).toMatchObject({
      severity: 'error',
      pointer: '/structuredContent',
      location: { file: path, protocolVersion: '2025-11-25' },
    });
  });

  it('reads standard input and writes --out', async () => {
    const out = join(dir, 'report.json');
    const run = await runCli(['check', '-', '--format', 'json', '--out', out], {
      input: JSON.stringify({ content: [{ type: 'text', text: 'ok' }], resultType: 'complete' }),
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    expect(JSON.parse(readFileSync(out, 'utf8')).summary.errors).toBe(0);
  });

  it('takes --out - for standard output, as - for the input is standard input, and writes no file named -', async () => {
    const input = JSON.stringify({ content: [{ type: 'text', text: 'ok' }] });
    const run = await runCli(['check', '-', '--format', 'json', '--out', '-'], { input, cwd: dir });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).summary.errors).toBe(0);
    const repaired = await runCli(['repair', '-', '--out', '-', '--quiet'], { input, cwd: dir });
    expect(JSON.parse(repaired.stdout)).toEqual({ content: [{ type: 'text', text: 'ok' }] });
    expect(existsSync(join(dir, '-'))).toBe(false);
  });

  it('rejects invalid JSON with its line and column, exit 2 and no stack trace', async () => {
    const path = file('bad.json', '{\n  "content": [\n    {"type": "text", "text": }\n  ]\n}');
    const run = await runCli(['check', path]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/line 3, column 30/);
    expect(run.stderr).not.toMatch(/\bat .*\.(js|ts):\d+/);
  });

  it('refuses a HAR capture in one line and exit 2, instead of judging it as a result without content', async () => {
    const har = { log: { version: '1.2', creator: { name: 'browser' }, entries: [{ request: {} }] } };
    const run = await runCli(['check', file('session.har', har)]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('a HAR capture (log.entries), which check does not read');
  });

  it('reports a cut-off JSONL line as a frame-not-json finding at its line, not an input error', async () => {
    const path = file(
      'cut.jsonl',
      '{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n{"jsonrpc":"2.0","id":1,\n',
    );
    const run = await runCli(['check', path, '--format', 'json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).findings).toMatchObject([
      { rule: 'frame-not-json', location: { line: 2 } },
    ]);
  });

  it.each([
    [['check', 'does-not-exist.json'], /^mcp-shape: no such file: does-not-exist.json\n$/],
    [['check', 'x.json', '--protocol', '1999-01-01'], /--protocol/],
    [['check', 'x.json', '--format', 'yaml'], /--format/],
    [['nonsense'], /unknown command/],
  ])('usage error %j exits 2 with one message', async (args, message) => {
    const run = await runCli(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/\bat .*\.(js|ts):\d+/);
  });

  it('reports the lines whose bytes are not UTF-8 (a Latin-1 é) by frame-not-utf8, in a document and a session', async () => {
    const latin1 = (text: string) => {
      const path = join(dir, `latin1-${text.length}.${text.includes('\n{') ? 'jsonl' : 'json'}`);
      writeFileSync(path, Buffer.from(text, 'latin1'));
      return path;
    };
    const document = latin1('{"content":[{"type":"text","text":"Café"}]}');
    const one = await runCli(['check', document, '--format', 'json']);
    expect(one.code).toBe(1);
    expect(JSON.parse(one.stdout).findings.map((f: JsonObject) => [f.rule, f.message, f.location])).toEqual([
      [
        'frame-not-utf8',
        'the input line is not valid UTF-8: byte 38 (0xE9) begins no valid UTF-8 sequence',
        { file: document, line: 1, protocolVersion: '2025-11-25' },
      ],
    ]);
    const ok = '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"ok"}]}}';
    const bad = '{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"Café ÿ"}]}}';
    const session = latin1(`${ok}\n${bad}\n${ok}\n${bad}\n`);
    const run = await runCli(['check', session, '--format', 'json']);
    expect(run.code).toBe(1);
    const findings = JSON.parse(run.stdout).findings as JsonObject[];
    // One finding a line, at the line's first bad byte; the text around it is judged as decoded.
    expect(
      findings.map((f) => [f.rule, (f.location as JsonObject).line, (f.data as JsonObject).offset]),
    ).toEqual([
      ['frame-not-utf8', 2, '71'],
      ['frame-not-utf8', 4, '71'],
    ]);
    // The same bytes as UTF-8 pass.
    const clean = join(dir, 'utf8.json');
    writeFileSync(clean, '{"content":[{"type":"text","text":"Café"}]}');
    expect((await runCli(['check', clean])).code).toBe(0);
  });

  it('asks for --tool only where a listed tool has an outputSchema, and names at most ten tools', () => {
    const tool = (name: string, outputSchema?: object) => [
      name,
      { name, inputSchema: { type: 'object' }, ...(outputSchema ? { outputSchema } : {}) },
    ];
    const plain = new Map(['a', 'b'].map((n) => tool(n)) as [string, JsonObject][]);
    expect(ambiguousTool(plain, 't.json')).toBeUndefined();
    const one = new Map([tool('a', { type: 'object' })] as [string, JsonObject][]);
    expect(ambiguousTool(one, 't.json')).toBeUndefined();
    const many = new Map(
      Array.from({ length: 12 }, (_, i) => tool(`t${i}`, i === 11 ? { type: 'object' } : undefined)) as [
        string,
        JsonObject,
      ][],
    );
    expect(ambiguousTool(many, 't.json')).toBe(
      't.json lists 12 tools, 1 with an outputSchema: name the one this result is from with --tool NAME (t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, …)',
    );
  });

  it('needs --tools for --tool, and names the tools it has', async () => {
    const result = file('r.json', { content: [] });
    const tools = file('tools.json', { tools: [{ name: 'a', inputSchema: { type: 'object' } }] });
    expect((await runCli(['check', result, '--tool', 'a'])).stderr).toMatch(/--tool needs --tools/);
    const missing = await runCli(['check', result, '--tools', tools, '--tool', 'b']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/tool "b" is not in .*it has: a/);
  });

  it('checks a JSONL session: version from initialize, tools from tools/list, findings located by line', async () => {
    const lines = [
      { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18' } },
      {
        jsonrpc: '2.0',
        id: 0,
        result: { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 's', version: '1' } },
      },
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      {
        jsonrpc: '2.0',
        id: 1,
        result: { tools: [{ name: 'list', inputSchema: { type: 'object' } }, COUNTER] },
      },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list', arguments: {} } },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'count', arguments: {} } },
      // Answered out of order: pairing is by id, so line 7 is the count call and line 8 the list call.
      {
        jsonrpc: '2.0',
        id: 3,
        result: { content: [{ type: 'text', text: '{"n":"two"}' }], structuredContent: { n: 'two' } },
      },
      { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: '[1]' }], structuredContent: [1] } },
    ];
    const path = file('session.jsonl', `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const run = await runCli(['check', path, '--format', 'json']);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report.summary).toMatchObject({ checked: 8, kind: 'session', protocolVersions: ['2025-06-18'] });
    const finding = report.findings.find((f: { rule: string }) => f.rule === 'structured-content-not-object');
    expect(finding.location).toMatchObject({
      line: 8,
      protocolVersion: '2025-06-18',
      tool: 'list',
      call: '2',
    });
    expect(finding.pointer).toBe('/result/structuredContent');
    // The outputSchema comes from the recorded tools/list.
    const mismatch = report.findings.find(
      (f: { rule: string }) => f.rule === 'structured-content-schema-mismatch',
    );
    expect(mismatch).toMatchObject({
      pointer: '/result/structuredContent/n',
      location: { line: 7, tool: 'count' },
    });
  });

  it("takes a session's version from server/discover, and only interprets a response by its request", async () => {
    const lines = [
      { jsonrpc: '2.0', id: 'd', method: 'server/discover', params: {} },
      {
        jsonrpc: '2.0',
        id: 'd',
        result: {
          supportedVersions: ['2025-11-25', '2026-07-28'],
          capabilities: {},
          resultType: 'complete',
          ttlMs: 0,
          cacheScope: 'public',
        },
      },
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', arguments: {} } },
      { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'ok' }] } },
      // Shaped like a broken tool result, but it answers prompts/get: not a tools/call result.
      { jsonrpc: '2.0', id: 2, method: 'prompts/get', params: { name: 'p' } },
      { jsonrpc: '2.0', id: 2, result: { resultType: 'complete', content: 'not an array', messages: [] } },
    ];
    const path = file('discover.jsonl', lines.map((l) => JSON.stringify(l)).join('\n'));
    const run = await runCli(['check', path, '--protocol', '2025-06-18', '--format', 'json']);
    const report = JSON.parse(run.stdout);
    expect(report.summary.protocolVersions).toEqual(['2025-06-18', '2026-07-28']);
    const rules = report.findings.map((f: { rule: string; location: { line: number } }) => [
      f.rule,
      f.location.line,
    ]);
    expect(rules).toEqual([['result-type-invalid', 4]]);
    expect(run.code).toBe(1);
  });

  it('checks a bare tools/list result', async () => {
    const path = file('tools-list.json', { tools: [{ name: 'a', inputSchema: { type: 'string' } }] });
    const run = await runCli(['check', path, '--protocol', '2025-06-18', '--format', 'json']);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report.summary.kind).toBe('tools/list result');
    expect(report.findings.map((f: { rule: string; pointer: string }) => [f.rule, f.pointer])).toEqual([
      ['tool-input-schema-invalid', '/tools/0/inputSchema/type'],
    ]);
  });

  it('checks structuredContent against the outputSchema named by --tools and --tool', async () => {
    const tools = file('tools-two.json', {
      jsonrpc: '2.0',
      id: 1,
      result: { tools: [COUNTER, { name: 'other', inputSchema: { type: 'object' } }] },
    });
    const result = { content: [{ type: 'text', text: '{"n":"two"}' }], structuredContent: { n: 'two' } };
    const bare = file('counted.json', result);
    const response = file('counted-response.json', { jsonrpc: '2.0', id: 9, result });
    const cases: [string, string][] = [
      [bare, '/structuredContent/n'],
      [response, '/result/structuredContent/n'],
    ];
    for (const [path, pointer] of cases) {
      const run = await runCli([
        'check',
        path,
        '--protocol',
        '2025-06-18',
        '--tools',
        tools,
        '--tool',
        'count',
        '--format',
        'json',
      ]);
      expect(run.code).toBe(1);
      const finding = JSON.parse(run.stdout).findings[0];
      expect(finding).toMatchObject({
        rule: 'structured-content-schema-mismatch',
        pointer,
        location: { tool: 'count' },
      });
    }
    // Without --tool the result cannot be matched to one of two tools, one with an outputSchema: a pass
    // would skip that schema, so it is a usage error, for check and for repair alike.
    for (const command of ['check', 'repair']) {
      const unnamed = await runCli([command, bare, '--protocol', '2025-06-18', '--tools', tools]);
      expect(unnamed.code).toBe(2);
      expect(unnamed.stdout).toBe('');
      expect(unnamed.stderr).toMatch(
        /^mcp-shape: .*tools-two\.json lists 2 tools, 1 with an outputSchema: name the one this result is from with --tool NAME \(count, other\)/,
      );
    }
    // With no outputSchema among them there is nothing to choose between.
    const plain = file('tools-plain.json', {
      tools: [
        { name: 'a', inputSchema: { type: 'object' } },
        { name: 'b', inputSchema: { type: 'object' } },
      ],
    });
    expect((await runCli(['check', bare, '--protocol', '2025-06-18', '--tools', plain])).code).toBe(0);
  });

  it('takes a tool --tools lists twice as the definition whose outputSchema the SDK clients check', async () => {
    // count with an outputSchema, then without: the SDK clients keep the outputSchema and reject a
    // result without structuredContent (test/audit/client-parity.test.ts holds the audit to them).
    const tools = file('tools-twice.json', {
      tools: [COUNTER, { name: 'count', inputSchema: { type: 'object' } }],
    });
    const bare = file('no-structured.json', { content: [{ type: 'text', text: 'hi' }] });
    for (const named of [['--tool', 'count'], []]) {
      const run = await runCli(['check', bare, '--protocol', '2025-06-18', '--tools', tools, ...named]);
      expect(run.stdout).toContain('structured-content-missing-for-output-schema');
      expect(run.code).toBe(1);
    }
  });

  it('judges a file as it was parsed: 1e400 is the Infinity a client parses, not the null of a handler', async () => {
    const tools = file('tools-counter.json', [COUNTER]);
    // Written by hand: JSON.stringify would write Infinity as null.
    const text = '{"content":[{"type":"text","text":"{\\"n\\":1e400}"}],"structuredContent":{"n":1e400}}';
    const path = file('huge-number.json', text);
    const run = await runCli([
      'check',
      path,
      '--protocol',
      '2025-11-25',
      '--tools',
      tools,
      '--tool',
      'count',
    ]);
    expect(run.stdout).not.toContain('structured-content-schema-mismatch');
    expect(run.stdout).not.toContain('structured-content-text-mismatch');
    expect(run.code).toBe(0);
  });

  it('judges a result that carries resultType as 2026-07-28, and one without it as 2025-11-25', async () => {
    const path = file('result-type.json', {
      content: [{ type: 'text', text: '[1]' }],
      structuredContent: [1],
      resultType: 'complete',
    });
    // Array structuredContent is allowed only in 2026-07-28, which the resultType member speaks for.
    const run = await runCli(['check', path, '--format', 'json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).summary.protocolVersions).toEqual(['2026-07-28']);
    const without = file('no-result-type.json', {
      content: [{ type: 'text', text: '[1]' }],
      structuredContent: [1],
    });
    const old = await runCli(['check', without, '--format', 'json']);
    expect(old.code).toBe(1);
    expect(JSON.parse(old.stdout).findings).toMatchObject([
      { rule: 'structured-content-not-object', location: { protocolVersion: '2025-11-25' } },
    ]);
  });
});
