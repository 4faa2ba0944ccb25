/**
 * `npm run test:durations -- REPORT.json [OUT.json]`: records how long each test file took, from a
 * vitest JSON report (`vitest run --reporter=json --outputFile=REPORT.json`), in OUT.json (by default
 * test/support/durations.json, which orders a run that has no cached durations:
 * test/support/slow-first-sequencer.ts). Files under two seconds are left out: their order hardly
 * matters.
 */

import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPO_ROOT } from './node-binaries.js';

interface Report {
  readonly testResults: readonly {
    readonly name: string;
    readonly startTime: number;
    readonly endTime: number;
  }[];
}

const [path, out = join(REPO_ROOT, 'test/support/durations.json')] = process.argv.slice(2);
if (!path) {
  process.stderr.write('test:durations: give the JSON report of a vitest run\n');
  process.exit(2);
}
const report = JSON.parse(readFileSync(path, 'utf8')) as Report;
const seconds = report.testResults
  .map(
    (file) => [relative(REPO_ROOT, file.name), Math.round((file.endTime - file.startTime) / 1000)] as const,
  )
  .filter(([, s]) => s >= 2)
  .sort((a, b) => b[1] - a[1]);
writeFileSync(out, `${JSON.stringify(Object.fromEntries(seconds), null, 2)}\n`);
process.stdout.write(`test:durations: ${seconds.length} files recorded\n`);
