/**
 * `npm run mutate [-- src/core src/rules …] [--tests=<glob>,…] [--concurrency=N]`: mutation testing with
 * StrykerJS (stryker.config.mjs) over the folders (or single files) named, by default all six folders issue 14
 * holds to a score; with `--tests`, only those test files run (a quick look at one folder); with
 * `--concurrency`, that many Stryker workers instead of the config's (1 leaves a core to a shared machine). Each folder must have at least
 * 80% of its mutants killed, not counting the equivalent mutants of test/mutation/equivalent-mutants.json
 * (survivors no test can kill, each with why). Not in `npm test` or CI: a full run takes about an hour.
 * Reports go to reports/mutation/ (HTML and JSON); runs are incremental per set of folders.
 *
 * What a run costs: Stryker's vitest runner reruns, for each mutant, every test file holding a test
 * that covered it, importing the file afresh. Without `--tests`, a mutant of src/report is covered by
 * the audit tests that spawn real servers: src/report/fold.ts, measured on 2 shared cores with one
 * worker, ran at 3.2 mutants a minute after a 3.7-minute dry run of 25 files; with
 * `--tests` naming test/report's test files, at about 110 a minute after a 41-second dry run. A kill by
 * the folder's own tests is as real as any, and a mutant they miss shows as a survivor (the score is a
 * lower bound), so `--tests` with the folder's tests is the way to score a folder on a shared machine.
 */

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Stryker } from '@stryker-mutator/core';
import { type EquivalentMutant, formatScores, type MutationReport, scoreByFolder } from './mutation-score.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const FOLDERS = ['src/core', 'src/rules', 'src/validate', 'src/library', 'src/proxy', 'src/report'];
const THRESHOLD = 80;
// Outside the checkout: a sandbox inside the git work tree would make the SARIF reporter (whose URIs are
// relative to the git top level) see different paths than the tests expect. One folder per checkout.
const TEMP_DIR = join(
  tmpdir(),
  `mcp-shape-stryker-${createHash('sha256').update(root).digest('hex').slice(0, 8)}`,
);

const args = process.argv.slice(2);
const testFiles = args
  .filter((a) => a.startsWith('--tests='))
  .flatMap((a) => a.slice('--tests='.length).split(','))
  .filter(Boolean);
const concurrencyArg = args.find((a) => a.startsWith('--concurrency='))?.slice('--concurrency='.length);
const concurrency = concurrencyArg === undefined ? undefined : Number(concurrencyArg);
if (concurrency !== undefined && !(Number.isInteger(concurrency) && concurrency >= 1)) {
  console.error(`mutate: --concurrency takes a whole number of workers, at least 1, not ${concurrencyArg}`);
  process.exit(2);
}
const requested = args
  .filter((a) => !a.startsWith('--tests=') && !a.startsWith('--concurrency='))
  .map((a) => a.replace(/\/+$/, ''));
const unknown = requested.filter((folder) => !existsSync(join(root, folder)) || !folder.startsWith('src/'));
if (unknown.length > 0) {
  console.error(`mutate: not a folder or file under src/: ${unknown.join(', ')}`);
  process.exit(2);
}
const folders = requested.length > 0 ? requested : FOLDERS;

// Stryker copies the project into TEMP_DIR/sandbox-*/, where the tests look for ../shared (the official
// schemas and examples): link it there, as CI has it beside the checkout.
const shared = resolve(root, '../shared');
const sharedLink = join(TEMP_DIR, 'shared');
mkdirSync(TEMP_DIR, { recursive: true });
if (existsSync(shared) && !existsSync(sharedLink)) symlinkSync(shared, sharedLink, 'dir');

// A fixed seed for the property tests (test/support/property-seed.ts), as CI sets it: a mutant is killed
// only by a test that fails for it, never by a draw that differs from the dry run's.
process.env.MCP_SHAPE_SEED ??= '20261122';

const named = requested.length === 0 ? 'all' : folders.map((f) => f.replaceAll('/', '-')).join('+');
// A dozen files named would make a file name longer than file systems allow (255 bytes): past 120
// characters the name keeps its start and a hash of the whole.
const shortened =
  named.length <= 120
    ? named
    : `${named.slice(0, 80)}-${createHash('sha256').update(named).digest('hex').slice(0, 12)}`;
const slug = `${shortened}${testFiles.length > 0 ? '-subset' : ''}`;
const started = Date.now();
process.chdir(root);
await new Stryker({
  configFile: 'stryker.config.mjs',
  tempDirName: TEMP_DIR,
  mutate: [
    ...folders.map((path) => (path.endsWith('.ts') ? path : `${path}/**/*.ts`)),
    '!src/rules/index.ts',
  ],
  incrementalFile: `reports/mutation/incremental-${slug}.json`,
  ...(testFiles.length > 0 ? { testFiles } : {}),
  ...(concurrency !== undefined ? { concurrency } : {}),
}).runMutationTest();
const minutes = (Date.now() - started) / 60_000;

const report = JSON.parse(
  readFileSync(join(root, 'reports/mutation/mutation.json'), 'utf8'),
) as MutationReport;
const equivalents = JSON.parse(
  readFileSync(join(root, 'test/mutation/equivalent-mutants.json'), 'utf8'),
) as EquivalentMutant[];
const scored = scoreByFolder(report, folders, equivalents);

const subset = testFiles.length > 0 ? `, tests ${testFiles.join(' ')}` : '';
console.log(`\nmutation score by folder (threshold ${THRESHOLD}%, ${minutes.toFixed(1)} min${subset}):`);
console.log(formatScores(scored, THRESHOLD));
for (const folder of scored.folders) {
  if (folder.undetected.length > 0) console.log(`\n${folder.folder}:\n  ${folder.undetected.join('\n  ')}`);
}
for (const entry of scored.stale) {
  console.error(
    `stale equivalent-mutants entry (matches no survivor): ${entry.file} ${entry.mutator} ${entry.original}`,
  );
}
const failing = scored.folders.filter((f) => f.score !== undefined && f.score < THRESHOLD);
process.exitCode = failing.length > 0 || scored.stale.length > 0 ? 1 : 0;
