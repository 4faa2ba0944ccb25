import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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
    // The region is the offending expression with its line as the snippet; the context region
    // carries the lines around it, so code scanning shows the code without the checkout.
    const offending = '        payload["requestId"] = body["id"]  # expect: envelope-extra-member';
    expect(gateway?.locations?.[0]?.physicalLocation).toMatchObject({
      artifactLocation: { uri: 'fixtures/scan/python/gateway.py', uriBaseId: '%SRCROOT%' },
      region: { startLine: 29, startColumn: 9, snippet: { text: offending } },
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
    const inRepo = buildSarif(buildReport('check', [], 1), { cwd: join(REPO_ROOT, 'test') });
    expect(inRepo.runs[0]?.results).toEqual([]);
    const finding = {
      rule: 'block-mime-type-missing',
      severity: 'error' as const,
      message: 'm',
      pointer: '',
      location: { file: 'x.json' },
    };
    const log = buildSarif(buildReport('check', [finding], 1), { cwd: join(REPO_ROOT, 'test') });
    expect(log.runs[0]?.results?.[0]?.locations?.[0]?.physicalLocation?.artifactLocation?.uri).toBe(
      'test/x.json',
    );
    const outside = buildSarif(buildReport('check', [finding], 1), { cwd: '/' });
    expect(outside.runs[0]?.results?.[0]?.locations?.[0]?.physicalLocation?.artifactLocation?.uri).toBe(
      'x.json',
    );
  });
});
