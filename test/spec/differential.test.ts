/**
 * Differential proof against the official JSON Schemas: for every version, every generated result the
 * official CallToolResult definition rejects gets an error finding from us, and every error we report
 * on a result the schema accepts is one of our documented, deliberate tightenings (STRICTER below).
 */

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/core/finding.js';
import { isObject } from '../../src/core/json.js';
import { PROTOCOL_VERSIONS, type ProtocolVersion } from '../../src/spec/versions.js';
import {
  validateMessage,
  validateMessageSync,
  validateToolResult,
  validateToolResultSync,
} from '../../src/validate/index.js';
import { disagreement, fileTypeOnlyBlocks } from '../support/sync-agreement.js';
import { anyResult } from './arbitraries.js';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv | Ajv2020,
  options?: { formats?: string[] },
) => void;

const sharedDir = join(import.meta.dirname, '../../../shared');
const RUNS = 3000;

/**
 * Errors we report on results the official schema accepts, and why. The schemas type these fields
 * loosely, but the official TypeScript SDK (and MCP's JSON-RPC prose) reject them.
 */
const STRICTER: Readonly<Record<string, string>> = {
  'block-annotations-invalid':
    'lastModified: the schema says only `string` (and nothing before 2025-06-18); the TS SDK requires an ISO date-time with offset and validates annotations in every version',
  'block-meta-not-object':
    '2024-11-05 and 2025-03-26 define no block `_meta`, but the TS SDK parses it as a record in every version',
  'block-resource-link-invalid':
    'icons before 2025-11-25: not in the schema, but the TS SDK validates their shape in every version',
  'structured-content-not-object':
    'before 2025-06-18 structuredContent is not defined (extra result members are allowed), but the TS SDK v1 parses it as a record in every version',
  'result-type-invalid':
    '2026-07-28 types resultType as any string; unknown values "MUST be considered invalid" (basic/index.mdx)',
  'result-input-required-invalid':
    'InputRequiredResult: "At least one of `inputRequests` or `requestState` MUST be present" is prose in the description, not a schema constraint',
  'envelope-extra-member':
    'no schema forbids extra envelope members; the TS SDK drops such messages (.strict())',
};

/**
 * `format: "byte"` is OpenAPI's, not JSON Schema's. The SDK checks payloads with `atob()`; ajv-formats'
 * `byte` is stricter (no whitespace, padding required). The verdict we hold ourselves to uses `atob`;
 * the strict reading is covered by block-base64-non-canonical, a warning (see the separate check).
 */
function atobAccepts(value: string): boolean {
  try {
    atob(value);
    return true;
  } catch {
    return false;
  }
}

/** The official verdict on a tools/call result, with the errors of the last call for failure messages. */
interface Oracle {
  (result: unknown): boolean;
  errors(): ValidateFunction['errors'];
}

interface Validators {
  readonly result: Oracle;
  /** The same with ajv-formats' strict `byte` format instead of `atob`. */
  readonly strictByteResult: Oracle;
  readonly response: ValidateFunction;
}

function compile(version: ProtocolVersion): Validators {
  const schema = JSON.parse(readFileSync(join(sharedDir, 'spec', version, 'schema.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  const defs = Object.hasOwn(schema, '$defs') ? '$defs' : 'definitions';
  const make = (strictByte: boolean) => {
    const options = { strict: false, allErrors: false } as const;
    const ajv = defs === '$defs' ? new Ajv2020(options) : new Ajv(options);
    addFormats(ajv);
    if (!strictByte) ajv.addFormat('byte', { type: 'string', validate: atobAccepts });
    ajv.addSchema(schema, `mcp-${version}`);
    return ajv;
  };
  const get = (a: Ajv | Ajv2020, def: string) => {
    const fn = a.getSchema(`mcp-${version}#/${defs}/${def}`);
    if (!fn) throw new Error(`${version}: no ${def}`);
    return fn;
  };
  /**
   * 2026-07-28 types a tools/call result as `anyOf[InputRequiredResult, CallToolResult]`. InputRequiredResult
   * requires only a string `resultType`, so the union accepts nearly any object; `resultType` is what
   * clients parse by ("allows the client to determine how to parse the result object"), so the oracle
   * checks the branch it names.
   */
  const oracle = (a: Ajv | Ajv2020): Oracle => {
    const callToolResult = get(a, 'CallToolResult');
    const inputRequired = a.getSchema(`mcp-${version}#/${defs}/InputRequiredResult`);
    let last: ValidateFunction = callToolResult;
    const verdict = (result: unknown) => {
      const named = isObject(result) && result.resultType === 'input_required' ? inputRequired : undefined;
      last = named ?? callToolResult;
      return last(result) === true;
    };
    return Object.assign(verdict, { errors: () => last.errors });
  };
  const ajv = make(false);
  const responseDef = defs === '$defs' ? 'JSONRPCResultResponse' : 'JSONRPCResponse';
  return { result: oracle(ajv), strictByteResult: oracle(make(true)), response: get(ajv, responseDef) };
}

function errors(findings: readonly Finding[]): Finding[] {
  return findings.filter((f) => f.severity === 'error');
}

describe.skipIf(!existsSync(sharedDir))(
  'differential against the official schemas (skipped: ../shared is absent)',
  () => {
    describe.each(PROTOCOL_VERSIONS)('%s', (version) => {
      // Compiled on first use: describe bodies run at collection even when the suite is skipped.
      let compiled: Validators | undefined;
      const v = () => {
        compiled ??= compile(version);
        return compiled;
      };

      // The synchronous validator is held to the asynchronous one on every result, so the verdicts below
      // hold for both.
      it(`agrees with CallToolResult on ${RUNS} generated results, sync and async`, {
        timeout: 180_000,
      }, async () => {
        let rejected = 0;
        let accepted = 0;
        await fc.assert(
          fc.asyncProperty(anyResult(version), async ({ result, mutations }) => {
            const schemaOk = v().result(result) === true;
            const schemaErrors = JSON.stringify(v().result.errors()?.slice(0, 3));
            const findings = await validateToolResult(result, { protocolVersion: version });
            const sync = validateToolResultSync(result, { protocolVersion: version });
            const ours = errors(findings);
            const context = `${JSON.stringify(result).slice(0, 600)}\nmutations: ${mutations.join('; ')}\nschema: ${schemaErrors}\nours: ${ours.map((f) => `${f.rule} ${f.pointer}`).join(', ')}`;
            const differs = disagreement(findings, sync, await fileTypeOnlyBlocks(result));
            expect(differs, `sync and async validators disagree:\n${context}`).toBeUndefined();
            if (schemaOk) accepted++;
            else rejected++;
            if (!schemaOk) expect(ours.length, `schema rejects, we pass:\n${context}`).toBeGreaterThan(0);
            else {
              for (const f of ours)
                expect(
                  Object.keys(STRICTER),
                  `unexplained error on a schema-valid result:\n${context}`,
                ).toContain(f.rule);
              if (v().strictByteResult(result) !== true) {
                expect(
                  findings.map((f) => f.rule),
                  `strict byte format:\n${context}`,
                ).toContain('block-base64-non-canonical');
              }
            }
          }),
          { numRuns: RUNS },
        );
        // Both sides of the property must actually be exercised.
        expect(accepted).toBeGreaterThan(RUNS / 10);
        expect(rejected).toBeGreaterThan(RUNS / 10);
      });

      it('agrees with the JSON-RPC response envelope on generated responses, sync and async', {
        timeout: 120_000,
      }, async () => {
        const envelope = fc.record({
          jsonrpc: fc.constantFrom<unknown>('2.0', '2.0', '2.0', '1.0', 2),
          id: fc.constantFrom<unknown>(1, 'a', 1, 'req-7', null, 1.5, undefined),
          extra: fc.constantFrom<unknown>(undefined, undefined, undefined, 'abc'),
        });
        await fc.assert(
          fc.asyncProperty(anyResult(version), envelope, async ({ result }, env) => {
            const message: Record<string, unknown> = { jsonrpc: env.jsonrpc, result };
            if (env.id !== undefined) message.id = env.id;
            if (env.extra !== undefined) message.requestId = env.extra;
            const schemaOk = v().response(message) === true && v().result(result) === true;
            const options = { protocolVersion: version, request: { method: 'tools/call' } } as const;
            const findings = await validateMessage(message, options);
            const differs = disagreement(
              findings,
              validateMessageSync(message, options),
              await fileTypeOnlyBlocks(message, ['result']),
            );
            expect(differs, JSON.stringify(message).slice(0, 500)).toBeUndefined();
            const ours = errors(findings);
            const context = `${JSON.stringify(message).slice(0, 500)}\nours: ${ours.map((f) => `${f.rule} ${f.pointer}`).join(', ')}`;
            if (!schemaOk) expect(ours.length, `schema rejects, we pass:\n${context}`).toBeGreaterThan(0);
            else
              for (const f of ours)
                expect(Object.keys(STRICTER), `unexplained:\n${context}`).toContain(f.rule);
          }),
          { numRuns: RUNS / 3 },
        );
      });
    });

    describe('official examples (2026-07-28) validate with no error', () => {
      const examples = join(sharedDir, 'spec', '2026-07-28', 'examples');
      const read = (type: string) =>
        (existsSync(join(examples, type)) ? readdirSync(join(examples, type)) : []).map(
          (file) =>
            [`${type}/${file}`, JSON.parse(readFileSync(join(examples, type, file), 'utf8'))] as const,
        );
      const blocks = [
        'TextContent',
        'ImageContent',
        'AudioContent',
        'ResourceLink',
        'EmbeddedResource',
      ].flatMap(read);
      const results = read('CallToolResult');
      const responses = read('CallToolResultResponse');
      const inputRequired = read('InputRequiredResult');

      const latest = { protocolVersion: '2026-07-28' } as const;
      it.each(blocks)('%s', async (_name, block) => {
        const result = { resultType: 'complete', content: [block] };
        expect(errors(await validateToolResult(result))).toEqual([]);
        expect(errors(validateToolResultSync(result, latest))).toEqual([]);
      });
      it.each([...results, ...inputRequired])('%s', async (_name, result) => {
        expect(errors(await validateToolResult(result))).toEqual([]);
        expect(errors(validateToolResultSync(result, latest))).toEqual([]);
      });
      it.each(responses)('%s', async (_name, message) => {
        const request = { method: 'tools/call' };
        expect(errors(await validateMessage(message, { request }))).toEqual([]);
        expect(errors(validateMessageSync(message, { ...latest, request }))).toEqual([]);
      });
      it('covers every content-block example type', () => {
        expect(blocks.length).toBeGreaterThanOrEqual(5);
        expect(results.length + responses.length).toBeGreaterThanOrEqual(5);
        expect(inputRequired.length).toBeGreaterThanOrEqual(2);
      });
    });
  },
);
