import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/core/finding.js';
import { renderRuleDoc, renderRuleDocText } from '../../src/docs/rule-doc.js';
import { buildReport } from '../../src/report/build.js';
import { buildSarif, renderSarif } from '../../src/report/sarif.js';
import { RULES } from '../../src/rules/catalog.js';
import { scanPaths } from '../../src/scan/index.js';
import { validateToolResult } from '../../src/validate/index.js';
import { REPO_ROOT } from '../support/cli.js';
import { HAS_SARIF_SCHEMA, sarifValidator } from '../support/sarif-schema.js';

let scanned: ReturnType<typeof scanPaths> | undefined;

/** The scan of fixtures/scan, made once per file: a scan of every fixture takes seconds. */
async function scanReport() {
  scanned ??= scanPaths([join(REPO_ROOT, 'fixtures/scan')], { cwd: REPO_ROOT });
  return (await scanned).report;
}

function unscannedReport() {
  return buildReport('scan', [], 1, {
    details: {
      unscanned: [
        { file: 'src/broken.ts', reason: 'syntax error: Unexpected token', line: 2, column: 25 },
        { file: 'src/blob.js', reason: 'not scanned: binary file' },
      ],
    },
  });
}

async function checkReport() {
  const result = { content: [{ type: 'image', data: 'aGk=' }], structuredContent: [1] };
  const findings = await validateToolResult(result, { protocolVersion: '2025-06-18' });
  return buildReport(
    'check',
    findings.map((f) => ({ ...f, location: { file: 'saved/result.json', protocolVersion: '2025-06-18' } })),
    1,
  );
}

describe.skipIf(!HAS_SARIF_SCHEMA)(
  'SARIF is valid against the official 2.1.0 schema (skipped: ../shared is absent)',
  () => {
    it('for a scan report (physical locations)', async () => {
      const validate = sarifValidator();
      const log = JSON.parse(renderSarif(await scanReport(), { cwd: REPO_ROOT }));
      expect(validate(log), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    });

    it('for a scan that left files out (tool execution notifications)', async () => {
      const validate = sarifValidator();
      const log = buildSarif(unscannedReport(), { cwd: REPO_ROOT });
      expect(validate(log), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    });

    it('for a check report (logical locations) and an empty report', async () => {
      const validate = sarifValidator();
      for (const report of [await checkReport(), buildReport('audit', [], 0)]) {
        const log = buildSarif(report, { cwd: REPO_ROOT });
        expect(validate(log), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
      }
    });
  },
);

/** Every value of a `uri`, `helpUri` or `informationUri` property in a SARIF log. */
function uriValues(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(uriValues);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, v]) =>
    /^(uri|helpUri|informationUri)$/.test(key) && typeof v === 'string' ? [v] : uriValues(v),
  );
}

describe('SARIF content', () => {
  it('describes every catalog rule from the catalog', async () => {
    const log = buildSarif(await checkReport(), {
      cwd: REPO_ROOT,
      docsBaseUrl: 'https://example.org/mcp-shape/docs/rules/',
    });
    const driver = log.runs[0]?.tool.driver;
    expect(driver?.name).toBe('mcp-shape');
    expect(driver?.rules?.map((r) => r.id)).toEqual(RULES.map((r) => r.id));
    const mime = driver?.rules?.find((r) => r.id === 'block-mime-type-missing');
    const rule = RULES.find((r) => r.id === 'block-mime-type-missing');
    expect(mime).toMatchObject({
      shortDescription: { text: rule?.title },
      fullDescription: { text: rule?.rationale },
      helpUri: 'https://example.org/mcp-shape/docs/rules/block-mime-type-missing.md',
      defaultConfiguration: { level: 'error' },
      properties: { tags: ['mcp', 'block', 'correctness'] },
    });
    // help carries the whole rule doc, in plain text and in Markdown.
    for (const section of ['Why', 'Clients affected', 'How to fix', 'Wrong:', 'Right:']) {
      expect(mime?.help?.text).toContain(`\n${section}`);
    }
    expect(mime?.help?.text).toContain(rule?.rationale);
    expect(mime?.help?.text).toContain(rule?.fix);
    expect(mime?.help?.markdown).toContain('## Examples');
    expect(mime?.help?.markdown).toContain('## How to fix');
    expect(mime?.help?.markdown).toContain('## Clients affected');
    // security-severity only where the defect is a security problem.
    const secured = driver?.rules?.filter((r) => r.properties?.['security-severity'] !== undefined);
    expect(secured?.map((r) => r.id)).toEqual(RULES.filter((r) => r.security).map((r) => r.id));
    expect(secured?.length).toBeGreaterThan(0);
    for (const r of secured ?? []) expect(r.properties?.tags).toContain('security');
  });

  it('links nothing without a homepage: no helpUri, no informationUri, and no file: URI anywhere', async () => {
    const log = buildSarif(await scanReport(), { cwd: REPO_ROOT });
    expect(log.runs[0]?.tool.driver.rules?.some((r) => r.helpUri !== undefined)).toBe(false);
    expect(log.runs[0]?.tool.driver.informationUri).toBeUndefined();
    // (Rule examples quote MCP resource URIs such as file:///a.txt in help text; those are data.)
    expect(uriValues(log).filter((u) => u.startsWith('file:'))).toEqual([]);
    expect(uriValues(log).length).toBeGreaterThan(0);
  });

  it('gives check findings a logical location by JSON Pointer and the file without a region', async () => {
    const log = buildSarif(await checkReport(), { cwd: REPO_ROOT });
    const result = log.runs[0]?.results?.find((r) => r.ruleId === 'block-mime-type-missing');
    expect(result?.level).toBe('error');
    expect(result?.locations?.[0]).toEqual({
      logicalLocations: [{ fullyQualifiedName: '/content/0/mimeType', kind: 'element' }],
      physicalLocation: { artifactLocation: { uri: 'saved/result.json', uriBaseId: '%SRCROOT%' } },
    });
    const rules = log.runs[0]?.tool.driver.rules ?? [];
    expect(rules[result?.ruleIndex ?? -1]?.id).toBe('block-mime-type-missing');
  });

  it('reports files a scan left out as error notifications, with the syntax error position', () => {
    const invocation = buildSarif(unscannedReport(), { cwd: REPO_ROOT }).runs[0]?.invocations?.[0];
    expect(invocation?.toolExecutionNotifications).toEqual([
      {
        level: 'error',
        message: { text: 'src/broken.ts: syntax error: Unexpected token' },
        locations: [
          {
            physicalLocation: {
              artifactLocation: { uri: 'src/broken.ts', uriBaseId: '%SRCROOT%' },
              region: { startLine: 2, startColumn: 25 },
            },
          },
        ],
      },
      {
        level: 'error',
        message: { text: 'src/blob.js: not scanned: binary file' },
        locations: [
          { physicalLocation: { artifactLocation: { uri: 'src/blob.js', uriBaseId: '%SRCROOT%' } } },
        ],
      },
    ]);
  });

  it('gives scan findings a region, levels by severity, and forward-slash relative URIs', async () => {
    const log = buildSarif(await scanReport(), { cwd: REPO_ROOT });
    const results = log.runs[0]?.results ?? [];
    const gateway = results.find(
      (r) =>
        r.ruleId === 'envelope-extra-member' &&
        r.locations?.[0]?.physicalLocation?.artifactLocation?.uri === 'fixtures/scan/python/gateway.py',
    );
    // The region is the offending expression, its text the snippet; the context region carries the
    // lines around it, so code scanning shows the code without the checkout.
    const offending = '        payload["requestId"] = body["id"]  # expect: envelope-extra-member';
    expect(gateway?.locations?.[0]?.physicalLocation).toMatchObject({
      artifactLocation: { uri: 'fixtures/scan/python/gateway.py', uriBaseId: '%SRCROOT%' },
      region: { startLine: 29, startColumn: 9, snippet: { text: 'payload["requestId"]' } },
      contextRegion: { startLine: 27, endLine: 31 },
    });
    expect(gateway?.locations?.[0]?.physicalLocation?.contextRegion?.snippet?.text).toContain(offending);
    // The return the defect reaches is a related location (for a gateway: where the envelope
    // answering tools/call leaves for the client, its `return payload`).
    expect(gateway?.relatedLocations?.[0]).toMatchObject({
      physicalLocation: {
        artifactLocation: { uri: 'fixtures/scan/python/gateway.py' },
        region: { startLine: 30 },
      },
      message: { text: 'the return of tool "mcp_endpoint" this value reaches' },
    });
    // The message names it with an embedded link to that related location.
    expect(gateway?.message.text).toContain(
      'reaches the return of tool "mcp_endpoint" at [fixtures/scan/python/gateway.py:30](0)',
    );
    // Info (a gateway's transport-level error) is a note.
    expect(new Set(results.map((r) => r.level))).toEqual(new Set(['error', 'warning', 'note']));
    // The base is the repository root, named but not given as a path of this machine.
    expect(log.runs[0]?.originalUriBaseIds?.['%SRCROOT%']?.uri).toBeUndefined();
    for (const result of results) {
      expect(result.partialFingerprints?.['mcpShape/v1']).toMatch(/^[0-9a-f]{32}:\d+$/);
    }
  });
});

describe('SARIF artifact URIs in every form of path', () => {
  // A repository at /repo, the command run in /repo/pkg: URIs are relative to the repository root.
  const paths = { root: '/repo', cwd: '/repo/pkg' };
  const uriOf = (file: string, options: { root?: string; cwd: string } = paths) => {
    const finding = {
      rule: 'block-mime-type-missing',
      severity: 'error' as const,
      message: 'image block has no mimeType',
      pointer: '/content/0',
      location: { file },
    };
    const log = buildSarif(buildReport('check', [finding], 1), options);
    return log.runs[0]?.results?.[0]?.locations?.[0]?.physicalLocation?.artifactLocation;
  };

  it('relative to the working directory, with spaces, non-ASCII, # and ? percent-encoded', () => {
    expect(uriOf('saved/result.json')).toEqual({ uri: 'pkg/saved/result.json', uriBaseId: '%SRCROOT%' });
    expect(uriOf('my results/a b.json')?.uri).toBe('pkg/my%20results/a%20b.json');
    expect(uriOf('données/é.json')?.uri).toBe('pkg/donn%C3%A9es/%C3%A9.json');
    expect(uriOf('runs/#1?.json')?.uri).toBe('pkg/runs/%231%3F.json');
    expect(uriOf('./a/../b.json')?.uri).toBe('pkg/b.json');
  });

  it('absolute, inside the root and outside it (a relative reference up, never a file: URI)', () => {
    expect(uriOf('/repo/a b/r.json')?.uri).toBe('a%20b/r.json');
    expect(uriOf('../other/r.json')?.uri).toBe('other/r.json');
    expect(uriOf('/elsewhere/x.json')?.uri).toBe('../elsewhere/x.json');
    expect(uriOf('/tmp/ü/x.json')?.uri).toBe('../tmp/%C3%BC/x.json');
  });

  it('a root given relative to the working directory', () => {
    expect(uriOf('r.json', { root: '..', cwd: '/repo/pkg' })?.uri).toBe('pkg/r.json');
  });

  it('no artifact for standard input and other labels that name no file', () => {
    for (const label of ['<stdin>', '-', '']) expect(uriOf(label)).toBeUndefined();
    expect(uriOf('<stdin>.json')?.uri).toBe('pkg/%3Cstdin%3E.json');
  });

  it('by default relative to the git top level of the first file named, else the working directory', () => {
    // A repository of its own: a mutation run's copy of this checkout has no .git.
    const repo = mkdtempSync(join(tmpdir(), 'mcp-shape-sarif-'));
    mkdirSync(join(repo, '.git'));
    mkdirSync(join(repo, 'test'));
    const inRepo = buildSarif(buildReport('check', [], 1), { cwd: join(repo, 'test') });
    expect(inRepo.runs[0]?.results).toEqual([]);
    const finding = {
      rule: 'block-mime-type-missing',
      severity: 'error' as const,
      message: 'm',
      pointer: '',
      location: { file: 'x.json' },
    };
    const log = buildSarif(buildReport('check', [finding], 1), { cwd: join(repo, 'test') });
    expect(log.runs[0]?.results?.[0]?.locations?.[0]?.physicalLocation?.artifactLocation?.uri).toBe(
      'test/x.json',
    );
    const outside = buildSarif(buildReport('check', [finding], 1), { cwd: '/' });
    expect(outside.runs[0]?.results?.[0]?.locations?.[0]?.physicalLocation?.artifactLocation?.uri).toBe(
      'x.json',
    );
  });
});

describe('SARIF results, built from findings alone', () => {
  const paths = { root: '/repo', cwd: '/repo' };
  const base = {
    rule: 'block-mime-type-missing',
    severity: 'error' as const,
    message: 'image block has no mimeType',
    pointer: '/content/0',
  };
  const run = (
    findings: Finding[],
    options: Parameters<typeof buildSarif>[1] = paths,
    command: 'check' | 'scan' = 'check',
  ) => buildSarif(buildReport(command, findings, 1), options).runs[0];
  const only = (finding: Finding) => run([finding])?.results?.[0];

  it('names each rule in PascalCase, and carries the generated doc without its generated comment', () => {
    const rules = run([])?.tool.driver.rules ?? [];
    const rule = rules.find((r) => r.id === 'block-mime-type-missing');
    expect(rule?.name).toBe('BlockMimeTypeMissing');
    expect(rules.find((r) => r.id === 'tool-schema-remote-ref')?.name).toBe('ToolSchemaRemoteRef');
    const catalog = RULES.find((r) => r.id === 'block-mime-type-missing');
    expect(rule?.help?.markdown).toBe(
      renderRuleDoc(catalog as (typeof RULES)[number]).replace(/^<!--.*?-->\n/, ''),
    );
    expect(rule?.help?.markdown).not.toContain('<!--');
    expect(rule?.help?.text).toBe(renderRuleDocText(catalog as (typeof RULES)[number]));
    expect(rule?.properties).toEqual({
      subject: 'block',
      versions: [...(catalog?.versions ?? [])],
      tags: ['mcp', 'block', 'correctness'],
    });
    // The one security rule: its score with one decimal, and the security tag.
    const security = RULES.find((r) => r.security);
    const described = rules.find((r) => r.id === security?.id);
    expect(described?.properties?.['security-severity']).toBe(security?.security?.severity.toFixed(1));
    expect(described?.properties?.tags).toEqual(['mcp', security?.subject, 'security']);
    expect(described?.properties?.['security-severity']).toMatch(/^\d+\.\d$/);
    // Levels per severity.
    const levels = new Map(rules.map((r) => [r.id, r.defaultConfiguration?.level]));
    for (const r of RULES)
      expect(levels.get(r.id)).toBe({ error: 'error', warning: 'warning', info: 'note' }[r.severity]);
  });

  it('describes only the rules asked for, and adds a bare descriptor for a finding outside them', () => {
    const catalog = RULES.filter((r) => r.id === 'envelope-extra-member');
    const log = run([{ ...base, rule: 'not-a-rule' }, base], { ...paths, rules: catalog });
    expect(log?.tool.driver.rules?.map((r) => r.id)).toEqual([
      'envelope-extra-member',
      'not-a-rule',
      'block-mime-type-missing',
    ]);
    expect(log?.tool.driver.rules?.[1]).toEqual({
      id: 'not-a-rule',
      shortDescription: { text: 'not-a-rule' },
    });
    expect(log?.results?.map((r) => [r.ruleId, r.ruleIndex])).toEqual([
      ['not-a-rule', 1],
      ['block-mime-type-missing', 2],
    ]);
  });

  it('gives a result its level, message with the fix, pointer and the facts of its location', () => {
    const result = only({
      ...base,
      severity: 'warning',
      fix: { description: 'Add "mimeType" [png]', automatic: true },
      location: { file: 'a.json', tool: 'weather', protocolVersion: '2025-06-18', call: 'weather#2' },
    });
    expect(result).toMatchObject({
      level: 'warning',
      // Brackets are escaped whether or not the message has links of its own (SARIF §3.11.6).
      message: { text: 'image block has no mimeType. Fix: Add "mimeType" \\[png\\]' },
      properties: {
        pointer: '/content/0',
        tool: 'weather',
        protocolVersion: '2025-06-18',
        call: 'weather#2',
      },
    });
    expect(result?.locations?.[0]?.logicalLocations).toEqual([
      { fullyQualifiedName: 'weather /content/0', kind: 'element' },
    ]);
    expect(only({ ...base, severity: 'info', pointer: '' })?.locations?.[0]?.logicalLocations).toEqual([
      { fullyQualifiedName: '(root)', kind: 'element' },
    ]);
    const bare = only(base);
    expect(bare?.properties).toEqual({ pointer: '/content/0' });
    expect(bare?.level).toBe('error');
    expect(bare?.locations?.[0]?.physicalLocation).toBeUndefined();
    expect(bare?.relatedLocations).toBeUndefined();
  });

  it('one result for a folded finding, with every place it was seen and how many', () => {
    const result = only({
      ...base,
      location: { file: 'a.json' },
      occurrences: [
        { pointer: '/content/0', location: { file: 'a.json' } },
        { pointer: '/content/3', location: { file: 'b.json' } },
      ],
    });
    expect(result?.properties?.occurrences).toBe(2);
    expect(
      result?.locations?.map((l) => [
        l.logicalLocations?.[0]?.fullyQualifiedName,
        l.physicalLocation?.artifactLocation?.uri,
      ]),
    ).toEqual([
      ['/content/0', 'a.json'],
      ['/content/3', 'b.json'],
    ]);
  });

  it('keeps within the hard limits of GitHub code scanning: 1,000 locations a result, 25,000 results a run, and says what it left out', () => {
    const occurrences = Array.from({ length: 1_200 }, (_, i) => ({
      pointer: `/content/${i}`,
      location: { file: 'a.json' },
    }));
    const folded = only({ ...base, location: { file: 'a.json' }, occurrences });
    expect(folded?.locations).toHaveLength(1_000);
    expect(folded?.message.text).toBe(
      'image block has no mimeType (and 200 more places, left out of this file)',
    );
    expect(folded?.properties?.occurrences).toBe(1_200);

    // 25,010 findings, the last ten of them errors: the errors stay, ten warnings go, and a notification says so.
    const findings: Finding[] = Array.from({ length: 25_010 }, (_, i) => ({
      ...base,
      severity: i >= 25_000 ? 'error' : 'warning',
      pointer: `/content/${i}`,
    }));
    const log = run(findings);
    const results = log?.results ?? [];
    expect(results).toHaveLength(25_000);
    expect(results.filter((r) => r.level === 'error')).toHaveLength(10);
    expect(results[0]?.properties?.pointer).toBe('/content/0');
    expect(results.at(-1)?.properties?.pointer).toBe('/content/25009');
    expect(log?.invocations?.[0]?.toolExecutionNotifications).toEqual([
      {
        level: 'warning',
        message: {
          text: '10 more results left out of this file: GitHub code scanning rejects a run of more than 25,000; the JSON report has them all',
        },
      },
    ]);
  });

  it('gives a region from the line, with column and end only when known', () => {
    const region = (location: Finding['location']) =>
      only({ ...base, location })?.locations?.[0]?.physicalLocation?.region;
    expect(region({ file: 'a.ts', line: 3 })).toEqual({ startLine: 3 });
    expect(region({ file: 'a.ts', line: 3, column: 4, endLine: 5, endColumn: 9 })).toEqual({
      startLine: 3,
      startColumn: 4,
      endLine: 5,
      endColumn: 9,
    });
    expect(region({ file: 'a.ts', column: 4 })).toBeUndefined();
  });

  it('quotes the region as its snippet and the lines around as context, unless they are cut from long lines', () => {
    const physical = (snippet: NonNullable<Finding['location']>['snippet'], line = 11) =>
      only({ ...base, location: { file: 'a.ts', line, column: 2, snippet } })?.locations?.[0]
        ?.physicalLocation;
    expect(physical({ startLine: 10, lines: ['before', 'offending', 'after'] })).toEqual({
      artifactLocation: { uri: 'a.ts', uriBaseId: '%SRCROOT%' },
      // From column 2 to the end of the line (no end column).
      region: { startLine: 11, startColumn: 2, snippet: { text: 'ffending' } },
      contextRegion: { startLine: 10, endLine: 12, snippet: { text: 'before\noffending\nafter' } },
    });
    // A region the lines do not hold gets no snippet, and they are no context of it (SARIF §3.29.5: a
    // context region is a proper superset of the region).
    expect(physical({ startLine: 10, lines: ['before'] })).toEqual({
      artifactLocation: { uri: 'a.ts', uriBaseId: '%SRCROOT%' },
      region: { startLine: 11, startColumn: 2 },
    });
    // A region over three lines, from a column to an end column.
    const spanning = only({
      ...base,
      location: {
        file: 'a.ts',
        line: 3,
        column: 43,
        endLine: 5,
        endColumn: 3,
        snippet: { startLine: 1, lines: ['a', 'b', `${'x'.repeat(42)}f({ content: [{`, '  y,', '}));'] },
      },
    })?.locations?.[0]?.physicalLocation;
    expect(spanning?.region?.snippet?.text).toBe('f({ content: [{\n  y,\n})');
    expect(spanning?.contextRegion).toMatchObject({ startLine: 1, endLine: 5 });
    // The helper's case: a region past the end of the lines carried has no context region.
    const past = only({
      ...base,
      location: {
        file: 'a.ts',
        line: 3,
        column: 1,
        endLine: 6,
        endColumn: 2,
        snippet: { startLine: 1, lines: ['a', 'b', 'c', 'd', 'e'] },
      },
    })?.locations?.[0]?.physicalLocation;
    expect(past?.contextRegion).toBeUndefined();
    expect(past?.region?.snippet).toBeUndefined();
    expect(physical({ startLine: 10, lines: ['a', 'b'], firstColumn: 200 })).toEqual({
      artifactLocation: { uri: 'a.ts', uriBaseId: '%SRCROOT%' },
      region: { startLine: 11, startColumn: 2 },
    });
  });

  it('names the returns a finding reaches as related locations, linked from its message, brackets escaped', () => {
    const reaches = [
      { tool: 'get[x]', file: 'src/a b.ts', line: 31, column: 3 },
      { tool: 'list', file: '<stdin>', line: 2, column: 1 },
      { tool: 'other', file: 'src/c.ts', line: 7, column: 5 },
      { tool: 'last', file: 'src/d.ts', line: 9, column: 1 },
    ];
    const result = only({
      ...base,
      message: 'a [bad] block',
      fix: { description: 'use [this]', automatic: false },
      location: { file: 'src/h.ts', line: 2, reaches },
    });
    expect(result?.message.text).toBe(
      'a \\[bad\\] block; reaches the returns of tools "get\\[x\\]" at [src/a%20b.ts:31](0), "other" at [src/c.ts:7](1) and "last" at [src/d.ts:9](2). Fix: use \\[this\\]',
    );
    expect(result?.relatedLocations).toEqual([
      {
        id: 0,
        physicalLocation: {
          artifactLocation: { uri: 'src/a%20b.ts', uriBaseId: '%SRCROOT%' },
          region: { startLine: 31, startColumn: 3 },
        },
        message: { text: 'the return of tool "get\\[x\\]" this value reaches' },
      },
      {
        id: 1,
        physicalLocation: {
          artifactLocation: { uri: 'src/c.ts', uriBaseId: '%SRCROOT%' },
          region: { startLine: 31 - 24, startColumn: 5 },
        },
        message: { text: 'the return of tool "other" this value reaches' },
      },
      {
        id: 2,
        physicalLocation: {
          artifactLocation: { uri: 'src/d.ts', uriBaseId: '%SRCROOT%' },
          region: { startLine: 9, startColumn: 1 },
        },
        message: { text: 'the return of tool "last" this value reaches' },
      },
    ]);
    const one = only({
      ...base,
      location: { file: 'src/h.ts', line: 2, reaches: [reaches[2] as (typeof reaches)[number]] },
    });
    expect(one?.message.text).toBe(
      'image block has no mimeType; reaches the return of tool "other" at [src/c.ts:7](0)',
    );
    // Returns that name no file are no link (the message's own brackets are escaped all the same).
    const none = only({
      ...base,
      message: 'a [b]',
      location: { file: 'src/h.ts', line: 2, reaches: [reaches[1] as (typeof reaches)[number]] },
    });
    expect(none?.message.text).toBe('a \\[b\\]');
    expect(none?.relatedLocations).toBeUndefined();
  });

  it('carries the command, the summary and a version matrix in the invocation', () => {
    const report = buildReport('check', [], 1, {
      summary: { versionVerdict: 'valid for 2025-06-18' },
      details: { versionMatrix: { all: true, versions: [] } },
    });
    const invocation = buildSarif(report, paths).runs[0]?.invocations?.[0];
    expect(invocation).toEqual({
      executionSuccessful: true,
      properties: {
        command: 'check',
        summary: { errors: 0, warnings: 0, infos: 0, checked: 1, versionVerdict: 'valid for 2025-06-18' },
        versionMatrix: { all: true, versions: [] },
      },
    });
    const log = buildSarif(buildReport('scan', [], 0, { details: { unscanned: [] } }), paths);
    expect(log.runs[0]?.invocations?.[0]).toEqual({
      executionSuccessful: true,
      properties: { command: 'scan', summary: { errors: 0, warnings: 0, infos: 0, checked: 0 } },
    });
    expect(log).toMatchObject({ version: '2.1.0', $schema: 'https://json.schemastore.org/sarif-2.1.0.json' });
    expect(log.runs[0]?.columnKind).toBe('utf16CodeUnits');
    expect(log.runs[0]?.tool.driver.version).toBe(
      JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).version,
    );
  });

  it('a notification for a file that names none has no location', () => {
    const report = buildReport('scan', [], 1, {
      details: { unscanned: [{ file: '<stdin>', reason: 'binary' }] },
    });
    expect(buildSarif(report, paths).runs[0]?.invocations?.[0]?.toolExecutionNotifications).toEqual([
      { level: 'error', message: { text: '<stdin>: binary' } },
    ]);
  });

  it('finds the default root from the first file named, in a finding or else in the unscanned list', () => {
    const repo = mkdtempSync(join(tmpdir(), 'mcp-shape-sarif-'));
    mkdirSync(join(repo, '.git'));
    mkdirSync(join(repo, 'sub'));
    const cwd = join(repo, 'sub');
    const finding = { ...base, location: { file: 'x.json' } };
    // The labels that name no file are passed over; the first real file decides.
    const labelled = buildReport('check', [{ ...base, location: { file: '<stdin>' } }, finding], 1);
    expect(
      buildSarif(labelled, { cwd }).runs[0]?.results?.[1]?.locations?.[0]?.physicalLocation?.artifactLocation
        ?.uri,
    ).toBe('sub/x.json');
    const absolute = buildReport('check', [{ ...base, location: { file: join(cwd, 'y.json') } }], 1);
    expect(
      buildSarif(absolute, { cwd: '/' }).runs[0]?.results?.[0]?.locations?.[0]?.physicalLocation
        ?.artifactLocation?.uri,
    ).toBe('sub/y.json');
    const unscanned = buildReport('scan', [], 1, {
      details: { unscanned: [{ file: join(cwd, 'z.ts'), reason: 'binary' }] },
    });
    const notification = buildSarif(unscanned, { cwd: '/' }).runs[0]?.invocations?.[0]
      ?.toolExecutionNotifications?.[0];
    expect(notification?.locations?.[0]?.physicalLocation?.artifactLocation?.uri).toBe('sub/z.ts');
  });

  it('renders as indented JSON with a final newline, escaping what a terminal would run', () => {
    const text = renderSarif(buildReport('check', [{ ...base, message: 'evil \u001b[2J' }], 1), paths);
    expect(text.endsWith('}\n')).toBe(true);
    expect(text).toContain('\n  "version": "2.1.0",');
    expect(text).not.toContain('\u001b');
    expect(JSON.parse(text).runs[0].results[0].message.text).toBe('evil \u001b\\[2J');
  });
});

describe('SARIF: what names a file, and where the default root comes from', () => {
  const base = {
    rule: 'block-mime-type-missing',
    severity: 'error' as const,
    message: 'image block has no mimeType',
    pointer: '/content/0',
  };
  const paths = { root: '/repo', cwd: '/repo' };
  const only = (finding: Finding) =>
    buildSarif(buildReport('check', [finding], 1), paths).runs[0]?.results?.[0];

  it('declares the repository root as the one URI base, described and without a path of this machine', () => {
    expect(buildSarif(buildReport('check', [], 1), paths).runs[0]?.originalUriBaseIds).toEqual({
      '%SRCROOT%': { description: { text: 'The root of the repository the checked files belong to.' } },
    });
  });

  it('takes angle brackets for a label only around the whole name', () => {
    expect(only({ ...base, location: { file: 'a<b>' } })?.locations?.[0]?.physicalLocation).toEqual({
      artifactLocation: { uri: 'a%3Cb%3E', uriBaseId: '%SRCROOT%' },
    });
    expect(only({ ...base, location: { file: '<stdin>', line: 3 } })?.locations?.[0]).toEqual({
      logicalLocations: [{ fullyQualifiedName: '/content/0', kind: 'element' }],
    });
  });

  it('makes no embedded link of link syntax a server put in a message', () => {
    const result = only({ ...base, message: 'tool "[click](https://evil.example)" is \\ odd' });
    expect(result?.message.text).toBe('tool "\\[click\\](https://evil.example)" is \\\\ odd');
  });

  it('makes no related location or link of a return, and no notification location, without a file', () => {
    const result = only({
      ...base,
      message: 'a [b]',
      location: { file: 'h.ts', line: 2, reaches: [{ tool: 't', file: '', line: 4, column: 1 }] },
    });
    expect(result?.message.text).toBe('a \\[b\\]');
    expect(result?.relatedLocations).toBeUndefined();
    const report = buildReport('scan', [], 1, {
      details: { unscanned: [{ file: '', reason: 'unreadable' }] },
    });
    expect(buildSarif(report, paths).runs[0]?.invocations?.[0]?.toolExecutionNotifications).toEqual([
      { level: 'error', message: { text: ': unreadable' } },
    ]);
  });

  it('finds the default root from the first finding that names a file, past those without one', () => {
    const repo = mkdtempSync(join(tmpdir(), 'mcp-shape-sarif-'));
    mkdirSync(join(repo, '.git'));
    mkdirSync(join(repo, 'sub'));
    const file = join(repo, 'sub', 'y.json');
    const report = buildReport(
      'check',
      [base, { ...base, location: { file: '<stdin>' } }, { ...base, location: { file } }],
      1,
    );
    const results = buildSarif(report, { cwd: '/' }).runs[0]?.results;
    expect(results?.[2]?.locations?.[0]?.physicalLocation?.artifactLocation?.uri).toBe('sub/y.json');
  });

  it('falls back to the working directory for a scan that found nothing and left nothing out', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'mcp-shape-sarif-'));
    const empty = buildReport('scan', [], 0, { details: { unscanned: [] } });
    expect(buildSarif(empty, { cwd }).runs[0]?.results).toEqual([]);
    const unscanned = buildReport('scan', [], 1, {
      details: { unscanned: [{ file: 'a.ts', reason: 'binary' }] },
    });
    expect(
      buildSarif(unscanned, { cwd }).runs[0]?.invocations?.[0]?.toolExecutionNotifications?.[0]
        ?.locations?.[0]?.physicalLocation?.artifactLocation,
    ).toEqual({ uri: 'a.ts', uriBaseId: '%SRCROOT%' });
  });
});
