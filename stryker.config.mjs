// @ts-check
/**
 * StrykerJS, run by `npm run mutate` (scripts/mutate.ts), which picks the folders, links ../shared into
 * the sandbox, and scores each folder after subtracting the equivalent mutants of
 * test/mutation/equivalent-mutants.json. Not part of `npm test` or CI: a full run takes about an hour.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.mutate.config.ts', related: true },
  // Each mutant runs only the tests that executed its code in the dry run.
  coverageAnalysis: 'perTest',
  // Mutants of unchanged code and tests keep their previous result (reports/mutation/ is git-ignored).
  incremental: true,
  // Static mutants (module-level tables, rule metadata) can only be tested by reloading every test file
  // for each one, which would multiply the run time by the size of the catalog's prose; they are listed
  // as ignored in the report and left out of the score.
  ignoreStatic: true,
  reporters: ['progress', 'clear-text', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { reportTests: false, reportMutants: false },
  concurrency: 2,
  // The machine is shared by other test runs; a slow mutant is not an infinite loop.
  timeoutMS: 20_000,
  timeoutFactor: 2,
  dryRunTimeoutMinutes: 30,
  // vitest strips types without checking them, so Stryker need not prepend `// @ts-nocheck` to files
  // (which would shift the line numbers the scan tests expect and break the generated-index test).
  disableTypeChecks: false,
};
