/**
 * result-not-serializable: what the official SDK does with a result JSON cannot write, over a real pipe
 * (the claim of the rule's rationale), and that the validators report such a result before it is sent.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/core/finding.js';
import { repair } from '../../src/library/repair/index.js';
import { PROTOCOL_VERSIONS } from '../../src/spec/versions.js';
import {
  validateMessage,
  validateMessageSync,
  validateToolResult,
  validateToolResultSync,
} from '../../src/validate/index.js';
import { nested, unwritableResult } from '../spec/arbitraries.js';
import { runs } from '../support/runs.js';
import { expectUnansweredCall } from '../support/unsent-answer.js';

/** An SDK v1 McpServer whose `count` tool returns a BigInt in structuredContent. */
const SERVER = `
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
const server = new McpServer({ name: 'bigint', version: '1.0.0' });
server.registerTool('count', {}, async () => ({
  content: [{ type: 'text', text: 'rows counted' }],
  structuredContent: { rows: 12n },
}));
server.registerTool('fine', {}, async () => ({ content: [{ type: 'text', text: 'ok' }] }));
await server.connect(new StdioServerTransport());
`;

/** An SDK v1 McpServer whose `deep` tool returns a structuredContent nested 5,000 levels deep. */
const DEEP_SERVER = `
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
const server = new McpServer({ name: 'deep', version: '1.0.0' });
server.registerTool('deep', {}, async () => {
  let v = { leaf: true };
  for (let i = 0; i < 5000; i++) v = i % 2 === 0 ? [v] : { down: v };
  return { content: [{ type: 'text', text: 'x' }], structuredContent: { v } };
});
server.registerTool('fine', {}, async () => ({ content: [{ type: 'text', text: 'ok' }] }));
await server.connect(new StdioServerTransport());
`;

const WITH_BIGINT = { content: [{ type: 'text', text: 'rows counted' }], structuredContent: { rows: 12n } };

describe('result-not-serializable', () => {
  it('is what the official SDK cannot send: the client gets no answer until its request times out', {
    timeout: 60_000,
  }, async () => {
    await expectUnansweredCall(SERVER, 'count');
  });

  it('is what the SDK cannot send for its depth alone: a structuredContent nested 5,000 levels deep', {
    timeout: 60_000,
  }, async () => {
    await expectUnansweredCall(DEEP_SERVER, 'deep');
    const deep = { content: [{ type: 'text', text: 'x' }], structuredContent: { v: nested(5_000) } };
    const options = { protocolVersion: '2025-06-18' } as const;
    expect(validateToolResultSync(deep, options).filter((f) => f.severity === 'error')).toMatchObject([
      {
        rule: 'result-not-serializable',
        message:
          'the result cannot be serialized: it is nested too deep for the writer (past about 4,000 levels, its call stack runs out), so JSON.stringify throws and no client receives it',
      },
    ]);
  });

  it('reports such a result as an error, the sync and async validators alike', async () => {
    const expected = [
      {
        rule: 'result-not-serializable',
        severity: 'error',
        message:
          'the result cannot be serialized: it holds a BigInt, so JSON.stringify throws and no client receives it',
      },
    ];
    const options = { protocolVersion: '2025-06-18' } as const;
    // (Its text is no mirror of structuredContent either, which is only a warning.)
    const errors = (findings: readonly { severity: string }[]) =>
      findings.filter((f) => f.severity === 'error');
    expect(errors(validateToolResultSync(WITH_BIGINT, options))).toMatchObject(expected);
    expect(errors(await validateToolResult(WITH_BIGINT, options))).toMatchObject(expected);
    // The same value as JSON can write it is clean.
    const sendable = { ...WITH_BIGINT, structuredContent: { rows: 12 } };
    expect(
      validateToolResultSync({ ...sendable, content: [{ type: 'text', text: '{"rows":12}' }] }, options),
    ).toEqual([]);
  });

  it('reports a result whose members throw when read (a getter, a revoked proxy), as JSON.stringify does', async () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const throwing = {
      get when() {
        throw new Error('not readable');
      },
    };
    for (const meta of [throwing, proxy, { nested: [throwing] }]) {
      const result = { content: [{ type: 'text', text: 'x' }], _meta: meta };
      expect(() => JSON.stringify(result)).toThrow();
      const expected = [
        [
          'result-not-serializable',
          'error',
          'the result cannot be serialized: reading one of its members throws, so JSON.stringify throws and no client receives it',
        ],
      ];
      const judged = (findings: readonly { rule: string; severity: string; message: string }[]) =>
        findings.filter((f) => f.severity === 'error').map((f) => [f.rule, f.severity, f.message]);
      expect(judged(validateToolResultSync(result, { protocolVersion: '2025-06-18' }))).toEqual(expected);
      expect(judged(await validateToolResult(result, { protocolVersion: '2025-06-18' }))).toEqual(expected);
    }
  });

  it('a result whose members throw when read has that one finding, and no failure of this validator beside it', async () => {
    // A getter where the walk or other rules read (a block's text or data, the content array) threw
    // out of them: the answer was an internal error ("validation failed: …") or rules "skipped", as if
    // the validator were at fault, and result-not-serializable was lost.
    const boom = (holder: Record<string, unknown>, key: string) =>
      Object.defineProperty(holder, key, {
        enumerable: true,
        get() {
          throw new Error('not readable');
        },
      });
    const results: [string, () => Record<string, unknown>][] = [
      ["a text block's text", () => ({ content: [boom({ type: 'text' }, 'text')] })],
      [
        "an image block's data",
        () => ({ content: [boom({ type: 'image', mimeType: 'image/png' }, 'data')] }),
      ],
      ['the content array', () => boom({}, 'content')],
      [
        "the content array's length (JSON.stringify reads it; it was an internal error)",
        () => ({
          content: new Proxy([{ type: 'text', text: 'x' }], {
            get(target, key, receiver) {
              if (key === 'length') throw new Error('not readable');
              return Reflect.get(target, key, receiver);
            },
          }),
        }),
      ],
      [
        'a toJSON',
        () => ({
          content: [
            {
              type: 'text',
              text: '{}',
              toJSON: () => {
                throw new Error('no');
              },
            },
          ],
          structuredContent: {},
        }),
      ],
      [
        'structuredContent under an outputSchema',
        () => ({ content: [{ type: 'text', text: '{}' }], structuredContent: boom({}, 'n') }),
      ],
    ];
    const tool = { name: 't', inputSchema: { type: 'object' }, outputSchema: { type: 'object' } };
    const only = (pointer: string, label: string) => [
      {
        rule: 'result-not-serializable',
        severity: 'error',
        pointer,
        message: `the result cannot be serialized: ${label === 'a toJSON' ? 'a toJSON method throws' : 'reading one of its members throws'}, so JSON.stringify throws and no client receives it`,
      },
    ];
    const brief = (findings: readonly Finding[]) =>
      findings.map(({ rule, severity, pointer, message }) => ({ rule, severity, pointer, message }));
    for (const [label, make] of results) {
      // structuredContent has no place in 2025-03-26, which is a finding of its own.
      const versions = label.startsWith('structuredContent') ? ['2025-11-25'] : ['2025-03-26', '2025-11-25'];
      for (const protocolVersion of versions as ('2025-03-26' | '2025-11-25')[]) {
        const options = { protocolVersion, tool };
        expect(brief(validateToolResultSync(make(), options)), label).toEqual(only('', label));
        expect(brief(await validateToolResult(make(), options)), label).toEqual(only('', label));
        const message = { jsonrpc: '2.0', id: 1, result: make() };
        const request = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't' } };
        const messageOptions = { protocolVersion, request, tools: [tool] };
        expect(brief(validateMessageSync(message, messageOptions)), label).toEqual(only('/result', label));
        expect(brief(await validateMessage(message, messageOptions)), label).toEqual(only('/result', label));
      }
    }
    // A message whose result itself throws when read: it cannot be sent either (it was an internal error).
    for (const protocolVersion of ['2025-03-26', '2025-11-25'] as const) {
      const message = boom({ jsonrpc: '2.0', id: 1 }, 'result');
      expect(brief(validateMessageSync(message, { protocolVersion }))).toEqual(only('/result', 'result'));
      expect(brief(await validateMessage(message, { protocolVersion }))).toEqual(only('/result', 'result'));
    }
  });

  it('reports a revoked proxy as the result itself, alone or in a message (it was an internal error)', async () => {
    // A revoked proxy throws even when asked whether it is an array, which every rule asks first.
    const revoked = () => {
      const { proxy, revoke } = Proxy.revocable({}, {});
      revoke();
      return proxy;
    };
    const at = (findings: readonly Finding[]) => findings.map((f) => `${f.severity} ${f.rule} ${f.pointer}`);
    for (const protocolVersion of ['2024-11-05', '2025-11-25'] as const) {
      expect(at(validateToolResultSync(revoked(), { protocolVersion }))).toEqual([
        'error result-not-serializable ',
      ]);
      expect(at(await validateToolResult(revoked(), { protocolVersion }))).toEqual([
        'error result-not-serializable ',
      ]);
      const message = () => ({ jsonrpc: '2.0', id: 1, result: revoked() });
      expect(at(validateMessageSync(message(), { protocolVersion }))).toEqual([
        'error result-not-serializable /result',
      ]);
      expect(at(await validateMessage(message(), { protocolVersion }))).toEqual([
        'error result-not-serializable /result',
      ]);
    }
  });

  it('reports a value built from shared parts whose JSON no string could hold, in arrays and in objects', () => {
    // 2^40 leaves: the walk once followed every one of them, and never ended; then it stopped past the
    // longest string (3 s a value); now it counts each distinct part once (core/unwritable.ts).
    let items: unknown = [1];
    let members: unknown = { leaf: 1 };
    for (let i = 0; i < 40; i++) {
      items = [items, items];
      members = { a: members, b: members };
    }
    for (const shared of [items, members]) {
      const findings = validateToolResultSync(
        { content: [{ type: 'text', text: 'x' }], _meta: { shared } },
        { protocolVersion: '2025-06-18' },
      );
      expect(findings.map((f) => `${f.severity} ${f.rule} ${f.pointer}`)).toEqual([
        'error result-not-serializable ',
      ]);
      expect(findings[0]?.message).toContain('longer than the longest string JavaScript can hold');
    }
  });

  // Strings of a quarter gigabyte, and one JSON.stringify that throws: seconds on a loaded machine.
  it('reports a text whose escapes alone take its JSON past the longest string (2^28 quotes)', {
    timeout: 120_000,
  }, () => {
    // 2^28 units, under the longest string, so the count without escapes passed it; each quote is
    // written as two characters, so JSON.stringify throws.
    const quotes = '"'.repeat(2 ** 28);
    expect(() => JSON.stringify(quotes)).toThrow(RangeError);
    const result = { content: [{ type: 'text', text: quotes }] };
    const findings = validateToolResultSync(result, { protocolVersion: '2025-06-18' });
    expect(findings.filter((f) => f.severity === 'error').map((f) => f.rule)).toEqual([
      'result-not-serializable',
    ]);
    // As many letters are written as they are: no unserializable finding.
    const letters = validateToolResultSync(
      { content: [{ type: 'text', text: 'q'.repeat(2 ** 28) }] },
      { protocolVersion: '2025-06-18' },
    );
    expect(letters.map((f) => f.rule)).not.toContain('result-not-serializable');
  });

  it('leaves the size to result-over-client-limits, which says nothing of a result it cannot measure', () => {
    const cycle: Record<string, unknown> = { text: 'x'.repeat(200_000) };
    cycle.self = cycle;
    const findings = validateToolResultSync(
      { content: [{ type: 'text', text: 'x'.repeat(2_000_000) }], _meta: cycle },
      { protocolVersion: '2025-06-18' },
    );
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([['result-not-serializable', 'error']]);
  });

  it('is reported wherever the value is, by both validators, and repair() makes every such result sendable', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .constantFrom(...PROTOCOL_VERSIONS)
          .chain((version) => unwritableResult(version).map((drawn) => ({ version, ...drawn }))),
        async ({ version, result, tool }) => {
          const options = { protocolVersion: version, ...(tool ? { tool } : {}) };
          const rule = (findings: readonly { rule: string; severity: string }[]) =>
            findings.filter((f) => f.rule === 'result-not-serializable').map((f) => f.severity);
          expect(rule(validateToolResultSync(result, options))).toEqual(['error']);
          expect(rule(await validateToolResult(result, options))).toEqual(['error']);
          const repaired = await repair(result, options);
          expect(repaired.abandoned).toBeUndefined();
          const wire = JSON.stringify(repaired.result);
          expect(rule(validateToolResultSync(JSON.parse(wire), options))).toEqual([]);
        },
      ),
      { numRuns: runs(150) },
    );
  });
});
