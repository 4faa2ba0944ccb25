/**
 * Vitest setup file: with MCP_SHAPE_SEED set, every fast-check property draws from that seed, so a run
 * can be repeated input for input. `.ci/run` sets it: CI judges a change by the same inputs every time,
 * while local runs (no seed) keep exploring new ones. A failing property prints its seed and path either
 * way; rerun with MCP_SHAPE_SEED=<seed> to see it again. In a mutation run, properties run fewer cases
 * (test/support/runs.ts).
 */

import fc from 'fast-check';
import { isMatrixRun, isMutationRun, runs } from './runs.js';

/** The seed MCP_SHAPE_SEED names, or undefined when it is unset or empty; throws on anything else. */
export function seedFrom(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const seed = Number(value);
  if (!Number.isSafeInteger(seed)) throw new Error(`MCP_SHAPE_SEED must be an integer, got ${value}`);
  return seed;
}

const seed = seedFrom(process.env.MCP_SHAPE_SEED);
if (seed !== undefined) fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });
// A property that names no count runs fast-check's default of 100; in a mutation run and in the Node
// 22/24 matrix, a fraction of it, as runs() explains.
if (isMutationRun() || isMatrixRun()) fc.configureGlobal({ ...fc.readConfigureGlobal(), numRuns: runs(100) });
