import { describe, expect, it } from 'vitest';
import { hits, repairOnce } from './helpers.js';

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

describe('envelope-batch', () => {
  const batch = [
    { jsonrpc: '2.0', id: 1, result: ok },
    { jsonrpc: '2.0', id: 2, result: ok },
  ];
  it('allows batches only in 2025-03-26', () => {
    expect(hits('envelope-batch', 'message', batch, { version: '2025-03-26' })).toEqual([]);
    for (const version of ['2024-11-05', '2025-06-18', '2025-11-25', '2026-07-28'] as const) {
      expect(hits('envelope-batch', 'message', batch, { version })).toEqual([['default', '']]);
    }
  });
});
