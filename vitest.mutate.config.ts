/**
 * The test run StrykerJS repeats for every mutant (see stryker.config.mjs): the suite of
 * vitest.config.ts, less what cannot kill a mutant or costs minutes per survivor.
 * - Files that only run the CLI or npm in child processes: Stryker activates a mutant in the test
 *   process, so a child never sees it.
 * - The fuzz test: its 100 000 random values only prove that nothing throws, which the rule tests, the
 *   differential and the property tests also exercise.
 * - test/audit/cli-options.test.ts: its CLI tests race servers against deadlines, which two Stryker
 *   workers on a shared machine make miss; it tests src/audit, which is not mutated.
 * Property tests run a tenth of their cases (test/support/runs.ts says why that keeps every kill real),
 * those that name no count included (test/support/property-seed.ts); `npm test` and CI run them all.
 */

import { configDefaults, defineConfig, mergeConfig } from 'vitest/config';
import { QuickFirstSequencer } from './test/support/quick-first-sequencer.js';
import base from './vitest.config.js';

export default mergeConfig(
  base,
  defineConfig({
    test: {
      exclude: [
        ...configDefaults.exclude,
        'test/spec/fuzz.test.ts',
        'test/audit/cli.test.ts',
        'test/audit/demo.test.ts',
        'test/audit/cli-options.test.ts',
        'test/check/check-cli.test.ts',
        'test/check/repair-cli.test.ts',
        'test/report/formats-cli.test.ts',
        'test/eslint/packed.test.ts',
        'test/project/lockfile.test.ts',
        'test/library/readme.test.ts',
      ],
      env: { MCP_SHAPE_MUTATION_RUN: '1' },
      // Quick files first, so a mutant a unit test kills never waits for an audit or a browser.
      sequence: { sequencer: QuickFirstSequencer },
      // Two Stryker workers share the cores with whatever else runs; a test that spawns the CLI must not
      // fail the dry run for being slow.
      testTimeout: 120_000,
      // The main config shares modules between test files; Stryker swaps in mutated modules between
      // runs, so here every file imports them afresh, as the mutation scores were measured.
      isolate: true,
    },
  }),
);
