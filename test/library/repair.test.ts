import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  cloneJson,
  cloneJsonExactly,
  isPlainJson,
  isPlainJsonExactly,
  previewJson,
  safeJson,
  stringifyJson,
  toWire,
} from '../../src/library/repair/clone.js';
import {
  type RepairMessageOptions,
  repair,
  repairMessage,
  repairMessageSync,
  repairParsedMessage,
  repairParsedMessageSync,
  repairSync,
} from '../../src/library/repair/index.js';
import {
  DEFAULT_SHAPED_PROTOCOL_VERSION,
  negotiatedVersion,
  ShapedFindingsError,
  shaped,
} from '../../src/library/shaped.js';
import { DEFAULT_PROTOCOL_VERSION, type ProtocolVersion } from '../../src/spec/versions.js';
import { validateToolResult } from '../../src/validate/index.js';
import { BIGINT_RESULT, bigintFix, PNG_1X1, WAV } from './support/shapes.js';

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

  it('repairs the result of a response whose id only the request knows, and leaves the id as it is', async () => {
    // The fallback took the first error left and stopped when it could not answer it (the id), so the
    // block errors after it stayed: a finding that said its fix was automatic was not fixed.
    for (const id of [{ n: 1 }, 1.5, null, undefined]) {
      const input = {
        jsonrpc: '2.0',
        ...(id === undefined ? {} : { id }),
        result: { content: [{ type: 'resource', resource: { uri: '', text: 'x' } }] },
      };
      const { message, fixes, remaining } = await repairMessage(input, { protocolVersion: '2025-06-18' });
      expect(
        fixes.map((f) => f.rule),
        JSON.stringify(id),
      ).toEqual(['block-uri-invalid']);
      expect(
        remaining.map((f) => f.rule),
        JSON.stringify(id),
      ).toEqual(['envelope-id-invalid']);
      expect((message as { id?: unknown }).id, JSON.stringify(id)).toEqual(id);
    }
  });

  it('returns a clean message unchanged', async () => {
    const clean = { jsonrpc: '2.0', id: 1, result: { content: [] } };
    const { message, fixes } = await repairMessage(clean, { protocolVersion: '2025-06-18' });
    expect(message).toBe(clean);
    expect(fixes).toEqual([]);
  });
});

describe('repair() asks file-type about what the synchronous sniffer cannot place (a TIFF)', () => {
  const tiff = readFileSync(join(import.meta.dirname, '../../fixtures/media/image.tiff')).toString('base64');
  const V = { protocolVersion: '2025-06-18' } as const;
  const image = (data: string, mimeType?: string) => ({
    type: 'image',
    data,
    ...(mimeType ? { mimeType } : {}),
  });
  const sniffed = (rule: string) => ({
    rule,
    pointer: '/content/0/mimeType',
    description: 'set mimeType to image/tiff, sniffed from the bytes',
  });
  const stripped = {
    rule: 'block-base64-data-uri',
    pointer: '/content/0/data',
    description: 'removed the data: URI prefix from data',
  };

  it('in the copy it repairs, and for a payload a repair moved out of a data: URI', async () => {
    const cases: [unknown, unknown[]][] = [
      [{ content: [image(tiff, 'image/png')] }, [sniffed('block-mime-type-mismatch')]],
      [{ content: [image(tiff)] }, [sniffed('block-mime-type-missing')]],
      [{ content: [image(`data:;base64,${tiff}`)] }, [stripped, sniffed('block-mime-type-missing')]],
    ];
    for (const [input, fixes] of cases) {
      const repaired = await repair(input, V);
      expect(repaired).toEqual({ result: { content: [image(tiff, 'image/tiff')] }, fixes });
      expect(await validateToolResult(repaired.result, V)).toEqual([]);
      const message = await repairMessage(
        { jsonrpc: '2.0', id: 1, result: input },
        { ...V, request: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't' } } },
      );
      expect(message.message).toEqual({
        jsonrpc: '2.0',
        id: 1,
        result: { content: [image(tiff, 'image/tiff')] },
      });
    }
    // The synchronous repair cannot tell a TIFF from unknown bytes: it leaves a label it cannot contradict.
    expect(repairSync({ content: [image(tiff, 'image/png')] }, V)).toEqual({
      result: { content: [image(tiff, 'image/png')] },
      fixes: [],
    });
  });
});

describe('repair never throws, even on a value whose reads start failing after it was found plain', () => {
  /** A plain-looking result whose property reads throw `thrown` from the (n+1)th on. */
  const failingAfter = (n: number, thrown: unknown) => {
    let reads = 0;
    return new Proxy(
      { content: [text('x')], isError: 'no' },
      {
        get(target, key, receiver) {
          reads++;
          if (reads > n) throw thrown;
          return Reflect.get(target, key, receiver);
        },
      },
    );
  };

  it('gives up and says why, sync or not, as a result or inside a message, with the input as it was', async () => {
    const V = { protocolVersion: '2025-06-18' } as const;
    const runs = [
      async (value: unknown) => {
        const run = await repair(value, V);
        return { ...run, output: run.result, input: value };
      },
      async (value: unknown) => {
        const run = repairSync(value, V);
        return { ...run, output: run.result, input: value };
      },
      async (value: unknown) => {
        const input = { jsonrpc: '2.0', id: 1, result: value };
        const run = await repairMessage(input, V);
        return { ...run, output: run.message, input };
      },
      async (value: unknown) => {
        const input = { jsonrpc: '2.0', id: 1, result: value };
        const run = repairMessageSync(input, V);
        return { ...run, output: run.message, input };
      },
    ];
    const reasons = new Set<string>();
    for (let n = 0; n <= 40; n++) {
      for (const run of runs) {
        const { abandoned, output, input, fixes } = await run(failingAfter(n, new Error(`read ${n + 1}`)));
        if (abandoned === undefined) {
          reasons.add('done');
          continue;
        }
        reasons.add(abandoned);
        expect(output).toBe(input);
        expect(fixes).toEqual([]);
      }
    }
    // Both outcomes happen: the reads fail at every step of a repair in turn.
    expect([...reasons].filter((r) => r !== 'done' && !/^internal error: read \d+$/.test(r))).toEqual([]);
    expect(reasons.has('done')).toBe(true);
    expect(reasons.size).toBeGreaterThan(1);
    // A thrown value that cannot even be printed.
    const unprintable = {
      toString() {
        throw new Error('no');
      },
    };
    const unprintableReasons = new Set<string | undefined>();
    for (let n = 0; n <= 10; n++) {
      unprintableReasons.add((await repair(failingAfter(n, unprintable), V)).abandoned);
      unprintableReasons.add(repairSync(failingAfter(n, unprintable), V).abandoned);
    }
    expect(unprintableReasons).toContain('internal error');
  });
});

describe('the fallback, for what no rule repairs', () => {
  const rebuilt = {
    rule: 'result-not-object',
    pointer: '',
    description: 'rebuilt the result as a single text block holding its data as JSON',
    lossy: true,
  };

  it('rebuilds what is no result around its data: a string as it is, anything else as JSON', async () => {
    expect(await repair('hello', { protocolVersion: '2025-06-18' })).toEqual({
      result: { content: [text('hello')] },
      fixes: [rebuilt],
    });
    expect(await repair([1, 2], { protocolVersion: '2025-06-18' })).toEqual({
      result: { content: [text('[1,2]')] },
      fixes: [rebuilt],
    });
    expect(await repair(42, { protocolVersion: '2026-07-28' })).toEqual({
      result: { content: [text('42')], resultType: 'complete' },
      fixes: [rebuilt],
    });
  });

  it('a rebuilt error result stays an error; one with a broken member is rebuilt with that member kept as text', async () => {
    const V = { protocolVersion: '2026-07-28' } as const;
    const error = { content: [], resultType: 'input_required', isError: true };
    expect(await repair(error, V)).toEqual({
      result: { content: [text(JSON.stringify(error))], isError: true, resultType: 'complete' },
      fixes: [{ ...rebuilt, rule: 'result-input-required-invalid' }],
    });
    expect(await repair({ content: [text('a')], resultType: 'input_required', inputRequests: 5 }, V)).toEqual(
      {
        result: {
          content: [
            text(
              JSON.stringify({
                content: [
                  text('a'),
                  text(
                    '["inputRequests" is a JSON integer; it must be an object mapping ids to requests; it is kept here as text] inputRequests: 5',
                  ),
                ],
                resultType: 'input_required',
              }),
            ),
          ],
          resultType: 'complete',
        },
        fixes: [
          {
            rule: 'result-input-required-invalid',
            pointer: '/inputRequests',
            description: 'removed inputRequests and kept its value as text',
            lossy: true,
          },
          { ...rebuilt, rule: 'result-input-required-invalid' },
        ],
      },
    );
  });

  it('names a dropped block with the article its type reads with', async () => {
    expect(
      await repair(
        { content: [{ type: 'resource', resource: { uri: 'file:///a', blob: '!!' } }] },
        { protocolVersion: '2025-06-18' },
      ),
    ).toEqual({
      result: {
        content: [
          text(
            '[A "resource" block was dropped from this tool result: resource.blob is not valid base64 ("!!"). It was: {"type":"resource","resource":{"uri":"file:///a","blob":"!!"}}]',
          ),
        ],
      },
      fixes: [
        {
          rule: 'block-base64-invalid',
          pointer: '/content/0/resource/blob',
          description:
            'replaced the "resource" block with a text block saying what was dropped and why (resource.blob is not valid base64 ("!!"))',
          lossy: true,
        },
      ],
    });
  });

  it('as a last resort, rebuilds a rebuilt result that still fails, as an error saying why', async () => {
    const tool = {
      name: 't',
      inputSchema: { type: 'object' },
      outputSchema: { type: 'object', required: ['n'] },
    };
    expect(await repair(42, { protocolVersion: '2025-06-18', tool })).toEqual({
      result: {
        content: [
          text(
            'The tool result could not be delivered as sent (tool "t" declares an outputSchema but the result has no structuredContent).\n{"content":[{"type":"text","text":"42"}]}',
          ),
        ],
        isError: true,
      },
      fixes: [
        rebuilt,
        { ...rebuilt, rule: 'structured-content-missing-for-output-schema', pointer: '/structuredContent' },
      ],
    });
  });

  it('rebuilds a result inside a response in its place', async () => {
    expect(
      await repairMessage(
        { jsonrpc: '2.0', id: 1, result: { content: [], resultType: 'input_required' } },
        {
          protocolVersion: '2026-07-28',
          request: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't' } },
        },
      ),
    ).toEqual({
      message: {
        jsonrpc: '2.0',
        id: 1,
        result: { content: [text('{"content":[],"resultType":"input_required"}')], resultType: 'complete' },
      },
      fixes: [{ ...rebuilt, rule: 'result-input-required-invalid', pointer: '/result' }],
      remaining: [],
    });
  });

  it('keeps a member it moves into text once, when the content says it already', async () => {
    expect(
      await repair({ content: [text('isError: "yes"')], isError: 'yes' }, { protocolVersion: '2025-06-18' }),
    ).toEqual({
      result: { content: [text('isError: "yes"')] },
      fixes: [
        {
          rule: 'result-is-error-not-boolean',
          pointer: '/isError',
          description: 'removed isError and kept its value as text',
          lossy: true,
        },
      ],
    });
  });

  it('moves a broken result member into text, and keeps an error result an error', async () => {
    expect(await repair({ content: [text('a')], isError: 'yes' }, { protocolVersion: '2025-06-18' })).toEqual(
      {
        result: {
          content: [
            text('a'),
            text(
              '["isError" is the string "yes"; it must be true or false; it is kept here as text] isError: "yes"',
            ),
          ],
        },
        fixes: [
          {
            rule: 'result-is-error-not-boolean',
            pointer: '/isError',
            description: 'removed isError and kept its value as text',
            lossy: true,
          },
        ],
      },
    );
  });
});

describe('repairMessage() and its synchronous and parsed forms', () => {
  const V = { protocolVersion: '2025-06-18' } as const;
  const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't' } };
  const withSchema = [{ name: 't', inputSchema: { type: 'object' }, outputSchema: { type: 'object' } }];
  const forms = [
    ['repairMessage', repairMessage],
    ['repairMessageSync', async (m: unknown, o: RepairMessageOptions) => repairMessageSync(m, o)],
    [
      'repairParsedMessage',
      (m: unknown, o: RepairMessageOptions) => repairParsedMessage(structuredClone(m), o),
    ],
    [
      'repairParsedMessageSync',
      async (m: unknown, o: RepairMessageOptions) => repairParsedMessageSync(structuredClone(m), o),
    ],
  ] as const;

  it.each(forms)(
    '%s: a stray result or error on a request or notification goes, with a preview of it',
    async (_name, run) => {
      expect(
        await run(
          {
            jsonrpc: '2.0',
            id: 2,
            method: 'tools/call',
            error: { code: 1, message: 'x', data: 'z'.repeat(100) },
          },
          V,
        ),
      ).toEqual({
        message: { jsonrpc: '2.0', id: 2, method: 'tools/call' },
        fixes: [
          {
            rule: 'envelope-result-and-error',
            pointer: '/error',
            description: `removed top-level member "error" from a request (it was {"code":1,"message":"x","data":"${'z'.repeat(60)}… (100 characters)"})`,
            lossy: true,
          },
        ],
        remaining: [],
      });
      expect(await run({ jsonrpc: '2.0', method: 'notifications/x', error: 5 }, V)).toEqual({
        message: { jsonrpc: '2.0', method: 'notifications/x' },
        fixes: [
          {
            rule: 'envelope-result-and-error',
            pointer: '/error',
            description: 'removed top-level member "error" from a notification (it was 5)',
            lossy: true,
          },
        ],
        remaining: [],
      });
    },
  );

  it.each(forms)(
    '%s: a stray result on a request goes; an envelope member it cannot fix stays, and is said',
    async (_name, run) => {
      expect(await run({ jsonrpc: '2.0', id: 2, method: 'x', result: { content: 'x' } }, V)).toEqual({
        message: { jsonrpc: '2.0', id: 2, method: 'x' },
        fixes: [
          {
            rule: 'envelope-result-and-error',
            pointer: '/result',
            description: 'removed top-level member "result" from a request (it was {"content":"x"})',
            lossy: true,
          },
        ],
        remaining: [],
      });
      const badId = { jsonrpc: '2.0', id: { a: 1 }, result: { content: [] } };
      expect(await run(badId, { ...V, request: call })).toEqual({
        message: badId,
        fixes: [],
        remaining: [
          {
            rule: 'envelope-id-invalid',
            severity: 'error',
            message: '"id" is a JSON object; request ids must be a string or an integer',
            pointer: '/id',
            // Only the request knows the id: not a fix repair makes.
            fix: {
              description: 'Echo the id of the request this message answers, unchanged.',
              automatic: false,
            },
            data: { actual: 'a JSON object' },
          },
        ],
      });
    },
  );

  it.each(forms)(
    '%s: a response is repaired as a tool result when its request, or else its shape, says so',
    async (_name, run) => {
      const broken = { jsonrpc: '2.0', id: 1, x: 1, result: { content: [text('a')], isError: 'no' } };
      const repaired = {
        message: {
          jsonrpc: '2.0',
          id: 1,
          result: {
            content: [
              text('a'),
              text(
                '["isError" is the string "no"; it must be true or false; it is kept here as text] isError: "no"',
              ),
            ],
          },
        },
        fixes: [
          { rule: 'envelope-extra-member', pointer: '/x', description: 'removed top-level member "x"' },
          {
            rule: 'result-is-error-not-boolean',
            pointer: '/result/isError',
            description: 'removed isError and kept its value as text',
            lossy: true,
          },
        ],
        remaining: [],
      };
      expect(await run(broken, { ...V, request: call })).toEqual(repaired);
      expect(await run(broken, V)).toEqual(repaired);
      // The answer to another request is not a tool result, however it looks.
      const listed = { jsonrpc: '2.0', id: 1, result: { content: 'x' } };
      expect(
        await run(listed, { ...V, request: { jsonrpc: '2.0', id: 1, method: 'resources/list' } }),
      ).toEqual({ message: listed, fixes: [], remaining: [] });
    },
  );

  it.each(forms)(
    '%s: the tool named by the request, from a tools array or a tools/list result, sets the outputSchema',
    async (_name, run) => {
      const message = { jsonrpc: '2.0', id: 1, result: { content: [text('x')] } };
      const expected = {
        message: {
          jsonrpc: '2.0',
          id: 1,
          result: {
            content: [
              text('x'),
              text(
                '[The tool result could not be delivered as sent: tool "t" declares an outputSchema but the result has no structuredContent.]',
              ),
            ],
            isError: true,
          },
        },
        fixes: [
          {
            rule: 'structured-content-missing-for-output-schema',
            pointer: '/result/structuredContent',
            description:
              'marked the result as a tool error (isError) with a text block saying why: structuredContent is missing',
            lossy: true,
          },
        ],
        remaining: [],
      };
      expect(await run(message, { ...V, request: call, tools: withSchema })).toEqual(expected);
      expect(await run(message, { ...V, request: call, tools: { tools: withSchema } })).toEqual(expected);
      expect(await run(message, { ...V, request: call })).toEqual({ message, fixes: [], remaining: [] });
    },
  );

  it.each(forms)('%s: what it cannot repair without guessing is left, and said', async (_name, run) => {
    const both = { jsonrpc: '2.0', id: 1, error: { code: -1, message: 'm' }, result: { content: [] } };
    expect(await run(both, { ...V, request: call })).toEqual({
      message: both,
      fixes: [],
      remaining: [
        {
          rule: 'envelope-result-and-error',
          severity: 'error',
          message: 'the response has both "result" and "error"',
          pointer: '',
          fix: {
            description: 'Answer with `result` on success or `error` on failure, never both.',
            automatic: false,
          },
        },
      ],
    });
  });

  it.each(forms)(
    '%s: a message with resultType is read as 2026-07-28 when no version is given',
    async (_name, run) => {
      expect(
        await run(
          { jsonrpc: '2.0', id: 1, result: { content: 'x', resultType: 'complete' } },
          { request: call },
        ),
      ).toEqual({
        message: { jsonrpc: '2.0', id: 1, result: { content: [text('x')], resultType: 'complete' } },
        fixes: [
          {
            rule: 'result-content-not-array',
            pointer: '/result/content',
            description: 'turned the content string into a text block',
          },
        ],
        remaining: [],
      });
    },
  );

  it.each(forms)(
    '%s: nothing inside a stray result is repaired, and only a tool result has its blocks converted',
    async (_name, run) => {
      const stray = {
        content: [{ type: 'html', html: '<b onclick=x>b</b>' }, { type: 'object' }],
        structuredContent: [1],
      };
      expect(
        await run({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: {}, result: stray }, V),
      ).toEqual({
        message: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: {} },
        fixes: [
          {
            rule: 'envelope-result-and-error',
            pointer: '/result',
            description: `removed top-level member "result" from a request (it was ${JSON.stringify(stray)})`,
            lossy: true,
          },
        ],
        remaining: [],
      });
      const listed = {
        jsonrpc: '2.0',
        id: 1,
        x: 1,
        result: { content: [{ type: 'html', html: '<b>b</b>' }] },
      };
      expect(
        await run(listed, { ...V, request: { jsonrpc: '2.0', id: 1, method: 'resources/list' } }),
      ).toEqual({
        message: { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'html', html: '<b>b</b>' }] } },
        fixes: [
          { rule: 'envelope-extra-member', pointer: '/x', description: 'removed top-level member "x"' },
        ],
        remaining: [],
      });
    },
  );

  it('never changes what it is given, sync or not; the version given wins over the one the value suggests', async () => {
    const result = { content: 'hello', isError: 'true' };
    const message = { jsonrpc: '2.0', id: 1, x: 1, result: { content: 'hello' } };
    const copies = structuredClone([result, message]);
    repairSync(result, V);
    repairMessageSync(message, { ...V, request: call });
    await repairMessage(message, { ...V, request: call });
    expect([result, message]).toEqual(copies);
    const added = {
      result: { content: [text('x')], resultType: 'complete' },
      fixes: [
        {
          rule: 'result-type-invalid',
          pointer: '/resultType',
          description: 'added "resultType": "complete"',
        },
      ],
    };
    expect(await repair({ content: [text('x')] }, { protocolVersion: '2026-07-28' })).toEqual(added);
    expect(repairSync({ content: [text('x')] }, { protocolVersion: '2026-07-28' })).toEqual(added);
  });

  it('says first what the wire could not carry, sync or not', async () => {
    const message = { jsonrpc: '2.0', id: 1, extra: 1n, result: { content: 'x' } };
    const expected = {
      message: { jsonrpc: '2.0', id: 1, result: { content: [text('x')] } },
      fixes: [
        {
          rule: 'value-not-serializable',
          pointer: '/extra',
          description: 'sent the BigInt 1 as a string (JSON has no BigInt)',
        },
        { rule: 'envelope-extra-member', pointer: '/extra', description: 'removed top-level member "extra"' },
        {
          rule: 'result-content-not-array',
          pointer: '/result/content',
          description: 'turned the content string into a text block',
        },
      ],
      remaining: [],
    };
    expect(await repairMessage(message, { ...V, request: call })).toEqual(expected);
    expect(repairMessageSync(message, { ...V, request: call })).toEqual(expected);
    expect(message.extra).toBe(1n);
    const { repaired, fixes } = BIGINT_RESULT;
    expect(await repair(BIGINT_RESULT.input(), V)).toEqual({ result: repaired, fixes });
    expect(repairSync(BIGINT_RESULT.input(), V)).toEqual({ result: repaired, fixes });
    // A result that needs only what the wire changed: those fixes alone.
    expect(repairSync({ content: [text('a')], _meta: { n: 1n } }, V)).toEqual({
      result: { content: [text('a')], _meta: { n: '1' } },
      fixes: [bigintFix('/_meta/n')],
    });
  });

  it('gives up past its budget, sync or not, with the message unchanged', async () => {
    const input = { jsonrpc: '2.0', id: 1, x: 1, result: { content: 'x' } };
    for (const budget of [0, 1]) {
      const abandoned = {
        message: input,
        fixes: [],
        remaining: [],
        abandoned: `repair needed more than ${budget} validation passes`,
      };
      const sync = repairParsedMessageSync(input, { ...V, request: call }, { budget });
      expect(sync).toEqual(abandoned);
      expect(sync.message).toBe(input);
      expect(await repairParsedMessage(input, { ...V, request: call }, { budget })).toEqual(abandoned);
    }
    expect(repairParsedMessageSync(input, { ...V, request: call }, { budget: 2 }).abandoned).toBeUndefined();
  });

  it('repairs a message it owns in place, and a copy of one it does not', () => {
    const owned = { jsonrpc: '2.0', id: 1, x: 1, result: { content: [text('a')] } };
    const run = repairParsedMessageSync(owned, { ...V, request: call }, { owned: true });
    expect(run.message).toBe(owned);
    expect(owned).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [text('a')] } });
    const lent = { jsonrpc: '2.0', id: 1, x: 1, result: { content: [text('a')] } };
    expect(repairParsedMessageSync(lent, { ...V, request: call }).message).not.toBe(lent);
    expect(lent.x).toBe(1);
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

describe('what the wire carries (cloneJson, isPlainJson, stringifyJson, safeJson, previewJson)', () => {
  /** A member whose getter throws `thrown`. */
  const throwing = (target: object, key: string | number, thrown: unknown) =>
    Object.defineProperty(target, key, {
      enumerable: true,
      get() {
        throw thrown;
      },
    });
  const revoked = () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  };

  it('copies as JSON.stringify sends, and notes each thing it would have thrown on, where and why', () => {
    const keys: string[] = [];
    const tagged = (tag: string) => ({
      toJSON(key: string) {
        keys.push(`${tag}:${key}`);
        return tag;
      },
    });
    const unprintable = {
      toString() {
        throw new Error('no');
      },
    };
    const value = {
      t: tagged('T'),
      arr: [tagged('A'), 0],
      neg: -0,
      nan: Number.NaN,
      inf: [Number.POSITIVE_INFINITY],
      bigint: Object(5n),
      string: Object('s'),
      boolean: Object(false),
      revoked: revoked(),
      getters: throwing([1], 1, 'str err'),
      unprintable: throwing({}, 'x', unprintable),
      toJSONThrows: {
        toJSON() {
          throw new Error('tj');
        },
      },
      fn: () => 1,
      sym: Symbol('q'),
      undef: undefined,
      holes: [undefined, () => 1, Symbol('z')],
    };
    const notes: Parameters<typeof cloneJson>[1] = [];
    const copy = cloneJson(value, notes);
    expect(copy).toStrictEqual({
      t: 'T',
      arr: ['A', 0],
      neg: 0,
      nan: null,
      inf: [null],
      bigint: '5',
      string: 's',
      boolean: false,
      getters: [1, null],
      unprintable: {},
      holes: [null, null, null],
    });
    expect(Object.is((copy as { neg: number }).neg, 0)).toBe(true);
    // toJSON is called with the member's key, an index as a string, as JSON.stringify does.
    expect(keys).toEqual(['T:t', 'A:0']);
    const readError = "Cannot perform 'get' on a proxy that has been revoked";
    expect(notes).toEqual([
      { pointer: '/bigint', description: 'sent the BigInt 5 as a string (JSON has no BigInt)', lossy: false },
      {
        pointer: '/revoked',
        description: `left out an object that cannot be read (${readError})`,
        lossy: true,
      },
      { pointer: '/getters/1', description: 'left out a member whose getter threw (str err)', lossy: true },
      {
        pointer: '/unprintable/x',
        description: 'left out a member whose getter threw (an unprintable error)',
        lossy: true,
      },
      { pointer: '/toJSONThrows', description: 'left out a value whose toJSON() threw (tj)', lossy: true },
    ]);
    // The root: toJSON gets the empty key; what is left out or changed there has the empty pointer.
    keys.length = 0;
    expect(cloneJson(tagged('R'))).toBe('R');
    expect(keys).toEqual(['R:']);
    const rootNotes: Parameters<typeof cloneJson>[1] = [];
    expect(cloneJson(revoked(), rootNotes)).toBeUndefined();
    expect(cloneJson(3n, rootNotes)).toBe('3');
    expect(rootNotes).toEqual([
      { pointer: '', description: `left out an object that cannot be read (${readError})`, lossy: true },
      { pointer: '', description: 'sent the BigInt 3 as a string (JSON has no BigInt)', lossy: false },
    ]);
    // Pointers escape ~ and /, and name array indices.
    const escaped: Parameters<typeof cloneJson>[1] = [];
    cloneJson({ 'a/b': [{ 'c~d': 1n }] }, escaped);
    expect(escaped.map((n) => n.pointer)).toEqual(['/a~1b/0/c~0d']);
  });

  it('keeps an own __proto__ key a key, in the fast walk and in the exact one', () => {
    const parsed = JSON.parse('{"__proto__":{"a":1},"b":[1n]}'.replace('1n', '1'));
    for (const copy of [cloneJson(parsed), cloneJsonExactly(parsed), cloneJson({ ...parsed, c: 1n })]) {
      expect(Object.keys(copy as object)).toContain('__proto__');
      expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
      expect((copy as Record<string, unknown>).a).toBeUndefined();
    }
  });

  it('judges plain JSON as the wire would: no holes, no class, no toJSON, no cycle, only finite numbers', () => {
    const nullPrototype = Object.assign(Object.create(null), { a: 1 });
    class Rows extends Array {}
    let deep: unknown = 1;
    for (let i = 0; i < 70; i++) deep = i % 2 ? [deep] : { k: deep };
    const shared = { a: 1 };
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = [cycle];
    const holey = [1, 2, 3];
    delete holey[1];
    const cases: [unknown, boolean][] = [
      ['s', true],
      [true, true],
      [null, true],
      [nullPrototype, true],
      [deep, true],
      [[shared, shared], true],
      [holey, false],
      [Rows.from([1]), false],
      [new Date(0), false],
      [{ toJSON: () => 1 }, false],
      [[Number.NaN], false],
      [{ a: Number.NEGATIVE_INFINITY }, false],
      [undefined, false],
      [() => 1, false],
      [1n, false],
      [Symbol(), false],
      [cycle, false],
      [{ a: revoked() }, false],
      [throwing({}, 'x', new Error('read')), false],
    ];
    cases.forEach(([value, plain], index) => {
      expect([isPlainJson(value), isPlainJsonExactly(value)], `case ${index}`).toEqual([plain, plain]);
    });
    // Plain JSON goes through toWire as itself; anything else as a copy with its fixes.
    const json = { a: [1, { b: 'c' }] };
    expect(toWire(json)).toEqual({ value: json, fixes: [] });
    expect(toWire(json).value).toBe(json);
    expect(toWire({ a: 1n, b: revoked() })).toEqual({
      value: { a: '1' },
      fixes: [
        {
          rule: 'value-not-serializable',
          pointer: '/a',
          description: 'sent the BigInt 1 as a string (JSON has no BigInt)',
        },
        {
          rule: 'value-not-serializable',
          pointer: '/b',
          description:
            "left out an object that cannot be read (Cannot perform 'get' on a proxy that has been revoked)",
          lossy: true,
        },
      ],
    });
  });

  it('leaves out a cycle below the fast walk’s depth and past it, keeping what is not circular', () => {
    let deep: Record<string, unknown> = { leaf: 1 };
    const top = deep;
    for (let i = 0; i < 80; i++) {
      const next: Record<string, unknown> = {};
      deep.n = next;
      deep = next;
    }
    deep.back = top;
    deep.ok = [1];
    const notes: Parameters<typeof cloneJson>[1] = [];
    const copy = cloneJson(top, notes) as Record<string, unknown>;
    let node = copy;
    for (let i = 0; i < 80; i++) node = node.n as Record<string, unknown>;
    expect(node).toEqual({ ok: [1] });
    expect(copy.leaf).toBe(1);
    expect(notes).toEqual([
      {
        pointer: `${'/n'.repeat(80)}/back`,
        description: 'left out a circular reference (JSON cannot carry one)',
        lossy: true,
      },
    ]);
    // A value reached twice that is no ancestor is copied twice, as JSON writes it twice.
    const shared = { s: 1 };
    expect(cloneJson({ a: shared, b: [shared], c: Object(1n) })).toEqual({
      a: { s: 1 },
      b: [{ s: 1 }],
      c: '1',
    });
  });

  it('stops copying shared references past 100,000 repeats, once, and says so', () => {
    // 2^17 containers written out: past the limit.
    let value: unknown = 1;
    for (let i = 0; i < 17; i++) value = [value, value];
    const notes: Parameters<typeof cloneJson>[1] = [];
    cloneJsonExactly(value, notes);
    expect(notes).toEqual([
      {
        // The 100,001st container reached again, in the walk's order.
        pointer: '/1/1/0/0/0/0/1/1/0/1/0/1/0/1/0/0',
        description: 'stopped copying: shared references repeat more than 100000 objects',
        lossy: true,
      },
    ]);
  });

  it('writes JSON nested past the native writer’s reach exactly as JSON.stringify writes shallower JSON', () => {
    const depth = 20_000;
    const leaf = { s: 'x"y', n: 1.5, neg: -0, t: true, f: false, z: null, a: [], o: {} };
    let deep: unknown = leaf;
    for (let i = 0; i < depth; i++) {
      deep =
        i % 2
          ? [deep, undefined, () => 1, Symbol('s'), Number.NaN]
          : { k: deep, u: undefined, f: () => 1, b: 1 };
    }
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    let expected = JSON.stringify(leaf);
    for (let i = 0; i < depth; i++) {
      expected = i % 2 ? `[${expected},null,null,null,null]` : `{"k":${expected},"b":1}`;
    }
    expect(stringifyJson(deep)).toBe(expected);
    // mapString applies to every string, member names excepted, at any depth.
    expect(stringifyJson(deep, (s) => s.toUpperCase())).toBe(expected.replace('"x\\"y"', '"X\\"Y"'));
    expect(stringifyJson({ s: 'ab' }, (s) => `${s}!`)).toBe('{"s":"ab!"}');
    // A cycle is JSON.stringify's TypeError, from either writer.
    const cycle: unknown[] = [];
    cycle.push(cycle);
    expect(() => stringifyJson(cycle)).toThrow(TypeError);
    let deepCycle: unknown[] = cycle;
    for (let i = 0; i < depth; i++) deepCycle = [deepCycle];
    expect(() => stringifyJson(deepCycle)).toThrow(new TypeError('Converting circular structure to JSON'));
    // What JSON leaves out at the top is written as nothing by JSON.stringify; here as null.
    expect(stringifyJson(undefined)).toBe('null');
  });

  it('safeJson and previewJson never throw, and say what can be said', () => {
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.c = cycle;
    expect(safeJson({ b: 2n })).toBe('{"b":"2"}');
    expect(safeJson(undefined)).toBe('null');
    expect(safeJson(() => 1)).toBe('null');
    expect(safeJson(cycle)).toBe('{"a":1}');
    expect(safeJson(throwing({ ok: 1 }, 'x', new Error('boom')))).toBe('{"ok":1}');
    expect(previewJson({ s: 'y'.repeat(201) })).toBe(`{"s":"${'y'.repeat(200)}… (201 characters)"}`);
    expect(previewJson({ s: 'y'.repeat(200) })).toBe(`{"s":"${'y'.repeat(200)}"}`);
    expect(previewJson('abcdef', 3)).toBe('"abc… (6 characters)"');
    expect(previewJson(undefined)).toBe('null');
    expect(previewJson(cycle)).toBe('{"a":1}');
  });
});
