/**
 * Tries strings against a server's inputSchema `pattern` while synthesizing arguments, without letting
 * the pattern stall the audit. A server writes the pattern, and one that backtracks exponentially on
 * the native engine (`^((a*)*)*$`, `^(a|a)*$`, `^(a|aa)+$`, `(x|x)*y` on forty x's) would hold the
 * audit for minutes on one near miss. A pattern RE2 can read runs on re2js, a linear-time engine, held
 * to a budget of pattern length times text length; one it cannot read (back-references, look-around)
 * runs on the native engine in a VM context whose timeout interrupts it. A try that was not made, or
 * was interrupted, answers `costly`: the string is not shown to match.
 */

import { createContext, Script } from 'node:vm';
import { RE2JS } from 're2js';

/** Whether a string matches: true, false, or `costly` (not tried, or interrupted). */
export type PatternVerdict = boolean | 'costly';

/** Pattern length times text length the linear engine is given over all the tries for one pattern. */
const LINEAR_BUDGET = 20_000_000;
/** How long one native try may run. */
const NATIVE_TIMEOUT_MS = 100;

const nativeTry = new Script('pattern.test(text)');

/**
 * A tester for `pattern` as the clients' Ajv applies it (flag `u`); undefined when the pattern is no
 * ECMAScript regular expression (the schema then fails to compile, and no pattern is applied).
 */
export function patternTester(pattern: string): ((text: string) => PatternVerdict) | undefined {
  let native: RegExp;
  try {
    native = new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
  let linear: RE2JS | undefined;
  try {
    linear = RE2JS.compile(pattern);
  } catch {
    // Back-references and look-around, which RE2 does not have: the native engine, interruptible.
  }
  if (linear) {
    const engine = linear;
    let spent = 0;
    return (text) => {
      spent += Math.max(1, pattern.length) * Math.max(1, text.length);
      if (spent > LINEAR_BUDGET) return 'costly';
      return engine.matcher(text).find();
    };
  }
  const context = createContext({ pattern: native, text: '' });
  let interrupted = false;
  return (text) => {
    // One interrupted try is enough: the next near miss would take as long.
    if (interrupted) return 'costly';
    context.text = text;
    try {
      return nativeTry.runInContext(context, { timeout: NATIVE_TIMEOUT_MS }) === true;
    } catch {
      interrupted = true;
      return 'costly';
    }
  };
}
