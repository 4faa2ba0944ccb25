/**
 * Property: the scan's model of zod (src/scan/js/zod.ts) agrees with zod itself. For a generated zod
 * schema (as source, and as the real schema built from that source) and a generated JSON value, the
 * scan reports `structured-content-schema-mismatch` for `{ v: value }` under the outputSchema
 * `{ v: schema }` exactly when zod's `safeParse` rejects it. Refinements the model leaves out may only
 * make zod stricter: with them, a reported mismatch must still be one zod rejects (never a false error).
 */

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

/** The real zod schema the source builds. */
function build(src: string): z.ZodType {
  return new Function('z', `return ${src};`)(z) as z.ZodType;
}

async function scanReports(schema: string, value: unknown): Promise<boolean> {
  const text = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
const server = new McpServer({ name: 's', version: '1' });
server.registerTool('t', { outputSchema: { v: ${schema} } }, async () => {
  const structuredContent = { v: ${JSON.stringify(value)} };
  return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent };
});
`;
  const { findings } = await scanSources([{ path: 'server.ts', absolute: '/generated/server.ts', text }], {
    cwd: '/generated',
  });
  const rules = findings.filter((f) => f.severity === 'error').map((f) => f.rule);
  expect(
    rules.filter((r) => r !== 'structured-content-schema-mismatch'),
    schema,
  ).toEqual([]);
  return rules.length > 0;
}

describe('the model of zod', () => {
  it('reports a mismatch exactly when zod rejects the value (schemas without refinements)', async () => {
    const verdicts = { accepted: 0, rejected: 0 };
    await fc.assert(
      fc.asyncProperty(schemaArbitrary(false), valueArbitrary, async (schema, value) => {
        const rejects = !z.object({ v: build(schema.src) }).safeParse({ v: value }).success;
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

  it('never reports what zod accepts, whatever refinements the schema has', async () => {
    await fc.assert(
      fc.asyncProperty(schemaArbitrary(true), valueArbitrary, async (schema, value) => {
        const rejects = !z.object({ v: build(schema.src) }).safeParse({ v: value }).success;
        const reported = await scanReports(schema.src, value);
        if (reported) expect(rejects, `${schema.src} ← ${JSON.stringify(value)}`).toBe(true);
        if (schema.exact) expect(reported, `${schema.src} ← ${JSON.stringify(value)}`).toBe(rejects);
      }),
      { numRuns: runs(200) },
    );
  });
});
