/**
 * The order StrykerJS's test runs take the files in (vitest.mutate.config.ts). A mutant runs with
 * bail 1: the first failing test kills it and the rest is cancelled. Vitest's own order runs the
 * slowest files first (so parallel workers finish together), which for a mutant means an audit of a
 * real server or a Chromium launch before the unit test that would have killed it in milliseconds.
 * Here a file that failed in the last run goes first (neighbouring mutants tend to fail the same
 * test), then the quickest. A survivor still runs every covering test, so no verdict changes; only
 * the time to a kill does.
 */

import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export class QuickFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cache = this.ctx.cache;
    const stateOf = (spec: TestSpecification) =>
      cache.getFileTestResults(`${spec.project.name}:${relative(this.ctx.config.root, spec.moduleId)}`);
    return [...files].sort((a, b) => {
      const aState = stateOf(a);
      const bState = stateOf(b);
      const failedFirst = Number(Boolean(bState?.failed)) - Number(Boolean(aState?.failed));
      if (failedFirst !== 0) return failedFirst;
      // A file without a recorded time (none before the dry run) goes last: it may be slow.
      const aTime = aState?.duration ?? Number.MAX_VALUE;
      const bTime = bState?.duration ?? Number.MAX_VALUE;
      return aTime - bTime;
    });
  }
}
