/**
 * Differential proof against the official JSON Schemas, for every version, tying defects. On every
 * generated result or response the schema rejects, at least one error of ours is located at or above a
 * path where the official schema's validation failed (JSON Pointers compared; Ajv's instancePath,
 * extended by the member a `required` or `additionalProperties` error names). Every other error we
 * report, on any case, is inside a node the schema rejected, or one of our documented, deliberate
 * tightenings (STRICTER below) on a case of exactly the kind that tightening describes: each has a
 * predicate, written here from the spec and the SDK, that decides it without our rules' code. Counters
 * per version show both directions are reached.
 */

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AnnotationsSchema, ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/core/finding.js';
import { isObject, type JsonObject } from '../../src/core/json.js';
import { getIn, parsePointer } from '../../src/core/pointer.js';
import { PROTOCOL_VERSIONS, type ProtocolVersion } from '../../src/spec/versions.js';
import {
  validateMessage,
  validateMessageSync,
  validateToolResult,
  validateToolResultSync,
} from '../../src/validate/index.js';
import { runs } from '../support/runs.js';
import { disagreement, fileTypeOnlyBlocks } from '../support/sync-agreement.js';
import { anyResult } from './arbitraries.js';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv | Ajv2020,
  options?: { formats?: string[] },
) => void;

const sharedDir = join(import.meta.dirname, '../../../shared');
const RUNS = runs(3000);
/** Thousands of cases with every schema error collected: generous, for a machine busy with other tests. */
const TIMEOUT = 300_000;

/** What a tightening sees: the whole case and the finding's value. */
interface KindContext {
  readonly version: ProtocolVersion;
  /** The checked document: a result, or a response whose result is at /result. */
  readonly document: unknown;
  /** The result within it. */
  readonly result: unknown;
  readonly resultPointer: string;
  readonly tool: JsonObject | undefined;
  readonly finding: Finding;
  /** The finding's pointer relative to the result (undefined when it points outside the result). */
  readonly inResult: string | undefined;
}

interface Tightening {
  /** Why the schema accepts what we call an error. */
  readonly why: string;
  /** Whether the case is the kind the tightening describes. */
  readonly kind: (c: KindContext) => boolean;
}

const BLOCK = /^\/content\/\d+/;
const RESULT_TYPES = ['complete', 'input_required'];
const JSONRPC_MEMBERS = ['jsonrpc', 'id', 'method', 'params', 'result', 'error'];

/**
 * Errors we report on results the official schema accepts: the schemas type these fields loosely, or
 * cannot see them, but the spec's prose or the official TypeScript SDK rejects them.
 */
const STRICTER: Readonly<Record<string, Tightening>> = {
  'block-annotations-invalid': {
    why: 'lastModified: the schema says only `string` (and nothing before 2025-06-18); the TS SDK requires an ISO date-time with offset and validates annotations in every version',
    // The SDK's own AnnotationsSchema rejects the block's annotations.
    kind: ({ result, inResult }) => {
      const block = inResult?.match(BLOCK)?.[0];
      const annotations =
        block === undefined ? undefined : getIn(result, [...parsePointer(block), 'annotations']);
      return block !== undefined && !AnnotationsSchema.safeParse(annotations).success;
    },
  },
  'block-meta-not-object': {
    why: '2024-11-05 and 2025-03-26 define no block `_meta`, but the TS SDK parses it as a record in every version',
    kind: ({ version, result, inResult }) =>
      version < '2025-06-18' &&
      inResult !== undefined &&
      /^\/content\/\d+(\/resource)?\/_meta$/.test(inResult) &&
      !isObject(getIn(result, parsePointer(inResult))),
  },
  'block-resource-link-invalid': {
    why: 'icons before 2025-11-25: not in the schema, but the TS SDK validates their shape in every version',
    kind: ({ version, inResult }) =>
      version < '2025-11-25' && inResult !== undefined && /^\/content\/\d+\/icons(\/|$)/.test(inResult),
  },
  'structured-content-not-object': {
    why: 'before 2025-06-18 structuredContent is not defined (extra result members are allowed), but the TS SDK v1 parses it as a record in every version',
    kind: ({ version, result, inResult }) =>
      version < '2025-06-18' &&
      inResult === '/structuredContent' &&
      !isObject(getIn(result, ['structuredContent'])),
  },
  'result-meta-key-invalid': {
    why: "a result's `_meta` is open in every schema, but the TS SDK's ResultSchema types its progressToken and related-task entry",
    kind: ({ result, inResult }) =>
      inResult !== undefined &&
      /^\/_meta\/(progressToken|io\.modelcontextprotocol~1related-task)$/.test(inResult) &&
      !ResultSchema.safeParse({ _meta: getIn(result, ['_meta']) }).success,
  },
  'result-type-invalid': {
    why: '2026-07-28 types resultType as any string; unknown values "MUST be considered invalid" (basic/index.mdx)',
    kind: ({ result, inResult }) => {
      const value = getIn(result, ['resultType']);
      return inResult === '/resultType' && typeof value === 'string' && !RESULT_TYPES.includes(value);
    },
  },
  'result-input-required-invalid': {
    why: 'InputRequiredResult: "At least one of `inputRequests` or `requestState` MUST be present" is prose in the description, not a schema constraint; an empty inputRequests, which asks nothing, does not count (the TS SDK v2 client rejects it without requestState)',
    kind: ({ result, inResult }) =>
      isObject(result) &&
      result.resultType === 'input_required' &&
      result.requestState === undefined &&
      ((inResult === '' && result.inputRequests === undefined) ||
        (inResult === '/inputRequests' &&
          isObject(result.inputRequests) &&
          Object.keys(result.inputRequests).length === 0)),
  },
  'envelope-extra-member': {
    why: 'no schema forbids extra envelope members; the TS SDK drops such messages (.strict())',
    kind: ({ finding }) => {
      const [member, ...rest] = parsePointer(finding.pointer);
      return rest.length === 0 && member !== undefined && !JSONRPC_MEMBERS.includes(member);
    },
  },
  'structured-content-schema-mismatch': {
    why: "the CallToolResult schema cannot see the tool: structuredContent MUST conform to the tool's outputSchema (server/tools.mdx)",
    // An Ajv of this test's own, not the one our rule uses, rejects structuredContent at that path.
    kind: ({ tool, result, inResult }) => {
      if (!isObject(result) || tool?.outputSchema === undefined || inResult === undefined) return false;
      const failures = outputSchemaFailures(tool.outputSchema, result.structuredContent);
      return failures.some((path) => `/structuredContent${path}` === inResult);
    },
  },
  'structured-content-missing-for-output-schema': {
    why: 'the CallToolResult schema cannot see the tool: a tool with an outputSchema MUST return structuredContent (server/tools.mdx)',
    kind: ({ tool, result, inResult }) =>
      isObject(result) &&
      tool?.outputSchema !== undefined &&
      inResult === '/structuredContent' &&
      result.structuredContent === undefined &&
      result.isError !== true,
  },
};

const outputSchemaAjv = new Ajv2020({ strict: false, allErrors: true });

function outputSchemaFailures(schema: unknown, value: unknown): string[] {
  const validate = outputSchemaAjv.compile(schema as object);
  return validate(value) ? [] : (validate.errors ?? []).map((e) => e.instancePath);
}

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

/** The official verdict on a tools/call result, with where validation failed. */
interface Oracle {
  (result: unknown): boolean;
  errors(): ErrorObject[];
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
    // allErrors: every place validation failed, not only the first, so a defect can be tied to its own.
    const options = { strict: false, allErrors: true } as const;
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
    return Object.assign(verdict, { errors: () => last.errors ?? [] });
  };
  const ajv = make(false);
  const responseDef = defs === '$defs' ? 'JSONRPCResultResponse' : 'JSONRPCResponse';
  return { result: oracle(ajv), strictByteResult: oracle(make(true)), response: get(ajv, responseDef) };
}

function escapeSegment(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** Where validation failed: the instance path, or for a missing or extra member, that member's path. */
function failurePaths(errors: readonly ErrorObject[], prefix = ''): string[] {
  return errors.map((e) => {
    const member =
      e.keyword === 'required'
        ? (e.params as { missingProperty: string }).missingProperty
        : e.keyword === 'additionalProperties'
          ? (e.params as { additionalProperty: string }).additionalProperty
          : undefined;
    return `${prefix}${e.instancePath}${member === undefined ? '' : `/${escapeSegment(member)}`}`;
  });
}

/**
 * Rules that report a missing member at the member that took its place: the schema fails at the missing
 * one. Each entry names the failing path (relative to the result) the finding accounts for, and why.
 */
const REPORTED_AT_REPLACEMENT: Readonly<Record<string, { readonly missing: string; readonly why: string }>> =
  {
    'result-legacy-tool-result': {
      missing: '/content',
      why: 'a `{ toolResult }` envelope has no `content`; the finding points at `toolResult`, which repair turns into content',
    },
  };

/** `pointer` names `failed` or one of its ancestors. */
function atOrAbove(pointer: string, failed: string): boolean {
  return failed === pointer || failed.startsWith(`${pointer}/`);
}

/** Counters of one version, printed after its tests. */
interface Counters {
  cases: number;
  rejected: number;
  /** Rejected cases where we also reported a stricter error that the failure does not explain. */
  rejectedWithStricter: number;
  /**
   * Rejected cases with a further error inside a node the schema rejected (a relative uri in a block
   * whose type the version does not have): about the same defect, so not held to the tightenings.
   */
  withinRejectedNode: number;
  accepted: number;
  acceptedClean: number;
  acceptedWithStricter: number;
  stricterRules: Record<string, number>;
}

function newCounters(): Counters {
  return {
    cases: 0,
    rejected: 0,
    rejectedWithStricter: 0,
    withinRejectedNode: 0,
    accepted: 0,
    acceptedClean: 0,
    acceptedWithStricter: 0,
    stricterRules: {},
  };
}

/**
 * Judges our errors on one case against the schema's failure paths; returns what is wrong, or nothing.
 * Updates the counters.
 */
function judge(
  counters: Counters,
  ours: readonly Finding[],
  failures: readonly string[] | undefined,
  context: Omit<KindContext, 'finding' | 'inResult'>,
): string | undefined {
  counters.cases++;
  const untied: Finding[] = [];
  let tied = 0;
  const replaced = (finding: Finding) => {
    const entry = REPORTED_AT_REPLACEMENT[finding.rule];
    return entry === undefined ? [] : [`${context.resultPointer}${entry.missing}`];
  };
  let within = 0;
  for (const finding of ours) {
    const located = [finding.pointer, ...replaced(finding)];
    if (failures?.some((failed) => located.some((pointer) => atOrAbove(pointer, failed)))) tied++;
    else if (failures?.some((failed) => atOrAbove(failed, finding.pointer))) within++;
    else untied.push(finding);
  }
  if (within > 0) counters.withinRejectedNode++;
  const unexplained = untied.filter((finding) => {
    const inResult = atOrAbove(context.resultPointer, finding.pointer)
      ? finding.pointer.slice(context.resultPointer.length)
      : undefined;
    const tightening = STRICTER[finding.rule];
    return !tightening?.kind({ ...context, finding, inResult });
  });
  for (const finding of untied)
    counters.stricterRules[finding.rule] = (counters.stricterRules[finding.rule] ?? 0) + 1;
  if (failures) {
    counters.rejected++;
    if (untied.length > 0) counters.rejectedWithStricter++;
    if (tied === 0)
      return `schema rejects, no error of ours is at or above a failing path (${failures.join(', ')})`;
  } else {
    counters.accepted++;
    if (ours.length === 0) counters.acceptedClean++;
    else counters.acceptedWithStricter++;
  }
  if (unexplained.length > 0) {
    return `errors neither tied to a schema failure nor a documented tightening of this kind: ${unexplained
      .map((f) => `${f.rule} ${f.pointer}`)
      .join(', ')}${failures ? ` (schema failed at ${failures.join(', ')})` : ' (schema accepts)'}`;
  }
  return undefined;
}

function errors(findings: readonly Finding[]): Finding[] {
  return findings.filter((f) => f.severity === 'error');
}

function report(version: ProtocolVersion, what: string, c: Counters): string {
  const rules = Object.entries(c.stricterRules)
    .map(([rule, n]) => `${rule} ${n}`)
    .join(', ');
  return `${version} ${what}: ${c.cases} cases; schema rejects ${c.rejected} (each with an error of ours at or above a failing path; ${c.withinRejectedNode} also with one inside a rejected node, ${c.rejectedWithStricter} also with a tightening), accepts ${c.accepted} (${c.acceptedClean} with no error of ours, ${c.acceptedWithStricter} with a documented tightening); tightenings seen: ${rules || 'none'}`;
}

describe.skipIf(!existsSync(sharedDir))(
  existsSync(sharedDir)
    ? 'differential against the official schemas'
    : 'differential against the official schemas (skipped: ../shared is absent)',
  () => {
    const printed: string[] = [];
    afterAll(() => {
      if (printed.length > 0) console.log(printed.join('\n'));
    });

    describe.each(PROTOCOL_VERSIONS)('%s', (version) => {
      // Compiled on first use: describe bodies run at collection even when the suite is skipped.
      let compiled: Validators | undefined;
      const v = () => {
        compiled ??= compile(version);
        return compiled;
      };

      // The synchronous validator is held to the asynchronous one on every result, so the verdicts below
      // hold for both.
      it(`ties every error to a schema failure or a tightening of its kind on ${RUNS} generated results, sync and async`, {
        timeout: TIMEOUT,
      }, async () => {
        const counters = newCounters();
        await fc.assert(
          fc.asyncProperty(anyResult(version), async ({ result, tool, mutations }) => {
            const schemaOk = v().result(result) === true;
            const failures = schemaOk ? undefined : failurePaths(v().result.errors());
            const findings = await validateToolResult(result, { protocolVersion: version, tool });
            const sync = validateToolResultSync(result, { protocolVersion: version, tool });
            const ours = errors(findings);
            const context = `${JSON.stringify(result).slice(0, 600)}\ntool: ${JSON.stringify(tool)}\nmutations: ${mutations.join('; ')}\nours: ${ours.map((f) => `${f.rule} ${f.pointer}`).join(', ')}`;
            const differs = disagreement(findings, sync, await fileTypeOnlyBlocks(result));
            expect(differs, `sync and async validators disagree:\n${context}`).toBeUndefined();
            const problem = judge(counters, ours, failures, {
              version,
              document: result,
              result,
              resultPointer: '',
              tool,
            });
            expect(problem, context).toBeUndefined();
            if (schemaOk && v().strictByteResult(result) !== true) {
              expect(
                findings.map((f) => f.rule),
                `strict byte format:\n${context}`,
              ).toContain('block-base64-non-canonical');
            }
          }),
          { numRuns: RUNS },
        );
        printed.push(report(version, 'results', counters));
        // Both directions must be reached: cases the schema rejects, cases it accepts, and among those,
        // cases where a tightening of ours speaks (so the kind predicates are exercised).
        expect(counters.rejected).toBeGreaterThan(RUNS / 10);
        expect(counters.accepted).toBeGreaterThan(RUNS / 10);
        expect(counters.acceptedWithStricter).toBeGreaterThan(RUNS / 100);
      });

      it('ties every error on generated responses to the envelope or result schema, or a tightening, sync and async', {
        timeout: TIMEOUT,
      }, async () => {
        const counters = newCounters();
        const envelope = fc.record({
          jsonrpc: fc.constantFrom<unknown>('2.0', '2.0', '2.0', '1.0', 2),
          id: fc.constantFrom<unknown>(1, 'a', 1, 'req-7', null, 1.5, undefined),
          extra: fc.constantFrom<unknown>(undefined, undefined, undefined, 'abc'),
        });
        await fc.assert(
          fc.asyncProperty(anyResult(version), envelope, async ({ result, tool }, env) => {
            const message: Record<string, unknown> = { jsonrpc: env.jsonrpc, result };
            if (env.id !== undefined) message.id = env.id;
            if (env.extra !== undefined) message.requestId = env.extra;
            const responseOk = v().response(message) === true;
            const responseFailures = responseOk ? [] : failurePaths(v().response.errors ?? []);
            const resultOk = v().result(result) === true;
            const resultFailures = resultOk ? [] : failurePaths(v().result.errors(), '/result');
            const failures = responseOk && resultOk ? undefined : [...responseFailures, ...resultFailures];
            const options = {
              protocolVersion: version,
              request: { method: 'tools/call', params: { name: 'generated_tool' } },
              tools: tool ? [tool] : [],
            };
            const findings = await validateMessage(message, options);
            const differs = disagreement(
              findings,
              validateMessageSync(message, options),
              await fileTypeOnlyBlocks(message, ['result']),
            );
            expect(differs, JSON.stringify(message).slice(0, 500)).toBeUndefined();
            const ours = errors(findings);
            const problem = judge(counters, ours, failures, {
              version,
              document: message,
              result,
              resultPointer: '/result',
              tool,
            });
            expect(
              problem,
              `${JSON.stringify(message).slice(0, 500)}\nours: ${ours.map((f) => `${f.rule} ${f.pointer}`).join(', ')}`,
            ).toBeUndefined();
          }),
          { numRuns: Math.ceil(RUNS / 3) },
        );
        printed.push(report(version, 'responses', counters));
        expect(counters.rejected).toBeGreaterThan(RUNS / 30);
        expect(counters.accepted).toBeGreaterThan(RUNS / 30);
        expect(counters.acceptedWithStricter).toBeGreaterThan(RUNS / 300);
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
