/**
 * Differential: the pattern engine (src/core/pattern-engine.ts) against the SDK clients' own engine.
 * Both clients' Ajv compile a `pattern` with `new RegExp(pattern, 'u')` (Ajv's `unicodeRegExp` option
 * defaults to true, and neither client sets it, nor `code.regExp`) and call `.test(value)`; so that call
 * on this V8 is the oracle. For every generated pattern and string the engine must give the oracle's
 * answer: a pattern that is no ECMAScript regular expression throws a SyntaxError as the clients' does,
 * and only a match the oracle itself takes long over may be refused (PatternNotTried).
 */

import vm from 'node:vm';
import { AjvJsonSchemaValidator as V2Validator } from '@modelcontextprotocol/client/validators/ajv';
import { AjvJsonSchemaValidator as V1Validator } from '@modelcontextprotocol/sdk/validation/ajv';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PatternNotTried, patternEngine } from '../../src/core/pattern-engine.js';
import { createOutputSchemaCompiler } from '../../src/core/schema.js';
import { runs } from '../support/runs.js';
import { onRe2, type PatternNode, patternNode, textsFor } from './pattern-engine-grammar.js';

/**
 * The native engine under a timeout of its own, as a generated pattern may backtrack for long: all the
 * texts of a pattern in one run (a timeout starts a watchdog thread, the most of this test's time once
 * per text), each again alone if that run is interrupted.
 */
const oracleContext = vm.createContext({ re: /x/u, texts: [] as string[], now: () => performance.now() });
const oracleScript = new vm.Script(
  'texts.map((text) => { const start = now(); return [re.test(text), now() - start]; })',
);
type Answer = { matched: boolean; ms: number } | 'too-slow';
function oracles(re: RegExp, texts: readonly string[]): Answer[] {
  const run = (batch: readonly string[]): Answer[] | undefined => {
    oracleContext.re = re;
    oracleContext.texts = batch;
    try {
      const answers = oracleScript.runInContext(oracleContext, { timeout: 2000 }) as [boolean, number][];
      return answers.map(([matched, ms]) => ({ matched, ms }));
    } catch {
      return undefined;
    }
  };
  return run(texts) ?? texts.map((text) => run([text])?.[0] ?? 'too-slow');
}

const show = (s: string) =>
  JSON.stringify(s).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

function answer(engine: ReturnType<typeof patternEngine>, text: string): boolean | 'not-tried' {
  try {
    return engine.test(text);
  } catch (error) {
    if (error instanceof PatternNotTried) return 'not-tried';
    throw error;
  }
}

/**
 * The engine's answers to `texts`, in order, held to the oracle's; a text the oracle could not answer
 * within its timeout is left out. Returns the count of texts compared.
 */
function agree(pattern: string, texts: readonly string[]): number {
  let native: RegExp;
  try {
    native = new RegExp(pattern, 'u');
  } catch (error) {
    // No ECMAScript pattern: the clients' Ajv fails to compile the schema, and so must ours.
    expect(error).toBeInstanceOf(SyntaxError);
    expect(() => patternEngine(pattern, 'u'), `${show(pattern)} compiles here`).toThrow(SyntaxError);
    return 0;
  }
  const engine = patternEngine(pattern, 'u');
  const expectations = oracles(native, texts);
  let compared = 0;
  for (const [i, text] of texts.entries()) {
    const expected = expectations[i] as Answer;
    if (expected === 'too-slow') continue;
    let actual = answer(engine, text);
    // Refused only where the native engine itself takes about the engine's timeout (100 ms) or more,
    // or after an interruption of a text at most twice as long. A loaded machine (a collection of a
    // large heap) can stall a match past the timeout: a fresh engine must then answer.
    if (actual === 'not-tried' && expected.ms > 50) continue;
    for (let retry = 0; actual === 'not-tried' && retry < 3; retry++)
      actual = answer(patternEngine(pattern, 'u'), text);
    if (actual !== expected.matched) {
      const on = onRe2(pattern) ? 're2js' : 'native';
      expect(actual, `/${show(pattern)}/u on ${show(text)} (${on})`).toBe(expected.matched);
    }
    compared++;
  }
  return compared;
}

const caseOf = (linearOnly: boolean) =>
  patternNode({ nativeOnly: !linearOnly }).chain((node: PatternNode) =>
    fc.tuple(fc.constant(node.src), textsFor(node)),
  );

describe('the pattern engine against new RegExp(pattern, "u").test(text)', () => {
  it('agrees on patterns of the grammar RE2 can read', () => {
    let compared = 0;
    let linearRuns = 0;
    fc.assert(
      fc.property(caseOf(true), ([pattern, texts]) => {
        compared += agree(pattern, texts);
        if (onRe2(pattern)) linearRuns++;
      }),
      { numRuns: runs(400) },
    );
    // The grammar must reach the rewriting, not only the native engine and SyntaxErrors.
    expect(linearRuns).toBeGreaterThan(runs(400) / 4);
    expect(compared).toBeGreaterThan(runs(400));
  });

  it('agrees on patterns with look-around, back-references and modifier groups (the native engine, bounded)', () => {
    fc.assert(
      fc.property(caseOf(false), ([pattern, texts]) => {
        agree(pattern, texts);
      }),
      { numRuns: runs(200) },
    );
  });

  it('answers the same whatever the order of the texts: no state is kept between matches', () => {
    fc.assert(
      fc.property(caseOf(false), ([pattern, texts]) => {
        let forward: ReturnType<typeof patternEngine>;
        try {
          forward = patternEngine(pattern, 'u');
        } catch {
          return;
        }
        const backward = patternEngine(pattern, 'u');
        const there = texts.map((text) => answer(forward, text));
        const back = [...texts].reverse().map((text) => answer(backward, text));
        back.reverse();
        for (const [i, text] of texts.entries()) {
          if (there[i] === 'not-tried' || back[i] === 'not-tried') continue;
          expect(back[i], `/${show(pattern)}/u on ${show(text)}`).toBe(there[i]);
        }
      }),
      { numRuns: runs(100) },
    );
  });

  it("gives each SDK client's verdict on a schema's pattern and patternProperties", () => {
    // The clients' own validators, default options: the pattern runs natively in them, so only texts
    // the native engine answers at once are given to them.
    const clients = [new V1Validator(), new V2Validator()];
    const compiler = createOutputSchemaCompiler();
    fc.assert(
      fc.property(caseOf(false), ([pattern, texts]) => {
        const schemas = [
          { type: 'object', properties: { v: { type: 'string', pattern } } },
          { type: 'object', patternProperties: { [pattern]: { type: 'number' } } },
        ];
        let native: RegExp | undefined;
        try {
          native = new RegExp(pattern, 'u');
        } catch {
          native = undefined;
        }
        for (const schema of schemas) {
          const ours = compiler.compile(schema, '2025-11-25');
          if (!native) {
            expect(ours.ok, `/${show(pattern)}/u compiles here`).toBe(false);
            for (const client of clients) expect(() => client.getValidator(schema)).toThrow();
            continue;
          }
          if (!ours.ok) {
            // A lone surrogate in a patternProperties key: Ajv's encodeURIComponent of its schema path
            // throws, in the clients as here.
            for (const client of clients) expect(() => client.getValidator(schema), ours.message).toThrow();
            continue;
          }
          const theirs = clients.map((client) => client.getValidator(schema));
          const quick = oracles(native, texts);
          for (const [i, text] of texts.entries()) {
            const expected = quick[i] as Answer;
            if (expected === 'too-slow' || expected.ms > 20) continue;
            const value = 'properties' in schema ? { v: text } : { [text]: 'not a number' };
            const errors = ours.validate(value);
            if (errors.some((e) => e.message.includes('could not be matched'))) continue;
            for (const validate of theirs)
              expect(errors.length === 0, `${JSON.stringify(schema)} on ${show(text)}`).toBe(
                validate(value).valid,
              );
          }
        }
      }),
      { numRuns: runs(50) },
    );
  });
});
