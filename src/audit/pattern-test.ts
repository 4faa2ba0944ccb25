/**
 * Tries strings against a server's inputSchema `pattern` while synthesizing arguments, without letting
 * the pattern stall the audit. A server writes the pattern, and one that backtracks exponentially on
 * the native engine (`^((a*)*)*$`, `^(a|a)*$`, `^(a|aa)+$`, `(x|x)*y` on forty x's) would hold the
 * audit for minutes on one near miss. The strings run on the engine the output schemas run on
 * (core/pattern-engine.ts: re2js where RE2 can read the pattern, else the native engine under an
 * interrupting timeout), with a budget of pattern length times text length over all the tries for
 * one pattern. A try that was not made, or was interrupted, answers `costly`: not shown to match.
 */

import { PatternNotTried, patternEngine } from '../core/pattern-engine.js';

/** Whether a string matches: true, false, or `costly` (not tried, or interrupted). */
export type PatternVerdict = boolean | 'costly';

/** Pattern length times text length given to all the tries for one pattern. */
const TRIES_BUDGET = 20_000_000;

/**
 * A tester for `pattern` as the clients' Ajv applies it (flag `u`); undefined when the pattern is no
 * ECMAScript regular expression (the schema then fails to compile, and no pattern is applied).
 */
export function patternTester(pattern: string): ((text: string) => PatternVerdict) | undefined {
  let engine: ReturnType<typeof patternEngine>;
  try {
    engine = patternEngine(pattern, 'u');
  } catch {
    return undefined;
  }
  let spent = 0;
  let stopped = false;
  return (text) => {
    spent += Math.max(1, pattern.length) * Math.max(1, text.length);
    // One interrupted or refused try is enough: the next near miss would take as long.
    if (stopped || spent > TRIES_BUDGET) return 'costly';
    try {
      return engine.test(text);
    } catch (error) {
      if (!(error instanceof PatternNotTried)) throw error;
      stopped = true;
      return 'costly';
    }
  };
}
