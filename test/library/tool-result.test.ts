import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { DEPTH_TO_ASK, MAX_STRING_LENGTH } from '../../src/core/unwritable.js';
import {
  OutputSchemaInvalidError,
  OutputSchemaMismatchError,
  shapeValue,
  toolResult,
} from '../../src/library/tool-result.js';
import { ALL_VERSIONS, type ProtocolVersion } from '../../src/spec/versions.js';
import { validateToolResult } from '../../src/validate/index.js';
import { runs } from '../support/runs.js';
import { pinnedV2Client } from '../support/v2-client.js';
import { hasShared, officialSchema, sdkV1Parse, sdkV1Speaks } from './support/oracles.js';
import { BIGINT_RESULT, bigintFix, PDF, PNG_1X1, wavBytes } from './support/shapes.js';

describe('toolResult()', () => {
  it('bytes → a result whose payload the validation does not decode again, judged the same', async () => {
    const png = Buffer.from(PNG_1X1, 'base64');
    const wav = wavBytes();
    const spy = vi.spyOn(globalThis, 'atob');
    try {
      for (const [bytes, version] of [
        [Buffer.concat([png, Buffer.alloc(5000, 9)]), '2025-11-25'],
        [wav, '2025-11-25'],
        [wav, '2024-11-05'],
        // No format the synchronous sniffer knows: file-type is asked about its first bytes only.
        [new Uint8Array(6000).fill(1), '2025-11-25'],
      ] as const) {
        spy.mockClear();
        const result = await toolResult(bytes, { protocolVersion: version });
        const data = Buffer.from(bytes).toString('base64');
        expect(spy.mock.calls.filter(([value]) => value === data)).toEqual([]);
        expect(JSON.stringify(result)).toContain(data);
        // The validation that decodes the payload finds nothing either.
        expect(await validateToolResult(result, { protocolVersion: version })).toEqual([]);
      }
    } finally {
      spy.mockRestore();
    }
  });

  it('string → a text block', async () => {
    expect(await toolResult('hi', { protocolVersion: '2025-06-18' })).toEqual({
      content: [{ type: 'text', text: 'hi' }],
    });
  });

  it('undefined → empty content; resultType "complete" in 2026-07-28', async () => {
    expect(await toolResult(undefined, { protocolVersion: '2025-11-25' })).toEqual({ content: [] });
    expect(await toolResult(undefined, { protocolVersion: '2026-07-28' })).toEqual({
      content: [],
      resultType: 'complete',
    });
  });

  it('plain object → structuredContent + JSON text mirror', async () => {
    expect(await toolResult({ a: 1 }, { protocolVersion: '2025-06-18' })).toEqual({
      content: [{ type: 'text', text: '{"a":1}' }],
      structuredContent: { a: 1 },
    });
  });

  it('before 2025-06-18 structured values are JSON text only', async () => {
    expect(await toolResult({ a: 1 }, { protocolVersion: '2025-03-26' })).toEqual({
      content: [{ type: 'text', text: '{"a":1}' }],
    });
  });

  it('arrays, primitives and null: as is in 2026-07-28, wrapped as {result} before', async () => {
    expect(await toolResult([1, 2], { protocolVersion: '2026-07-28' })).toEqual({
      content: [{ type: 'text', text: '[1,2]' }],
      structuredContent: [1, 2],
      resultType: 'complete',
    });
    expect(await toolResult(null, { protocolVersion: '2025-11-25' })).toEqual({
      content: [{ type: 'text', text: '{"result":null}' }],
      structuredContent: { result: null },
    });
    expect(await toolResult(7, { protocolVersion: '2025-06-18' })).toMatchObject({
      structuredContent: { result: 7 },
    });
  });

  it('bytes → image, audio or an embedded blob by sniffed type', async () => {
    const png = Buffer.from(PNG_1X1, 'base64');
    expect(await toolResult(png, { protocolVersion: '2025-06-18' })).toEqual({
      content: [{ type: 'image', data: PNG_1X1, mimeType: 'image/png' }],
    });
    expect((await toolResult(wavBytes(), { protocolVersion: '2025-06-18' })).content[0]).toMatchObject({
      type: 'audio',
      mimeType: 'audio/wav',
    });
    const wav2024 = await toolResult(wavBytes(), { protocolVersion: '2024-11-05' });
    expect(wav2024.content[0]).toMatchObject({ type: 'resource', resource: { mimeType: 'audio/wav' } });
    expect(
      (await toolResult(Buffer.from(PDF, 'base64'), { protocolVersion: '2025-06-18' })).content[0],
    ).toEqual({
      type: 'resource',
      resource: { uri: 'urn:mcp-shape:blob:0', blob: PDF, mimeType: 'application/pdf' },
    });
  });

  it('Error and {error} payloads → isError with readable text', async () => {
    expect(await toolResult(new Error('boom'), { protocolVersion: '2025-06-18' })).toEqual({
      content: [{ type: 'text', text: 'boom' }],
      isError: true,
    });
    expect(await toolResult({ error: 'not found' }, { protocolVersion: '2025-06-18' })).toEqual({
      content: [{ type: 'text', text: 'not found' }],
      isError: true,
    });
    const detailed = await toolResult(
      { error: { message: 'denied', code: 403 } },
      { protocolVersion: '2025-06-18' },
    );
    expect(detailed.isError).toBe(true);
    expect(detailed.content[0]).toEqual({
      type: 'text',
      text: 'denied\n{"error":{"message":"denied","code":403}}',
    });
    // A falsy error member is a success envelope, not an error.
    expect(
      (await toolResult({ error: null, value: 1 }, { protocolVersion: '2025-06-18' })).isError,
    ).toBeUndefined();
  });

  it('a content block or an array of blocks becomes the content', async () => {
    const block = { type: 'text', text: 'x' };
    expect(await toolResult(block, { protocolVersion: '2025-06-18' })).toEqual({ content: [block] });
    expect(await toolResult([block, block], { protocolVersion: '2025-06-18' })).toEqual({
      content: [block, block],
    });
  });

  it('a conformant CallToolResult comes back as it is (its top level copied); a broken one is repaired', async () => {
    const good = { content: [{ type: 'text', text: 'ok' }] };
    const back = await toolResult(good, { protocolVersion: '2025-06-18' });
    expect(back).toEqual(good);
    expect(back).not.toBe(good);
    expect(back.content).toBe(good.content);
    const repaired = await toolResult({ content: 'hello' }, { protocolVersion: '2025-06-18' });
    expect(repaired.content).toEqual([{ type: 'text', text: 'hello' }]);
  });

  it('shapes a string on its shortcut exactly as on the full path', async () => {
    const text = fc.oneof(
      fc.string({ maxLength: 100 }),
      fc.constantFrom(
        '{"error":"x"}',
        ' {"error":1}',
        `data:image/png;base64,${'A'.repeat(80)}`,
        'x'.repeat(12_000),
      ),
    );
    const tool = fc.constantFrom<unknown>(
      undefined,
      { name: 't', inputSchema: { type: 'object' } },
      { name: 't', inputSchema: { type: 'object' }, outputSchema: { type: 'object' } },
      'not a tool',
    );
    await fc.assert(
      fc.asyncProperty(text, fc.constantFrom(...ALL_VERSIONS), tool, async (value, protocolVersion, t) => {
        const options = { protocolVersion, tool: t };
        const full = await shapeValue(value, options).then(
          (shaped) => shaped.result,
          (error: unknown) => error,
        );
        const short = await toolResult(value, options).catch((error: unknown) => error);
        expect(short).toEqual(full);
      }),
      { numRuns: runs(500) },
    );
  });

  it('uses the plain JSON it is handed as it is, without copying it, and never changes it', async () => {
    const v = { protocolVersion: '2025-11-25' } as const;
    // structuredContent is the very object handed over; its text mirror is that object's JSON.
    const rows = Array.from({ length: 1000 }, (_, i) => ({ id: `r${i}`, n: i }));
    const value = { rows };
    const structured = await toolResult(value, v);
    expect(structured.structuredContent).toBe(value);
    expect((structured.structuredContent as typeof value).rows).toBe(rows);
    expect(structured.content).toEqual([{ type: 'text', text: JSON.stringify(value) }]);
    // Content blocks too: a clean one is the same object in the result.
    const blocks = [
      { type: 'text', text: 'a' },
      { type: 'image', data: PNG_1X1, mimeType: 'image/png' },
    ];
    const content = await toolResult(blocks, v);
    expect(content.content[0]).toBe(blocks[0]);
    expect(content.content[1]).toBe(blocks[1]);
    // A block that needs a repair is repaired in a copy: what the handler holds stays as it was.
    const wrong = { type: 'image', data: PNG_1X1, mimeType: 'image/jpeg' };
    const repaired = await toolResult([wrong, blocks[0]], v);
    expect(repaired.content[0]).toEqual({ type: 'image', data: PNG_1X1, mimeType: 'image/png' });
    expect(wrong).toEqual({ type: 'image', data: PNG_1X1, mimeType: 'image/jpeg' });
    // A value that is not plain JSON is copied as the wire would carry it, and that copy is used.
    class Row {
      constructor(readonly id: string) {}
    }
    const instances = { rows: [new Row('a')] };
    const copied = await toolResult(instances, v);
    expect(copied.structuredContent).not.toBe(instances);
    expect(copied.structuredContent).toEqual({ rows: [{ id: 'a' }] });
  });

  it('a domain object with a content field is data, not a result', async () => {
    const post = { title: 'T', content: 'body' };
    expect((await toolResult(post, { protocolVersion: '2025-06-18' })).structuredContent).toEqual(post);
  });

  it('throws a developer error with pointer and schema path when structuredContent breaks the outputSchema', async () => {
    const outputSchema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };
    await expect(
      toolResult({ n: 1 }, { protocolVersion: '2025-06-18', outputSchema }),
    ).resolves.toMatchObject({ structuredContent: { n: 1 } });
    const failure = await toolResult({ n: 'one' }, { protocolVersion: '2025-06-18', outputSchema }).catch(
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(OutputSchemaMismatchError);
    expect(failure).toMatchObject({ pointer: '/n', schemaPath: '#/properties/n/type' });
    // A wrapped value is checked against the developer's schema of the raw value.
    await expect(
      toolResult([1], {
        protocolVersion: '2025-06-18',
        outputSchema: { type: 'array', items: { type: 'string' } },
      }),
    ).rejects.toMatchObject({
      pointer: '/0',
    });
  });

  it('checks a CallToolResult the handler built against the outputSchema too, whether given directly or by the tool', async () => {
    const outputSchema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };
    const tool = { name: 't', inputSchema: { type: 'object' }, outputSchema };
    const built = { content: [{ type: 'text', text: '{"n":"x"}' }], structuredContent: { n: 'x' } };
    for (const options of [{ outputSchema }, { tool }]) {
      await expect(toolResult(built, { protocolVersion: '2025-06-18', ...options })).rejects.toMatchObject({
        name: 'OutputSchemaMismatchError',
        pointer: '/n',
        schemaPath: '#/properties/n/type',
      });
      await expect(
        toolResult({ n: 'x' }, { protocolVersion: '2025-06-18', ...options }),
      ).rejects.toBeInstanceOf(OutputSchemaMismatchError);
    }
  });

  it('throws when a tool with an outputSchema returns no structured value; errors need none', async () => {
    const outputSchema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };
    for (const value of ['hello', undefined, { type: 'text', text: 'x' }, { content: [] }]) {
      await expect(toolResult(value, { protocolVersion: '2025-06-18', outputSchema })).rejects.toMatchObject({
        name: 'OutputSchemaMismatchError',
        pointer: '',
        schemaPath: '#',
      });
    }
    await expect(
      toolResult(new Error('down'), { protocolVersion: '2025-06-18', outputSchema }),
    ).resolves.toEqual({ content: [{ type: 'text', text: 'down' }], isError: true });
  });

  it('before 2025-06-18 gives a tool with an outputSchema structuredContent (the SDK servers require it), checked as in 2025-06-18', async () => {
    const outputSchema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };
    await expect(toolResult({ n: 1 }, { protocolVersion: '2024-11-05', outputSchema })).resolves.toEqual({
      content: [{ type: 'text', text: '{"n":1}' }],
      structuredContent: { n: 1 },
    });
    // Without one, structured values are JSON text only there.
    await expect(toolResult({ n: 1 }, { protocolVersion: '2024-11-05' })).resolves.toEqual({
      content: [{ type: 'text', text: '{"n":1}' }],
    });
    // A value the SDK v2 convention wraps is wrapped, and checked as the wrapper, as in 2025-06-18.
    const wrapper = { type: 'object', properties: { result: { type: 'number' } }, required: ['result'] };
    for (const protocolVersion of ['2025-03-26', '2025-06-18'] as const) {
      await expect(toolResult(42, { protocolVersion, outputSchema: wrapper })).resolves.toEqual({
        content: [{ type: 'text', text: '{"result":42}' }],
        structuredContent: { result: 42 },
      });
    }
    await expect(
      toolResult({ n: 'x' }, { protocolVersion: '2025-03-26', outputSchema }),
    ).rejects.toMatchObject({
      pointer: '/n',
    });
    // Nor does a text-only result need structuredContent there.
    await expect(toolResult('hi', { protocolVersion: '2025-03-26', outputSchema })).resolves.toEqual({
      content: [{ type: 'text', text: 'hi' }],
    });
  });

  describe.each(ALL_VERSIONS)(
    `any value is conformant in %s${hasShared ? '' : ' (official schema skipped: ../shared is absent)'}`,
    (version) => {
      it('property: validator, official schema and SDK parser accept toolResult(anything)', async () => {
        await fc.assert(
          fc.asyncProperty(
            fc.anything({ withDate: true, withTypedArray: true, withNullPrototype: true }),
            async (value) => {
              const result = await toolResult(value, { protocolVersion: version });
              const errors = (await validateToolResult(result, { protocolVersion: version })).filter(
                (f) => f.severity === 'error',
              );
              expect(errors).toEqual([]);
              const wire = JSON.parse(JSON.stringify(result));
              if (hasShared) expect(officialSchema(version)(wire)).toEqual({ ok: true });
              if (sdkV1Speaks(version)) expect(sdkV1Parse(wire)).toEqual({ ok: true });
            },
          ),
          { numRuns: runs(200) },
        );
      });
    },
  );
});

describe('toolResult() on values at the edges of each row', () => {
  const V = { protocolVersion: '2025-06-18' } as const;
  const asData = (value: object) => ({
    content: [{ type: 'text', text: JSON.stringify(value) }],
    structuredContent: value,
  });

  it('a block missing what its type needs, or an array with one non-block, is data', async () => {
    for (const value of [
      { type: 'image', mimeType: 'image/png' },
      { type: 'audio', data: 'AAAA' },
      { type: 'resource_link', uri: 'file:///a' },
      { type: 'resource', resource: { text: 'x' } },
      { type: 'text', text: 5 },
      { type: 'video', data: 'AAAA' },
    ]) {
      expect(await toolResult(value, V), JSON.stringify(value)).toEqual(asData(value));
    }
    for (const block of [
      { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
      { type: 'resource', resource: { uri: 'file:///a', text: 'x' } },
      { type: 'resource_link', uri: 'file:///a', name: 'a' },
    ]) {
      expect(await toolResult(block, V)).toEqual({ content: [block] });
    }
    const mixed = [{ type: 'text', text: 'a' }, { x: 1 }];
    expect(await toolResult(mixed, V)).toEqual(asData({ result: mixed }));
    expect(await toolResult([], V)).toEqual(asData({ result: [] }));
  });

  it('an object is a CallToolResult only when all its members are result members and one carries the result', async () => {
    for (const value of [{}, { isError: true }, { content: [], other: 1 }]) {
      expect(await toolResult(value, V), JSON.stringify(value)).toEqual(asData(value));
    }
    const structuredOnly = { structuredContent: { a: 1 } };
    expect(await toolResult(structuredOnly, V)).toEqual({
      structuredContent: { a: 1 },
      content: [{ type: 'text', text: '{"a":1}' }],
    });
  });

  it('an error payload says its message, or its JSON, and the whole payload when there is more', async () => {
    const said = async (value: unknown) => (await toolResult(value, V)).content;
    expect(await said({ error: { code: 5 } })).toEqual([{ type: 'text', text: '{"code":5}' }]);
    expect(await said({ error: 404 })).toEqual([{ type: 'text', text: '404' }]);
    expect(await said({ error: 'x', id: 1 })).toEqual([{ type: 'text', text: 'x\n{"error":"x","id":1}' }]);
    expect(await said({ error: { message: 'm' } })).toEqual([{ type: 'text', text: 'm' }]);
    expect(await said({ error: { message: 7 } })).toEqual([{ type: 'text', text: '{"message":7}' }]);
  });

  it('awaits a promise or thenable; a rejection or a throwing then is the handler failing', async () => {
    expect(await toolResult(Promise.resolve('later'), V)).toEqual({
      content: [{ type: 'text', text: 'later' }],
    });
    const failed = (text: string) => ({ content: [{ type: 'text', text }], isError: true });
    expect(await toolResult(Promise.reject('nope'), V)).toEqual(failed('"nope"'));
    expect(await toolResult(Promise.reject({ code: 1 }), V)).toEqual(failed('{"code":1}'));
    // An error payload whose message is empty is not answered with an empty text.
    expect(await toolResult({ error: { message: '' } }, V)).toEqual(failed('{"error":{"message":""}}'));
    expect(await toolResult(Promise.reject(new Error('down')), V)).toEqual(failed('down'));
    const thenable = {
      // biome-ignore lint/suspicious/noThenProperty: a hostile thenable is the point
      get then(): unknown {
        throw new Error('then!');
      },
    };
    expect(await toolResult(thenable, V)).toEqual(failed('then!'));
    // A `then` that is no function: an object like any other.
    const notThenable = Object.fromEntries([['then', 1]]);
    expect(await toolResult(notThenable, V)).toEqual(asData(notThenable));
    // An Error whose message getter throws still becomes an error result.
    const hostile = new Error('x');
    Object.defineProperty(hostile, 'message', {
      get() {
        throw new Error('getter');
      },
    });
    expect(await toolResult(hostile, V)).toEqual(failed('The tool failed.'));
    expect(await toolResult(new Error('e'), { protocolVersion: '2026-07-28' })).toEqual({
      ...failed('e'),
      resultType: 'complete',
    });
  });

  it('bytes of no known type, from an ArrayBuffer too, are an embedded octet-stream blob', async () => {
    expect(await toolResult(new Uint8Array([1, 2, 3]).buffer, V)).toEqual({
      content: [
        {
          type: 'resource',
          resource: { uri: 'urn:mcp-shape:blob:0', blob: 'AQID', mimeType: 'application/octet-stream' },
        },
      ],
    });
  });

  it('a tool that is no object, or without an outputSchema, asks for nothing; one with an outputSchema does', async () => {
    expect(await toolResult('hi', { ...V, tool: 'x' })).toEqual({ content: [{ type: 'text', text: 'hi' }] });
    expect(await toolResult('hi', { ...V, tool: { name: 't' } })).toEqual({
      content: [{ type: 'text', text: 'hi' }],
    });
    await expect(
      toolResult('hi', { ...V, tool: { name: 't', outputSchema: { type: 'object' } } }),
    ).rejects.toMatchObject({ name: 'OutputSchemaMismatchError', schemaPath: '#' });
  });

  // Strings of hundreds of megabytes, and one attempt at writing a JSON text past the longest string:
  // seconds on a loaded machine.
  it('a value whose JSON no transport can write is answered as too large to send, in plain words', {
    timeout: 120_000,
  }, async () => {
    const tooLarge = {
      content: [
        {
          type: 'text',
          text: `The tool result is too large to send: its JSON text would be longer than the longest string JavaScript can hold (${MAX_STRING_LENGTH} characters).`,
        },
      ],
      isError: true,
    };
    const half = 'z'.repeat(2 ** 28);
    // The first three were returned as they were, and JSON.stringify threw where the SDK sent them; the
    // last answered "The tool result could not be shaped (Invalid string length)".
    for (const value of [
      'y'.repeat(MAX_STRING_LENGTH),
      {
        content: [
          { type: 'text', text: half },
          { type: 'text', text: half },
        ],
      },
      [
        { type: 'text', text: half },
        { type: 'text', text: half },
      ],
      { a: half, b: half },
      // Under the longest string, but each quote is written as two characters: this was repaired into
      // a text "null" once the validator reported it.
      '"'.repeat(2 ** 28),
      { content: [{ type: 'text', text: '"'.repeat(2 ** 28) }] },
    ]) {
      expect(await toolResult(value, V)).toEqual(tooLarge);
    }
  });

  it('a tool option that cannot be read is answered alike for a text and a value; an outputSchema that cannot be read does not compile', async () => {
    const { proxy: revoked, revoke } = Proxy.revocable({}, {});
    revoke();
    const getter = Object.defineProperty({}, 'outputSchema', {
      enumerable: true,
      get() {
        throw new Error('schema getter');
      },
    });
    // A text's quick path rejected with V8's TypeError (or the getter's error); a value got an error result.
    for (const tool of [revoked, getter]) {
      const [forText, forValue] = [
        await toolResult('hi', { ...V, tool }),
        await toolResult({ a: 1 }, { ...V, tool }),
      ];
      expect(forText).toEqual(forValue);
      expect(forText.isError).toBe(true);
    }
    // The schema compiler's own TypeError was answered as a failure of toolResult itself.
    await expect(toolResult({ a: 1 }, { ...V, outputSchema: revoked })).rejects.toThrow(
      new OutputSchemaInvalidError(
        "toolResult(): the outputSchema cannot be read (TypeError: Cannot perform 'get' on a proxy that has been revoked)",
      ),
    );
  });

  it('an outputSchema that does not compile is thrown with what went wrong; a value too deep to send is cut before it is checked', async () => {
    await expect(toolResult({ a: 1 }, { ...V, outputSchema: { type: 'nope' } })).rejects.toThrow(
      /^toolResult\(\): the outputSchema does not compile: /,
    );
    await expect(toolResult({ a: 1 }, { ...V, outputSchema: { type: 'nope' } })).rejects.toBeInstanceOf(
      OutputSchemaInvalidError,
    );
    const deep: Record<string, unknown> = {};
    let node = deep;
    for (let i = 0; i < 20_000; i++) {
      node.n = {};
      node = node.n as Record<string, unknown>;
    }
    const recursive = {
      $ref: '#/$defs/n',
      $defs: { n: { type: 'object', properties: { n: { $ref: '#/$defs/n' } } } },
    };
    // JSON.stringify cannot write 20,000 levels (nor Ajv check them): what is sent stops at
    // DEPTH_TO_ASK levels, which the recursive schema takes.
    const built = await toolResult(deep, { protocolVersion: '2025-11-25', outputSchema: recursive });
    let depth = 0;
    for (let node = built.structuredContent; node?.n !== undefined; node = node.n as typeof node) depth++;
    expect(depth).toBe(DEPTH_TO_ASK);
    expect(() => JSON.stringify(built)).not.toThrow();
  });

  it('2026-07-28: a value the outputSchema wants as { result } is wrapped (as repair does), which the SDK v2 client accepts', async () => {
    const wrapper = { type: 'object', properties: { result: { type: 'number' } }, required: ['result'] };
    const protocolVersion = '2026-07-28';
    const result = await toolResult(42, { protocolVersion, outputSchema: wrapper });
    expect(result).toEqual({ ...asData({ result: 42 }), resultType: 'complete' });
    const tool = { name: 't', inputSchema: { type: 'object' }, outputSchema: wrapper };
    const { client } = await pinnedV2Client(() => result, { tools: [tool] });
    await client.listTools();
    await expect(client.callTool({ name: 't', arguments: {} })).resolves.toMatchObject({
      structuredContent: { result: 42 },
    });
    await client.close();
    // A value the schema takes as it is stays as it is, as the table says; an object is never wrapped.
    const loose = { properties: { result: { type: 'number' } } };
    expect((await toolResult(42, { protocolVersion, outputSchema: loose })).structuredContent).toBe(42);
    await expect(toolResult({ n: 1 }, { protocolVersion, outputSchema: wrapper })).rejects.toBeInstanceOf(
      OutputSchemaMismatchError,
    );
  });

  it('a wrapped value is checked as the wrapper when the schema describes the wrapper', async () => {
    const wrapper = { type: 'object', properties: { result: { type: 'array' } }, required: ['result'] };
    expect(await toolResult([1], { protocolVersion: '2025-11-25', outputSchema: wrapper })).toEqual(
      asData({ result: [1] }),
    );
  });

  it('a built error result needs no structuredContent; a built success, or a 2026-07-28 one rebuilt from a broken input_required, does', async () => {
    const outputSchema = { type: 'object' };
    const error = { content: [{ type: 'text', text: 'x' }], isError: true };
    expect(await toolResult(error, { ...V, outputSchema })).toEqual(error);
    for (const [value, protocolVersion] of [
      [{ content: [{ type: 'text', text: 'x' }] }, '2025-06-18'],
      [{ content: [], resultType: 'input_required' }, '2026-07-28'],
    ] as const) {
      await expect(toolResult(value, { protocolVersion, outputSchema })).rejects.toThrow(
        'structuredContent does not match the outputSchema: / is missing, but the tool declares an outputSchema (schema #)',
      );
    }
  });
});

describe('toolResult() and a 2026-07-28 InputRequiredResult', () => {
  const asking = {
    resultType: 'input_required',
    inputRequests: {
      confirm: {
        method: 'elicitation/create',
        params: { message: 'Delete it?', requestedSchema: { type: 'object', properties: {} } },
      },
    },
    requestState: 'step-2',
  };

  it('is a result in 2026-07-28, handed back as it is, with or without an outputSchema', async () => {
    const protocolVersion = '2026-07-28';
    for (const value of [asking, { resultType: 'input_required', requestState: 's' }]) {
      const shaped = await toolResult(value, { protocolVersion });
      expect(shaped).toEqual(value);
      expect(await validateToolResult(shaped, { protocolVersion })).toEqual([]);
      // It is not the tool's output: the outputSchema does not apply to it.
      expect(
        await toolResult(value, { protocolVersion, outputSchema: { type: 'object', required: ['n'] } }),
      ).toEqual(value);
    }
  });

  it('is data in versions without resultType, and with members a result has not', async () => {
    expect(await toolResult(asking, { protocolVersion: '2025-11-25' })).toMatchObject({
      structuredContent: asking,
    });
    const extra = { ...asking, note: 'x' };
    expect(await toolResult(extra, { protocolVersion: '2026-07-28' })).toMatchObject({
      structuredContent: extra,
      resultType: 'complete',
    });
  });
});

describe('toolResult() on the rest of its table', () => {
  const V = { protocolVersion: '2025-06-18' } as const;

  it('a legacy toolResult envelope is a result to repair; an object of only _meta and isError is data', async () => {
    expect(await toolResult({ toolResult: { a: 1 } }, V)).toEqual({
      content: [{ type: 'text', text: '{"a":1}' }],
      structuredContent: { a: 1 },
    });
    const metaOnly = { _meta: { a: 1 }, isError: false };
    expect(await toolResult(metaOnly, V)).toEqual({
      content: [{ type: 'text', text: JSON.stringify(metaOnly) }],
      structuredContent: metaOnly,
    });
  });

  it('a function with a then is awaited; a plain function is sent as JSON sends it (null)', async () => {
    const thenable = Object.assign(() => 1, {
      // biome-ignore lint/suspicious/noThenProperty: a function that is a thenable is the point
      then: (resolve: (value: unknown) => void) => resolve('x'),
    });
    expect(await toolResult(thenable, V)).toEqual({ content: [{ type: 'text', text: 'x' }] });
    expect(await toolResult(() => 1, V)).toEqual({
      content: [{ type: 'text', text: '{"result":null}' }],
      structuredContent: { result: null },
    });
  });

  it('in 2026-07-28 a primitive is the structuredContent as it is', async () => {
    for (const value of [7, true, 'not text: a string is a text block']) {
      const expected =
        typeof value === 'string'
          ? { content: [{ type: 'text', text: value }], resultType: 'complete' }
          : {
              content: [{ type: 'text', text: String(value) }],
              structuredContent: value,
              resultType: 'complete',
            };
      expect(await toolResult(value, { protocolVersion: '2026-07-28' })).toEqual(expected);
    }
  });

  it('audio is an audio block from 2025-03-26 on', async () => {
    const wav = wavBytes();
    expect(await toolResult(wav, { protocolVersion: '2025-03-26' })).toEqual({
      content: [{ type: 'audio', data: Buffer.from(wav).toString('base64'), mimeType: 'audio/wav' }],
    });
  });

  it('an error result the handler built keeps no structuredContent that breaks the outputSchema', async () => {
    const outputSchema = { type: 'object', properties: { n: { type: 'number' } } };
    expect(
      await toolResult(
        { content: [{ type: 'text', text: 'x' }], isError: true, structuredContent: { n: 'x' } },
        { ...V, outputSchema },
      ),
    ).toEqual({
      content: [
        { type: 'text', text: 'x' },
        { type: 'text', text: '{"n":"x"}' },
      ],
      isError: true,
    });
  });

  it('shapeValue says what it repaired: what the wire could not carry first, then the repairs', async () => {
    expect(await shapeValue(BIGINT_RESULT.input(), { ...V, outputSchema: { type: 'object' } })).toEqual({
      result: BIGINT_RESULT.repaired,
      fixes: BIGINT_RESULT.fixes,
    });
    // Data, not a result: only what the wire changed.
    expect(await shapeValue({ extra: 1n }, V)).toEqual({
      result: { content: [{ type: 'text', text: '{"extra":"1"}' }], structuredContent: { extra: '1' } },
      fixes: [bigintFix('/extra')],
    });
  });

  it('answers an error result saying why when shaping itself fails, whatever was thrown', async () => {
    class Unreadable extends Error {
      override get message(): string {
        throw new Error('unreadable');
      }
    }
    const failing = (thrown: unknown, protocolVersion: ProtocolVersion = '2025-06-18') => ({
      protocolVersion,
      get tool(): unknown {
        throw thrown;
      },
    });
    const failed = (detail: string) => ({
      content: [{ type: 'text', text: `The tool result could not be shaped (${detail}).` }],
      isError: true,
    });
    expect(await toolResult(1, failing(new Error('t')))).toEqual(failed('t'));
    expect(await toolResult(1, failing('plain'))).toEqual(failed('plain'));
    expect(await toolResult(1, failing(new Unreadable()))).toEqual(failed('unknown error'));
    expect(await toolResult(1, failing('x', '2026-07-28'))).toEqual({
      ...failed('x'),
      resultType: 'complete',
    });
  });
});
