import { deserializeMessage as deserializeV2 } from '@modelcontextprotocol/client';
import {
  deserializeMessage as deserializeV1,
  ReadBuffer as ReadBufferV1,
} from '@modelcontextprotocol/sdk/shared/stdio.js';
import { CreateMessageRequestSchema, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { repairMessageSync } from '../../src/library/repair/index.js';
import { getRule } from '../../src/rules/catalog.js';
import { hits, type RunOptions, repairOnce, repairStale as repairStaleIn, run } from './helpers.js';

const ok = { content: [{ type: 'text', text: 'ok' }] };
const v = { version: '2025-06-18' } as const;

describe('envelope-jsonrpc-version', () => {
  it('reports a missing or wrong jsonrpc', () => {
    expect(hits('envelope-jsonrpc-version', 'message', { id: 1, result: ok }, v)).toEqual([
      ['default', '/jsonrpc'],
    ]);
    expect(hits('envelope-jsonrpc-version', 'message', { jsonrpc: 2, id: 1, result: ok }, v)).toEqual([
      ['wrong', '/jsonrpc'],
    ]);
    expect(hits('envelope-jsonrpc-version', 'message', { jsonrpc: '2.0', id: 1, result: ok }, v)).toEqual([]);
  });

  it('repairs by setting "2.0"', () => {
    const r = repairOnce('envelope-jsonrpc-version', 'message', { jsonrpc: '1.0', id: 1, result: ok }, v);
    expect(r.doc).toEqual({ jsonrpc: '2.0', id: 1, result: ok });
    expect(r.after).toEqual([]);
  });
});

describe('envelope-request-invalid', () => {
  const rule = 'envelope-request-invalid';
  it('reports a method that is no string, and params or params._meta that are no object, as the SDK drops them', () => {
    for (const [message, expected] of [
      [{ jsonrpc: '2.0', method: 'notifications/message', params: 'oops' }, [['params', '/params']]],
      [{ jsonrpc: '2.0', id: 7, method: 42 }, [['default', '/method']]],
      [{ jsonrpc: '2.0', id: 7, method: null }, [['default', '/method']]],
      [{ jsonrpc: '2.0', id: 7, method: 'ping', params: [] }, [['params', '/params']]],
      [{ jsonrpc: '2.0', method: 'notifications/message', params: null }, [['params', '/params']]],
      [
        { jsonrpc: '2.0', method: 'notifications/progress', params: { _meta: 5 } },
        [['meta', '/params/_meta']],
      ],
    ] as const) {
      expect(hits(rule, 'message', message, v), JSON.stringify(message)).toEqual(expected);
      expect(JSONRPCMessageSchema.safeParse(message).success, JSON.stringify(message)).toBe(false);
    }
  });

  it('leaves well-formed requests, notifications and every response alone', () => {
    for (const message of [
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x', _meta: {} } },
      { jsonrpc: '2.0', id: 1, result: ok },
    ]) {
      expect(hits(rule, 'message', message, v)).toEqual([]);
      expect(JSONRPCMessageSchema.safeParse(message).success).toBe(true);
    }
  });

  it('reports the typed keys of params._meta, as the SDK parses them in every request and notification', () => {
    for (const meta of [
      { progressToken: {} },
      { progressToken: 1.5 },
      { 'io.modelcontextprotocol/related-task': { taskId: 5 } },
    ]) {
      const message = {
        jsonrpc: '2.0',
        id: 5,
        method: 'sampling/createMessage',
        params: { _meta: meta, maxTokens: 1 },
      };
      expect(hits(rule, 'message', message, v)).toEqual([
        ['metaKey', `/params/_meta/${Object.keys(meta)[0]?.replace('/', '~1')}`],
      ]);
      expect(JSONRPCMessageSchema.safeParse(message).success).toBe(false);
    }
  });

  it('repairs only params._meta, keeping what the method needs, and leaves the rest to the author', () => {
    const messages = [{ role: 'user', content: { type: 'text', text: 'hi' } }];
    const sampling = {
      jsonrpc: '2.0',
      id: 9,
      method: 'sampling/createMessage',
      params: { _meta: 'x', messages, maxTokens: 100 },
    };
    const repaired = repairMessageSync(sampling, { protocolVersion: '2025-06-18' });
    expect(repaired.message).toEqual({ ...sampling, params: { messages, maxTokens: 100 } });
    expect(CreateMessageRequestSchema.safeParse(repaired.message).success).toBe(true);
    const token = {
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level: 'info', data: 'kept', _meta: { progressToken: {}, trace: 1 } },
    };
    const tokenRepaired = repairMessageSync(token, { protocolVersion: '2025-06-18' });
    expect(tokenRepaired.message).toEqual({
      ...token,
      params: { level: 'info', data: 'kept', _meta: { trace: 1 } },
    });
    expect(JSONRPCMessageSchema.safeParse(tokenRepaired.message).success).toBe(true);
    // A params that is no object is sent as it is, with the error left: its words stay the sender's.
    const text = { jsonrpc: '2.0', method: 'notifications/message', params: 'disk full' };
    const left = repairMessageSync(text, { protocolVersion: '2025-06-18' });
    expect(left.message).toEqual(text);
    expect(left.remaining.map((f) => f.rule)).toContain(rule);
  });

  it("says its fix is the author's", () => {
    const [finding] = run('message', { jsonrpc: '2.0', method: 'x', params: 'y' }, v).filter(
      (f) => f.rule === rule,
    );
    expect(finding?.message).toBe('"params" is a JSON string; it must be an object');
    expect(finding?.fix).toMatchObject({ automatic: false });
  });
});

describe('envelope-id-invalid', () => {
  const rule = 'envelope-id-invalid';
  it('requires an id on result responses', () => {
    expect(hits(rule, 'message', { jsonrpc: '2.0', result: ok }, v)).toEqual([['default', '/id']]);
  });

  it('lets error responses omit the id only from 2025-11-25', () => {
    const error = { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } };
    expect(hits(rule, 'message', error, v)).toEqual([['errorBeforeOptional', '/id']]);
    expect(hits(rule, 'message', error, { version: '2025-11-25' })).toEqual([]);
  });

  it('rejects null and non-integer ids, and accepts string ids', () => {
    expect(hits(rule, 'message', { jsonrpc: '2.0', id: null, result: ok }, v)).toEqual([['null', '/id']]);
    expect(hits(rule, 'message', { jsonrpc: '2.0', id: 1.5, result: ok }, v)).toEqual([['type', '/id']]);
    expect(hits(rule, 'message', { jsonrpc: '2.0', id: { n: 1 }, result: ok }, v)).toEqual([['type', '/id']]);
    expect(hits(rule, 'message', { jsonrpc: '2.0', id: 'a', result: ok }, v)).toEqual([]);
  });

  it('rejects integers beyond the safe range, which the SDK parse drops, in words', () => {
    const unsafe = JSON.parse('{"jsonrpc":"2.0","id":9007199254740993,"result":{"content":[]}}');
    expect(hits(rule, 'message', unsafe, v)).toEqual([['type', '/id']]);
    expect(JSONRPCMessageSchema.safeParse(unsafe).success).toBe(false);
    expect(run('message', unsafe, v).find((f) => f.rule === rule)?.message).toBe(
      '"id" is the integer 9007199254740992, beyond JavaScript\'s safe integers (±2^53−1); request ids must be a string or an integer',
    );
    const largest = { jsonrpc: '2.0', id: Number.MAX_SAFE_INTEGER, result: { content: [] } };
    expect(hits(rule, 'message', largest, v)).toEqual([]);
    expect(JSONRPCMessageSchema.safeParse(largest).success).toBe(true);
    const infinite = JSON.parse('{"jsonrpc":"2.0","id":1e400,"result":{"content":[]}}');
    expect(run('message', infinite, v).find((f) => f.rule === rule)?.message).toMatch(
      /^"id" is a number too large for a double;/,
    );
  });

  it('treats a message with method and no id as a notification', () => {
    expect(hits(rule, 'message', { jsonrpc: '2.0', method: 'notifications/initialized' }, v)).toEqual([]);
    expect(hits(rule, 'message', { jsonrpc: '2.0', id: null, method: 'tools/list' }, v)).toEqual([
      ['null', '/id'],
    ]);
  });

  it('drops "id": null from error responses where the id may be omitted', () => {
    const error = { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } };
    const r = repairOnce(rule, 'message', error, { version: '2025-11-25' });
    expect(r.doc).toEqual({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } });
    expect(r.after).toEqual([]);
    expect(repairOnce(rule, 'message', error, v).outcome).toBeUndefined();
  });

  it('says its fix is automatic only where the repair drops the id: a null id on an error response from 2025-11-25', () => {
    const error = { code: -32700, message: 'Parse error' };
    const automatic = (message: unknown, options: RunOptions) =>
      run('message', message, options)
        .filter((f) => f.rule === rule)
        .map((f) => f.fix?.automatic);
    const latest = { version: '2025-11-25' } as const;
    expect(automatic({ jsonrpc: '2.0', id: null, error }, latest)).toEqual([true]);
    expect(automatic({ jsonrpc: '2.0', id: null, error }, v)).toEqual([false]);
    expect(automatic({ jsonrpc: '2.0', error }, v)).toEqual([false]);
    for (const id of [null, 1.5, { n: 1 }]) {
      expect(automatic({ jsonrpc: '2.0', id, result: ok }, latest), JSON.stringify(id)).toEqual([false]);
    }
    expect(automatic({ jsonrpc: '2.0', result: ok }, latest)).toEqual([false]);
  });
});

describe('envelope-result-and-error', () => {
  const rule = 'envelope-result-and-error';
  it('reports both, neither, and result on a request', () => {
    expect(
      hits(rule, 'message', { jsonrpc: '2.0', id: 1, result: ok, error: { code: 1, message: 'x' } }, v),
    ).toEqual([['both', '']]);
    expect(hits(rule, 'message', { jsonrpc: '2.0', id: 1 }, v)).toEqual([['default', '']]);
    expect(hits(rule, 'message', { jsonrpc: '2.0', id: 1, method: 'tools/call', result: ok }, v)).toEqual([
      ['requestWithResult', '/result'],
    ]);
  });

  it('drops the null one of both, which the SDK clients then accept, and claims no fix where both hold values', () => {
    const withNullError = { jsonrpc: '2.0', id: 1, result: ok, error: null };
    // As sent, both SDK clients' transports refuse it: the call would hang.
    expect(JSONRPCMessageSchema.safeParse(withNullError).success).toBe(false);
    expect(() => deserializeV2(JSON.stringify(withNullError))).toThrow();
    const automatic = (message: unknown) =>
      run('message', message, v)
        .filter((f) => f.rule === rule)
        .map((f) => f.fix?.automatic);
    expect(automatic(withNullError)).toEqual([true]);
    const repaired = repairMessageSync(withNullError, { protocolVersion: v.version }).message;
    expect(repaired).toEqual({ jsonrpc: '2.0', id: 1, result: ok });
    expect(JSONRPCMessageSchema.safeParse(repaired).success).toBe(true);
    expect(deserializeV2(JSON.stringify(repaired))).toEqual(repaired);
    const error = { code: -32603, message: 'failed' };
    expect(
      repairMessageSync({ jsonrpc: '2.0', id: 1, result: null, error }, { protocolVersion: v.version })
        .message,
    ).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error,
    });
    expect(automatic({ jsonrpc: '2.0', id: 1, result: ok, error })).toEqual([false]);
    expect(automatic({ jsonrpc: '2.0', id: 1 })).toEqual([false]);
  });

  it('does not demand a result from requests and notifications', () => {
    expect(hits(rule, 'message', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, v)).toEqual([]);
    expect(
      hits(rule, 'message', { jsonrpc: '2.0', method: 'notifications/progress', params: {} }, v),
    ).toEqual([]);
  });
});

describe('envelope-result-not-object', () => {
  const rule = 'envelope-result-not-object';
  it('reports non-object results of unknown requests', () => {
    expect(hits(rule, 'message', { jsonrpc: '2.0', id: 1, result: [ok] }, v)).toEqual([
      ['default', '/result'],
    ]);
    expect(hits(rule, 'message', { jsonrpc: '2.0', id: 1, result: null }, v)).toEqual([
      ['default', '/result'],
    ]);
  });

  it('leaves a known tools/call result to result-not-object', () => {
    const request = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't' } };
    const message = { jsonrpc: '2.0', id: 1, result: 'done' };
    expect(hits(rule, 'message', message, { ...v, request })).toEqual([]);
    expect(hits('result-not-object', 'message', message, { ...v, request })).toEqual([
      ['default', '/result'],
    ]);
  });
});

describe('envelope-error-invalid', () => {
  const rule = 'envelope-error-invalid';
  const error = (e: unknown) => ({ jsonrpc: '2.0', id: 1, error: e });
  it('reports each malformed part', () => {
    expect(hits(rule, 'message', error('boom'), v)).toEqual([['default', '/error']]);
    expect(hits(rule, 'message', error({ message: 'x' }), v)).toEqual([['codeMissing', '/error/code']]);
    expect(hits(rule, 'message', error({ code: '404', message: 'x' }), v)).toEqual([['code', '/error/code']]);
    expect(hits(rule, 'message', error({ code: -1.5, message: 'x' }), v)).toEqual([['code', '/error/code']]);
    expect(hits(rule, 'message', error({ code: -1 }), v)).toEqual([['messageMissing', '/error/message']]);
    expect(hits(rule, 'message', error({ code: -1, message: { a: 1 } }), v)).toEqual([
      ['message', '/error/message'],
    ]);
    expect(hits(rule, 'message', error({ code: -32602, message: 'x', data: 1 }), v)).toEqual([]);
  });

  it('repairs numeric-string codes exactly and keeps other codes in data', () => {
    expect(repairOnce(rule, 'message', error({ code: '-32602', message: 'x' }), v).doc).toEqual(
      error({ code: -32602, message: 'x' }),
    );
    const named = repairOnce(rule, 'message', error({ code: 'NOT_FOUND', message: 'x' }), v);
    expect(named.doc).toEqual(error({ code: -32603, message: 'x', data: { code: 'NOT_FOUND' } }));
    expect(named.outcome?.lossy).toBeFalsy();
    const crowded = repairOnce(rule, 'message', error({ code: 'E', message: 'x', data: 'd' }), v);
    expect(crowded.outcome?.lossy).toBe(true);
    expect(crowded.after).toEqual([]);
  });

  it('repairs a bare string error and a non-string message', () => {
    expect(repairOnce(rule, 'message', error('boom'), v).doc).toEqual(
      error({ code: -32603, message: 'boom' }),
    );
    expect(repairOnce(rule, 'message', error({ code: 1, message: 42 }), v).doc).toEqual(
      error({ code: 1, message: '42' }),
    );
  });
});

describe('envelope-not-object in a batch', () => {
  const message = { jsonrpc: '2.0', id: 1, result: ok };
  const v0326 = { version: '2025-03-26' } as const;

  it('reports each member that is no object, where it is, and none that is', () => {
    const members = said([1, message, 'x', null, [message]], v0326).filter(
      ([rule]) => rule !== 'envelope-batch',
    );
    expect(members).toEqual([
      [
        'envelope-not-object',
        'member',
        '/0',
        'member 0 of the batch is a bare integer, not a JSON-RPC message object',
      ],
      [
        'envelope-not-object',
        'member',
        '/2',
        'member 2 of the batch is a bare string, not a JSON-RPC message object',
      ],
      ['envelope-not-object', 'member', '/3', 'member 3 of the batch is null, not a JSON-RPC message object'],
      [
        'envelope-not-object',
        'member',
        '/4',
        'member 4 of the batch is an array, not a JSON-RPC message object',
      ],
    ]);
    expect(said([message, message], v0326).map(([rule]) => rule)).toEqual(['envelope-batch']);
  });

  it('reports an empty batch, which JSON-RPC forbids a server to send', () => {
    expect(said([], v0326).filter(([rule]) => rule !== 'envelope-batch')).toEqual([
      [
        'envelope-not-object',
        'empty',
        '',
        'the batch is empty: it holds no JSON-RPC message, and JSON-RPC forbids sending one',
      ],
    ]);
  });

  it('adds to envelope-batch where the version has no batching', () => {
    expect(said([7]).map(([rule, , pointer]) => `${rule} ${pointer}`)).toEqual([
      'envelope-batch ',
      'envelope-not-object /0',
    ]);
  });
});

describe('envelope-batch', () => {
  const batch = [
    { jsonrpc: '2.0', id: 1, result: ok },
    { jsonrpc: '2.0', id: 2, result: ok },
  ];
  it('reports a batch in every version: outside 2025-03-26 the spec has none', () => {
    for (const version of ['2024-11-05', '2025-06-18', '2025-11-25', '2026-07-28'] as const) {
      expect(hits('envelope-batch', 'message', batch, { version })).toEqual([['default', '']]);
    }
  });

  it('reports a 2025-03-26 batch as an error for the SDK clients, which drop it, not for the spec', () => {
    const findings = run('message', batch, { version: '2025-03-26' }).filter(
      (f) => f.rule === 'envelope-batch',
    );
    expect(findings.map((f) => [f.messageId, f.severity, f.pointer, f.message])).toEqual([
      [
        'clients',
        'error',
        '',
        'a JSON-RPC batch of 2 messages: protocol 2025-03-26 allows it, but the official SDK clients drop it (the TypeScript SDK on stdio and SSE, the Python SDK on every transport), so every call in it hangs',
      ],
    ]);
    expect(getRule('envelope-batch')?.clients.map((c) => [c.client, c.effect])).toEqual([
      ['ts-sdk-v1', 'drops-message'],
      ['ts-sdk-v2', 'drops-message'],
      ['python-sdk', 'drops-message'],
      ['claude-code', 'drops-message'],
      ['gemini-cli', 'drops-message'],
    ]);
  });

  it('matches the SDK transports: a stdio line holding a batch fails to parse, each of its messages does not', () => {
    const line = JSON.stringify(batch);
    for (const parse of [deserializeV1, deserializeV2]) {
      expect(() => parse(line)).toThrow();
      for (const member of batch) expect(parse(JSON.stringify(member))).toEqual(member);
    }
    const buffer = new ReadBufferV1();
    buffer.append(Buffer.from(`${line}\n`));
    expect(() => buffer.readMessage()).toThrow();
  });
});

/** Every finding on a message, whole: rule, message id, pointer and the words a user reads. */
function said(doc: unknown, options: RunOptions = v): string[][] {
  return run('message', doc, options).map((f) => [f.rule, f.messageId, f.pointer, f.message]);
}

describe('what the envelope rules say', () => {
  it('judges a bare value or a batch as a whole, never the messages in it', () => {
    expect(said('done')).toEqual([
      ['envelope-not-object', 'default', '', 'the message is a bare string, not a JSON-RPC message object'],
    ]);
    expect(said(null)).toEqual([
      ['envelope-not-object', 'default', '', 'the message is null, not a JSON-RPC message object'],
    ]);
    expect(said(3)[0]?.[3]).toBe('the message is a bare integer, not a JSON-RPC message object');
    expect(said([{ jsonrpc: '2.0', id: 1, result: ok }])).toEqual([
      ['envelope-batch', 'default', '', 'a JSON-RPC batch of 1 message; protocol 2025-06-18 has no batching'],
    ]);
    expect(
      said([
        { jsonrpc: '2.0', id: 1, result: ok },
        { jsonrpc: '2.0', id: 2, result: ok },
      ])[0]?.[3],
    ).toBe('a JSON-RPC batch of 2 messages; protocol 2025-06-18 has no batching');
  });

  it('names the wrong jsonrpc value by its JSON', () => {
    expect(said({ jsonrpc: '1.0', id: 1, result: ok })).toEqual([
      ['envelope-jsonrpc-version', 'wrong', '/jsonrpc', '"jsonrpc" is "1.0"; it must be the string "2.0"'],
    ]);
    expect(said({ jsonrpc: 2, id: 1, result: ok })[0]?.[3]).toBe(
      '"jsonrpc" is a JSON integer; it must be the string "2.0"',
    );
    expect(said({ id: 1, result: ok })).toEqual([
      ['envelope-jsonrpc-version', 'default', '/jsonrpc', 'the message has no "jsonrpc" member'],
    ]);
  });

  it('accepts integer and string ids, and names a wrong one', () => {
    expect(said({ jsonrpc: '2.0', id: 7, result: ok })).toEqual([]);
    expect(said({ jsonrpc: '2.0', id: '', result: ok })).toEqual([]);
    expect(said({ jsonrpc: '2.0', id: 1.5, result: ok })).toEqual([
      [
        'envelope-id-invalid',
        'type',
        '/id',
        '"id" is the fractional number 1.5; request ids must be a string or an integer',
      ],
    ]);
    expect(said({ jsonrpc: '2.0', id: true, result: ok })[0]?.[3]).toBe(
      '"id" is a JSON boolean; request ids must be a string or an integer',
    );
    expect(said({ jsonrpc: '2.0', id: null, result: ok })[0]?.[3]).toBe(
      '"id" is null; request ids must be a string or an integer',
    );
    expect(said({ jsonrpc: '2.0', result: ok })[0]?.[3]).toBe('the response has no "id"');
    expect(said({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } })[0]?.[3]).toBe(
      'the error response has no "id"; error responses may omit it only from 2025-11-25',
    );
  });

  it('names each malformed part of an error', () => {
    const error = (e: unknown) => said({ jsonrpc: '2.0', id: 1, error: e });
    expect(error('boom')).toEqual([
      [
        'envelope-error-invalid',
        'default',
        '/error',
        '"error" is a JSON string; it must be an object with "code" and "message"',
      ],
    ]);
    expect(error({ code: '404', message: 'x' })).toEqual([
      [
        'envelope-error-invalid',
        'code',
        '/error/code',
        '"error.code" is the string "404"; it must be an integer',
      ],
    ]);
    expect(error({ code: -1.5, message: 'x' })[0]?.[3]).toBe(
      '"error.code" is the fractional number -1.5; it must be an integer',
    );
    expect(error({ code: null, message: 'x' })[0]?.[3]).toBe('"error.code" is null; it must be an integer');
    expect(error({ message: 'x' })[0]?.[3]).toBe('"error" has no "code"');
    expect(error({ code: 1, message: ['x'] })).toEqual([
      [
        'envelope-error-invalid',
        'message',
        '/error/message',
        '"error.message" is a JSON array; it must be a string',
      ],
    ]);
    expect(error({ code: 1 })[0]?.[3]).toBe('"error" has no "message"');
  });

  it('leaves the error member of a request to envelope-result-and-error', () => {
    expect(said({ jsonrpc: '2.0', id: 1, method: 'tools/call', error: 'boom' })).toEqual([
      [
        'envelope-result-and-error',
        'requestWithResult',
        '/error',
        'a message with "method" is a request or notification and must not carry "error"',
      ],
    ]);
    expect(said({ jsonrpc: '2.0', id: 1, method: 'tools/call', result: 'done' })).toEqual([
      [
        'envelope-result-and-error',
        'requestWithResult',
        '/result',
        'a message with "method" is a request or notification and must not carry "result"',
      ],
    ]);
  });

  it('words result and error both or neither', () => {
    expect(said({ jsonrpc: '2.0', id: 1 })).toEqual([
      ['envelope-result-and-error', 'default', '', 'the response has neither "result" nor "error"'],
    ]);
    expect(said({ jsonrpc: '2.0', id: 1, result: ok, error: { code: 1, message: 'x' } })).toEqual([
      ['envelope-result-and-error', 'both', '', 'the response has both "result" and "error"'],
    ]);
  });

  it('names a result that is no object by its JSON type', () => {
    expect(said({ jsonrpc: '2.0', id: 1, result: [ok] })).toEqual([
      [
        'envelope-result-not-object',
        'default',
        '/result',
        '"result" is a JSON array; MCP results are JSON objects',
      ],
    ]);
  });

  it('names each extra member with its pointer', () => {
    expect(said({ jsonrpc: '2.0', id: 1, result: ok, requestId: 'a', 'a/b': 1 })).toEqual([
      [
        'envelope-extra-member',
        'default',
        '/requestId',
        'extra top-level member "requestId" in a JSON-RPC message',
      ],
      ['envelope-extra-member', 'default', '/a~1b', 'extra top-level member "a/b" in a JSON-RPC message'],
    ]);
  });
});

describe('what the envelope repairs do and say', () => {
  const error = (e: unknown) => ({ jsonrpc: '2.0', id: 1, error: e });

  it('replaces an error that is no object, keeping its text', () => {
    for (const [value, text] of [
      ['boom', 'boom'],
      [404, '404'],
      [null, 'null'],
      [['a'], '["a"]'],
    ] as const) {
      const r = repairOnce('envelope-error-invalid', 'message', error(value), v);
      expect(r.doc, String(value)).toEqual(error({ code: -32603, message: text }));
      expect(r.outcome).toEqual({
        description: 'replaced "error" with { code: -32603, message } carrying its text',
      });
    }
  });

  it('converts only a whole decimal string code, and says what it did with any other', () => {
    const converted = repairOnce(
      'envelope-error-invalid',
      'message',
      error({ code: ' -32602 ', message: 'x' }),
      v,
    );
    expect(converted.doc).toEqual(error({ code: -32602, message: 'x' }));
    expect(converted.outcome).toEqual({
      description: 'converted "error.code" " -32602 " to the integer -32602',
    });
    expect(
      repairOnce('envelope-error-invalid', 'message', error({ code: '404', message: 'x' }), v).doc,
    ).toEqual(error({ code: 404, message: 'x' }));
    for (const code of ['12a', 'a12', '+1', '1.0', '0x10', '1e3', '99999999999999999999']) {
      const kept = repairOnce('envelope-error-invalid', 'message', error({ code, message: 'x' }), v);
      expect(kept.doc, code).toEqual(error({ code: -32603, message: 'x', data: { code } }));
      expect(kept.outcome).toEqual({
        description:
          'set "error.code" to -32603 (Internal error); the original code is kept in error.data.code',
      });
    }
    const missing = repairOnce('envelope-error-invalid', 'message', error({ message: 'x' }), v);
    expect(missing.doc).toEqual(error({ code: -32603, message: 'x' }));
    expect(missing.outcome).toEqual({ description: 'set "error.code" to -32603 (Internal error)' });
    const dropped = repairOnce(
      'envelope-error-invalid',
      'message',
      error({ code: 1.5, message: 'x', data: 1 }),
      v,
    );
    expect(dropped.doc).toEqual(error({ code: -32603, message: 'x', data: 1 }));
    expect(dropped.outcome).toEqual({
      description: 'set "error.code" to -32603 (Internal error); the original code 1.5 was dropped',
      lossy: true,
    });
  });

  it('writes a message for an error without one, from its code', () => {
    const r = repairOnce('envelope-error-invalid', 'message', error({ code: -32000 }), v);
    expect(r.doc).toEqual(error({ code: -32000, message: 'error -32000' }));
    expect(r.outcome).toEqual({ description: 'set "error.message" to "error -32000"' });
  });

  it('replaces an undefined error (a JavaScript caller’s value) with a generic text', () => {
    const r = repairOnce('envelope-error-invalid', 'message', error(undefined), v);
    expect(r.doc).toEqual(error({ code: -32603, message: 'unknown error' }));
  });

  it('writes a missing message from the code, and other messages as their JSON', () => {
    for (const [message, text] of [
      [undefined, 'error -32000'],
      [null, 'error -32000'],
      [42, '42'],
      [{ a: 1 }, '{"a":1}'],
    ] as const) {
      const r = repairOnce('envelope-error-invalid', 'message', error({ code: -32000, message }), v);
      expect(r.doc, String(message)).toEqual(error({ code: -32000, message: text }));
      expect(r.outcome).toEqual({ description: `set "error.message" to ${JSON.stringify(text)}` });
      expect(r.after).toEqual([]);
    }
  });

  it('sets jsonrpc and removes an extra member, saying so', () => {
    expect(repairOnce('envelope-jsonrpc-version', 'message', { id: 1, result: ok }, v).outcome).toEqual({
      description: 'set "jsonrpc" to "2.0"',
    });
    const extra = repairOnce(
      'envelope-extra-member',
      'message',
      { jsonrpc: '2.0', id: 1, result: ok, requestId: 'a' },
      v,
    );
    expect(extra.doc).toEqual({ jsonrpc: '2.0', id: 1, result: ok });
    expect(extra.outcome).toEqual({ description: 'removed top-level member "requestId"' });
    expect(extra.after).toEqual([]);
  });

  it('drops a null id only from an error response', () => {
    const r = repairOnce(
      'envelope-id-invalid',
      'message',
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } },
      { version: '2025-11-25' },
    );
    expect(r.outcome).toEqual({
      description: 'removed "id": null from the error response (MCP omits an unreadable id)',
    });
    const latest = { version: '2025-11-25' } as const;
    expect(
      repairOnce('envelope-id-invalid', 'message', { jsonrpc: '2.0', id: null, result: ok }, latest).outcome,
    ).toBeUndefined();
    expect(
      repairOnce(
        'envelope-id-invalid',
        'message',
        { jsonrpc: '2.0', id: 1.5, error: { code: 1, message: 'x' } },
        latest,
      ).outcome,
    ).toBeUndefined();
  });
});

describe('an envelope repair handed a finding that no longer holds', () => {
  const repairStale = (ruleId: string, before: unknown, after: unknown, options: RunOptions = v) =>
    repairStaleIn(ruleId, 'message', before, after, options);

  it('declines rather than claim a fix it did not make', () => {
    const fixed = { jsonrpc: '2.0', id: 1, result: ok };
    expect(repairStale('envelope-jsonrpc-version', { id: 1, result: ok }, fixed)).toEqual({
      outcome: undefined,
      root: fixed,
    });
    expect(repairStale('envelope-extra-member', { ...fixed, requestId: 'a' }, fixed)).toEqual({
      outcome: undefined,
      root: fixed,
    });
    expect(
      repairStale('envelope-extra-member', { ...fixed, requestId: 'a' }, 'gone').outcome,
    ).toBeUndefined();
    for (const [rule, before] of [
      ['envelope-jsonrpc-version', { id: 1, result: ok }],
      ['envelope-error-invalid', { jsonrpc: '2.0', id: 1, error: 'boom' }],
      ['envelope-id-invalid', { jsonrpc: '2.0', id: null, error: { code: 1, message: 'x' } }],
    ] as const) {
      expect(repairStale(rule, before, 'gone', { version: '2025-11-25' }), rule).toEqual({
        outcome: undefined,
        root: 'gone',
      });
    }
    // The error was "boom" when checked and is an object now: no message id of an object error applies.
    const error = { jsonrpc: '2.0', id: 1, error: { code: 1, message: 'x' } };
    expect(repairStale('envelope-error-invalid', { ...error, error: 'boom' }, error)).toEqual({
      outcome: undefined,
      root: error,
    });
  });
});
