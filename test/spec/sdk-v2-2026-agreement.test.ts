/**
 * Agreement with the official TypeScript SDK v2 client speaking 2026-07-28, through its whole call path
 * (sdk-agreement.test.ts holds the rules to the SDKs' schemas, which 2026-07-28 does not use: its codec
 * decodes `resultType` first, fulfils input requests and validates structuredContent): whatever the
 * client fails a call on, a validation of that result, answering the request the client sent, reports
 * as an error (validated as the response it came in, beside that request and the listed tool). Each generated result answers one call of a client pinned to 2026-07-28 in memory.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/core/json.js';
import { validateMessageSync } from '../../src/validate/index.js';
import { runs } from '../support/runs.js';
import { pinnedV2Client } from '../support/v2-client.js';
import { anyResult } from './arbitraries.js';

const RUNS = runs(200);
/**
 * An in-memory call that has not settled by then never will: the client dropped the response (a result
 * or its `_meta` that is no object) and the call hangs, which is a failure too.
 */
const CALL_MS = 1_500;
const DONE = { resultType: 'complete', content: [{ type: 'text', text: 'done' }] };

async function outcome(promise: Promise<unknown>): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve('the call never settled'), CALL_MS);
  });
  try {
    return await Promise.race([promise.then(() => undefined), hung]);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    clearTimeout(timer);
  }
}

describe('the SDK v2 client at 2026-07-28', () => {
  it('fails no call on a result we report no error on', { timeout: 300_000 }, async () => {
    const samples = fc.sample(anyResult('2026-07-28'), RUNS);
    const falsePasses: string[] = [];
    for (const { result, tool, mutations } of samples) {
      const name = typeof tool?.name === 'string' ? tool.name : 'probe';
      // An input_required result is answered once; the retry it asks for completes.
      const { client, calls } = await pinnedV2Client((_call, n) => (n === 1 ? result : DONE), {
        tools: tool ? [tool] : [],
      });
      // The client checks structuredContent against the outputSchema it listed.
      if (tool) await outcome(client.listTools());
      const failed = await outcome(client.callTool({ name, arguments: {} }));
      await client.close();
      // A retry means the client took the first answer (an input_required it could fulfil); what it made
      // of the retry's answer, not the generated one, is no verdict on the generated result.
      if (calls.length > 1) continue;
      const request = calls[0] as JsonObject;
      const response = { jsonrpc: '2.0', id: request.id, result };
      const errors = validateMessageSync(response, {
        protocolVersion: '2026-07-28',
        request,
        tools: tool ? [tool] : [],
      }).filter((f) => f.severity === 'error');
      if (failed !== undefined && errors.length === 0) {
        falsePasses.push(`${mutations.join(' + ') || 'valid'}: ${failed.slice(0, 160)}`);
      }
    }
    expect(falsePasses).toEqual([]);
  });
});
