#!/usr/bin/env node
/**
 * A raw NDJSON MCP server that controls how its bytes are cut, for the proxy's interleaving test. Each
 * tools/call of `ask` is met with, in order: a progress notification written alone; a log notification
 * and a second progress in one write; three requests to the client (sampling/createMessage with id
 * "s-1", elicitation/create with the id of the call itself, roots/list with id 0, the initialize
 * request's), the three in one write but the first cut across two; then, once the client has answered
 * all three, the answer to the call (its text the answers as received, its second block broken, for
 * the proxy to repair), written a few bytes at a time, a progress after it, and a last log line.
 */

import { createInterface } from 'node:readline';

const write = (text) =>
  new Promise((resolve) => {
    process.stdout.write(text, () => setImmediate(resolve));
  });

/** Client answers to the server's requests, by id, and who waits for them. */
const answers = new Map();
let waiting;

async function ask(call) {
  const id = JSON.stringify(call.id);
  const token = call.params?._meta?.progressToken;
  const progress = (n) =>
    `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: n, total: 3 } })}\n`;
  const log = (data) =>
    `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data } })}\n`;
  await write(progress(1));
  await write(log('working') + progress(2));
  const requests = [
    {
      jsonrpc: '2.0',
      id: 's-1',
      method: 'sampling/createMessage',
      params: { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 },
    },
    {
      jsonrpc: '2.0',
      id: call.id,
      method: 'elicitation/create',
      params: {
        message: 'name?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
      },
    },
    { jsonrpc: '2.0', id: 0, method: 'roots/list' },
  ]
    .map((request) => `${JSON.stringify(request)}\n`)
    .join('');
  const cut = 40;
  const answered = new Promise((resolve) => {
    waiting = resolve;
  });
  await write(requests.slice(0, cut));
  await write(requests.slice(cut));
  await answered;
  const received = ['s-1', call.id, 0].map((key) => answers.get(JSON.stringify(key)));
  const answer = `${JSON.stringify({
    jsonrpc: '2.0',
    id: call.id,
    result: { content: [{ type: 'text', text: JSON.stringify(received) }, { type: 'text' }] },
  })}\n`;
  for (let at = 0; at < answer.length; at += 7) await write(answer.slice(at, at + 7));
  await write(progress(3));
  await write(log(`done ${id}`));
}

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.method === 'initialize') {
    process.stdout.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { protocolVersion: message.params.protocolVersion, capabilities: { tools: {}, logging: {} }, serverInfo: { name: 'interleave', version: '1.0.0' } } })}\n`,
    );
  } else if (message.method === 'tools/call') void ask(message);
  else if (message.method === undefined) {
    answers.set(JSON.stringify(message.id), message);
    if (answers.size === 3) waiting?.();
  }
});
