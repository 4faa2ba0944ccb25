/**
 * ProxySession: one outcome per server frame, judged envelope first. Forwarded messages that need
 * nothing keep their exact text; JSON that is no JSON-RPC message is dropped with a reason; a repair
 * that cannot finish leaves the message unchanged and says why.
 */

import { describe, expect, it } from 'vitest';
import { outcomeLine, repairEvent } from '../../src/proxy/events.js';
import { AnswerReader } from '../../src/proxy/passed-answers.js';
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

  it('reads a message with method and result answering a pending request as that answer, dropping method', async () => {
    const proxy = session();
    proxy.fromClient('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t"}}');
    const outcome = forwarded(
      await proxy.fromServer(
        '{"jsonrpc":"2.0","id":2,"method":"x","params":{},"result":{"content":[{"type":"text","text":"a"}]}}',
      ),
    );
    expect(JSON.parse(outcome.text)).toEqual({
      jsonrpc: '2.0',
      id: 2,
      result: { content: [{ type: 'text', text: 'a' }] },
    });
    expect(outcome.fixes).toEqual([
      expect.objectContaining({
        rule: 'envelope-result-and-error',
        pointer: '/method',
        description: 'removed "method" ("x") from the answer to pending request 2',
      }),
    ]);
    expect(outcome.answering).toEqual({ method: 'tools/call', tool: 't' });
    expect(proxy.pendingIds()).toEqual([]);
    // The same message with no request waiting on its id is a request with a stray result.
    const unasked = forwarded(
      await session().fromServer('{"jsonrpc":"2.0","id":2,"method":"x","result":{"content":[]}}'),
    );
    expect(JSON.parse(unasked.text)).toEqual({ jsonrpc: '2.0', id: 2, method: 'x' });
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

  it('repairs each message of a batch and sends them one by one where the transport can, a batch of one as itself', () => {
    const text =
      '[{"jsonrpc":"2.0","id":1,"result":{},"requestId":1},{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":1}}]';
    const members = [
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 1 } },
    ];
    const split = forwarded(session().fromServer(text, { canSplit: true }));
    expect(split.split).toEqual(members);
    expect(split.text.split('\n').map((line) => JSON.parse(line))).toEqual(members);
    expect(split.fixes.map((f) => [f.rule, f.description])).toEqual([
      ['envelope-extra-member', 'removed top-level member "requestId"'],
      [
        'envelope-batch',
        'sent the 2 messages of the batch one by one: the official SDK clients drop a batch',
      ],
    ]);
    // An HTTP JSON body holds one message: the batch stays, and the log says why.
    const whole = forwarded(session().fromServer(text));
    expect(whole.split).toBeUndefined();
    expect(JSON.parse(whole.text)).toEqual(members);
    expect(whole.reason).toBe(
      'left as a batch: an HTTP JSON body holds one message; the TypeScript SDK clients read a batch there, the Python SDK client drops it (envelope-batch)',
    );
    // A batch of one is its message, on any transport, repaired or not.
    for (const hints of [{}, { canSplit: true }]) {
      const one = forwarded(session().fromServer('[{"jsonrpc":"2.0","id":1,"result":{}}]', hints));
      expect(one.split).toBeUndefined();
      expect(JSON.parse(one.text)).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
      expect(one.fixes.map((f) => f.rule)).toEqual(['envelope-batch']);
    }
  });

  it('keeps string and number ids apart: answering 1 leaves "1" pending, and a cancellation names one of them', () => {
    const proxy = session();
    proxy.fromClient('{"jsonrpc":"2.0","id":1,"method":"ping"}');
    proxy.fromClient('{"jsonrpc":"2.0","id":"1","method":"ping"}');
    proxy.fromClient('{"jsonrpc":"2.0","id":"c","method":"ping"}');
    proxy.fromClient('{"jsonrpc":"2.0","id":null,"method":"ping"}');
    proxy.fromServer('{"jsonrpc":"2.0","id":1,"result":{}}');
    expect(proxy.pendingIds()).toEqual(['1', 'c']);
    proxy.fromClient('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"c"}}');
    proxy.fromClient('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}');
    proxy.fromClient('{"jsonrpc":"2.0","method":"notifications/cancelled"}');
    proxy.fromClient('{"jsonrpc":"2.0","method":"notifications/other","params":{"requestId":"1"}}');
    expect(proxy.pendingIds()).toEqual(['1']);
    // A client batch teaches each member; a server request (method and id) answers nothing.
    proxy.fromClient(
      '[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","id":3,"method":"ping"},5,null]',
    );
    proxy.fromClient('null');
    proxy.fromServer('{"jsonrpc":"2.0","id":2,"method":"roots/list"}');
    proxy.fromClient('{"jsonrpc":"2.0","id":4,"result":{}}');
    expect(proxy.pendingIds()).toEqual(['1', 2, 3]);
  });

  describe('a message after a byte order mark', () => {
    it('goes out without the mark, judged and repaired as any other, and answers its request', () => {
      const proxy = session();
      proxy.fromClient(
        '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}',
      );
      const initialize = forwarded(
        proxy.fromServer(
          '\uFEFF{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}',
        ),
      );
      expect(initialize.text.charCodeAt(0)).toBe(0x7b);
      expect(JSON.parse(initialize.text)).toMatchObject({ id: 0, result: { protocolVersion: '2025-06-18' } });
      expect(initialize.fixes).toEqual([
        {
          rule: 'frame-not-json',
          pointer: '',
          description: 'byte order mark (U+FEFF) before the message dropped',
        },
      ]);
      expect(initialize.answering).toEqual({ method: 'initialize' });
      expect(proxy.protocolVersion).toBe('2025-06-18');
      expect(proxy.pendingIds()).toEqual([]);

      const broken = forwarded(
        proxy.fromServer('\uFEFF{"jsonrpc":"2.0","id":5,"requestId":"r","result":{}}'),
      );
      expect(broken.fixes.map((f) => f.rule)).toEqual(['frame-not-json', 'envelope-extra-member']);
      expect(JSON.parse(broken.text)).toEqual({ jsonrpc: '2.0', id: 5, result: {} });
    });

    it('is dropped as not JSON when no JSON follows the mark', () => {
      expect(session().fromServer('\uFEFFready')).toMatchObject({ kind: 'drop', reason: 'not JSON' });
      expect(session().fromServer('\uFEFF42')).toMatchObject({
        kind: 'drop',
        reason: 'JSON but not a JSON-RPC message: a bare integer',
      });
    });
  });

  describe('an answer whose id the server sent back with the other type', () => {
    it('gives "3" back as 3, the id the client sent, and judges it as the call it answers', () => {
      const proxy = session();
      proxy.fromClient('{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo"}}');
      const outcome = forwarded(
        proxy.fromServer('{"jsonrpc":"2.0","id":"3","result":{"content":[{"type":"text","text":"ok"}]}}'),
      );
      expect(JSON.parse(outcome.text)).toEqual({
        jsonrpc: '2.0',
        id: 3,
        result: { content: [{ type: 'text', text: 'ok' }] },
      });
      expect(outcome.fixes).toEqual([
        {
          rule: 'audit-response-id-converted',
          pointer: '/id',
          description: 'id "3" given back as 3, the id of the request it answers',
        },
      ]);
      expect(outcome.answering).toEqual({ method: 'tools/call', tool: 'echo' });
      expect(proxy.pendingIds()).toEqual([]);
    });

    it('gives 7 back as "7", and repairs the rest of the answer beside it', () => {
      const proxy = session();
      proxy.fromClient('{"jsonrpc":"2.0","id":"7","method":"tools/call","params":{"name":"echo"}}');
      const outcome = forwarded(
        proxy.fromServer(
          '{"jsonrpc":"2.0","id":7,"requestId":"r","result":{"content":[{"type":"text","text":"ok"}]}}',
        ),
      );
      expect(JSON.parse(outcome.text)).toMatchObject({ id: '7' });
      expect(JSON.parse(outcome.text)).not.toHaveProperty('requestId');
      expect(outcome.fixes.map((f) => f.rule)).toEqual([
        'audit-response-id-converted',
        'envelope-extra-member',
      ]);
      expect(proxy.pendingIds()).toEqual([]);
    });

    it('leaves an answer alone that matches no request either way, and one with its exact id', () => {
      const proxy = session();
      proxy.fromClient('{"jsonrpc":"2.0","id":3,"method":"ping"}');
      const stray = '{"jsonrpc":"2.0","id":"4","result":{}}';
      const strayOutcome = forwarded(proxy.fromServer(stray));
      expect(strayOutcome).toMatchObject({ text: stray, fixes: [] });
      expect(strayOutcome.reason).toBeUndefined();
      expect(proxy.pendingIds()).toEqual([3]);
      const named = '{"jsonrpc":"2.0","id":"x3","result":{}}';
      expect(forwarded(proxy.fromServer(named))).toMatchObject({ text: named, fixes: [] });
      expect(proxy.pendingIds()).toEqual([3]);
    });
  });

  it('judges answers under an id the client used again while it was pending by their shape, not as the last request', () => {
    const proxy = session();
    proxy.fromClient('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}');
    proxy.fromClient('{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
    const call = '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"called"}]}}';
    const list = '{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"t","inputSchema":{"type":"object"}}]}}';
    // Once judged as the answer to tools/list: it was given "tools": [].
    const first = forwarded(proxy.fromServer(call));
    expect(first).toMatchObject({ text: call, fixes: [] });
    expect(first.answering).toBeUndefined();
    expect(proxy.pendingIds()).toEqual([1]);
    expect(forwarded(proxy.fromServer(list))).toMatchObject({ text: list, fixes: [] });
    expect(proxy.pendingIds()).toEqual([]);
    // The id answered, the next request with it is known again.
    proxy.fromClient('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}');
    expect(forwarded(proxy.fromServer(call)).answering).toEqual({ method: 'tools/call', tool: 't' });
    // A cancellation settles one of them, as an answer does.
    proxy.fromClient('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t"}}');
    proxy.fromClient('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t"}}');
    proxy.fromClient('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}');
    expect(proxy.pendingIds()).toEqual([2]);
    expect(forwarded(proxy.fromServer(call.replace('"id":1', '"id":2'))).answering).toBeUndefined();
    expect(proxy.pendingIds()).toEqual([]);
  });

  it('names the request an answer is for: the tool of a call, the method of anything else', () => {
    const proxy = session();
    const answering = (request: string, id: number) => {
      proxy.fromClient(request);
      return forwarded(proxy.fromServer(`{"jsonrpc":"2.0","id":${id},"requestId":"r","result":{}}`))
        .answering;
    };
    expect(answering('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}', 1)).toEqual({
      method: 'tools/call',
      tool: 't',
    });
    expect(answering('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":3}}', 2)).toEqual({
      method: 'tools/call',
    });
    expect(answering('{"jsonrpc":"2.0","id":3,"method":"tools/call"}', 3)).toEqual({ method: 'tools/call' });
    expect(answering('{"jsonrpc":"2.0","id":4,"method":"prompts/get","params":{"name":"p"}}', 4)).toEqual({
      method: 'prompts/get',
    });
    expect(answering('{"jsonrpc":"2.0","id":5,"method":"ping"}', 6)).toBeUndefined();
  });

  it("learns the tools' outputSchemas from a tools/list answer and holds their results to them", () => {
    const call = '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t"}}';
    const result = '{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"hi"}]}}';
    const taught = session();
    taught.fromClient('{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
    taught.fromServer(
      '{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"t","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"n":{"type":"number"}},"required":["n"]}}]}}',
    );
    taught.fromClient(call);
    expect(forwarded(taught.fromServer(result)).fixes.map((f) => f.rule)).toEqual([
      'structured-content-missing-for-output-schema',
    ]);
    // Without the listing, nothing says the tool has an outputSchema; a listing answering another
    // method teaches nothing either.
    const untaught = session();
    untaught.fromClient('{"jsonrpc":"2.0","id":1,"method":"prompts/list"}');
    untaught.fromServer(
      '{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"t","inputSchema":{"type":"object"},"outputSchema":{"type":"object","required":["n"]}}],"prompts":[]}}',
    );
    untaught.fromClient(call);
    expect(forwarded(untaught.fromServer(result)).fixes).toEqual([]);
  });

  it('keeps a fixed version whatever the conversation or a transport declares', () => {
    const fixed = new ProxySession({ protocolVersion: '2025-11-25', fixedVersion: true });
    fixed.fromClient(
      '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}',
    );
    fixed.declareVersion('2025-06-18');
    expect(fixed.protocolVersion).toBe('2025-11-25');
    const free = session();
    free.declareVersion('2025-06-18');
    expect(free.protocolVersion).toBe('2025-06-18');
    // The client's initialize states its version before any answer.
    free.fromClient(
      '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}',
    );
    expect(free.protocolVersion).toBe('2025-03-26');
    expect(forwarded(free.fromServer('{"jsonrpc":"2.0","method":"m"}')).protocolVersion).toBe('2025-03-26');
    expect(free.fromServer('oops')).toMatchObject({ kind: 'drop', protocolVersion: '2025-03-26' });
  });

  it('counts the other errors it could not repair', () => {
    // Both a result and an error, and no id: only the request knows either. (The broken image is
    // repairable, and not counted.)
    const outcome = forwarded(
      session().fromServer(
        '{"jsonrpc":"2.0","requestId":"r","result":{"content":[{"type":"image","data":"!!"}]},"error":{"code":1,"message":"x"}}',
      ),
    );
    expect(outcome.reason).toBe(
      'left unchanged: no repair for envelope-id-invalid at /id: the response has no "id" (and 1 more)',
    );
  });

  it('forwards a batch unchanged, with the first reason, when no member could be repaired', () => {
    const text = '[{"jsonrpc":"2.0","requestId":"r","result":{}},{"jsonrpc":"2.0","id":5,"result":{}}]';
    const outcome = forwarded(session().fromServer(text));
    expect(outcome).toMatchObject({
      text,
      fixes: [],
      reason:
        'left unchanged: no repair for envelope-id-invalid at /id: the response has no "id"; left as a batch: an HTTP JSON body holds one message; the TypeScript SDK clients read a batch there, the Python SDK client drops it (envelope-batch)',
    });
    // Split, each message goes as it came.
    const split = forwarded(session().fromServer(text, { canSplit: true }));
    expect(split.split).toEqual(JSON.parse(text));
    expect(split.fixes.map((f) => f.rule)).toEqual(['envelope-batch']);
    expect(split.reason).toBe(
      'left unchanged: no repair for envelope-id-invalid at /id: the response has no "id"',
    );
  });

  it('repairs the members of a batch it can, keeps the others as sent, and says why', () => {
    const outcome = forwarded(
      session().fromServer(
        '[{"jsonrpc":"2.0","requestId":"r","result":{}},{"jsonrpc":"2.0","id":5,"requestId":"r","result":{}}]',
      ),
    );
    expect(JSON.parse(outcome.text)).toEqual([
      { jsonrpc: '2.0', requestId: 'r', result: {} },
      { jsonrpc: '2.0', id: 5, result: {} },
    ]);
    expect(outcome.fixes.map((f) => f.rule)).toEqual(['envelope-extra-member']);
    expect(outcome.reason).toBe(
      'left unchanged: no repair for envelope-id-invalid at /id: the response has no "id"; left as a batch: an HTTP JSON body holds one message; the TypeScript SDK clients read a batch there, the Python SDK client drops it (envelope-batch)',
    );
    expect(outcome.message).toEqual([
      { jsonrpc: '2.0', requestId: 'r', result: {} },
      { jsonrpc: '2.0', id: 5, requestId: 'r', result: {} },
    ]);
  });

  it('gives a repaired outcome the value it repaired, builds its text once, and keeps what the server sent', () => {
    const text = '{"jsonrpc":"2.0","id":1,"requestId":"r","result":{}}';
    const outcome = forwarded(session().fromServer(text));
    expect(outcome.repaired).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    expect(outcome.message).toEqual(JSON.parse(text));
    expect(outcome.text).toBe(outcome.text);
    expect(outcome.text).toBe('{"jsonrpc":"2.0","id":1,"result":{}}');
    expect(outcome.reason).toBeUndefined();
    expect(outcome.answering).toBeUndefined();
    expect(Object.keys(outcome)).not.toContain('reason');
  });

  it('names the request an unchanged answer is for, and gives a dropped frame no message when it was no JSON', () => {
    const proxy = session(1);
    proxy.fromClient('{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"t"}}');
    const outcome = forwarded(
      proxy.fromServer(
        '{"jsonrpc":"2.0","id":"x","requestId":"r","result":{"content":[{"type":"object","a":1}]}}',
      ),
    );
    expect(outcome.answering).toEqual({ method: 'tools/call', tool: 't' });
    expect(outcome.reason).toBe('left unchanged: repair needed more than 1 validation passes');
    expect(Object.keys(proxy.fromServer('not json'))).toEqual(['kind', 'reason', 'protocolVersion']);
    expect(proxy.fromServer('7')).toMatchObject({ kind: 'drop', message: 7 });
    // A message that needs nothing carries no reason and names nothing it does not answer.
    expect(Object.keys(forwarded(proxy.fromServer('{"jsonrpc":"2.0","method":"m"}'))).sort()).toEqual([
      'fixes',
      'kind',
      'message',
      'protocolVersion',
      'text',
    ]);
  });
});

describe('ProxySession: a message passed on unjudged', () => {
  const call = (id: unknown) =>
    JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 't' } });
  /** What the transports do: the message read as it passes (passed-answers.ts), then handed over. */
  const pass = (session: ProxySession, message: string) => {
    const reader = new AnswerReader();
    reader.feed(message);
    session.passedUnjudged(reader.answers());
  };

  it('answers the requests it names, wherever the id stands, a result or an error', () => {
    const session = new ProxySession({ protocolVersion: '2025-11-25' });
    for (const id of [1, 'a"b', -2, 4, 6, 'x']) session.fromClient(call(id));
    pass(session, '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"xxxx"}]}}');
    pass(session, ' { "id" : "a\\"b" , "error": {"code":1,"message":"m"}}');
    pass(session, '{"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"xx"}]},"id":4}\n');
    // Neither first nor last: the reader that replaced the head and tail patterns finds it.
    pass(session, '{"jsonrpc":"2.0","result":{"content":[]},"id":6,"_meta":{}}');
    session.passedUnjudged(['x', 99, null]);
    expect(session.pendingIds()).toEqual([-2]);
  });

  it('answers nothing for a request of its own, an id inside the result, or a message cut short', () => {
    const session = new ProxySession({ protocolVersion: '2025-11-25' });
    for (const id of [3, 7, 8, 9]) session.fromClient(call(id));
    pass(session, '{"jsonrpc":"2.0","id":3,"method":"sampling/createMessage","params":{}}');
    pass(session, '{"jsonrpc":"2.0","id":3');
    pass(session, '{"jsonrpc":"2.0","result":{"content":[],"meta":{"id":7}}}');
    pass(session, '{"jsonrpc":"2.0","method":"sampling/createMessage","params":{"x":""},"id":8}');
    pass(session, '{"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"xx \\",\\"id\\":9}"}]}}');
    expect(session.pendingIds()).toEqual([3, 7, 8, 9]);
  });
});

describe('ProxySession: what it learns from tools/list answers', () => {
  const schema = '{"type":"object","properties":{"n":{"type":"number"}},"required":["n"]}';
  const tool = (name: unknown) =>
    JSON.stringify({ name, inputSchema: { type: 'object' }, outputSchema: JSON.parse(schema) });
  /** The rules a plain text result of `name` draws, once the session has seen `answers` to tools/list. */
  const rulesFor = (name: string, answers: readonly string[]) => {
    const proxy = session();
    answers.forEach((answer, index) => {
      proxy.fromClient(`{"jsonrpc":"2.0","id":${index},"method":"tools/list"}`);
      proxy.fromServer(answer.replace('ID', String(index)));
    });
    proxy.fromClient(`{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"${name}"}}`);
    const result = '{"jsonrpc":"2.0","id":"c","result":{"content":[{"type":"text","text":"hi"}]}}';
    return forwarded(proxy.fromServer(result)).fixes.map((f) => f.rule);
  };
  const MISSING = ['structured-content-missing-for-output-schema'];

  it('keeps every tool of every listing', () => {
    const first = `{"jsonrpc":"2.0","id":ID,"result":{"tools":[${tool('a')},${tool('c')}]}}`;
    const second = `{"jsonrpc":"2.0","id":ID,"result":{"tools":[${tool('b')}]}}`;
    for (const name of ['a', 'b', 'c']) expect(rulesFor(name, [first, second])).toEqual(MISSING);
    expect(rulesFor('d', [first, second])).toEqual([]);
  });

  it('learns nothing from an error answer, or from a listing it could not repair, and forwards them as sent', () => {
    const proxy = session();
    for (const [id, answer] of [
      [1, '{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}'],
      [2, `{"jsonrpc":"2.0","id":2,"result":{"tools":[${tool(3)},${tool('a')}]}}`],
    ] as const) {
      proxy.fromClient(`{"jsonrpc":"2.0","id":${id},"method":"tools/list"}`);
      const outcome = forwarded(proxy.fromServer(answer));
      expect(outcome.text).toBe(answer);
      expect(outcome.reason === undefined).toBe(id === 1);
    }
    proxy.fromClient('{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"a"}}');
    const result = '{"jsonrpc":"2.0","id":"c","result":{"content":[{"type":"text","text":"hi"}]}}';
    expect(forwarded(proxy.fromServer(result)).fixes).toEqual([]);
  });
});

describe('ProxySession: reasons', () => {
  it('says (root) for an error it cannot repair at the root of the message', () => {
    expect(forwarded(session().fromServer('{"jsonrpc":"2.0","id":1}')).reason).toBe(
      'left unchanged: no repair for envelope-result-and-error at (root): the response has neither "result" nor "error"',
    );
  });
});

describe('outcomeLine and repairEvent', () => {
  const proxy = session(1);
  const unchanged = (request: string | undefined, answer: string) => {
    if (request) proxy.fromClient(request);
    return proxy.fromServer(answer);
  };
  const stuck = (id: string) =>
    `{"jsonrpc":"2.0","id":"${id}","requestId":"r","result":{"content":[{"type":"object","a":1}]}}`;

  it('names the frame, the version, the request and the reason', () => {
    const budget = 'left unchanged: repair needed more than 1 validation passes';
    expect(
      outcomeLine(
        unchanged('{"jsonrpc":"2.0","id":"t","method":"tools/call","params":{"name":"w"}}', stuck('t')),
        'x',
        '[s] ',
      ),
    ).toBe(`[s] [2025-11-25] tools/call w: ${budget}`);
    expect(
      outcomeLine(unchanged('{"jsonrpc":"2.0","id":"p","method":"ping"}', '{"jsonrpc":"2.0","id":"p"}'), 'x'),
    ).toBe(
      '[2025-11-25] ping: left unchanged: no repair for envelope-result-and-error at (root): the response has neither "result" nor "error"',
    );
    expect(outcomeLine(unchanged(undefined, stuck('none')), 'x')).toBe(`[2025-11-25] message: ${budget}`);
    expect(outcomeLine(proxy.fromServer('oops'), 'oops')).toBe('server sent not JSON, not forwarded: oops');
    expect(outcomeLine(proxy.fromServer('7'), 'seven', '[c] ')).toBe(
      '[c] server sent JSON but not a JSON-RPC message: a bare integer, not forwarded: seven',
    );
    expect(outcomeLine(proxy.fromServer('{"jsonrpc":"2.0","method":"m"}'), 'x')).toBeUndefined();
  });

  it('reports a repair with what it answered and where, and nothing it does not know', () => {
    const repairs = session();
    const fix = (request: string | undefined, id: string) => {
      if (request) repairs.fromClient(request);
      return forwarded(repairs.fromServer(`{"jsonrpc":"2.0","id":"${id}","requestId":"r","result":{}}`));
    };
    const call = fix('{"jsonrpc":"2.0","id":"1","method":"tools/call","params":{"name":"w"}}', '1');
    expect(repairEvent(call, 'abc')).toStrictEqual({
      fixes: call.fixes,
      protocolVersion: '2025-11-25',
      method: 'tools/call',
      tool: 'w',
      connection: 'abc',
    });
    const ping = fix('{"jsonrpc":"2.0","id":"2","method":"ping"}', '2');
    expect(repairEvent(ping)).toStrictEqual({
      fixes: ping.fixes,
      protocolVersion: '2025-11-25',
      method: 'ping',
    });
    const stray = fix(undefined, '3');
    expect(stray.fixes).not.toEqual([]);
    expect(repairEvent(stray, '')).toStrictEqual({ fixes: stray.fixes, protocolVersion: '2025-11-25' });
  });
});
