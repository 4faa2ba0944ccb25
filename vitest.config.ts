import { defineConfig } from 'vitest/config';

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
    // Two cores: integration tests spawn servers, so keep the worker pool small.
    maxWorkers: 2,
  },
});
