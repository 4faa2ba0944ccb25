/**
 * A capture that holds only a client's requests (the wrong end of a pipe teed) has nothing a server
 * sent: check says so in every format and does not read as a pass, as scan skips when it finds no
 * server. It exits 0: nothing was found wrong, nothing was checked.
 */

import { describe, expect, it } from 'vitest';
import { checkWithMatrix, parseInput } from '../../src/check/index.js';
import { CLI_TEST_TIMEOUT, runCli } from '../support/cli.js';
import { scratchDir } from '../support/scratch.js';

const { file } = scratchDir('no-server-message');

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
};
const CALL = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get' } };
const lines = (...messages: unknown[]) => messages.map((m) => JSON.stringify(m)).join('\n');

async function outcome(text: string, session = true) {
  return checkWithMatrix(parseInput(text, { session }), { file: 'c.jsonl' });
}

describe('check of an input with no server message', () => {
  it('marks a session of client requests only, recorded or not, and a single request', async () => {
    expect((await outcome(lines(INITIALIZE, CALL))).noServerMessage).toBe(true);
    const recorded = lines({ time: 't', from: 'client', message: CALL });
    expect((await outcome(recorded)).noServerMessage).toBe(true);
    expect((await outcome(JSON.stringify(CALL), false)).noServerMessage).toBe(true);
    expect((await outcome(JSON.stringify([INITIALIZE, CALL]), false)).noServerMessage).toBe(true);
  });

  it('reads a batch one level deep: arrays nested thousands deep are no messages, and no stack overflow', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    expect((await outcome(deep, false)).noServerMessage).toBeUndefined();
    expect((await outcome(JSON.stringify([[CALL]]), false)).noServerMessage).toBeUndefined();
  });

  it('does not mark what a server sends or may have sent', async () => {
    const response = { jsonrpc: '2.0', id: 2, result: { content: [] } };
    expect((await outcome(lines(CALL, response))).noServerMessage).toBeUndefined();
    // A server sends pings, sampling requests and notifications too; unrecorded, they may be its.
    const ping = { jsonrpc: '2.0', id: 9, method: 'ping' };
    expect((await outcome(lines(CALL, ping))).noServerMessage).toBeUndefined();
    expect((await outcome(lines(CALL, 'banner'))).noServerMessage).toBeUndefined();
    expect(
      (await outcome(lines({ time: 't', from: 'server', message: ping }))).noServerMessage,
    ).toBeUndefined();
  });

  it(
    'reads as skipped, not passed, in every format, and exits 0',
    async () => {
      const path = file('requests.jsonl', `${lines(INITIALIZE, CALL)}\n`);
      const said = 'nothing a server sent was checked: the input holds only client requests';
      const text = await runCli(['check', path]);
      expect(text.code).toBe(0);
      expect(text.stdout).toMatch(/^➖ .*nothing a server sent was checked/m);
      expect(text.stdout).not.toContain('✔');
      const json = await runCli(['check', path, '--format', 'json']);
      expect(JSON.parse(json.stdout).summary.noServerMessage).toBe(true);
      const junit = await runCli(['check', path, '--format', 'junit']);
      expect(junit.stdout).toContain(`<skipped message="${said}"/>`);
      expect(junit.stdout).toContain('tests="1" failures="0" errors="0" skipped="1"');
      const markdown = await runCli(['check', path, '--format', 'markdown']);
      expect(markdown.stdout.split('\n')[0]).toContain(`➖ 0 errors, 0 warnings in 2 documents: ${said}`);
      const html = await runCli(['check', path, '--format', 'html']);
      expect(html.stdout).toContain('data-run="skipped"');
    },
    CLI_TEST_TIMEOUT,
  );
});
