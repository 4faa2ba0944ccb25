#!/usr/bin/env node
/**
 * A stdio server that answers each request with the result text given as its first argument, under
 * the request's id as the client wrote it: numbers written as JSON.parse cannot give back (1e400, -0,
 * 1.0, digits past a double's), for the proxy's tests that a repaired message keeps them. A second
 * argument N puts a text block of N characters first in the result's content (a message written in
 * pieces: write.ts).
 */

import { createInterface } from 'node:readline';

const pad = Number(process.argv[3] ?? 0);
const result =
  pad > 0
    ? process.argv[2].replace('"content":[', `"content":[{"type":"text","text":"${'x'.repeat(pad)}"},`)
    : process.argv[2];
createInterface({ input: process.stdin }).on('line', (line) => {
  if (!line.includes('"method"') || !line.includes('"id"')) return;
  const id = /"id":([^,}]*)/.exec(line)?.[1];
  process.stdout.write(`{"jsonrpc":"2.0","id":${id},"result":${result}}\n`);
});
