/**
 * ProxySession: one outcome per server frame, judged envelope first. Forwarded messages that need
 * nothing keep their exact text; JSON that is no JSON-RPC message is dropped with a reason; a repair
 * that cannot finish leaves the message unchanged and says why.
 */

import { describe, expect, it } from 'vitest';
import { ProxySession, type ServerOutcome } from '../../src/proxy/session.js';

const session = (budget?: number) =>
  new ProxySession({ protocolVersion: '2025-11-25', ...(budget === undefined ? {} : { budget }) });

function forwarded(outcome: ServerOutcome) {
  if (outcome.kind !== 'forward') throw new Error(`dropped: ${outcome.reason}`);
  return outcome;
}

describe('ProxySession', () => {
  it('forwards a message that needs nothing as the exact text it arrived as', async () => {
    const text =
      '{ "jsonrpc" : "2.0", "id": 1,\r"result": {"content": [{"type": "text", "text": "x"}], "_meta": {"n": 1.0, "e": 1E3}} }';
    const outcome = forwarded(await session().fromServer(text));
    expect(outcome.text).toBe(text);
    expect(outcome.fixes).toEqual([]);
    expect(outcome.reason).toBeUndefined();
  });

  for (const [text, reason] of [
    ['null', 'JSON but not a JSON-RPC message: null'],
    ['42', 'JSON but not a JSON-RPC message: a bare integer'],
    ['"ready"', 'JSON but not a JSON-RPC message: a bare string'],
    ['true', 'JSON but not a JSON-RPC message: a bare boolean'],
    ['[]', 'JSON but not a JSON-RPC message: an empty array'],
    ['[1, 2]', 'JSON but not a JSON-RPC message: an array that is not a batch of messages'],
    ['{}', 'JSON but not a JSON-RPC message: an object with none of method, id, result and error'],
    [
      '{"status":"ok"}',
      'JSON but not a JSON-RPC message: an object with none of method, id, result and error',
    ],
    ['Server listening on stdio', 'not JSON'],
    ['{"jsonrpc":"2.0","id":1,"result":', 'not JSON'],
    ['  \r', 'an empty line'],
  ] as const) {
    it(`drops ${JSON.stringify(text)}: ${reason}`, async () => {
      const outcome = await session().fromServer(text);
      expect(outcome).toMatchObject({ kind: 'drop', reason });
    });
  }

  it('repairs a notification carrying a stray result once, into a notification', async () => {
    const outcome = forwarded(
      await session().fromServer('{"jsonrpc":"2.0","method":"x","result":{"content":[]}}'),
    );
    expect(outcome.text).toBe('{"jsonrpc":"2.0","method":"x"}');
    expect(outcome.fixes.map((f) => f.rule)).toEqual(['envelope-result-and-error']);
  });

  it('repairs a message nested 100,000 levels deep that needs a repair, keeping the deep part', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const text = `{"jsonrpc":"2.0","id":1,"requestId":"r","result":{"content":[],"structuredContent":{"a":${deep}},"isError":true}}`;
    const outcome = forwarded(await session().fromServer(text));
    expect(outcome.fixes.map((f) => f.rule)).toContain('envelope-extra-member');
    expect(outcome.text).toContain(`{"a":${deep}}`);
    expect(outcome.text).not.toContain('requestId');
  });

  it('forwards a message unchanged, with the reason, when its repair runs out of budget', async () => {
    const text = '{"jsonrpc":"2.0","id":1,"requestId":"r","result":{"content":[{"type":"object","a":1}]}}';
    const outcome = forwarded(await session(1).fromServer(text));
    expect(outcome).toMatchObject({
      text,
      fixes: [],
      reason: 'left unchanged: repair needed more than 1 validation passes',
    });
  });

  it('forwards a message unchanged, with the reason, when an error is left that no repair can fix', async () => {
    const text = '{"jsonrpc":"2.0","requestId":"r","result":{"content":[]}}';
    const outcome = forwarded(await session().fromServer(text));
    expect(outcome.text).toBe(text);
    expect(outcome.reason).toMatch(/^left unchanged: no repair for envelope-id-invalid at \/id/);
  });

  it('learns pending requests, the negotiated version and tools from the conversation', async () => {
    const proxy = session();
    proxy.fromClient(
      '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}',
    );
    await proxy.fromServer(
      '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-03-26","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}',
    );
    expect(proxy.protocolVersion).toBe('2025-03-26');
    proxy.fromClient('{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"weather"}}');
    proxy.fromClient('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"other"}}');
    proxy.fromClient('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}');
    expect(proxy.pendingIds()).toEqual(['a']);
    // 2025-03-26 has no structuredContent: the object block becomes text, and the log names the tool.
    const outcome = forwarded(
      await proxy.fromServer(
        '{"jsonrpc":"2.0","id":"a","result":{"content":[{"type":"object","object":{"t":1}}]}}',
      ),
    );
    expect(outcome.answering).toEqual({ method: 'tools/call', tool: 'weather' });
    expect(JSON.parse(outcome.text)).toEqual({
      jsonrpc: '2.0',
      id: 'a',
      result: { content: [{ type: 'text', text: '{"t":1}' }] },
    });
    expect(proxy.pendingIds()).toEqual([]);
  });

  it('repairs each message of a batch and forwards the batch whole', async () => {
    const outcome = forwarded(
      await session().fromServer(
        '[{"jsonrpc":"2.0","id":1,"result":{},"requestId":1},{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":1}}]',
      ),
    );
    expect(JSON.parse(outcome.text)).toEqual([
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 1 } },
    ]);
  });
});
