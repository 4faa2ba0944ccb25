/**
 * Sizes of property runs. Two kinds of run take a fraction of each property's cases (at least 20, never
 * more than it asks for); `npm test`'s main run, on the machine's Node, always takes the full counts.
 *
 * - A mutation run (vitest.mutate.config.ts sets MCP_SHAPE_MUTATION_RUN) repeats every test that covers
 *   a mutant once per mutant, so a property runs a tenth of its cases there. That cannot make a kill
 *   false: a mutant counts as killed only when a test fails, and a failing draw of a fixed seed
 *   (scripts/mutate.ts sets MCP_SHAPE_SEED) is a real counterexample. It can only let a mutant survive
 *   that the full count would have caught, so the score is a lower bound.
 * - The Node 22/24 matrix (scripts/test-node-matrix.ts sets MCP_SHAPE_MATRIX_RUN) asks whether the
 *   library, CLI and proxy behave the same on another V8, not for more inputs than the main run already
 *   tried: a tenth of the cases (at least 20), as its proxy fuzz sends a tenth of the lines. It keeps
 *   `npm test` (and CI) under ten minutes on 2 cores.
 */
export function runs(n: number, mutationFraction = 0.1): number {
  const fraction = isMutationRun() ? mutationFraction : isMatrixRun() ? MATRIX_FRACTION : 1;
  return fraction === 1 ? n : Math.min(n, Math.max(20, Math.ceil(n * fraction)));
}

const MATRIX_FRACTION = 0.1;

/** Whether this test process is StrykerJS's (vitest.mutate.config.ts). */
export function isMutationRun(): boolean {
  return Boolean(process.env.MCP_SHAPE_MUTATION_RUN);
}

/** Whether this test process is one of the Node 22/24 matrix runs (scripts/test-node-matrix.ts). */
export function isMatrixRun(): boolean {
  return Boolean(process.env.MCP_SHAPE_MATRIX_RUN);
}
