/**
 * envelope-lone-surrogate: half a surrogate pair in a string of a message outside a tools/call result
 * (a tool description, an error, a prompt, a notification), which the Python SDK client refuses as it
 * refuses one in a tool result (result-lone-surrogate, which alone reports the strings of such a result).
 */

import { describe, expect, it } from 'vitest';
import { repairMessageSync } from '../../src/library/repair/index.js';
import { validateMessage, validateMessageSync, validateParsedMessageSync } from '../../src/validate/index.js';
import { hits, said } from './helpers.js';

const CUT = 'Launch day \ud83d';
const V = { protocolVersion: '2025-11-25' } as const;
const RULE = 'envelope-lone-surrogate';

const rules = (findings: readonly { rule: string; pointer: string }[]) =>
  findings.map((f) => `${f.rule} ${f.pointer}`);

describe('envelope-lone-surrogate', () => {
  it('reports one in a tools/list, an error, a prompt, a notification and a member name', () => {
    const toolsList = {
      jsonrpc: '2.0',
      id: 1,
      result: { tools: [{ name: 'news', description: CUT, inputSchema: { type: 'object' } }] },
    };
    expect(said(RULE, 'message', toolsList)).toEqual([
      [
        'default',
        '/result/tools/0/description',
        'the string holds a lone surrogate (U+D83D), which strict JSON readers refuse',
      ],
    ]);
    const error = { jsonrpc: '2.0', id: 1, error: { code: -32603, message: CUT, data: { 'k\udc00': 1 } } };
    expect(hits(RULE, 'message', error)).toEqual([
      ['default', '/error/message'],
      ['key', '/error/data/k\udc00'],
    ]);
    const prompt = {
      jsonrpc: '2.0',
      id: 2,
      result: { messages: [{ role: 'user', content: { type: 'text', text: CUT } }] },
    };
    expect(
      hits(RULE, 'message', prompt, { request: { jsonrpc: '2.0', id: 2, method: 'prompts/get' } }),
    ).toEqual([['default', '/result/messages/0/content/text']]);
    const note = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: CUT } };
    expect(hits(RULE, 'message', note)).toEqual([['default', '/params/data']]);
    expect(hits(RULE, 'message', [note])).toEqual([['default', '/0/params/data']]);
  });

  it('leaves a tools/call result to result-lone-surrogate: each place reported once', () => {
    const call = { jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: CUT }] } };
    const request = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 't' } };
    for (const options of [{ ...V, request }, V]) {
      expect(rules(validateMessageSync(call, options))).toEqual([
        'result-lone-surrogate /result/content/0/text',
      ]);
    }
    // An error beside it, in a response of no known request: the envelope's.
    const both = { jsonrpc: '2.0', id: 3, error: { code: 1, message: CUT } };
    expect(rules(validateMessageSync(both, V))).toContain(`${RULE} /error/message`);
  });

  it('passes whole pairs, and is found by every message validator alike', async () => {
    const whole = { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Launch day \ud83d\ude80' } };
    expect(validateMessageSync(whole, V)).toEqual([]);
    const cut = { jsonrpc: '2.0', id: 1, error: { code: -32603, message: CUT } };
    const expected = [`${RULE} /error/message`];
    expect(rules(validateMessageSync(cut, V))).toEqual(expected);
    expect(rules(await validateMessage(cut, V))).toEqual(expected);
    expect(rules(validateParsedMessageSync(JSON.parse(JSON.stringify(cut)), V))).toEqual(expected);
  });

  it('is repaired with U+FFFD, as UTF-8 writes it', () => {
    const list = {
      jsonrpc: '2.0',
      id: 1,
      result: { tools: [{ name: 'news', description: CUT, inputSchema: { type: 'object' } }] },
    };
    const { message, fixes } = repairMessageSync(list, V);
    expect(JSON.stringify(message)).toContain('Launch day \ufffd');
    expect(fixes.map((f) => f.rule)).toContain(RULE);
    expect(rules(validateMessageSync(message, V))).toEqual([]);
  });

  it('walks a message nested 200,000 levels deep without running out of stack', () => {
    let deep: unknown = CUT;
    for (let i = 0; i < 200_000; i++) deep = { d: deep };
    const message = {
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level: 'info', data: deep },
    };
    const found = hits(RULE, 'message', message);
    expect(found).toHaveLength(1);
    expect(found[0]?.[1]?.startsWith('/params/data/d/d/')).toBe(true);
  });
});
