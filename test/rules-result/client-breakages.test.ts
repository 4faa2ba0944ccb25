/**
 * One case per server-side breakage in shared/reference/client-compat.md §4. Each rebuilds the shape the
 * server sent and asserts the rule that names the defect, with its severity.
 *
 * Excluded, because the server was conformant and the client was at fault: rows 1–3 (Codex/rmcp
 * rejecting valid resource_link results), 4 (Codex's rmcp build failing on a valid fractional priority),
 * 5 (old Codex stringifying images), 6, 9, 10, 11 (client schemas without resource_link), 7 (Goose's
 * error mapping), 8 (Zed's mimeType casing bug), 35 (VS Code passing resources as links), 37 (Continue's
 * allow-list), 40 (old Cursor without image support) and 41 (a Gemini CLI regression).
 */

import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/core/finding.js';
import type { ProtocolVersion } from '../../src/spec/versions.js';
import { validateToolResult } from '../../src/validate/index.js';

const text = (t: string) => ({ type: 'text', text: t });

async function findings(result: unknown, version: ProtocolVersion, tool?: unknown): Promise<Finding[]> {
  return validateToolResult(result, { protocolVersion: version, tool });
}

async function expectRule(
  result: unknown,
  rule: string,
  severity: Finding['severity'],
  version: ProtocolVersion = '2025-06-18',
  tool?: unknown,
): Promise<void> {
  const found = (await findings(result, version, tool)).filter((f) => f.rule === rule);
  expect(found.length, `${rule} not reported`).toBeGreaterThan(0);
  for (const f of found) expect(f.severity).toBe(severity);
}

/** A PNG header claiming the given size; enough for header-based checks. */
function pngHeader(width: number, height: number): string {
  const bytes = new Uint8Array(33);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const view = new DataView(bytes.buffer);
  view.setUint32(16, width);
  view.setUint32(20, height);
  bytes.set([8, 6, 0, 0, 0], 24);
  return Buffer.from(bytes).toString('base64');
}

const outputTool = {
  name: 'pack',
  inputSchema: { type: 'object' },
  outputSchema: { type: 'object', properties: { totalFiles: { type: 'number' } }, required: ['totalFiles'] },
};

describe('client-compat.md §4: server defects', () => {
  it('row 12: resource_link without name (Claude Code "expected string, received undefined")', async () => {
    await expectRule(
      { content: [{ type: 'resource_link', uri: 'file:///a.txt' }] },
      'block-resource-link-invalid',
      'error',
    );
  });

  it('rows 13 and 15: {type:"json"} blocks (Claude Code -32602, zod invalid_union)', async () => {
    await expectRule({ content: [{ type: 'json', json: { a: 1 } }] }, 'block-type-unknown', 'error');
  });

  it('row 14: {type:"error"} instead of isError', async () => {
    await expectRule({ content: [{ type: 'error', error: 'boom' }] }, 'block-type-unknown', 'error');
  });

  it('row 16: a MIME type in "type"', async () => {
    await expectRule({ content: [{ type: 'application/json', text: '{}' }] }, 'block-type-unknown', 'error');
  });

  it('row 17: {type:"blob"} from read_media_file', async () => {
    await expectRule(
      { content: [{ type: 'blob', data: 'AAAA', mimeType: 'image/png' }] },
      'block-type-unknown',
      'error',
    );
  });

  it('row 18: content as a plain string (Claude.ai "Error occurred during tool execution")', async () => {
    await expectRule({ content: 'hello' }, 'result-content-not-array', 'error');
  });

  it('row 19: legacy toolResult envelope without content (Cline "Required")', async () => {
    await expectRule({ toolResult: { ok: true } }, 'result-legacy-tool-result', 'error', '2024-11-05');
  });

  it.each([
    ['row 20 (ChatGPT connector)', '2025-06-18'],
    ['row 21 (toolhive)', '2025-06-18'],
    ['row 22 (official client 2.0.0, Claude Code)', '2025-11-25'],
  ] as const)('%s: array structuredContent', async (_row, version) => {
    await expectRule(
      { content: [text('[1]')], structuredContent: [1] },
      'structured-content-not-object',
      'error',
      version,
    );
  });

  it('row 23: structuredContent null (Gemini CLI "expected record, received null")', async () => {
    await expectRule(
      { content: [text('null')], structuredContent: null },
      'structured-content-not-object',
      'error',
    );
  });

  it('rows 20–23 in 2026-07-28: legal, but a warning for SDK v1 clients', async () => {
    await expectRule(
      { resultType: 'complete', content: [text('[1]')], structuredContent: [1] },
      'structured-content-not-object-old-clients',
      'warning',
      '2026-07-28',
    );
  });

  it('row 24: error result whose structuredContent misses the outputSchema (repomix #833)', async () => {
    const result = { content: [text('failed')], structuredContent: { error: 'failed' }, isError: true };
    await expectRule(result, 'structured-content-schema-mismatch', 'error', '2025-06-18', outputTool);
    const [f] = (await findings(result, '2025-06-18', outputTool)).filter(
      (x) => x.rule === 'structured-content-schema-mismatch',
    );
    expect(f?.message).toContain('even though isError is true');
  });

  it('row 25: structuredContent does not match the outputSchema (directory_tree)', async () => {
    const result = { content: [text('{"totalFiles":"3"}')], structuredContent: { totalFiles: '3' } };
    await expectRule(result, 'structured-content-schema-mismatch', 'error', '2025-06-18', outputTool);
  });

  it('row 26: outputSchema declared, structuredContent missing (wassette -32600)', async () => {
    await expectRule(
      { content: [text('3 files')] },
      'structured-content-missing-for-output-schema',
      'error',
      '2025-06-18',
      outputTool,
    );
  });

  it('row 27: an image next to structuredContent (dropped by Claude Code)', async () => {
    const result = {
      content: [text('{"w":1}'), { type: 'image', data: pngHeader(1, 1), mimeType: 'image/png' }],
      structuredContent: { w: 1 },
    };
    await expectRule(result, 'result-media-with-structured-content', 'warning');
  });

  it('row 28: a lossy summary in structuredContent, the real body only in text', async () => {
    const body = 'line\n'.repeat(6000);
    await expectRule(
      { content: [text(body)], structuredContent: { path: 'a.md', bytes: 29_000 } },
      'structured-content-text-mirror-missing',
      'warning',
    );
    // The same defect with JSON text: the two disagree.
    await expectRule(
      { content: [text('{"path":"a.md","body":"…"}')], structuredContent: { path: 'a.md' } },
      'structured-content-text-mismatch',
      'warning',
    );
  });

  it('row 29: content [] with structuredContent only (Claude Desktop shows nothing)', async () => {
    await expectRule(
      { content: [], structuredContent: { a: 1 } },
      'structured-content-text-mirror-missing',
      'warning',
    );
  });

  it('row 30: an image over 8000 px a side (PNG header)', async () => {
    const result = { content: [{ type: 'image', data: pngHeader(9000, 600), mimeType: 'image/png' }] };
    await expectRule(result, 'result-over-client-limits', 'warning');
  });

  it('row 31: an image over 5 MB', async () => {
    const result = { content: [{ type: 'image', data: 'A'.repeat(7_200_000), mimeType: 'image/png' }] };
    await expectRule(result, 'result-over-client-limits', 'warning');
  });

  it('row 32: a base64 image over 25,000 tokens', async () => {
    const result = { content: [{ type: 'image', data: 'A'.repeat(120_000), mimeType: 'image/png' }] };
    await expectRule(result, 'result-over-client-limits', 'warning');
  });

  it('row 33: a result over 1 MiB (Claude Desktop)', async () => {
    await expectRule({ content: [text('x'.repeat(1_100_000))] }, 'result-over-client-limits', 'warning');
  });

  it('row 34: embedded text resource without uri', async () => {
    await expectRule(
      { content: [{ type: 'resource', resource: { text: 'hello' } }] },
      'block-resource-invalid',
      'error',
    );
  });

  it('row 36: PNG base64 returned in a text block', async () => {
    const png = pngHeader(10, 10) + 'A'.repeat(400);
    const found = (await findings({ content: [text(png)] }, '2025-06-18')).filter(
      (f) => f.rule === 'block-text-base64-image',
    );
    // The block rule (another area) rates this as advice; the breakage is a misread, not a rejection.
    expect(found.length).toBeGreaterThan(0);
  });

  it('row 38: structuredContent inside a content item (C# client)', async () => {
    await expectRule(
      { content: [{ type: 'text', text: '{"a":1}', structuredContent: { a: 1 } }] },
      'structured-content-in-block',
      'warning',
    );
  });

  it('row 39: a text block with "data" instead of "text" (Cursor shows nothing)', async () => {
    await expectRule({ content: [{ type: 'text', data: 'hello' }] }, 'block-text-invalid', 'error');
  });

  it('row 42: essential error information only in structuredContent of an isError result', async () => {
    await expectRule(
      { content: [], structuredContent: { loginUrl: 'https://example.com/once' }, isError: true },
      'structured-content-text-mirror-missing',
      'warning',
    );
  });
});
