import { describe, expect, it } from 'vitest';
import { repair, repairMessage } from '../../src/library/repair/index.js';
import { negotiatedVersion, ShapedFindingsError, shaped } from '../../src/library/shaped.js';
import { PNG_1X1 } from './support/shapes.js';

describe('repair()', () => {
  it('returns the same object with no fixes when nothing needs repair', async () => {
    const clean = { content: [{ type: 'text', text: 'ok' }] };
    const { result, fixes } = await repair(clean, { protocolVersion: '2025-06-18' });
    expect(result).toBe(clean);
    expect(fixes).toEqual([]);
  });

  it('never mutates its input', async () => {
    const input = { content: 'hello', isError: 'true' };
    const copy = structuredClone(input);
    await repair(input, { protocolVersion: '2025-06-18' });
    expect(input).toEqual(copy);
  });

  it('names the rule behind every fix, and points into the input', async () => {
    const { result, fixes } = await repair(
      { content: [{ type: 'image', data: `data:image/png;base64,${PNG_1X1}` }] },
      { protocolVersion: '2025-06-18' },
    );
    expect(result.content).toEqual([{ type: 'image', data: PNG_1X1, mimeType: 'image/png' }]);
    expect(fixes.length).toBeGreaterThan(0);
    for (const fix of fixes) {
      expect(fix.rule).toMatch(/^[a-z0-9-]+$/);
      expect(fix.pointer).toMatch(/^\/content\/0/);
      expect(fix.lossy).toBeUndefined();
    }
  });

  it('replaces undecodable data by a text block saying what was dropped and why (lossy)', async () => {
    const { result, fixes } = await repair(
      { content: [{ type: 'image', data: 'not base64!', mimeType: 'image/png' }] },
      { protocolVersion: '2025-06-18' },
    );
    expect(result.content).toHaveLength(1);
    const [block] = result.content;
    expect(block?.type).toBe('text');
    expect(block && 'text' in block ? block.text : '').toMatch(/image.*dropped/i);
    expect(fixes.some((f) => f.lossy)).toBe(true);
  });

  it('rebuilds a value that is no result at all, keeping its data as text', async () => {
    const { result, fixes } = await repair(42, { protocolVersion: '2026-07-28' });
    expect(result).toMatchObject({ resultType: 'complete' });
    expect(JSON.stringify(result.content)).toContain('42');
    expect(fixes.length).toBeGreaterThan(0);
  });

  it('downgrades blocks the version lacks', async () => {
    const link = { type: 'resource_link', uri: 'https://example.com/a', name: 'a' };
    const old = await repair({ content: [link] }, { protocolVersion: '2025-03-26' });
    expect(old.result.content.map((b) => b.type)).toEqual(['text']);
    expect(JSON.stringify(old.result.content)).toContain('https://example.com/a');
    const current = await repair({ content: [link] }, { protocolVersion: '2025-06-18' });
    expect(current.fixes).toEqual([]);
  });

  it('turns an outputSchema mismatch no rule can fix into an error result without structuredContent', async () => {
    const tool = {
      name: 't',
      inputSchema: { type: 'object' },
      outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
    };
    const { result } = await repair(
      { content: [{ type: 'text', text: '{"n":"x"}' }], structuredContent: { n: 'x' } },
      { protocolVersion: '2025-06-18', tool },
    );
    expect(result.structuredContent).toBeUndefined();
    expect(result.isError).toBe(true);
  });
});

describe('repairMessage()', () => {
  it('drops extra top-level members such as requestId and repairs the result inside', async () => {
    const { message, fixes, remaining } = await repairMessage(
      { jsonrpc: '2.0', id: 3, requestId: 'abc', result: { content: 'hello' } },
      {
        protocolVersion: '2025-06-18',
        request: { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 't' } },
      },
    );
    expect(message).toEqual({
      jsonrpc: '2.0',
      id: 3,
      result: { content: [{ type: 'text', text: 'hello' }] },
    });
    expect(fixes.map((f) => f.pointer)).toContain('/requestId');
    expect(remaining).toEqual([]);
  });

  it('returns a clean message unchanged', async () => {
    const clean = { jsonrpc: '2.0', id: 1, result: { content: [] } };
    const { message, fixes } = await repairMessage(clean, { protocolVersion: '2025-06-18' });
    expect(message).toBe(clean);
    expect(fixes).toEqual([]);
  });
});

describe('shaped()', () => {
  it('in development mode throws on a handler result with findings', async () => {
    const handler = shaped(() => ({ content: 'hello' }), {
      mode: 'development',
      protocolVersion: '2025-06-18',
    });
    await expect(handler()).rejects.toBeInstanceOf(ShapedFindingsError);
    const fine = shaped(() => ({ content: [{ type: 'text', text: 'ok' }] }), {
      mode: 'development',
      protocolVersion: '2025-06-18',
    });
    await expect(fine()).resolves.toEqual({ content: [{ type: 'text', text: 'ok' }] });
  });

  it('in development mode rethrows handler errors; in production they become isError results', async () => {
    const boom = () => {
      throw new Error('boom');
    };
    await expect(shaped(boom, { mode: 'development' })()).rejects.toThrow('boom');
    await expect(shaped(boom, { protocolVersion: '2025-06-18' })()).resolves.toEqual({
      content: [{ type: 'text', text: 'boom' }],
      isError: true,
    });
  });

  it('rethrows protocol errors (numeric code) for the SDK to answer', async () => {
    const protocolError = Object.assign(new Error('Unknown tool'), { code: -32602 });
    await expect(
      shaped(() => {
        throw protocolError;
      })(),
    ).rejects.toBe(protocolError);
  });

  it('an outputSchema mismatch becomes an error result in production and throws in development', async () => {
    const outputSchema = { type: 'object', properties: { n: { type: 'number' } } };
    const handler = () => ({ n: 'x' });
    const production = await shaped(handler, { outputSchema, protocolVersion: '2025-06-18' })();
    expect(production.isError).toBe(true);
    await expect(shaped(handler, { outputSchema, mode: 'development' })()).rejects.toThrow(/outputSchema/);
  });

  it('reads the version from a v2 envelope, an HTTP header, or falls back to 2025-03-26', () => {
    expect(
      negotiatedVersion({
        mcpReq: { envelope: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
      }),
    ).toBe('2026-07-28');
    expect(negotiatedVersion({ requestInfo: { headers: { 'mcp-protocol-version': '2025-06-18' } } })).toBe(
      '2025-06-18',
    );
    expect(
      negotiatedVersion({
        http: {
          req: new Request('http://127.0.0.1/', { headers: { 'mcp-protocol-version': '2025-11-25' } }),
        },
      }),
    ).toBe('2025-11-25');
    expect(negotiatedVersion({}, { protocolVersion: () => '2024-10-07' })).toBe('2024-11-05');
    expect(negotiatedVersion({})).toBe('2025-03-26');
    expect(negotiatedVersion({}, { server: { getNegotiatedProtocolVersion: () => '2025-11-25' } })).toBe(
      '2025-11-25',
    );
  });
});
