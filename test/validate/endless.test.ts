/**
 * A handler's value that reading makes as it goes (a getter answering a new object at every read) may
 * be nested without end. JSON.stringify throws on it, so it is never sent; the validators found that out
 * by counting its parts, which ran the process out of memory. They stop after MAX_MADE made objects and
 * say the value cannot be sent, as the library's copy stops and says so.
 */

import { describe, expect, it } from 'vitest';
import * as validators from '../../src/validate/index.js';

const V = { protocolVersion: '2025-11-25' } as const;

/** An object whose `next` getter answers a new one of its kind at every read. */
const endless = (): object => ({
  get next() {
    return endless();
  },
});

/** Blocks whose `_meta` is made anew, without end, at every read of the content. */
const endlessMeta = {
  get content() {
    return [{ type: 'text', text: 'x', _meta: endless() }];
  },
};

const ENDLESS = /made more than 100,000 objects/;

function onlyEndless(findings: readonly { rule: string; severity: string; message: string }[], rule: string) {
  expect(findings.map((f) => `${f.rule} ${f.severity}`)).toEqual([`${rule} error`]);
  expect(findings[0]?.message).toMatch(ENDLESS);
}

describe('a value made without end as it is read', () => {
  it('is a result that cannot be sent, in its blocks or its structuredContent, sync and async', async () => {
    const structured = { content: [{ type: 'text', text: '{}' }], structuredContent: endless() };
    for (const result of [endlessMeta, structured]) {
      expect(() => JSON.stringify(result)).toThrow(RangeError);
      onlyEndless(validators.validateToolResultSync(result, V), 'result-not-serializable');
      onlyEndless(await validators.validateToolResult(result, V), 'result-not-serializable');
    }
  });

  it('is a message or a tools/list result that cannot be sent', async () => {
    const message = { jsonrpc: '2.0', id: 1, result: endlessMeta };
    onlyEndless(validators.validateMessageSync(message, V), 'envelope-not-serializable');
    onlyEndless(await validators.validateMessage(message, V), 'envelope-not-serializable');
    const list = { tools: [{ name: 't', inputSchema: { type: 'object', properties: endless() } }] };
    onlyEndless(validators.validateToolsListSync(list, V), 'tools-list-not-serializable');
  });
});
