/**
 * The TS/JS scan throughput of bench/suites/scan.ts, measured in a process of another Node (the suite
 * starts this file with Node 22). Prints `{ rate, version, transfer }` as JSON on stdout.
 */

import { scanSources } from '../src/scan/index.js';
import { jsParseTransfer } from '../src/scan/js/index.js';
import { REPO_ROOT } from './paths.js';
import { jsCorpus, linesPerCpuSecond } from './suites/scan.js';

const js = jsCorpus();
const rate = await linesPerCpuSecond(js.lines, 3, () => scanSources(js.inputs, { cwd: REPO_ROOT }));
process.stdout.write(`${JSON.stringify({ rate, version: process.version, transfer: jsParseTransfer })}\n`);
