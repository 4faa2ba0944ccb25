/**
 * Side-by-side throughput measurement. Candidates are run in interleaved rounds (A, B, C, A, B, C…) and
 * each one's median round is kept, so a burst of load on the machine hits every candidate alike and the
 * ratios stay meaningful on a busy 2-core box. Rounds are timed in CPU time of this process (user +
 * system), not wall-clock time: on a shared machine wall-clock time also counts the time other
 * processes held the CPU, which would make every figure depend on what ran next to the bench.
 */

export interface Candidate {
  readonly name: string;
  /** One operation; may be async. */
  readonly run: () => unknown;
}

export interface Sample {
  readonly name: string;
  readonly opsPerSec: number;
}

export interface Comparison {
  readonly kind: 'comparison';
  readonly title: string;
  /** The first sample is ours; ratios are ours ÷ each other. */
  readonly samples: readonly Sample[];
  /**
   * Targets as "ours must do at least N× the named sample's operations per second" (`atLeast`), or
   * "ours may take at most N× the named sample's time per operation" (`atMost`).
   */
  readonly targets?: readonly {
    readonly against: string;
    readonly atLeast?: number;
    readonly atMost?: number;
  }[];
  readonly note?: string;
}

export interface Measurement {
  readonly kind: 'measurement';
  readonly title: string;
  readonly value: number;
  readonly unit: string;
  /** A goal for the value: at least, or (for costs such as latency and memory) at most. */
  readonly target?: { readonly atLeast: number } | { readonly atMost: number };
  readonly note?: string;
}

export type BenchResult = Comparison | Measurement;

export interface Suite {
  readonly name: string;
  run(): Promise<BenchResult[]>;
}

/** Milliseconds of CPU time this process has used. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

async function timeRound(candidate: Candidate, budgetMs: number): Promise<number> {
  let ops = 0;
  let batch = 1;
  const start = cpuMs();
  let elapsed = 0;
  while (elapsed < budgetMs) {
    for (let i = 0; i < batch; i++) {
      const r = candidate.run();
      if (r instanceof Promise) await r;
    }
    ops += batch;
    elapsed = cpuMs() - start;
    if (elapsed < budgetMs / 10) batch *= 2;
  }
  return (ops / elapsed) * 1000;
}

/**
 * Interleaved rounds, discarded, until every candidate's rate is within 5% of its previous round (at
 * least 2, at most 8). V8 optimizes a large code path (a repair's rule repairs, clone and fallback)
 * only after many calls, on background threads whose CPU time this process is charged: with 50 ms of
 * warm-up, repairSync of broken results measured 5.2× their validation in the first comparison of a
 * fresh process and 2.3× in the next; with this, 2.6× and 2.4×.
 */
async function warmUp(candidates: readonly Candidate[], roundMs: number): Promise<void> {
  let previous: number[] | undefined;
  for (let round = 0; round < 8; round++) {
    const rates: number[] = [];
    for (const c of candidates) rates.push(await timeRound(c, roundMs));
    const steady = previous?.every((rate, i) => Math.abs((rates[i] as number) / rate - 1) < 0.05);
    if (steady && round >= 1) return;
    previous = rates;
  }
}

export async function compare(
  title: string,
  candidates: readonly Candidate[],
  options: { rounds?: number; roundMs?: number; targets?: Comparison['targets']; note?: string } = {},
): Promise<Comparison> {
  const rounds = options.rounds ?? 5;
  const roundMs = options.roundMs ?? 200;
  await warmUp(candidates, roundMs);
  const perCandidate = candidates.map(() => [] as number[]);
  for (let r = 0; r < rounds; r++) {
    for (const [i, c] of candidates.entries()) perCandidate[i]?.push(await timeRound(c, roundMs));
  }
  const samples = candidates.map((c, i) => ({ name: c.name, opsPerSec: median(perCandidate[i] ?? []) }));
  return {
    kind: 'comparison',
    title,
    samples,
    ...(options.targets ? { targets: options.targets } : {}),
    ...(options.note ? { note: options.note } : {}),
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
