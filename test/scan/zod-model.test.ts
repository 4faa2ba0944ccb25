/**
 * Property: the scan's model of zod (src/scan/js/zod.ts) agrees with the SDK. For a generated zod
 * schema (as source, and as the real schema built from that source) and a generated JSON value, the
 * scan reports `structured-content-schema-mismatch` for `{ v: value }` under the outputSchema
 * `{ v: schema }` exactly when the call fails: McpServer's zod `safeParse` rejects it, or the client
 * rejects it against the JSON Schema McpServer lists (the SDK's own conversion, ajv as the SDK client
 * uses it), which refuses members a zod object does not list where zod only strips them. Refinements
 * the model leaves out may only make zod stricter: with them, a reported mismatch must still be one
 * that fails (never a false error).
 */

import { toJsonSchemaCompat } from '@modelcontextprotocol/sdk/server/zod-json-schema-compat.js';
import { Ajv } from 'ajv';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { scanSources } from '../../src/scan/index.js';
import { runs } from '../support/runs.js';

interface Schema {
  readonly src: string;
  /** Only zod's own checks decide (no refinement the model leaves out). */
  readonly exact: boolean;
}

const LEAVES: readonly string[] = [
  'z.string()',
  'z.number()',
  'z.number().int()',
  'z.boolean()',
  'z.null()',
  "z.literal('a')",
  'z.literal(1)',
  "z.enum(['a', 'b'])",
  'z.any()',
  'z.unknown()',
];

/** Leaves with refinements the model leaves out (and one that changes nothing). */
const REFINED: readonly string[] = [
  'z.string().min(2)',
  'z.string().regex(/^b/)',
  'z.number().max(1)',
  'z.number().positive()',
  'z.array(z.any()).min(1)',
  'z.string().refine((s) => s.length > 5)',
  'z.number().describe("d")',
];

function schemaArbitrary(refined: boolean): fc.Arbitrary<Schema> {
  const { schema } = fc.letrec<{ schema: Schema }>((tie) => ({
    schema: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constantFrom(...LEAVES).map((src) => ({ src, exact: true })),
      tie('schema').map((s) => ({ src: `z.array(${s.src})`, exact: s.exact })),
      fc.tuple(tie('schema'), tie('schema'), fc.boolean()).map(([a, b, optional]) => ({
        src: `z.object({ k1: ${a.src}, k2: ${b.src}${optional ? '.optional()' : ''} })`,
        exact: a.exact && b.exact,
      })),
      fc.tuple(tie('schema'), tie('schema')).map(([a, b]) => ({
        src: `z.union([${a.src}, ${b.src}])`,
        exact: a.exact && b.exact,
      })),
      tie('schema').map((s) => ({ src: `z.record(z.string(), ${s.src})`, exact: s.exact })),
      tie('schema').map((s) => ({ src: `${s.src}.nullable()`, exact: s.exact })),
      ...(refined
        ? [fc.constantFrom(...REFINED).map((src) => ({ src, exact: src.endsWith('.describe("d")') }))]
        : []),
    ),
  }));
  return schema;
}

/** Small JSON values over the names and constants the schemas use, so both verdicts come up often. */
const valueArbitrary: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom<unknown>('a', 'b', 'x', '', 1, 1.5, -2, 0, true, false, null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('k1', 'k2', 'k3'), tie('value'), { maxKeys: 3 }),
  ),
})).value;

/** An argument the handler gets by its inputSchema: a string, number or boolean known only at run time. */
class Argument {
  constructor(readonly kind: 'string' | 'number' | 'boolean') {}
}

/** Values with arguments in them, which the scan knows only by their JSON type. */
const partlyKnownArbitrary: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom<unknown>('a', 1, true, null),
    fc.constantFrom('string', 'number', 'boolean').map((kind) => new Argument(kind as Argument['kind'])),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('k1', 'k2', 'k3'), tie('value'), { maxKeys: 3 }),
  ),
})).value;

/** The source of a value, each argument read as `args.<kind>`. */
function sourceOf(value: unknown): string {
  if (value instanceof Argument) return `args.${value.kind}`;
  if (Array.isArray(value)) return `[${value.map(sourceOf).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{ ${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}: ${sourceOf(v)}`)
      .join(', ')} }`;
  }
  return JSON.stringify(value);
}

/** The value with each argument replaced by what `pick` gives for its kind. */
function instantiate(value: unknown, pick: (kind: Argument['kind']) => unknown): unknown {
  if (value instanceof Argument) return pick(value.kind);
  if (Array.isArray(value)) return value.map((v) => instantiate(v, pick));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, instantiate(v, pick)]));
  }
  return value;
}

/** The real zod schema the source builds. */
function build(src: string): z.ZodType {
  return new Function('z', `return ${src};`)(z) as z.ZodType;
}

const ajv = new Ajv({ strict: false });

/**
 * Whether a tools/call with structuredContent `{ v: value }` fails under the outputSchema `{ v: schema }`:
 * McpServer parses it with zod, and the SDK client checks it against the schema McpServer listed.
 */
function callFails(src: string, value: unknown): boolean {
  const schema = z.object({ v: build(src) });
  if (!schema.safeParse({ v: value }).success) return true;
  const listed = toJsonSchemaCompat(schema, { strictUnions: true, pipeStrategy: 'output' });
  return !ajv.validate(listed, { v: value });
}

/** Whether the scan reports a mismatch, and whether it calls the return typed. */
async function scanJudges(schema: string, value: unknown): Promise<{ reported: boolean; typed: boolean }> {
  const text = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
const server = new McpServer({ name: 's', version: '1' });
const inputSchema = { string: z.string(), number: z.number(), boolean: z.boolean() };
server.registerTool('t', { inputSchema, outputSchema: { v: ${schema} } }, async (args) => {
  const structuredContent = { v: ${sourceOf(value)} };
  return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent };
});
`;
  const { findings, handlers } = await scanSources(
    [{ path: 'server.ts', absolute: '/generated/server.ts', text }],
    { cwd: '/generated' },
  );
  const rules = findings.filter((f) => f.severity === 'error').map((f) => f.rule);
  expect(
    rules.filter((r) => r !== 'structured-content-schema-mismatch'),
    schema,
  ).toEqual([]);
  const typed = handlers.every((h) => h.returns.every((r) => r.status === 'typed'));
  return { reported: rules.length > 0, typed };
}

async function scanReports(schema: string, value: unknown): Promise<boolean> {
  return (await scanJudges(schema, value)).reported;
}

describe('the model of zod', () => {
  it('reports a mismatch exactly when zod rejects the value (schemas without refinements)', async () => {
    const verdicts = { accepted: 0, rejected: 0 };
    await fc.assert(
      fc.asyncProperty(schemaArbitrary(false), valueArbitrary, async (schema, value) => {
        const rejects = callFails(schema.src, value);
        verdicts[rejects ? 'rejected' : 'accepted']++;
        expect(await scanReports(schema.src, value), `${schema.src} ← ${JSON.stringify(value)}`).toBe(
          rejects,
        );
      }),
      { numRuns: runs(300) },
    );
    // Both outcomes were drawn, so the property tested both directions.
    expect(verdicts.accepted).toBeGreaterThan(10);
    expect(verdicts.rejected).toBeGreaterThan(10);
  });

  it('never reports what zod accepts, and never calls typed what zod rejects, whatever refinements', async () => {
    const typedWithRefinement = { accepted: 0, unresolved: 0 };
    await fc.assert(
      fc.asyncProperty(schemaArbitrary(true), valueArbitrary, async (schema, value) => {
        const rejects = callFails(schema.src, value);
        const { reported, typed } = await scanJudges(schema.src, value);
        const about = `${schema.src} ← ${JSON.stringify(value)}`;
        if (reported) expect(rejects, about).toBe(true);
        if (schema.exact) expect(reported, about).toBe(rejects);
        // McpServer rejects what zod rejects: such a return is never typed.
        if (typed) expect(rejects, about).toBe(false);
        if (!schema.exact && !rejects) typedWithRefinement[typed ? 'accepted' : 'unresolved']++;
      }),
      {
        numRuns: runs(200),
        // Both kinds of refined schema zod accepts the value under, whatever the draws: the refinement
        // on the value's path (unresolved), and only on an option the value does not take (typed).
        examples: [
          [{ src: 'z.string().min(2)', exact: false }, 'ab'],
          [{ src: 'z.union([z.boolean(), z.string().min(2)])', exact: false }, true],
        ],
      },
    );
    // Refined schemas that zod accepts the value under came up both typed (the refinement was not on
    // the value's path) and unresolved (it was).
    expect(typedWithRefinement.accepted).toBeGreaterThan(0);
    expect(typedWithRefinement.unresolved).toBeGreaterThan(0);
  });

  it('never calls typed a return whose arguments may make zod reject it', async () => {
    const verdicts = { typed: 0, unresolved: 0 };
    const picks = {
      string: fc.string({ maxLength: 4 }),
      number: fc.oneof(fc.integer({ min: -3, max: 3 }), fc.double({ noNaN: true, noDefaultInfinity: true })),
      boolean: fc.boolean(),
    };
    await fc.assert(
      fc.asyncProperty(schemaArbitrary(true), partlyKnownArbitrary, async (schema, value) => {
        const { reported, typed } = await scanJudges(schema.src, value);
        verdicts[typed ? 'typed' : 'unresolved']++;
        if (!typed) return;
        expect(reported).toBe(false);
        // Typed claims the call succeeds whatever the arguments are: try several of them.
        fc.assert(
          fc.property(picks.string, picks.number, picks.boolean, (string, number, boolean) => {
            const concrete = instantiate(value, (kind) => ({ string, number, boolean })[kind]);
            expect(callFails(schema.src, concrete), `${schema.src} ← ${JSON.stringify(concrete)}`).toBe(
              false,
            );
          }),
          { numRuns: 20 },
        );
      }),
      {
        numRuns: runs(200),
        // A random seed found it: a known item that fails a union beside an unknown one was called
        // typed (the document's verdict under a union is set aside while any part is unknown).
        examples: [[{ src: 'z.array(z.number().nullable())', exact: true }, [[], new Argument('number')]]],
      },
    );
    expect(verdicts.typed).toBeGreaterThan(5);
    expect(verdicts.unresolved).toBeGreaterThan(5);
  });

  it('holds a known part under a union to the schema itself when another part is unknown', async () => {
    // The document's verdict under anyOf is set aside while args.number is unknown, so the known `[]`
    // must be judged by its own schema: it fails it, and the return is unresolved, never typed.
    for (const [schema, value] of [
      ['z.array(z.number().nullable())', [[], new Argument('number')]],
      ['z.array(z.union([z.string(), z.boolean()]))', [new Argument('string'), 1]],
      ['z.object({ k1: z.number().nullable(), k2: z.string() })', { k1: 'a', k2: new Argument('string') }],
    ] as const) {
      expect(await scanJudges(schema, value), schema).toEqual({ reported: false, typed: false });
    }
    // The same shapes with parts that fit stay typed.
    expect(await scanJudges('z.array(z.number().nullable())', [null, new Argument('number')])).toEqual({
      reported: false,
      typed: true,
    });
  });
});
