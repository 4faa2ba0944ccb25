/**
 * Bounds on the analysis of one function. A pathological function (thousands of branches, a
 * generated table, a deeply nested expression) must cost a bounded amount of time and memory and
 * end as "unresolved: analysis budget", never stall or crash the scan.
 */

/** Steps (nodes evaluated, values joined) one function's analysis may take, callees included. */
export const DEFAULT_STEP_LIMIT = 400_000;
/** Wall-clock cap per function, whatever the step count says (a slow machine, a huge value). */
export const DEFAULT_TIME_LIMIT_MS = 3_000;
/** Nesting of expressions and calls the interpreters follow before giving up on a value. */
export const MAX_NESTING = 400;

export class BudgetExceeded extends Error {
  constructor(readonly what: string) {
    super(`analysis budget: ${what}`);
  }
}

export class Budget {
  private steps = 0;
  private readonly deadline: number;

  constructor(
    private readonly limit = DEFAULT_STEP_LIMIT,
    timeLimitMs = DEFAULT_TIME_LIMIT_MS,
  ) {
    this.deadline = Date.now() + timeLimitMs;
  }

  tick(cost = 1): void {
    this.steps += cost;
    if (this.steps > this.limit) throw new BudgetExceeded(`more than ${this.limit} steps`);
    // Reading the clock costs more than a step; every few thousand steps is enough.
    if ((this.steps & 0xfff) < cost && Date.now() > this.deadline) {
      throw new BudgetExceeded('time limit');
    }
  }

  get used(): number {
    return this.steps;
  }
}
