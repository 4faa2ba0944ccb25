import { describe, expect, it } from 'vitest';
import { repair, repairMessage } from '../../src/library/repair/index.js';
import {
  DEFAULT_SHAPED_PROTOCOL_VERSION,
  negotiatedVersion,
  ShapedFindingsError,
  shaped,
} from '../../src/library/shaped.js';
import { DEFAULT_PROTOCOL_VERSION, type ProtocolVersion } from '../../src/spec/versions.js';
import { PNG_1X1, WAV } from './support/shapes.js';

interface RepairCase {
  readonly input: unknown;
  readonly version: ProtocolVersion;
  readonly tool?: unknown;
  readonly expected: unknown;
  /** The rule of each fix, in order; `*` marks a lossy one. */
  readonly rules: readonly string[];
}

const text = (t: string) => ({ type: 'text', text: t });
const toolWith = (outputSchema: unknown) => ({ name: 't', inputSchema: { type: 'object' }, outputSchema });

/** Each repair the library issue names, with the exact output and the rules its fixes answer. */
const REPAIRS: Readonly<Record<string, RepairCase>> = {
  '{type:"object"} block → text + structuredContent': {
    input: { content: [{ type: 'object', object: { a: 1 } }] },
    version: '2025-06-18',
    expected: { content: [text('{"a":1}')], structuredContent: { a: 1 } },
    rules: ['block-type-unknown'],
  },
  'json block → text + structuredContent': {
    input: { content: [{ type: 'json', json: { a: 1 } }] },
    version: '2025-11-25',
    expected: { content: [text('{"a":1}')], structuredContent: { a: 1 } },
    rules: ['block-type-unknown'],
  },
  'json block → text only before structuredContent existed': {
    input: { content: [{ type: 'json', json: { a: 1 } }] },
    version: '2025-03-26',
    expected: { content: [text('{"a":1}')] },
    rules: ['block-type-unknown'],
  },
  'json array block → structuredContent as is in 2026-07-28': {
    input: { content: [{ type: 'json', json: [1, 2] }], resultType: 'complete' },
    version: '2026-07-28',
    expected: { content: [text('[1,2]')], structuredContent: [1, 2], resultType: 'complete' },
    rules: ['block-type-unknown'],
  },
  'string content → a text block': {
    input: { content: 'hello' },
    version: '2025-06-18',
    expected: { content: [text('hello')] },
    rules: ['result-content-not-array'],
  },
  'legacy toolResult envelope → content + structuredContent': {
    input: { toolResult: { a: 1 } },
    version: '2025-06-18',
    expected: { content: [text('{"a":1}')], structuredContent: { a: 1 } },
    rules: ['result-legacy-tool-result'],
  },
  'legacy toolResult envelope → content (2024-11-05)': {
    input: { toolResult: { a: 1 } },
    version: '2024-11-05',
    expected: { content: [text('{"a":1}')] },
    rules: ['result-legacy-tool-result'],
  },
  'missing mimeType → sniffed': {
    input: { content: [{ type: 'image', data: PNG_1X1 }] },
    version: '2025-06-18',
    expected: { content: [{ type: 'image', data: PNG_1X1, mimeType: 'image/png' }] },
    rules: ['block-mime-type-missing'],
  },
  'wrong mimeType → sniffed': {
    input: { content: [{ type: 'image', data: PNG_1X1, mimeType: 'image/jpeg' }] },
    version: '2025-06-18',
    expected: { content: [{ type: 'image', data: PNG_1X1, mimeType: 'image/png' }] },
    rules: ['block-mime-type-mismatch'],
  },
  'data: URI prefix stripped': {
    input: { content: [{ type: 'image', data: `data:image/png;base64,${PNG_1X1}`, mimeType: 'image/png' }] },
    version: '2025-06-18',
    expected: { content: [{ type: 'image', data: PNG_1X1, mimeType: 'image/png' }] },
    rules: ['block-base64-data-uri'],
  },
  'data: URI prefix stripped from a blob, its type kept': {
    input: {
      content: [
        { type: 'resource', resource: { uri: 'file:///a', blob: `data:image/png;base64,${PNG_1X1}` } },
      ],
    },
    version: '2025-06-18',
    expected: {
      content: [{ type: 'resource', resource: { uri: 'file:///a', blob: PNG_1X1, mimeType: 'image/png' } }],
    },
    rules: ['block-base64-data-uri'],
  },
  'array structuredContent wrapped as {result} before 2026-07-28, mirror kept in step': {
    input: { content: [text('[1,2]')], structuredContent: [1, 2] },
    version: '2025-06-18',
    expected: { content: [text('{"result":[1,2]}')], structuredContent: { result: [1, 2] } },
    rules: ['structured-content-not-object'],
  },
  'wrapped structuredContent unwrapped in 2026-07-28 when the outputSchema describes the bare value': {
    input: {
      content: [text('{"result":[1,2]}')],
      structuredContent: { result: [1, 2] },
      resultType: 'complete',
    },
    version: '2026-07-28',
    tool: toolWith({ type: 'array', items: { type: 'number' } }),
    expected: { content: [text('[1,2]')], structuredContent: [1, 2], resultType: 'complete' },
    rules: ['structured-content-schema-mismatch'],
  },
  'bare object wrapped when the outputSchema describes the {result} wrapper': {
    input: { content: [text('{"a":1}')], structuredContent: { a: 1 } },
    version: '2025-06-18',
    tool: toolWith({ type: 'object', properties: { result: { type: 'object' } }, required: ['result'] }),
    expected: { content: [text('{"result":{"a":1}}')], structuredContent: { result: { a: 1 } } },
    rules: ['structured-content-schema-mismatch'],
  },
  'text mirror added': {
    input: { content: [], structuredContent: { a: 1 } },
    version: '2025-06-18',
    expected: { content: [text('{"a":1}')], structuredContent: { a: 1 } },
    rules: ['structured-content-text-mirror-missing'],
  },
  'error payload → isError': {
    input: { content: [text('x')], error: { message: 'boom' } },
    version: '2025-06-18',
    expected: { content: [text('x')], error: { message: 'boom' }, isError: true },
    rules: ['result-error-without-is-error'],
  },
  'bare error payload → content + isError': {
    input: { error: 'boom' },
    version: '2025-06-18',
    expected: { error: 'boom', content: [text('{"error":"boom"}')], isError: true },
    rules: ['result-content-missing', 'result-error-without-is-error'],
  },
  'resource_link → a text block naming the link (2025-03-26)': {
    input: { content: [{ type: 'resource_link', uri: 'https://e.com/a', name: 'a', description: 'd' }] },
    version: '2025-03-26',
    expected: { content: [text('Link: a <https://e.com/a> — d')] },
    rules: ['block-type-unsupported-in-version'],
  },
  'audio → an embedded blob resource (2024-11-05)': {
    input: { content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }] },
    version: '2024-11-05',
    expected: {
      content: [
        { type: 'resource', resource: { uri: 'urn:mcp-shape:audio:0', blob: WAV, mimeType: 'audio/wav' } },
      ],
    },
    rules: ['block-type-unsupported-in-version'],
  },
  'out-of-range annotations fixed or dropped': {
    input: {
      content: [
        {
          ...text('a'),
          annotations: { priority: 2, audience: ['system', 'user'], lastModified: '2025-01-12' },
        },
        { ...text('b'), annotations: { priority: -1 } },
      ],
    },
    version: '2025-06-18',
    expected: {
      content: [
        {
          ...text('a'),
          annotations: { priority: 1, audience: ['user'], lastModified: '2025-01-12T00:00:00.000Z' },
        },
        { ...text('b'), annotations: { priority: 0 } },
      ],
    },
    // Both blocks are repaired in the same rounds, so block b's one fix comes right after block a's first.
    rules: [
      'block-annotations-invalid*',
      'block-annotations-invalid*',
      'block-annotations-invalid*',
      'block-annotations-invalid',
    ],
  },
  'WebMCP html block → an embedded text/html resource after the safety pass': {
    input: { content: [{ type: 'html', html: '<p onclick="x()">hi</p><script>evil()</script>' }] },
    version: '2025-06-18',
    expected: {
      content: [
        {
          type: 'resource',
          resource: { uri: 'urn:mcp-shape:html:0', mimeType: 'text/html', text: '<p>hi</p>' },
        },
      ],
    },
    rules: ['block-type-unknown*', 'block-type-unknown*', 'block-type-unknown'],
  },
  'WebMCP link with a javascript: URL → text, never a resource_link': {
    input: { content: [{ type: 'link', url: 'javascript:alert(1)', title: 'Open' }] },
    version: '2025-06-18',
    expected: { content: [text('Open (not linked: only http and https URLs are allowed)')] },
    rules: ['block-type-unknown*'],
  },
  'outputSchema declared, no structuredContent → a tool error saying why, content kept': {
    input: { content: [text('done')] },
    version: '2025-06-18',
    tool: toolWith({ type: 'object', required: ['a'] }),
    expected: {
      content: [
        text('done'),
        text(
          '[The tool result could not be delivered as sent: tool "t" declares an outputSchema but the result has no structuredContent.]',
        ),
      ],
      isError: true,
    },
    rules: ['structured-content-missing-for-output-schema*'],
  },
};

describe('every repair the library issue names', () => {
  it.each(Object.entries(REPAIRS))('%s', async (_name, { input, version, tool, expected, rules }) => {
    const { result, fixes } = await repair(input, { protocolVersion: version, tool });
    expect(result).toEqual(expected);
    expect(fixes.map((f) => `${f.rule}${f.lossy ? '*' : ''}`)).toEqual(rules);
  });
});

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
    expect(block && 'text' in block ? block.text : '').toBe(
      '[An "image" block was dropped from this tool result: data is not valid base64 ("not base64!"). It was: {"type":"image","data":"not base64!","mimeType":"image/png"}]',
    );
    expect(fixes).toEqual([
      {
        rule: 'block-base64-invalid',
        pointer: '/content/0/data',
        description:
          'replaced the "image" block with a text block saying what was dropped and why (data is not valid base64 ("not base64!"))',
        lossy: true,
      },
    ]);
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

  it('reads the version from a v2 envelope, an HTTP header, or falls back to the shared default, 2025-11-25', () => {
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
          req: new Request('http://127.0.0.1/', { headers: { 'mcp-protocol-version': '2025-03-26' } }),
        },
      }),
    ).toBe('2025-03-26');
    expect(negotiatedVersion({}, { protocolVersion: () => '2024-10-07' })).toBe('2024-11-05');
    expect(negotiatedVersion({})).toBe('2025-11-25');
    expect(DEFAULT_SHAPED_PROTOCOL_VERSION).toBe(DEFAULT_PROTOCOL_VERSION);
    expect(negotiatedVersion({}, { server: { getNegotiatedProtocolVersion: () => '2025-06-18' } })).toBe(
      '2025-06-18',
    );
  });
});
