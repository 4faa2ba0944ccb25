/**
 * The order the suite's files start in: the slowest first, so that the three workers finish together
 * rather than one of them starting a 30-second file when the others are done. Vitest orders by the
 * durations it cached in the last run, and without that cache (a fresh clone, which is what CI runs) by
 * file size, which put the proxy's lifecycle and oversize files, small and slow, at the very end. Here a
 * file's cached duration is used when there is one, else the one recorded in durations.json (written
 * by `npm run test:durations` from a JSON report), else a second. The order never changes a result.
 */

import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const RECORDED: Readonly<Record<string, number>> = JSON.parse(
  readFileSync(join(import.meta.dirname, 'durations.json'), 'utf8'),
);

/** Seconds assumed for a file neither run nor recorded: most files take less. */
const UNKNOWN_SECONDS = 1;

export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const seconds = (spec: TestSpecification): number => {
      const path = relative(root, spec.moduleId);
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`)?.duration;
      return cached !== undefined ? cached / 1000 : (RECORDED[path] ?? UNKNOWN_SECONDS);
    };
    return [...files]
      .map((spec) => ({ spec, seconds: seconds(spec), path: relative(root, spec.moduleId) }))
      .sort((a, b) => b.seconds - a.seconds || (a.path < b.path ? -1 : 1))
      .map(({ spec }) => spec);
  }
}
