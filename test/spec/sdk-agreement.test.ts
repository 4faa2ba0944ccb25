/**
 * Agreement with the official TypeScript SDK client parsers, v1 (`@modelcontextprotocol/sdk`) and v2
 * (`@modelcontextprotocol/core`): their `CallToolResultSchema`, and the `JSONRPCMessageSchema` their
 * transports apply. Whatever an SDK rejects, we flag with an error; where we flag an error an SDK
 * accepts, the rule is one of the documented differences below.
 */

import {
  CallToolResultSchema as V2CallToolResultSchema,
  JSONRPCMessageSchema as V2JSONRPCMessageSchema,
} from '@modelcontextprotocol/core';
import { CallToolResultSchema, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { base64Problem } from '../../src/core/base64.js';
import type { Finding } from '../../src/core/finding.js';
import { isIsoDateTimeWithOffset } from '../../src/rules/block/support/datetime.js';
import { PROTOCOL_VERSIONS } from '../../src/spec/versions.js';
import {
  validateMessage,
  validateMessageSync,
  validateToolResult,
  validateToolResultSync,
} from '../../src/validate/index.js';
import { runs } from '../support/runs.js';
import { disagreement, fileTypeOnlyBlocks } from '../support/sync-agreement.js';
import { anyResult } from './arbitraries.js';

const RUNS = runs(1000);
/** Generous: thousands of parses on a machine that may be busy with other tests. */
const TIMEOUT = 300_000;

/**
 * The versions the SDKs speak (`SUPPORTED_PROTOCOL_VERSIONS` of sdk 1.32.2 and core 2.4.0, the same list,
 * minus the pre-release 2024-10-07).
 */
const SDK_VERSIONS = PROTOCOL_VERSIONS.filter((v) => v <= '2025-11-25');

/**
 * Errors we report on results the SDK parser accepts. The SDK has one version-agnostic schema and
 * leaves some checks to the official JSON Schema; these differences only go one way.
 */
const SDK_ACCEPTS_WE_FLAG: Readonly<Record<string, string>> = {
  'result-content-missing': '`content` has `.default([])`: a missing content array becomes empty',
  'result-legacy-tool-result': 'a `{ toolResult }` envelope without content parses as empty content',
  'block-type-unsupported-in-version':
    'the union always includes audio and resource_link, whatever version was negotiated',
  'block-uri-invalid': '`uri` is `z.string()`; the schema declares `format: "uri"`',
  'block-resource-link-invalid': '`size` is `z.number()`; the schema says integer',
  'result-type-invalid': 'resultType is an unknown key to v1 (kept by the loose ResultSchema)',
  'structured-content-schema-mismatch':
    "CallToolResultSchema cannot see the tool; the SDK client checks structuredContent against the tool's outputSchema in callTool(), after parsing",
  'structured-content-missing-for-output-schema':
    'the same: callTool() rejects a result without structuredContent for a tool with an outputSchema, after parsing',
};

/** What each SDK's client applies to a tools/call response. */
const SDKS = [
  {
    sdk: 'v1',
    result: CallToolResultSchema,
    message: JSONRPCMessageSchema,
    differences: SDK_ACCEPTS_WE_FLAG,
  },
  {
    sdk: 'v2',
    result: V2CallToolResultSchema,
    message: V2JSONRPCMessageSchema,
    differences: {
      ...SDK_ACCEPTS_WE_FLAG,
      'structured-content-not-object':
        'v2 types structuredContent as any JSON value, as 2026-07-28 does, whatever version was negotiated; clients of the versions it speaks require an object',
      'result-meta-key-invalid':
        "v2 leaves a result's `_meta` open; v1, which the rule names, types its progressToken and related task",
    },
  },
] as const;

function errors(findings: readonly Finding[]): Finding[] {
  return findings.filter((f) => f.severity === 'error');
}

describe.each(SDKS)(
  'agreement with the TypeScript SDK $sdk parser',
  ({ result: resultSchema, message: messageSchema, differences }) => {
    describe.each(SDK_VERSIONS)('%s', (version) => {
      // Both validators: the synchronous one is held to the asynchronous one on every result.
      it(`flags every result CallToolResultSchema rejects (${RUNS} generated results, sync and async)`, {
        timeout: TIMEOUT,
      }, async () => {
        let rejected = 0;
        await fc.assert(
          fc.asyncProperty(anyResult(version), async ({ result, tool, mutations }) => {
            const parsed = resultSchema.safeParse(result);
            const findings = await validateToolResult(result, { protocolVersion: version, tool });
            const sync = validateToolResultSync(result, { protocolVersion: version, tool });
            const differs = disagreement(findings, sync, await fileTypeOnlyBlocks(result));
            expect(differs, JSON.stringify(result).slice(0, 600)).toBeUndefined();
            const ours = errors(findings);
            const context = `${JSON.stringify(result).slice(0, 600)}\nmutations: ${mutations.join('; ')}\nsdk: ${
              parsed.success ? 'accepts' : parsed.error.issues[0]?.message
            }\nours: ${ours.map((f) => `${f.rule} ${f.pointer}`).join(', ')}`;
            if (!parsed.success) {
              rejected++;
              expect(ours.length, `SDK rejects, we pass:\n${context}`).toBeGreaterThan(0);
            } else {
              for (const f of ours)
                expect(Object.keys(differences), `SDK accepts:\n${context}`).toContain(f.rule);
            }
          }),
          { numRuns: RUNS },
        );
        expect(rejected).toBeGreaterThan(RUNS / 10);
      });

      it('flags every response the SDK transport would drop or reject, sync and async', {
        timeout: TIMEOUT,
      }, async () => {
        const envelope = fc.record({
          jsonrpc: fc.constantFrom<unknown>('2.0', '2.0', '1.0'),
          id: fc.constantFrom<unknown>(1, 'a', null, 1.5),
          requestId: fc.constantFrom<unknown>(undefined, undefined, 'abc'),
        });
        await fc.assert(
          fc.asyncProperty(anyResult(version), envelope, async ({ result }, env) => {
            const message: Record<string, unknown> = { jsonrpc: env.jsonrpc, id: env.id, result };
            if (env.requestId !== undefined) message.requestId = env.requestId;
            const sdkOk = messageSchema.safeParse(message).success && resultSchema.safeParse(result).success;
            const options = { protocolVersion: version, request: { method: 'tools/call' } } as const;
            const ours = errors(await validateMessage(message, options));
            if (!sdkOk) expect(ours.length, JSON.stringify(message).slice(0, 500)).toBeGreaterThan(0);
            if (!sdkOk) expect(errors(validateMessageSync(message, options)).length).toBeGreaterThan(0);
          }),
          { numRuns: Math.ceil(RUNS / 3) },
        );
      });
    });
  },
);

describe('hand-written checks agree with the SDK primitives', () => {
  const zodDateTime = z.iso.datetime({ offset: true });

  it('lastModified: isIsoDateTimeWithOffset matches z.iso.datetime({ offset: true })', {
    timeout: TIMEOUT,
  }, () => {
    const near = fc
      .tuple(
        fc.integer({ min: 0, max: 9999 }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 32 }),
        fc.integer({ min: 0, max: 25 }),
        fc.integer({ min: 0, max: 61 }),
        fc.constantFrom('', '.5', '.123456', '.'),
        fc.constantFrom('Z', 'z', '+05:30', '-23:59', '+24:00', '', '+0530', '+05'),
      )
      .map(([y, mo, d, h, mi, frac, zone]) => {
        const p = (n: number, w = 2) => String(n).padStart(w, '0');
        return `${p(y, 4)}-${p(mo)}-${p(d)}T${p(h)}:${p(mi)}:${p(mi % 60)}${frac}${zone}`;
      });
    fc.assert(
      fc.property(
        fc.oneof(
          near,
          fc.string(),
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
        ),
        (s) => {
          expect(isIsoDateTimeWithOffset(s), s).toBe(zodDateTime.safeParse(s).success);
        },
      ),
      { numRuns: runs(20_000) },
    );
  });

  it('base64: what base64Problem calls valid or non-canonical is what atob() accepts', {
    timeout: TIMEOUT,
  }, () => {
    const alphabet = fc.constantFrom(
      ...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_ \n\t:,!'.split(''),
    );
    const candidates = fc.oneof(
      fc.string({ unit: alphabet, maxLength: 16 }),
      fc.uint8Array({ maxLength: 20 }).map((b) => btoa(String.fromCharCode(...b))),
    );
    fc.assert(
      fc.property(candidates, (s) => {
        let atobOk = true;
        try {
          atob(s);
        } catch {
          atobOk = false;
        }
        const problem = base64Problem(s);
        expect(problem === undefined || problem === 'non-canonical', JSON.stringify(s)).toBe(atobOk);
      }),
      { numRuns: runs(20_000) },
    );
  });
});
