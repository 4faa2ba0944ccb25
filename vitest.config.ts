import { defineConfig } from 'vitest/config';
import { SlowFirstSequencer } from './test/support/slow-first-sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    reporters: ['default', './test/support/closing-line-reporter.ts'],
    // Finds (or provisions) Chromium before the browser tests run.
    globalSetup: ['./test/support/global-setup.ts'],
    // MCP_SHAPE_SEED pins fast-check's seed (set by .ci/run).
    setupFiles: ['./test/support/property-seed.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores, three workers: many integration tests mostly wait (on spawned servers, grace periods,
    // sockets), so a third worker fills that time; measured on 2 idle cores, 306 s with 2 workers and
    // 231 s with 3, every test passing. More would starve the CPU-bound property tests.
    maxWorkers: 3,
    // Test files share a worker's module cache instead of importing src/ and the SDKs afresh each: the
    // suite is CPU-bound on 2 cores, and the imports were a seventh of its CPU (539 vs 578 CPU-s, every
    // test passing both ways). Nothing a test file sets at module level is read by another: spies are
    // restored, environment variables put back, and caches are per validation (src/core/run-memo.ts).
    isolate: false,
    // The slowest files first, also in a fresh clone (test/support/slow-first-sequencer.ts).
    sequence: { sequencer: SlowFirstSequencer },
  },
});
