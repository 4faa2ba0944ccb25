#!/usr/bin/env node
/**
 * A raw NDJSON MCP server for the proxy's stress test: for every call of the `work` tool it writes a
 * burst of mixed messages (progress and log notifications, server requests, a cancellation, envelope
 * confusion, lines that are not JSON-RPC at all) and then its answer, good or broken in one of several
 * ways, large or deeply nested. Every JSON-RPC message it sends carries a sequence number in `_meta.seq`
 * (of `result` or of `params`), and the `stats` tool returns the sequence numbers sent so far and how
 * many server requests the client answered, so the test can check that each message arrived exactly
 * once and in order. A call is answered after a short delay when its `variant` is "slow", and not at all
 * if the client cancels it first.
 */

import { createInterface } from 'node:readline';

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

let seq = 0;
const sent = [];
let answeredPings = 0;
let serverRequests = 0;
const cancelled = new Set();

function write(line) {
  process.stdout.write(`${line}\n`);
}

/** Sends a JSON-RPC message, stamping its sequence number where the envelope allows `_meta`. */
function send(message, { stray } = {}) {
  const n = ++seq;
  if (message.result === undefined && message.params === undefined) message.params = {};
  const body = message.result ?? message.params;
  body._meta = { ...(body._meta ?? {}), seq: n };
  sent.push(n);
  write(JSON.stringify({ ...message, ...(stray ?? {}) }));
}

function nested(depth) {
  let value = { leaf: true };
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

function answer(request) {
  const { n = 0, variant = 'good' } = request.params?.arguments ?? {};
  const respond = (result, stray) => send({ jsonrpc: '2.0', id: request.id, result }, { stray });
  switch (variant) {
    case 'stray-member':
      return respond({ content: [{ type: 'text', text: `ok ${n}` }] }, { requestId: String(request.id) });
    case 'object-block':
      return respond({ content: [{ type: 'object', object: { n } }] });
    case 'data-uri-image':
      return respond({ content: [{ type: 'image', data: `data:image/png;base64,${PNG}` }] });
    case 'error-payload':
      return respond({ content: [{ type: 'text', text: JSON.stringify({ error: `no such item ${n}` }) }] });
    case 'method-beside-result':
      // The answer to the call, also naming a method: read as a request, it would never answer it.
      return respond({ content: [{ type: 'text', text: `ok ${n}` }] }, { method: 'tools/call' });
    case 'bad-progress-token':
      // The SDK's ResultSchema types `_meta.progressToken`: its parse drops the whole answer.
      return respond({ content: [{ type: 'text', text: `ok ${n}` }], _meta: { progressToken: { n } } });
    case 'large':
      return respond({ content: [{ type: 'text', text: `${n}:${'x'.repeat(1 << 20)}` }] });
    case 'deep':
      return respond(
        { content: [{ type: 'text', text: 'deep' }], structuredContent: nested(3000) },
        { requestId: 'deep' },
      );
    default:
      return respond({ content: [{ type: 'text', text: `ok ${n}` }] });
  }
}

function work(request) {
  const { n = 0, variant = 'good' } = request.params?.arguments ?? {};
  const token = request.params?._meta?.progressToken;
  if (token !== undefined) {
    send({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: token, progress: 1, total: 2 },
    });
  }
  send({
    jsonrpc: '2.0',
    method: 'notifications/message',
    params: { level: 'info', data: `working on ${n}` },
  });
  if (n % 5 === 0) {
    serverRequests++;
    send({ jsonrpc: '2.0', id: `s-${n}`, method: 'ping' });
  }
  if (n % 7 === 0) {
    // A notification that also carries a result: the proxy must drop the stray member once.
    send(
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'debug', data: `confused ${n}` } },
      { stray: { result: { content: [] } } },
    );
  }
  if (n % 11 === 0) write(`server log line ${n} (not JSON-RPC)`);
  if (n % 13 === 0) write('42');
  if (n % 17 === 0) {
    send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: `never-sent-${n}` } });
  }
  if (token !== undefined) {
    send({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: token, progress: 2, total: 2 },
    });
  }
  if (variant === 'slow') {
    setTimeout(() => {
      if (!cancelled.has(request.id)) answer(request);
    }, 200);
    return;
  }
  answer(request);
}

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.method === undefined) {
    if (typeof message.id === 'string' && message.id.startsWith('s-')) answeredPings++;
    return;
  }
  switch (message.method) {
    case 'initialize':
      return send(
        {
          jsonrpc: '2.0',
          id: message.id,
          result: {
            protocolVersion: message.params.protocolVersion,
            capabilities: { tools: {}, logging: {} },
            serverInfo: { name: 'stress-server', version: '1.0.0' },
          },
        },
        { stray: { requestId: 'init' } },
      );
    case 'notifications/cancelled':
      cancelled.add(message.params?.requestId);
      return;
    case 'tools/list':
      return send({
        jsonrpc: '2.0',
        id: message.id,
        result: {
          tools: [
            { name: 'work', inputSchema: { type: 'object' } },
            { name: 'stats', inputSchema: { type: 'object' } },
          ],
        },
      });
    case 'tools/call':
      if (message.params?.name === 'stats') {
        // Its own number is the next one: the answer lists itself as the last message sent.
        const stats = { sent: [...sent, seq + 1], answeredPings, serverRequests };
        return send({
          jsonrpc: '2.0',
          id: message.id,
          result: { content: [{ type: 'text', text: JSON.stringify(stats) }] },
        });
      }
      return work(message);
    default:
      // Not numbered: an error response has no member that may carry `_meta`.
      if (message.id !== undefined) {
        write(
          JSON.stringify({
            jsonrpc: '2.0',
            id: message.id,
            error: { code: -32601, message: 'Method not found' },
          }),
        );
      }
  }
});
