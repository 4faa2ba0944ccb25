/**
 * The official 2026-07-28 examples are conformant by definition: as results, tools lists, responses or
 * wrapped blocks they must produce no error finding. Warnings are allowed (for instance the array
 * structuredContent example, which SDK v1 clients reject, and its prose-only text).
 */

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateMessage, validateToolResult, validateToolsList } from '../../src/validate/index.js';

const sharedDir = join(import.meta.dirname, '../../../shared');
const examplesDir = join(sharedDir, 'spec/2026-07-28/examples');

function examples(type: string): [string, unknown][] {
  const dir = join(examplesDir, type);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => [`${type}/${f}`, JSON.parse(readFileSync(join(dir, f), 'utf8'))]);
}

const complete = (content: unknown[]) => ({ resultType: 'complete', content });
const BLOCK_TYPES = ['TextContent', 'ImageContent', 'AudioContent', 'ResourceLink', 'EmbeddedResource'];

describe.skipIf(!existsSync(sharedDir))('official 2026-07-28 examples (skipped: ../shared is absent)', () => {
  const errorsOf = (findings: { severity: string; rule: string; pointer: string }[]) =>
    findings.filter((f) => f.severity === 'error').map((f) => `${f.rule} at ${f.pointer}`);

  it.each([...examples('CallToolResult'), ...examples('InputRequiredResult')])(
    '%s',
    async (_name, result) => {
      expect(errorsOf(await validateToolResult(result, { protocolVersion: '2026-07-28' }))).toEqual([]);
    },
  );

  it.each(examples('CallToolResultResponse'))('%s', async (_name, message) => {
    const request = { jsonrpc: '2.0', id: 'x', method: 'tools/call', params: { name: 't' } };
    expect(errorsOf(await validateMessage(message, { protocolVersion: '2026-07-28', request }))).toEqual([]);
  });

  it.each(examples('ListToolsResult'))('%s', async (_name, list) => {
    expect(errorsOf(await validateToolsList(list, { protocolVersion: '2026-07-28' }))).toEqual([]);
  });

  it.each(examples('ListToolsResultResponse'))('%s', async (_name, message) => {
    expect(errorsOf(await validateMessage(message, { protocolVersion: '2026-07-28' }))).toEqual([]);
  });

  it.each(examples('Tool'))('%s in a tools list', async (_name, tool) => {
    const list = { resultType: 'complete', ttlMs: 0, cacheScope: 'public', tools: [tool] };
    expect(errorsOf(await validateToolsList(list, { protocolVersion: '2026-07-28' }))).toEqual([]);
  });

  it.each(BLOCK_TYPES.flatMap(examples))('%s in a result', async (_name, block) => {
    expect(errorsOf(await validateToolResult(complete([block]), { protocolVersion: '2026-07-28' }))).toEqual(
      [],
    );
  });

  it('the array-output Tool example gets the SDK v1 warning, not an error', async () => {
    const [, tool] = examples('Tool').find(([n]) => n.includes('array-output')) ?? [];
    const list = { resultType: 'complete', ttlMs: 0, cacheScope: 'public', tools: [tool] };
    const findings = await validateToolsList(list, { protocolVersion: '2026-07-28' });
    expect(findings.map((f) => [f.rule, f.severity])).toContainEqual([
      'tool-output-schema-not-object-old-clients',
      'warning',
    ]);
  });

  it('results validate against the example tool with an outputSchema', async () => {
    const [, tool] = examples('Tool').find(([n]) => n.includes('with-output-schema')) ?? [];
    const [, result] =
      examples('CallToolResult').find(([n]) => n.includes('result-with-structured-content')) ?? [];
    const findings = await validateToolResult(result, { protocolVersion: '2026-07-28', tool });
    expect(errorsOf(findings)).toEqual([]);
  });
});
