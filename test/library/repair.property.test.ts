import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/core/finding.js';
import {
  type RepairMessageOptions,
  type RepairResult,
  repair,
  repairMessage,
  repairMessageSync,
  repairSync,
} from '../../src/library/repair/index.js';
import { ALL_VERSIONS, type ProtocolVersion } from '../../src/spec/versions.js';
import {
  validateMessage,
  validateMessageSync,
  validateToolResult,
  validateToolResultSync,
} from '../../src/validate/index.js';
import { anyResult } from '../spec/arbitraries.js';
import { anyMessage, anyToolsList } from '../spec/documents.js';
import { runs } from '../support/runs.js';
import { hasShared, officialSchema, sdkV1Parse, sdkV1Speaks, sdkV2Parse } from './support/oracles.js';
import {
  anyToolCall,
  BROKEN_BLOCKS,
  BROKEN_RESULTS,
  GOOD_BLOCKS,
  SCHEMA_RESULTS,
  TOOLS,
} from './support/shapes.js';

const RUNS = runs(300);

/** The guarantee is held for both entry points: the asynchronous repair() and repairSync(). */
const REPAIRS: readonly (readonly [
  string,
  (input: unknown, options: RepairOptionsOf) => Promise<RepairResult>,
])[] = [
  ['repair', (input, options) => repair(input, options)],
  ['repairSync', async (input, options) => repairSync(input, options)],
];

type RepairOptionsOf = { protocolVersion: ProtocolVersion; tool?: unknown };

/** Every judge of the guarantee; returns what failed, so a counterexample shows why. */
async function violations(output: unknown, version: ProtocolVersion, tool?: unknown): Promise<string[]> {
  const problems: string[] = [];
  // With a tool, the validator also checks structuredContent against its outputSchema, as SDK v1's
  // callTool() does after listTools().
  const errors = (await validateToolResult(output, { protocolVersion: version, tool })).filter(
    (f) => f.severity === 'error',
  );
  if (errors.length > 0)
    problems.push(`validator: ${errors.map((f) => `${f.rule} ${f.pointer}`).join(', ')}`);
  const wire = JSON.parse(JSON.stringify(output) ?? 'null');
  if (hasShared) {
    const schema = officialSchema(version)(wire);
    if (!schema.ok) problems.push(`official schema: ${schema.errors}`);
  }
  if (sdkV1Speaks(version)) {
    const sdk = sdkV1Parse(wire);
    if (!sdk.ok) problems.push(`SDK v1: ${sdk.errors}`);
  } else {
    const sdk = sdkV2Parse(wire);
    if (!sdk.ok) problems.push(`SDK v2: ${sdk.errors}`);
  }
  return problems;
}

/** Holds the message validators' automatic claims on `message` through repairMessage() and its synchronous form. */
async function expectMessageClaimsKept(message: unknown, options: RepairMessageOptions): Promise<void> {
  const judged = [
    [
      'repairMessage',
      await validateMessage(message, options),
      (await repairMessage(message, options)).message,
    ],
    ['repairMessageSync', validateMessageSync(message, options), repairMessageSync(message, options).message],
  ] as const;
  for (const [how, before, repaired] of judged) {
    expect(unkept(before, validateMessageSync(repaired, options)), how).toEqual([]);
  }
}

/** The findings of `before` that said their fix was automatic and are still found, word for word, `after`. */
function unkept(before: readonly Finding[], after: readonly Finding[]): string[] {
  return before
    .filter(
      (f) =>
        f.fix?.automatic &&
        after.some((g) => g.rule === f.rule && g.pointer === f.pointer && g.message === f.message),
    )
    .map((f) => `${f.rule} ${f.pointer}: ${f.message}`);
}

describe.each(ALL_VERSIONS)(
  `repair() guarantee, protocol %s${hasShared ? '' : ' (official schema skipped: ../shared is absent)'}`,
  (version) => {
    it('every known broken shape comes out accepted by every judge', async () => {
      const inputs = {
        ...BROKEN_RESULTS,
        ...Object.fromEntries(Object.entries(BROKEN_BLOCKS).map(([k, b]) => [k, { content: [b] }])),
      };
      const failures: string[] = [];
      for (const [how, fix] of REPAIRS) {
        for (const [name, input] of Object.entries(inputs)) {
          const { result } = await fix(input, { protocolVersion: version });
          const problems = await violations(result, version);
          if (problems.length > 0) failures.push(`${how} ${name}: ${problems.join(' | ')}`);
        }
      }
      expect(failures).toEqual([]);
    });

    it('every outputSchema near miss comes out accepted, for every tool', async () => {
      const failures: string[] = [];
      for (const [how, fix] of REPAIRS) {
        for (const [toolName, tool] of Object.entries(TOOLS)) {
          for (const [name, input] of Object.entries(SCHEMA_RESULTS)) {
            const { result } = await fix(input, { protocolVersion: version, tool });
            const problems = await violations(result, version, tool);
            if (problems.length > 0) failures.push(`${how} ${toolName} / ${name}: ${problems.join(' | ')}`);
          }
        }
      }
      expect(failures).toEqual([]);
    });

    it('holds for arbitrary results, and repair is idempotent (repair and repairSync)', {
      timeout: 120_000,
    }, async () => {
      await fc.assert(
        fc.asyncProperty(anyToolCall, async ({ result: input, tool }) => {
          for (const [how, fix] of REPAIRS) {
            const first = await fix(input, { protocolVersion: version, tool });
            expect(await violations(first.result, version, tool), how).toEqual([]);
            const second = await fix(first.result, { protocolVersion: version, tool });
            expect(second.fixes, how).toEqual([]);
            expect(second.result, how).toBe(first.result);
          }
        }),
        { numRuns: RUNS },
      );
    });

    it('holds for the results that reach every rule (anyResult), never changing the input', {
      timeout: 120_000,
    }, async () => {
      await fc.assert(
        fc.asyncProperty(anyResult(version), async ({ result: input, tool, mutations }) => {
          const before = JSON.stringify(input);
          for (const [how, fix] of REPAIRS) {
            const first = await fix(input, { protocolVersion: version, tool });
            expect(await violations(first.result, version, tool), `${how} ${mutations}`).toEqual([]);
            expect(JSON.stringify(input), `${how} changed its input`).toBe(before);
            // The SDK server checks the JS value itself before writing it (test/library/sdk-server.test.ts).
            const inProcess = sdkV1Speaks(version) ? sdkV1Parse(first.result) : sdkV2Parse(first.result);
            expect(inProcess, how).toEqual({ ok: true });
          }
        }),
        { numRuns: runs(150) },
      );
    });

    it('leaves no finding that said its fix is automatic (fix.automatic claims only what repair does)', {
      timeout: 120_000,
    }, async () => {
      // The generators that reach every rule of the catalog (test/spec/arbitraries.ts).
      await fc.assert(
        fc.asyncProperty(anyResult(version), async ({ result: input, tool }) => {
          const options = { protocolVersion: version, tool };
          const judged = [
            ['repair', await validateToolResult(input, options), (await repair(input, options)).result],
            ['repairSync', validateToolResultSync(input, options), repairSync(input, options).result],
          ] as const;
          for (const [how, before, repaired] of judged) {
            expect(unkept(before, validateToolResultSync(repaired, options)), how).toEqual([]);
          }
        }),
        { numRuns: runs(200) },
      );
    });

    it('leaves no message finding that said its fix is automatic (repairMessage and repairMessageSync)', {
      timeout: 120_000,
    }, async () => {
      await fc.assert(
        fc.asyncProperty(anyMessage(version), async ({ document: { message, request, tool } }) => {
          const options = { protocolVersion: version, request, tools: tool ? [tool] : undefined };
          await expectMessageClaimsKept(message, options);
        }),
        { numRuns: runs(200) },
      );
    });

    it('leaves no tools/list finding that said its fix is automatic (repairMessage and repairMessageSync)', {
      timeout: 120_000,
    }, async () => {
      const options = { protocolVersion: version, request: { jsonrpc: '2.0', id: 1, method: 'tools/list' } };
      await fc.assert(
        fc.asyncProperty(anyToolsList(version), async ({ document: list }) => {
          const message = { jsonrpc: '2.0', id: 1, result: list };
          await expectMessageClaimsKept(message, options);
        }),
        { numRuns: runs(200) },
      );
    });

    it('returns a clean result unchanged: the same object, no fixes', async () => {
      const blocks = GOOD_BLOCKS.filter((b) => {
        const type = (b as { type: string }).type;
        return (
          version >= '2025-06-18' ||
          (type !== 'resource_link' && (type !== 'audio' || version >= '2025-03-26'))
        );
      });
      await fc.assert(
        fc.asyncProperty(fc.array(fc.constantFrom(...blocks), { maxLength: 4 }), async (content) => {
          const input = version === '2026-07-28' ? { content, resultType: 'complete' } : { content };
          const snapshot = structuredClone(input);
          const findings = await validateToolResult(input, { protocolVersion: version });
          for (const [how, fix] of REPAIRS) {
            const { result, fixes } = await fix(input, { protocolVersion: version });
            if (findings.length === 0) {
              expect(fixes, how).toEqual([]);
              expect(result, how).toBe(input);
            }
            expect(input, how).toEqual(snapshot);
          }
        }),
        { numRuns: runs(100) },
      );
    });
  },
);
