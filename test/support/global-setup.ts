/**
 * Vitest's global setup, before any test file runs:
 * - the command line is bundled for the CLI tests (cli-bundle.ts);
 * - when the run includes a browser test (a file that uses test/support/chromium.ts), there must be a
 *   Chromium, provisioned when the machine has none (see chromium.ts). Provisioning can take minutes;
 *   here no test or hook timeout applies.
 * The paths reach the tests through vitest's provide/inject.
 */

import { readFileSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { ensureChromium } from './chromium.js';
import { buildCliBundle } from './cli-bundle.js';

/** The file filters of this run (`vitest run test/report`); not in Vitest's typed API, so read with care. */
function fileFilters(project: TestProject): string[] | undefined {
  const filters: unknown = (project.vitest as unknown as { filenamePattern?: unknown }).filenamePattern;
  return Array.isArray(filters) && filters.every((f) => typeof f === 'string') ? filters : undefined;
}

export default async function setup(project: TestProject): Promise<void> {
  project.provide('cliBundle', await buildCliBundle(project.config.root));
  const { testFiles } = await project.globTestFiles(fileFilters(project));
  const needsBrowser = testFiles.some((file) => readFileSync(file, 'utf8').includes('/support/chromium.js'));
  project.provide('chromiumPath', needsBrowser ? await ensureChromium() : undefined);
}
