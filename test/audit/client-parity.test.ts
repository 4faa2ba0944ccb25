/**
 * The audit speaks to a server as the official SDK clients do, where how they speak decides whether a
 * call works: a server that fails them must not pass the audit (a false pass is the worst bug).
 */

import { describe, expect, it } from 'vitest';
import { runAudit } from '../../src/audit/run.js';
import { answeringServer } from '../support/line-server.js';
import { errors, places } from './support.js';

/** A raw stdio server (for `node -e`): `answer(m)` is the result for request `m`; `skip(m)` ignores one. */
function server(answer: string, skip = 'false'): string {
  return answeringServer(`
    if (${skip}) continue;
    const result = m.method === 'initialize'
      ? { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'parity', version: '1' } }
      : (${answer});
    process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result }) + '\\n');`);
}

const audit = (script: string, timeoutMs = 60_000) =>
  runAudit({
    target: { kind: 'stdio', command: process.execPath, args: ['-e', script] },
    versions: ['2025-06-18'],
    callAll: true,
    timeoutMs,
  });

const TOOL = { name: 'a', inputSchema: { type: 'object' } };

describe('the audit as the official SDK clients speak', { timeout: 60_000 }, () => {
  it('numbers its requests from 0: a server that takes id 0 for a notification answers no SDK client', async () => {
    // `if (!m.id)`: the SDK clients' initialize (id 0) is never answered, so they never connect.
    const falsy = server(`{ tools: [${JSON.stringify(TOOL)}], content: [] }`, '!m.id');
    await expect(audit(falsy, 1500)).rejects.toThrow(/no handshake completed/);
    // The same server answering every id passes.
    const report = await audit(
      server(`m.method === 'tools/list' ? { tools: [${JSON.stringify(TOOL)}] } : { content: [] }`),
    );
    expect(errors(report)).toEqual([]);
  });

  it('judges a tool listed twice by the definition whose outputSchema the SDK clients check', async () => {
    // "a" with an outputSchema, then "a" without: the SDK clients keep the outputSchema and reject a
    // result without structuredContent.
    const withSchema = { ...TOOL, outputSchema: { type: 'object', properties: { x: { type: 'number' } } } };
    const twice = server(
      `m.method === 'tools/list' ? { tools: ${JSON.stringify([withSchema, TOOL])} } : { content: [{ type: 'text', text: 'hi' }] }`,
    );
    const report = await audit(twice);
    expect(
      places(report)
        .filter((f) => f.severity === 'error')
        .map((f) => [f.rule, f.location?.tool]),
    ).toEqual([['structured-content-missing-for-output-schema', 'a']]);
  });
});
