/**
 * shaped()'s own logic, without an SDK server (test/library/shaped.e2e.test.ts runs it inside real
 * ones): where the negotiated version comes from and in which order, how an SDK v1 server's answer to
 * initialize is recorded, what development mode throws, and what onFixes hears.
 */

import { describe, expect, it } from 'vitest';
import {
  nearestProtocolVersion,
  negotiatedVersion,
  ShapedFindingsError,
  shaped,
} from '../../src/library/shaped.js';
import { validateToolResultSync } from '../../src/validate/index.js';

/** What a handler returning `{ a: 1 }` gives in a version: structuredContent from 2025-06-18 on. */
const structured = { content: [{ type: 'text', text: '{"a":1}' }], structuredContent: { a: 1 } };
const textOnly = { content: [{ type: 'text', text: '{"a":1}' }] };

/** An SDK v1 Server as shaped sees one: `_oninitialize` answers with the version it chose. */
function v1Server(version: unknown) {
  return {
    calls: 0,
    async _oninitialize(this: { calls: number }, _request: unknown): Promise<unknown> {
      this.calls++;
      return { protocolVersion: version, capabilities: {} };
    },
  };
}

describe('nearestProtocolVersion', () => {
  it('is the newest known version not after the given date, the oldest for older dates, nothing for a non-date', () => {
    expect(nearestProtocolVersion('2025-06-18')).toBe('2025-06-18');
    expect(nearestProtocolVersion('2025-06-17')).toBe('2025-03-26');
    expect(nearestProtocolVersion('2099-01-01')).toBe('2026-07-28');
    expect(nearestProtocolVersion('2024-10-07')).toBe('2024-11-05');
    for (const odd of ['', 'latest', '2025-6-18', ' 2025-06-18', '2025-06-18x', '2025/06/18']) {
      expect(nearestProtocolVersion(odd), odd).toBeUndefined();
    }
  });
});

describe('negotiatedVersion', () => {
  const envelope = { mcpReq: { envelope: { 'io.modelcontextprotocol/protocolVersion': '2025-03-26' } } };
  const header = { requestInfo: { headers: { 'mcp-protocol-version': '2024-11-05' } } };
  const server = { getNegotiatedProtocolVersion: () => '2025-06-18' };

  it('takes the first of: the option, the envelope, the server, the header', () => {
    const context = { ...envelope, ...header };
    expect(negotiatedVersion(context, { protocolVersion: '2026-07-28', server })).toBe('2026-07-28');
    expect(negotiatedVersion(context, { server })).toBe('2025-03-26');
    expect(negotiatedVersion(header, { server })).toBe('2025-06-18');
    expect(negotiatedVersion(header, {})).toBe('2024-11-05');
    // An McpServer's low-level server is its `.server`.
    expect(negotiatedVersion(header, { server: { server } })).toBe('2025-06-18');
  });

  it('passes over a candidate that is no version, and a function option that answers nothing', () => {
    expect(negotiatedVersion(envelope, { protocolVersion: () => 'latest' })).toBe('2025-03-26');
    expect(negotiatedVersion(envelope, { protocolVersion: () => undefined })).toBe('2025-03-26');
    let seen: unknown;
    negotiatedVersion(header, {
      protocolVersion: (context) => {
        seen = context;
        return undefined;
      },
    });
    expect(seen).toBe(header);
    const bad = {
      mcpReq: { envelope: { 'io.modelcontextprotocol/protocolVersion': 20250326 } },
      requestInfo: { headers: { 'mcp-protocol-version': ['2025-06-18'] } },
    };
    expect(negotiatedVersion(bad)).toBe('2025-11-25');
    expect(negotiatedVersion(header, { server: { getNegotiatedProtocolVersion: () => undefined } })).toBe(
      '2024-11-05',
    );
    for (const none of [undefined, null, 'ctx', 5, { mcpReq: 'x' }, { mcpReq: { envelope: 'x' } }]) {
      expect(negotiatedVersion(none, { server: null })).toBe('2025-11-25');
    }
    expect(negotiatedVersion({ http: { req: { headers: {} } } })).toBe('2025-11-25');
    expect(negotiatedVersion({ http: { req: { headers: { get: () => null } } } })).toBe('2025-11-25');
    // Null options are none ("Cannot read properties of null" before).
    expect(negotiatedVersion(header, null)).toBe('2024-11-05');
  });
});

describe('shaped() with an SDK v1 server', () => {
  it('records the version the server answers initialize with, once per server, and shapes for it', async () => {
    const server = v1Server('2025-03-26');
    const original = server._oninitialize;
    const handler = shaped((_ctx: unknown) => ({ a: 1 }), { server });
    expect(server._oninitialize).not.toBe(original);
    // Before initialize: the default version, which has structuredContent.
    expect(await handler({})).toEqual(structured);
    expect(await server._oninitialize({ params: {} })).toEqual({
      protocolVersion: '2025-03-26',
      capabilities: {},
    });
    expect(server.calls).toBe(1);
    expect(await handler({})).toEqual(textOnly);
    // A second wrapper on the same server does not wrap initialize again.
    const wrapped = server._oninitialize;
    const again = shaped((_ctx: unknown) => ({ a: 1 }), { server: { server } });
    expect(server._oninitialize).toBe(wrapped);
    expect(await again({})).toEqual(textOnly);
  });

  it('ignores an answer without a string version, and leaves alone a server that is neither v1 nor v2', async () => {
    const odd = v1Server(20250326);
    const handler = shaped((_ctx: unknown) => ({ a: 1 }), { server: odd });
    await odd._oninitialize({});
    expect(await handler({})).toEqual(structured);
    const plain = { name: 'not a server' };
    await shaped((_ctx: unknown) => 'x', { server: plain })({});
    expect(plain).toEqual({ name: 'not a server' });
    // A v2 server says what it negotiated: no hook.
    const v2 = { getNegotiatedProtocolVersion: () => '2025-03-26', _oninitialize: async () => ({}) };
    const hook = v2._oninitialize;
    expect(await shaped((_ctx: unknown) => ({ a: 1 }), { server: v2 })({})).toEqual(textOnly);
    expect(v2._oninitialize).toBe(hook);
  });
});

describe('shaped() results', () => {
  it('reads the context from the last argument, and tells onFixes of repairs only', async () => {
    const heard: unknown[] = [];
    const onFixes = (fixes: readonly unknown[], info: unknown) => heard.push({ count: fixes.length, info });
    const envelope = { mcpReq: { envelope: { 'io.modelcontextprotocol/protocolVersion': '2025-03-26' } } };
    const broken = shaped((_args: unknown, _ctx: unknown) => ({ content: 'hello' }), { onFixes });
    expect(await broken({ city: 'x' }, envelope)).toEqual({ content: [{ type: 'text', text: 'hello' }] });
    expect(heard).toEqual([{ count: 1, info: { protocolVersion: '2025-03-26' } }]);
    await shaped(() => 'fine', { onFixes })();
    expect(heard).toHaveLength(1);
  });

  it('tells onFixes, and throws in development, for repairs of a value that is no result', async () => {
    const png =
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    // A block the handler returned alone, its mimeType wrong; a value JSON cannot carry as it is.
    const mislabeled = () => ({ type: 'image', data: png, mimeType: 'image/jpeg' });
    const cycle = () => {
      const value: Record<string, unknown> = { a: 1 };
      value.self = value;
      return value;
    };
    const heard: string[] = [];
    const onFixes = (fixes: readonly { rule: string; pointer: string }[]) =>
      heard.push(...fixes.map((f) => `${f.rule} ${f.pointer}`));
    expect(await shaped(mislabeled, { onFixes })()).toEqual({
      content: [{ type: 'image', data: png, mimeType: 'image/png' }],
    });
    await shaped(cycle, { onFixes })();
    expect(heard).toEqual(['block-mime-type-mismatch /content/0/mimeType', 'value-not-serializable /self']);

    const mismatch = await shaped(mislabeled, { mode: 'development' })().catch((e: unknown) => e);
    expect(mismatch).toBeInstanceOf(ShapedFindingsError);
    expect((mismatch as ShapedFindingsError).findings.map((f) => [f.rule, f.severity])).toEqual([
      ['block-mime-type-mismatch', 'warning'],
    ]);
    await expect(shaped(cycle, { mode: 'development' })()).rejects.toThrow(
      'error value-not-serializable at /self: left out a circular reference (JSON cannot carry one) (repaired in production)',
    );
    // Nothing to repair: nothing thrown, nothing told.
    await expect(shaped(() => ({ a: 1 }), { mode: 'development', onFixes })()).resolves.toEqual(structured);
    expect(heard).toHaveLength(2);
  });

  it('turns a thrown non-Error into an error result with its text', async () => {
    const handler = shaped(() => {
      throw 'plain string';
    });
    expect(await handler()).toEqual({ content: [{ type: 'text', text: 'plain string' }], isError: true });
  });

  it('uses the tool definition’s outputSchema when none is given', async () => {
    const tool = {
      name: 't',
      inputSchema: { type: 'object' },
      outputSchema: { type: 'object', required: ['n'] },
    };
    const production = await shaped(() => ({ m: 1 }), { tool, protocolVersion: '2025-06-18' })();
    expect(production).toEqual({
      content: [
        {
          type: 'text',
          text: "OutputSchemaMismatchError: structuredContent does not match the outputSchema: / must have required property 'n' (schema #/required)",
        },
      ],
      isError: true,
    });
    await expect(shaped(() => ({ m: 1 }), { tool, mode: 'development' })()).rejects.toThrow(
      /does not match the outputSchema/,
    );
  });
});

describe('development mode', () => {
  it('throws ShapedFindingsError listing each finding of a result the handler built, in its version', async () => {
    const handler = shaped(() => ({ content: [{ type: 'image', data: 'AAAA' }] }), {
      mode: 'development',
      protocolVersion: '2025-06-18',
    });
    const error = await handler().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ShapedFindingsError);
    const findings = (error as ShapedFindingsError).findings;
    expect(findings.map((f) => f.rule)).toEqual(['block-mime-type-missing']);
    expect((error as ShapedFindingsError).protocolVersion).toBe('2025-06-18');
    expect((error as Error).name).toBe('ShapedFindingsError');
    expect((error as Error).message).toBe(
      `the tool result has 1 finding(s) for protocol 2025-06-18:\n  error block-mime-type-missing at /content/0/mimeType: ${findings[0]?.message}`,
    );
    const atRoot = new ShapedFindingsError(
      [{ rule: 'r', severity: 'warning', message: 'm', pointer: '' }],
      '2025-11-25',
    );
    expect(atRoot.message).toBe(
      'the tool result has 1 finding(s) for protocol 2025-11-25:\n  warning r at /: m',
    );
  });

  it('judges a result the handler built as it is sent: one whose getter makes a new object at each read, without end, is a finding', async () => {
    // The validator was given the handler's object and followed the getter until the process ran out of
    // memory (4 GB).
    const withoutEnd = (): object => Object.defineProperty({}, 'next', { get: withoutEnd, enumerable: true });
    const make = () => ({ content: [{ type: 'text', text: 'x' }], structuredContent: withoutEnd() });
    const error = await shaped(make, { mode: 'development' })().catch((e: unknown) => e);
    expect((error as ShapedFindingsError).findings[0]).toMatchObject({
      rule: 'value-not-serializable',
      severity: 'error',
      message: expect.stringContaining('made more than 100000 objects as they were read'),
    });
    // In production it is sent, cut where JSON.stringify could write it.
    const sent = await shaped(make)();
    expect(validateToolResultSync(sent).filter((f) => f.severity === 'error')).toEqual([]);
  });

  it('lets through a result whose findings are all info, and values that are no result', async () => {
    // A text that carries an image as a data: URL is advice (info), no defect.
    const infoOnly = { content: [{ type: 'text', text: `data:image/png;base64,${'A'.repeat(80)}` }] };
    expect(
      validateToolResultSync(infoOnly, { protocolVersion: '2025-06-18' }).map((f) => f.severity),
    ).toEqual(['info']);
    const handler = shaped(() => infoOnly, { mode: 'development', protocolVersion: '2025-06-18' });
    await expect(handler()).resolves.toEqual(infoOnly);
    await expect(shaped(() => 'text', { mode: 'development' })()).resolves.toEqual({
      content: [{ type: 'text', text: 'text' }],
    });
  });

  it('validates in the negotiated version, lists every finding on a line of its own, and repairs without onFixes', async () => {
    // A WAVE header (bytes without one are no audio/wav, a warning of their own).
    const wav = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEARKwAAIhYAQACABAAZGF0YQAAAAA=';
    const audio = { content: [{ type: 'audio', data: wav, mimeType: 'audio/wav' }] };
    // Audio blocks exist from 2025-03-26 on: a finding in 2024-11-05 only.
    await expect(
      shaped(() => audio, { mode: 'development', protocolVersion: '2025-11-25' })(),
    ).resolves.toEqual(audio);
    const error = await shaped(() => audio, { mode: 'development', protocolVersion: '2024-11-05' })().catch(
      (e: unknown) => e as ShapedFindingsError,
    );
    expect(error).toBeInstanceOf(ShapedFindingsError);
    const two = new ShapedFindingsError(
      [
        { rule: 'a', severity: 'error', message: 'm', pointer: '/x' },
        { rule: 'b', severity: 'info', message: 'n', pointer: '' },
      ],
      '2025-11-25',
    );
    expect(two.message).toBe(
      'the tool result has 2 finding(s) for protocol 2025-11-25:\n  error a at /x: m\n  info b at /: n',
    );
    // A result that needed a repair, and no onFixes to tell.
    expect(await shaped(() => ({ content: 'hello' }))()).toEqual({
      content: [{ type: 'text', text: 'hello' }],
    });
  });

  it('answers an outputSchema mismatch in production with an error result of the negotiated version', async () => {
    const outputSchema = { type: 'object', required: ['n'] };
    const result = await shaped(() => ({ m: 1 }), { outputSchema, protocolVersion: '2026-07-28' })();
    expect(result).toMatchObject({ isError: true, resultType: 'complete' });
  });

  it('takes only a string version from an initialize answer or an envelope (an array would pass for one)', async () => {
    const server = v1Server(['2025-03-26']);
    const handler = shaped((_ctx: unknown) => ({ a: 1 }), { server });
    await server._oninitialize({});
    expect(await handler({})).toEqual(structured);
    const envelope = { mcpReq: { envelope: { 'io.modelcontextprotocol/protocolVersion': ['2025-03-26'] } } };
    expect(negotiatedVersion(envelope)).toBe('2025-11-25');
  });
});
