/**
 * `npm run bench`: runs every suite in bench/suites and prints throughput and ratios measured side by side
 * in this one run. Benchmarks are not tests: nothing here fails the build; targets are reported as met or
 * missed. `npm run bench -- validate` runs only the named suites. It runs compiled code (bench/paths.ts
 * says why).
 */

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchResult, Suite } from './measure.js';

const only = process.argv.slice(2);
const dir = join(import.meta.dirname, 'suites');
// Compiled runs see .js files, `tsx bench/run.ts` sees .ts ones.
const extension = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
const files = readdirSync(dir)
  .filter((f) => f.endsWith(extension))
  .sort();

function fmt(n: number): string {
  if (Math.abs(n) < 1) return n.toFixed(3);
  if (n >= 1e6) return `${(n / 1e6).toFixed(2)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
  return n.toFixed(n >= 10 ? 0 : 2);
}

function microseconds(n: number): string {
  if (n < 10) return n.toFixed(2);
  if (n < 100) return n.toFixed(1);
  return Math.round(n).toLocaleString('en-US');
}

function print(result: BenchResult): void {
  if (result.kind === 'measurement') {
    const goal = result.target;
    const target = !goal
      ? ''
      : 'atLeast' in goal
        ? `  (target ≥ ${fmt(goal.atLeast)}: ${result.value >= goal.atLeast ? 'met' : 'MISSED'})`
        : `  (target ≤ ${fmt(goal.atMost)}: ${result.value <= goal.atMost ? 'met' : 'MISSED'})`;
    console.log(`  ${result.title}: ${fmt(result.value)} ${result.unit}${target}`);
  } else {
    console.log(`  ${result.title}`);
    const [ours, ...others] = result.samples;
    if (!ours) return;
    const width = Math.max(...result.samples.map((s) => s.name.length));
    for (const s of result.samples) {
      const ratio = s === ours ? '' : `   ${ours.name} is ${(ours.opsPerSec / s.opsPerSec).toFixed(2)}× this`;
      const micros = `${microseconds(1e6 / s.opsPerSec)} µs`.padStart(12);
      console.log(`    ${s.name.padEnd(width)}  ${fmt(s.opsPerSec).padStart(8)} ops/s ${micros}${ratio}`);
    }
    for (const t of result.targets ?? []) {
      const other = others.find((o) => o.name === t.against);
      if (!other) continue;
      // Faster is a ratio of operations per second; "at most N× the time" is the inverse ratio.
      const speed = ours.opsPerSec / other.opsPerSec;
      if (t.atLeast !== undefined) {
        const met = speed >= t.atLeast ? 'met' : 'MISSED';
        console.log(`    target ≥ ${t.atLeast}× as fast as ${t.against}: ${speed.toFixed(2)}× ${met}`);
      }
      if (t.atMost !== undefined) {
        const time = 1 / speed;
        const met = time <= t.atMost ? 'met' : 'MISSED';
        console.log(`    target ≤ ${t.atMost}× the time of ${t.against}: ${time.toFixed(2)}× ${met}`);
      }
    }
  }
  if (result.note) console.log(`    note: ${result.note}`);
}

console.log(`mcp-shape bench — node ${process.version}, ${new Date().toISOString()}`);
for (const file of files) {
  const { suite } = (await import(join(dir, file))) as { suite: Suite };
  if (only.length > 0 && !only.includes(suite.name)) continue;
  console.log(`\n${suite.name}`);
  for (const result of await suite.run()) print(result);
}
