/**
 * Sizes of the property runs in test/spec and test/core. A mutation run (vitest.mutate.config.ts sets
 * MCP_SHAPE_MUTATION_RUN) repeats every test that covers a surviving mutant, so it runs a fraction.
 */
export function runs(n: number, mutationFraction = 0.1): number {
  return process.env.MCP_SHAPE_MUTATION_RUN ? Math.max(20, Math.ceil(n * mutationFraction)) : n;
}
