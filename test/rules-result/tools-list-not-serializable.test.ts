/**
 * tools-list-not-serializable: what the official SDK does with a tools/list result JSON cannot write,
 * over a real pipe (the claim of the rule's rationale), and that the validators report such a list
 * (a server's tool definitions, checked before it serves them) at the tool that holds the cause.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/core/finding.js';
import { runMessage, runToolsList } from '../../src/validate/engine.js';
import { validateMessageSync, validateToolsList, validateToolsListSync } from '../../src/validate/index.js';
import { runs } from '../support/runs.js';
import { expectUnanswered } from '../support/unsent-answer.js';

/** A low-level SDK v1 server whose tools/list result carries a BigInt in a tool's `_meta`. */
const SERVER = `
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
const server = new Server({ name: 'bigint-tools', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [{ name: 'fine', inputSchema: { type: 'object' }, _meta: { maxRows: 10000n } }],
}));
server.setRequestHandler(CallToolRequestSchema, async () => ({ content: [{ type: 'text', text: 'ok' }] }));
await server.connect(new StdioServerTransport());
`;

const options = { protocolVersion: '2025-06-18' } as const;

const brief = (findings: readonly Finding[]) =>
  findings.map(({ rule, severity, pointer, message }) => ({ rule, severity, pointer, message }));

const only = (pointer: string, reason: string) => [
  {
    rule: 'tools-list-not-serializable',
    severity: 'error',
    pointer,
    message: `the tools/list result cannot be serialized: ${reason}, so JSON.stringify throws and no client receives it`,
  },
];

const UNREADABLE = 'reading one of its members throws';

function boom(holder: Record<string, unknown>, key: string): Record<string, unknown> {
  return Object.defineProperty(holder, key, {
    enumerable: true,
    get() {
      throw new Error('not readable');
    },
  });
}

const tool = (name: string) => ({ name, inputSchema: { type: 'object' } });

describe('tools-list-not-serializable', () => {
  it('is what the official SDK cannot send: the client learns no tool until its request times out', {
    timeout: 60_000,
  }, async () => {
    await expectUnanswered(SERVER, (client, requestOptions) => client.listTools(undefined, requestOptions));
  });

  it('reports what JSON cannot write in a tool definition, at that tool, the sync and async validators alike', async () => {
    let shared: unknown = [1];
    for (let i = 0; i < 60; i++) shared = [shared, shared];
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.properties = { self: cyclic };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...tool('count'), _meta: { maxRows: 10_000n } }, 'it holds a BigInt'],
      [
        { ...tool('count'), annotations: { title: 'Count', hints: shared } },
        'its JSON text would be longer than the longest string JavaScript can hold',
      ],
      [{ name: 'count', inputSchema: cyclic }, 'it holds a circular reference'],
    ];
    for (const [broken, reason] of cases) {
      const list = { tools: [tool('first'), broken] };
      const errors = (findings: readonly Finding[]) =>
        brief(findings).filter((f) => f.rule === 'tools-list-not-serializable');
      expect(errors(validateToolsListSync(list, options)), reason).toEqual(only('/tools/1', reason));
      expect(errors(await validateToolsList(list, options)), reason).toEqual(only('/tools/1', reason));
    }
    const sendable = { tools: [tool('first'), { ...tool('count'), _meta: { maxRows: 10_000 } }] };
    expect(validateToolsListSync(sendable, options)).toEqual([]);
  });

  it('a list whose members throw when read has that one finding, and no failure of this validator', async () => {
    // A getter on a tool's name threw out of the tool rules: the answer was two infos ("rule … failed
    // internally and was skipped"), so a list that is never sent passed; a getter on `tools` was an
    // internal error.
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    const cases: [string, () => unknown, string][] = [
      [
        "a getter on a tool's name",
        () => ({ tools: [tool('a'), boom({ inputSchema: { type: 'object' } }, 'name')] }),
        '/tools/1',
      ],
      ['a getter on tools', () => boom({}, 'tools'), '/tools'],
      ['a revoked proxy for the list', () => revoked.proxy, ''],
      ['a revoked proxy for a tool', () => ({ tools: [revoked.proxy] }), '/tools/0'],
      [
        'tools whose length throws',
        () => ({
          tools: new Proxy([tool('a')], {
            get(target, key, receiver) {
              if (key === 'length') throw new Error('no length');
              return Reflect.get(target, key, receiver);
            },
          }),
        }),
        '/tools',
      ],
    ];
    for (const [label, make, pointer] of cases) {
      expect(() => JSON.stringify(make()), label).toThrow();
      for (const protocolVersion of ['2024-11-05', '2025-11-25'] as const) {
        expect(brief(validateToolsListSync(make(), { protocolVersion })), label).toEqual(
          only(pointer, UNREADABLE),
        );
        expect(brief(await validateToolsList(make(), { protocolVersion })), label).toEqual(
          only(pointer, UNREADABLE),
        );
      }
    }
  });

  it('judges a tools/list response message the same way, at the tool', () => {
    const message = { jsonrpc: '2.0', id: 1, result: { tools: [{ ...tool('count'), _meta: { n: 1n } }] } };
    const request = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    expect(
      validateMessageSync(message, { ...options, request }).map((f) => `${f.rule} ${f.pointer}`),
    ).toEqual(['tools-list-not-serializable /result/tools/0']);
  });

  it('says nothing of a writable list even where the run was told it may not be (the engine alone)', () => {
    const list = { tools: [tool('a'), { ...tool('b'), _meta: { n: 1 } }], nextCursor: 'c' };
    expect(runToolsList(list, { version: '2025-06-18', unbounded: true })).toEqual([]);
    const message = { jsonrpc: '2.0', id: 1, error: { code: 1, message: 'm', data: [1, { a: 'b' }] } };
    expect(runMessage(message, { version: '2025-06-18', unbounded: true })).toEqual([]);
  });

  it('never reports a list that JSON can write (every parsed list, every sendable value)', () => {
    const extras = fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 });
    fc.assert(
      fc.property(extras, fc.boolean(), (extra, asText) => {
        const value = { tools: [{ ...tool('t'), _meta: extra }], ...extra };
        const list = asText ? JSON.parse(JSON.stringify(value)) : value;
        expect(validateToolsListSync(list, options).map((f) => f.rule)).not.toContain(
          'tools-list-not-serializable',
        );
      }),
      { numRuns: runs(300) },
    );
  });
});
