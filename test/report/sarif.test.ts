import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { buildReport } from '../../src/report/build.js';
import { buildSarif, renderSarif } from '../../src/report/sarif.js';
import { RULES } from '../../src/rules/catalog.js';
import { scanPaths } from '../../src/scan/index.js';
import { validateToolResult } from '../../src/validate/index.js';
import { REPO_ROOT } from '../support/cli.js';

// ajv-formats ships CJS with `exports.default`; under NodeNext the default import is the module object.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as unknown as (ajv: Ajv) => void;

const sharedDir = join(REPO_ROOT, '../shared');
const schemaFile = join(sharedDir, 'spec/sarif/sarif-schema-2.1.0.json');

/**
 * The official schema declares draft-04 (`$schema`, `id`). Ajv 8 has no draft-04 class, but the
 * schema uses nothing draft-04-specific (no boolean exclusiveMinimum/Maximum), so the draft-07 class
 * validates it once the top-level `id` is read as `$id`.
 */
function sarifValidator() {
  const schema = JSON.parse(readFileSync(schemaFile, 'utf8')) as Record<string, unknown>;
  expect(schema.$schema).toBe('http://json-schema.org/draft-04/schema#');
  const { $schema: _draft, id, ...rest } = schema;
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv.compile<unknown>({ ...rest, $id: String(id) });
}

async function scanReport() {
  return (await scanPaths([join(REPO_ROOT, 'fixtures/scan')], { cwd: REPO_ROOT })).report;
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

describe.skipIf(!existsSync(sharedDir))(
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

describe('SARIF content', () => {
  it('describes every catalog rule from the catalog', async () => {
    const log = buildSarif(await checkReport(), {
      cwd: REPO_ROOT,
      docsBaseUri: 'https://example.org/mcp-shape/',
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
      properties: { docs: 'docs/rules/block-mime-type-missing.md' },
    });
    expect(mime?.help?.text).toContain(`How to fix: ${rule?.fix}`);
    expect(mime?.help?.text).toContain('Wrong: ');
    expect(mime?.help?.markdown).toContain('## Examples');
    expect(mime?.help?.markdown).toContain('## How to fix');
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
    // The return the defect reaches is a related location (for a gateway: the envelope answering
    // tools/call).
    expect(gateway?.relatedLocations?.[0]).toMatchObject({
      physicalLocation: {
        artifactLocation: { uri: 'fixtures/scan/python/gateway.py' },
        region: { startLine: 18 },
      },
      message: { text: 'the return of tool "mcp_endpoint" this value reaches' },
    });
    expect(new Set(results.map((r) => r.level))).toEqual(new Set(['error', 'warning']));
    expect(log.runs[0]?.originalUriBaseIds?.['%SRCROOT%']?.uri).toMatch(/^file:\/\/.*\/$/);
  });
});
