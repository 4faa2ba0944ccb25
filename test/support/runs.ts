/**
 * Sizes of property runs. A mutation run (vitest.mutate.config.ts sets MCP_SHAPE_MUTATION_RUN) repeats
 * every test that covers a mutant once per mutant, so there a property runs a fraction of its cases (at
 * least 20, never more than it asks for). That cannot make a kill false: a mutant counts as killed only
 * when a test fails, and a failing draw of a fixed seed (scripts/mutate.ts sets MCP_SHAPE_SEED) is a
 * real counterexample. It can only let a mutant survive that the full count would have caught, so the
 * score is a lower bound; `npm test` and CI always run the full counts.
 */
export function runs(n: number, mutationFraction = 0.1): number {
  return isMutationRun() ? Math.min(n, Math.max(20, Math.ceil(n * mutationFraction))) : n;
}

/** Whether this test process is StrykerJS's (vitest.mutate.config.ts). */
export function isMutationRun(): boolean {
  return Boolean(process.env.MCP_SHAPE_MUTATION_RUN);
}
