/**
 * The test run StrykerJS repeats for every mutant (see stryker.config.mjs). The same suite as
 * vitest.config.ts minus the fuzz test: its 100 000 random values only prove that nothing throws, which
 * the rule tests, the differential and the property tests also exercise, and it would add minutes to
 * every surviving mutant.
 */

import { configDefaults, defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

export default mergeConfig(
  base,
  defineConfig({
    test: {
      exclude: [...configDefaults.exclude, 'test/spec/fuzz.test.ts'],
    },
  }),
);
