/**
 * envelope-not-serializable: what the official SDK does with an error response JSON cannot write, over a
 * real pipe (the claim of the rule's rationale), and that the validators report a message that cannot
 * be sent for what it holds besides its result.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/core/finding.js';
import { validateMessage, validateMessageSync } from '../../src/validate/index.js';
import { runs } from '../support/runs.js';
import { expectUnansweredCall } from '../support/unsent-answer.js';

/** A low-level SDK v1 server whose `quota` tool fails with an McpError carrying a BigInt in `data`. */
const SERVER = `
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
const server = new Server({ name: 'bigint-error', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [] }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  if (request.params.name === 'quota') throw new McpError(-32000, 'over quota', { used: 12n });
  return { content: [{ type: 'text', text: 'ok' }] };
});
await server.connect(new StdioServerTransport());
`;

const options = { protocolVersion: '2025-06-18' } as const;

const brief = (findings: readonly Finding[]) =>
  findings.map(({ rule, severity, pointer, message }) => ({ rule, severity, pointer, message }));

const only = (pointer: string, reason: string) => [
  {
    rule: 'envelope-not-serializable',
    severity: 'error',
    pointer,
    message: `the message cannot be serialized: ${reason}, so JSON.stringify throws and no client receives it`,
  },
];

/** `holder` with a member `key` whose getter throws, enumerable as a data member would be. */
function boom(holder: Record<string, unknown>, key: string): Record<string, unknown> {
  return Object.defineProperty(holder, key, {
    enumerable: true,
    get() {
      throw new Error('not readable');
    },
  });
}

const response = () => ({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'x' }] } });

describe('envelope-not-serializable', () => {
  it('is what the official SDK cannot send: the client gets no answer until its request times out', {
    timeout: 60_000,
  }, async () => {
    await expectUnansweredCall(SERVER, 'quota');
  });

  it('reports what JSON cannot write in an error response, the sync and async validators alike', async () => {
    let shared: unknown = [1];
    for (let i = 0; i < 60; i++) shared = [shared, shared];
    const cyclic: Record<string, unknown> = { reason: 'loop' };
    cyclic.self = cyclic;
    const cases: [unknown, string][] = [
      [{ used: 12n }, 'it holds a BigInt'],
      [cyclic, 'it holds a circular reference'],
      [shared, 'its JSON text would be longer than the longest string JavaScript can hold'],
    ];
    for (const [data, reason] of cases) {
      const message = { jsonrpc: '2.0', id: 7, error: { code: -32000, message: 'over quota', data } };
      expect(brief(validateMessageSync(message, options)), reason).toEqual(only('/error', reason));
      expect(brief(await validateMessage(message, options)), reason).toEqual(only('/error', reason));
    }
    // The same response as JSON can write it is clean: the rule asks of the value, not of the shape.
    const sendable = {
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32000, message: 'over quota', data: { used: 12 } },
    };
    expect(validateMessageSync(sendable, options)).toEqual([]);
    expect(await validateMessage(sendable, options)).toEqual([]);
  });

  it('a message whose own members throw when read has that one finding, and no failure of this validator', async () => {
    // A getter on `jsonrpc` or `id` threw out of the envelope rules: the answer was "rule … failed
    // internally and was skipped", an info, so a message that is never sent passed.
    const unreadable = 'reading one of its members throws';
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    const cases: [string, () => unknown, string, string][] = [
      ['a getter on jsonrpc', () => boom(response(), 'jsonrpc'), '/jsonrpc', unreadable],
      ['a getter on id', () => boom(response(), 'id'), '/id', unreadable],
      ['a getter on an extra member', () => boom(response(), 'trace'), '/trace', unreadable],
      [
        "a getter in error's data",
        () => ({ jsonrpc: '2.0', id: 1, error: boom({ code: 1 }, 'message') }),
        '/error',
        unreadable,
      ],
      ['a revoked proxy', () => revoked.proxy, '', unreadable],
      [
        "a proxy whose keys can't be read",
        () =>
          new Proxy(response(), {
            ownKeys() {
              throw new Error('no keys');
            },
          }),
        '',
        unreadable,
      ],
      [
        'its own toJSON, which throws',
        () => ({
          ...response(),
          toJSON() {
            throw new Error('no');
          },
        }),
        '',
        'a toJSON method throws',
      ],
    ];
    for (const [label, make, pointer, reason] of cases) {
      expect(() => JSON.stringify(make()), label).toThrow();
      for (const protocolVersion of ['2024-11-05', '2025-11-25'] as const) {
        expect(brief(validateMessageSync(make(), { protocolVersion })), label).toEqual(only(pointer, reason));
        expect(brief(await validateMessage(make(), { protocolVersion })), label).toEqual(
          only(pointer, reason),
        );
      }
    }
  });

  it('leaves the result to result-not-serializable: one finding for one cause', () => {
    const message = {
      jsonrpc: '2.0',
      id: 1,
      result: { content: [{ type: 'text', text: 'x' }], _meta: { n: 1n } },
    };
    expect(validateMessageSync(message, options).map((f) => `${f.rule} ${f.pointer}`)).toEqual([
      'result-not-serializable /result',
    ]);
  });

  it('never reports a message that JSON can write (every parsed message, every sendable value)', () => {
    const members = fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 });
    fc.assert(
      fc.property(members, fc.boolean(), (extra, asText) => {
        const value = { jsonrpc: '2.0', id: 1, error: { code: 1, message: 'm', data: extra }, ...extra };
        const message = asText ? JSON.parse(JSON.stringify(value)) : value;
        const rules = validateMessageSync(message, options).map((f) => f.rule);
        expect(rules).not.toContain('envelope-not-serializable');
      }),
      { numRuns: runs(300) },
    );
  });
});
