/**
 * result-lone-surrogate: half a surrogate pair in any string of a result (text cut through an emoji),
 * which JSON.stringify writes as an escape that strict JSON readers (pydantic, serde_json) refuse. The
 * validators report it wherever it is, and repair, toolResult and shaped send U+FFFD in its place, so
 * that what an SDK server writes is well-formed.
 */

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe, expect, it } from 'vitest';
import { repair } from '../../src/library/repair/index.js';
import { shaped } from '../../src/library/shaped.js';
import { toolResult } from '../../src/library/tool-result.js';
import { validateMessageSync, validateToolResultSync } from '../../src/validate/index.js';
import { hits, repairOnce, said } from './helpers.js';

/** Text cut after the first half of 🚀 (U+1F680, `\ud83d\ude80`). */
const CUT = 'Launch day \ud83d';

/** Whether the JSON text holds an escaped lone surrogate, which JSON.stringify writes for one. */
function escapesLoneSurrogate(json: string): boolean {
  return /\\ud[89a-f]/i.test(json);
}

describe('result-lone-surrogate', () => {
  it('reports a lone surrogate in a text, in structuredContent and in a member name, not a whole pair', () => {
    const result = {
      content: [{ type: 'text', text: CUT }],
      structuredContent: { headline: 'x\udc00', 'k\ud800': 1 },
      resultType: 'complete',
    };
    expect(said('result-lone-surrogate', 'result', result)).toEqual([
      [
        'default',
        '/content/0/text',
        'the string holds a lone surrogate (U+D83D), which strict JSON readers refuse',
      ],
      [
        'default',
        '/structuredContent/headline',
        'the string holds a lone surrogate (U+DC00), which strict JSON readers refuse',
      ],
      [
        'key',
        '/structuredContent/k\ud800',
        'the member name holds a lone surrogate (U+D800), which strict JSON readers refuse',
      ],
    ]);
    const whole = { content: [{ type: 'text', text: 'Launch day \ud83d\ude80' }], resultType: 'complete' };
    expect(hits('result-lone-surrogate', 'result', whole)).toEqual([]);
    // A text that is JSON escaping a whole pair holds no lone surrogate itself.
    const escaped = {
      content: [{ type: 'text', text: '{"a":"\\ud83d\\ude80"}' }],
      structuredContent: { a: '\ud83d\ude80' },
      resultType: 'complete',
    };
    expect(hits('result-lone-surrogate', 'result', escaped)).toEqual([]);
  });

  it('reports it in a message read from a file, where JSON escapes it', () => {
    const line = `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"Launch day \\ud83d"}]}}`;
    const findings = validateMessageSync(JSON.parse(line), { protocolVersion: '2025-11-25' });
    expect(findings.filter((f) => f.rule === 'result-lone-surrogate').map((f) => f.pointer)).toEqual([
      '/result/content/0/text',
    ]);
  });

  it('names 20 places and counts the rest', () => {
    const blocks = Array.from({ length: 25 }, () => ({ type: 'text', text: CUT }));
    const found = hits('result-lone-surrogate', 'result', { content: blocks, resultType: 'complete' });
    expect(found).toHaveLength(21);
    expect(said('result-lone-surrogate', 'result', { content: blocks, resultType: 'complete' })[20]).toEqual([
      'more',
      '',
      'and 5 more strings after these hold lone surrogates',
    ]);
  });

  it('repairs every string and member name at once, with U+FFFD', () => {
    const result = {
      content: [
        { type: 'text', text: CUT },
        { type: 'text', text: '\udc00 and \ud83d\ude80' },
      ],
      structuredContent: { 'k\ud800': ['x\udbff'] },
      resultType: 'complete',
    };
    const { doc, outcome, after } = repairOnce('result-lone-surrogate', 'result', result);
    expect(doc).toEqual({
      content: [
        { type: 'text', text: 'Launch day \ufffd' },
        { type: 'text', text: '\ufffd and \ud83d\ude80' },
      ],
      structuredContent: { 'k\ufffd': ['x\ufffd'] },
      resultType: 'complete',
    });
    expect(outcome).toEqual({
      description: 'replaced the lone surrogates of 4 strings with U+FFFD, as UTF-8 writes them',
      lossy: true,
    });
    expect(after).toEqual([]);
  });

  it('repair, toolResult and shaped answer well-formed text, which an SDK v1 McpServer writes without escapes', async () => {
    const make = () => ({ content: [{ type: 'text', text: CUT }] });
    expect(escapesLoneSurrogate(JSON.stringify(make()))).toBe(true);
    expect(validateToolResultSync(make()).map((f) => f.rule)).toEqual(['result-lone-surrogate']);
    const repaired = await repair(make());
    expect(repaired.result).toEqual({ content: [{ type: 'text', text: 'Launch day \ufffd' }] });
    expect(await toolResult(make())).toEqual({ content: [{ type: 'text', text: 'Launch day \ufffd' }] });

    const server = new McpServer({ name: 'cut', version: '1.0.0' });
    server.registerTool('raw', {}, (async () => make()) as () => Promise<never>);
    server.registerTool('shaped', {}, shaped(async () => make(), { server }) as () => Promise<never>);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    // What the server writes, as stdio and HTTP write it (JSON.stringify of the message).
    const written: string[] = [];
    const send = serverSide.send.bind(serverSide);
    serverSide.send = (message, options) => {
      written.push(JSON.stringify(message));
      return send(message, options);
    };
    await server.connect(serverSide);
    const client = new Client({ name: 'c', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      await client.callTool({ name: 'raw', arguments: {} });
      expect(escapesLoneSurrogate(written.at(-1) ?? '')).toBe(true);
      const shapedResult = await client.callTool({ name: 'shaped', arguments: {} });
      expect(shapedResult).toEqual({ content: [{ type: 'text', text: 'Launch day \ufffd' }] });
      expect(escapesLoneSurrogate(written.at(-1) ?? '')).toBe(false);
    } finally {
      await client.close();
    }
  });
});
