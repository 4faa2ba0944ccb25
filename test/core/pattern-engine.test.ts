/**
 * Regressions of the pattern engine (src/core/pattern-engine.ts), each a minimal pattern and string
 * on which it gave another answer than the SDK clients' `new RegExp(pattern, 'u').test(string)`, found
 * by test/core/pattern-engine-differential.test.ts; and the state its native fallback keeps.
 */

import vm from 'node:vm';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { PatternNotTried, patternEngine, toRe2Syntax } from '../../src/core/pattern-engine.js';
import { createOutputSchemaCompiler } from '../../src/core/schema.js';
import { MODIFIERS, onRe2 } from './pattern-engine-grammar.js';

/** The engine's answer, and the oracle's: `new RegExp(pattern, 'u').test(text)`. */
function both(pattern: string, text: string): { engine: boolean; native: boolean } {
  return { engine: patternEngine(pattern, 'u').test(text), native: new RegExp(pattern, 'u').test(text) };
}

describe('regressions: the answer of new RegExp(pattern, "u")', () => {
  it('reads \\uD83D\\uDE00, two escapes of a surrogate pair, as the one code point U+1F600 (a negated class let 😀 pass)', () => {
    // The rewriting gave \x{d83d}\x{de00}: two lone surrogates, which a text read by code point never holds.
    expect(both('^[^\\uD83D\\uDE00]$', '\u{1F600}')).toEqual({ engine: false, native: false });
    expect(both('^\\uD83D\\uDE00$', '\u{1F600}')).toEqual({ engine: true, native: true });
    expect(both('^[\\uD83D\\uDE00-\\uD83D\\uDE4F]+$', '\u{1F600}\u{1F64F}')).toEqual({
      engine: true,
      native: true,
    });
    expect(both('^\\uD83D\\uDE00{2}$', '\u{1F600}\u{1F600}')).toEqual({ engine: true, native: true });
    // Braced escapes are never paired, and neither is an escape with a lone surrogate written out.
    expect(both('^\\u{D83D}\\u{DE00}$', '\u{1F600}')).toEqual({ engine: false, native: false });
    expect(both('^\\uD83D\\u{DE00}$', '\u{1F600}')).toEqual({ engine: false, native: false });
    expect(both('^\\uD83D\uDE00$', '\u{1F600}')).toEqual({ engine: false, native: false });
    expect(both('^\\uD83D$', '\uD83D')).toEqual({ engine: true, native: true });
    expect(onRe2('^[^\\uD83D\\uDE00]$')).toBe(true);
  });

  it('leaves \\10 and on, back-references, to the native engine: RE2 read them as octal escapes (\\12 as \\n)', () => {
    const groups = '(a)'.repeat(12);
    expect(both(`^${groups}\\12$`, `${'a'.repeat(12)}\n`)).toEqual({ engine: false, native: false });
    expect(both(`^${groups}\\12$`, 'a'.repeat(13))).toEqual({ engine: true, native: true });
    expect(both(`^${groups}\\10$`, `${'a'.repeat(12)}\b`)).toEqual({ engine: false, native: false });
    expect(onRe2(`^${groups}\\12$`)).toBe(false);
  });

  it('leaves modifier groups ((?i:…), (?s:…), (?m:…)) to the native engine: RE2 reads them with its own folding and line ends', () => {
    for (const pattern of ['(?i:a)', '(?s:.)', '(?m:^b)', '(?-i:a)', '(?i-s:a)', '(?ims:a)'])
      expect(toRe2Syntax(pattern), pattern).toBeUndefined();
    // Look-around as before; `(?:` and named groups stay on re2js.
    for (const pattern of ['(?=a)', '(?!a)', '(?<=a)b', '(?<!a)b'])
      expect(toRe2Syntax(pattern), pattern).toBeUndefined();
    expect(toRe2Syntax('(?:a)(?<name>b)(?<\u00e9\u{1D400}>c)')).toBe('(?:a)(b)(c)');
  });

  it('gives V8’s answer on modifier groups, which Node 24 reads, and refuses them as V8 does before', () => {
    const cases: [string, string, boolean][] = [
      ['^(?s:.)$', '\n', true],
      ['(?m:^b)', 'a\rb', true],
      ['(?m:a$)', 'a\u2028b', true],
      ['^(?i:\\P{Lu})$', 'A', true],
      ['(?i:\\b)', '\u017f', true],
      ['^(?i:[^k])$', '\u212a', false],
    ];
    if (!MODIFIERS) {
      // Before Node 24 they are no ECMAScript regular expression, to the clients' Ajv and here alike.
      for (const [pattern] of cases) expect(() => patternEngine(pattern, 'u'), pattern).toThrow(SyntaxError);
      return;
    }
    for (const [pattern, text, expected] of cases)
      expect(both(pattern, text), `${pattern} on ${JSON.stringify(text)}`).toEqual({
        engine: expected,
        native: expected,
      });
  });

  it('runs [\\b] (a backspace in a class) and named groups of any name on re2js', () => {
    expect(toRe2Syntax('^[\\b]$')).toBe('^[\\x{8}]$');
    expect(both('^[\\b]$', '\b')).toEqual({ engine: true, native: true });
    expect(both('^[\\b]$', 'b')).toEqual({ engine: false, native: false });
    expect(onRe2('^[\\b]+(?<\u00e9>x)$')).toBe(true);
  });
});

/**
 * Counts the native engine's matches (its VM script runs) from here to the end of the test; with
 * `interruptFirst`, the first one is interrupted as a timeout would, without running.
 */
function countRuns(options: { interruptFirst?: boolean } = {}): { count: () => number } {
  const prototype = vm.Script.prototype;
  const original = prototype.runInContext;
  let count = 0;
  prototype.runInContext = function (this: vm.Script, ...args: Parameters<vm.Script['runInContext']>) {
    count++;
    if (options.interruptFirst && count === 1) throw new Error('Script execution timed out after 100ms');
    return original.apply(this, args);
  };
  onTestFinished(() => {
    prototype.runInContext = original;
  });
  return { count: () => count };
}

describe('the native engine, bounded (look-around and back-references)', () => {
  const hostile = '^(?=(a|a)*$)';
  const nearMiss = `${'a'.repeat(40)}!`;

  it('answers as the native engine does on look-around and back-references', () => {
    const cases: [string, string][] = [
      ['^(?=.*\\d)(?=.*[a-z]).{8,}$', 'abcdefg1'],
      ['^(?=.*\\d)(?=.*[a-z]).{8,}$', 'abcdefgh'],
      ['^(?!.*--)[a-z-]+$', 'a-b-c'],
      ['^(?!.*--)[a-z-]+$', 'a--b'],
      ['(?<=\\$)\\d+', 'cost $15'],
      ['(?<!\\$)\\b\\d+', '$15'],
      ['^(\\w)\\w*\\1$', 'abca'],
      ['^(\\w)\\w*\\1$', 'abcd'],
      ['^(?<q>["\'])[^"\']*\\k<q>$', '"x"'],
      ['^(?<q>["\'])[^"\']*\\k<q>$', '"x\''],
      ['^(?=\\uD83D\\uDE00)\\p{Emoji}$', '\u{1F600}'],
      ['^(?=.)\\uD83D', '\u{1F600}'],
      ['^(?=.)\\uD83D', '\uD83D'],
    ];
    for (const [pattern, text] of cases) {
      expect(onRe2(pattern), pattern).toBe(false);
      const { engine, native } = both(pattern, text);
      expect(engine, `${pattern} on ${JSON.stringify(text)}`).toBe(native);
    }
  });

  it('keeps no state between matches: the same answer twice, whatever came before', () => {
    const engine = patternEngine('(?<=a)b|(\\d)\\1', 'u');
    const texts = ['ab', 'cb', '11', '12', 'ab', '', 'xab', '22'];
    const first = texts.map((text) => engine.test(text));
    const again = [...texts].reverse().map((text) => engine.test(text));
    expect(again.reverse()).toEqual(first);
    expect(first).toEqual(texts.map((text) => /(?<=a)b|(\d)\1/u.test(text)));
  });

  it('still matches a short value after a near miss was interrupted: one slow string does not make every later one an error', () => {
    const engine = patternEngine(hostile, 'u');
    expect(engine.test('aaaa')).toBe(true);
    expect(() => engine.test(nearMiss)).toThrow(PatternNotTried);
    // Before, every later match of the pattern was refused.
    expect(engine.test('aaaa')).toBe(true);
    expect(engine.test('aaab')).toBe(false);
    // A text half as long as the interrupted one or more is refused at once, not run into the timeout.
    const runs = countRuns();
    expect(() => engine.test(`${'a'.repeat(30)}!`)).toThrow(PatternNotTried);
    expect(() => engine.test(nearMiss)).toThrow(PatternNotTried);
    expect(runs.count()).toBe(0);
  });

  it('tries the first interrupted match once more: a pause of the host is no backtracking', () => {
    const engine = patternEngine(hostile, 'u');
    // The host pauses through the first match (a collector run on a loaded machine).
    const paused = countRuns({ interruptFirst: true });
    expect(engine.test('aaaa')).toBe(true);
    expect(paused.count()).toBe(2);
    // A backtracking near miss is interrupted again on its second try, and refused.
    const runs = countRuns();
    expect(() => engine.test(nearMiss)).toThrow(PatternNotTried);
    expect(runs.count()).toBe(2);
    // Once a pattern was interrupted, a slow match of a shorter value is not tried twice.
    const steeper = patternEngine('^(?=(a|a|a|a)*$)', 'u');
    expect(() => steeper.test(`${'a'.repeat(39)}!`)).toThrow(PatternNotTried);
    const later = countRuns();
    expect(() => steeper.test(`${'a'.repeat(18)}!`)).toThrow(PatternNotTried);
    expect(later.count()).toBe(1);
  });

  it('stops running a pattern after three interruptions', () => {
    // Four overlapping alternatives: 18 a's and a '!' take it 4^18 steps. Each shorter than half the last.
    const engine = patternEngine('^(?=(a|a|a|a)*$)', 'u');
    for (const length of [80, 39, 18])
      expect(() => engine.test(`${'a'.repeat(length)}!`)).toThrow(PatternNotTried);
    expect(() => engine.test('aaaa')).toThrow(PatternNotTried);
  });

  it('answers the same to the same value through a compiled schema, before and after a near miss', () => {
    const compiled = createOutputSchemaCompiler().compile(
      { type: 'object', properties: { id: { type: 'string', pattern: `${hostile}a` } } },
      '2025-11-25',
    );
    if (!compiled.ok) throw new Error(compiled.message);
    expect(compiled.validate({ id: 'aaaa' })).toEqual([]);
    expect(compiled.validate({ id: nearMiss }).map((e) => e.message)).toEqual([
      expect.stringContaining('could not be matched against a pattern'),
    ]);
    expect(compiled.validate({ id: 'aaaa' })).toEqual([]);
    expect(compiled.validate({ id: 'b' }).map((e) => e.instancePath)).toEqual(['/id']);
  });

  describe('without node:vm (a browser)', () => {
    const host = process as { getBuiltinModule?: unknown };
    const getBuiltinModule = host.getBuiltinModule;
    afterEach(() => {
      host.getBuiltinModule = getBuiltinModule;
    });

    it('keeps no lastIndex between matches, whatever the flags', () => {
      host.getBuiltinModule = undefined;
      for (const flags of ['g', 'gu', 'y']) {
        // Not `u` alone: the native engine, here without its VM context.
        const engine = patternEngine('a', flags);
        expect([engine.test('a'), engine.test('a'), engine.test('ba')], flags).toEqual([
          true,
          true,
          flags !== 'y',
        ]);
      }
    });
  });

  it('keeps no lastIndex between matches in its VM context either', () => {
    const engine = patternEngine('a', 'g');
    expect([engine.test('a'), engine.test('a'), engine.test('ba')]).toEqual([true, true, true]);
  });
});
