/**
 * The character sets the rewriting for re2js (src/core/pattern-engine.ts) hands to RE2, held to V8's
 * over every code point: the Unicode property escapes both engines read (`\p{L}`, `\P{Emoji}`…), and
 * the classes the rewriting spells out itself (`\s`, `\S`, `.`, `[^]`, `[]`, `[\b]`…). re2js carries its
 * own Unicode tables, V8 takes them from ICU: the SDK clients run V8, so V8's set is the truth, and a
 * property is rewritten only where Node's ICU has the Unicode version of re2js's tables.
 *
 * re2js's set is read from its compiled program (one rune instruction for a class), checked through its
 * public test() at every range's ends and just past them; V8's is compared with it by one scan of every
 * code point for the symmetric difference (a class-set expression under flag `v`).
 */

import fc from 'fast-check';
import { RE2JS } from 're2js';
import { afterEach, describe, expect, it } from 'vitest';
import { patternEngine, RE2JS_UNICODE, toRe2Syntax } from '../../src/core/pattern-engine.js';
import { runs } from '../support/runs.js';

type Ranges = [number, number][];

/** re2js's program ops (re2js Inst): a class, one code point, any code point, any but `\n`, no match. */
const RUNE = 8;
const RUNE1 = 9;
const RUNE_ANY = 10;
const RUNE_ANY_NOT_NL = 11;
const FAIL = 5;

/**
 * The code points a single-character RE2 pattern matches, as sorted ranges; `checked`: compared with
 * what re2js's test() says at the ends of every range and just past them, so that a change of re2js's
 * program cannot pass for a difference of tables nor hide one.
 */
function re2jsSet(re2: string, checked: boolean): Ranges {
  const compiled = RE2JS.compile(re2) as unknown as {
    re2Input?: { prog?: { inst?: { op: number; runes: ArrayLike<number> }[] } };
  };
  const inst = compiled.re2Input?.prog?.inst;
  if (!inst) throw new Error('re2js no longer keeps its program at re2Input.prog.inst: update re2jsSet');
  const runes = inst.filter((i) => i.op >= RUNE && i.op <= RUNE_ANY_NOT_NL);
  let set: Ranges;
  if (runes.length === 0 && inst.some((i) => i.op === FAIL)) set = [];
  else if (runes.length !== 1) throw new Error(`${re2}: expected one rune instruction, got ${runes.length}`);
  else {
    const [only] = runes as [{ op: number; runes: ArrayLike<number> }];
    if (only.op === RUNE_ANY) set = [[0, 0x10ffff]];
    else if (only.op === RUNE_ANY_NOT_NL)
      set = [
        [0, 9],
        [11, 0x10ffff],
      ];
    else if (only.op === RUNE1) set = [[only.runes[0] as number, only.runes[0] as number]];
    else {
      set = [];
      for (let i = 0; i < only.runes.length; i += 2)
        set.push([only.runes[i] as number, only.runes[i + 1] as number]);
    }
  }
  if (checked) {
    const whole = RE2JS.compile(`^(?:${re2})$`);
    const at = (cp: number, member: boolean) => {
      if (cp < 0 || cp > 0x10ffff) return;
      expect(whole.test(String.fromCodePoint(cp)), `${re2} at U+${cp.toString(16)}`).toBe(member);
    };
    if (set.length === 0) at(0x41, false);
    at((set[0]?.[0] ?? 0) - 1, false);
    for (const [lo, hi] of set) {
      at(lo, true);
      at(hi, true);
      at(hi + 1, false);
    }
  }
  return set;
}

/** Every code point but the surrogates, in order; and the surrogates, each alone. */
function everyCodePoint(): string {
  let all = '';
  for (let lo = 0; lo <= 0x10ffff; lo += 0x1000) {
    const block: number[] = [];
    for (let cp = lo; cp < lo + 0x1000; cp++) if (cp < 0xd800 || cp > 0xdfff) block.push(cp);
    all += String.fromCodePoint(...block);
  }
  return all;
}
const ALL = everyCodePoint();
const SURROGATES = Array.from({ length: 0x800 }, (_, i) => String.fromCharCode(0xd800 + i));

const asClassSet = (set: Ranges) =>
  `[${set.map(([lo, hi]) => (lo === hi ? `\\u{${lo.toString(16)}}` : `\\u{${lo.toString(16)}}-\\u{${hi.toString(16)}}`)).join('')}]`;

/** V8's class-set expression (flag `v`) for the code points where operand `v8` and `set` differ. */
const difference = (v8: string, set: Ranges) => `[${v8}--${asClassSet(set)}][${asClassSet(set)}--${v8}]`;

/** The first code point of class-set expression `expression` (flag `v`), or undefined when it is empty. */
function firstOf(expression: string): number | undefined {
  const re = new RegExp(`[${expression}]`, 'v');
  const hit = re.exec(ALL) ?? SURROGATES.map((s) => re.exec(s)).find((m) => m !== null);
  return hit ? (hit[0].codePointAt(0) as number) : undefined;
}

/**
 * Where V8's set for each class-set operand and re2js's for its pattern differ (`pattern at U+…`): one
 * scan of every code point for all of them, then one each if that finds any.
 */
function differences(cases: readonly (readonly [v8: string, pattern: string, checked: boolean])[]): string[] {
  const diffs = cases.map(([v8, pattern, checked]) => {
    const rewritten = toRe2Syntax(pattern);
    if (rewritten === undefined) throw new Error(`${pattern} is not rewritten`);
    return difference(v8, re2jsSet(rewritten, checked));
  });
  if (firstOf(diffs.join('')) === undefined) return [];
  return cases.flatMap(([, pattern], i) => {
    const cp = firstOf(diffs[i] as string);
    return cp === undefined ? [] : [`${pattern} at U+${cp.toString(16)}`];
  });
}

/**
 * Every name ECMAScript reads alone in `\p{…}` (the general categories with their aliases, and the
 * binary properties with theirs: ECMA-262 tables 67 and 68), and RE2's own spellings of some.
 */
const LONE_NAMES = [
  ...['C', 'Other', 'Cc', 'Control', 'cntrl', 'Cf', 'Format', 'Cn', 'Unassigned', 'Co', 'Private_Use'],
  ...[
    'Cs',
    'Surrogate',
    'L',
    'Letter',
    'LC',
    'Cased_Letter',
    'Ll',
    'Lowercase_Letter',
    'Lm',
    'Modifier_Letter',
  ],
  ...[
    'Lo',
    'Other_Letter',
    'Lt',
    'Titlecase_Letter',
    'Lu',
    'Uppercase_Letter',
    'M',
    'Mark',
    'Combining_Mark',
  ],
  ...['Mc', 'Spacing_Mark', 'Me', 'Enclosing_Mark', 'Mn', 'Nonspacing_Mark', 'N', 'Number', 'Nd'],
  ...['Decimal_Number', 'digit', 'Nl', 'Letter_Number', 'No', 'Other_Number', 'P', 'Punctuation', 'punct'],
  ...['Pc', 'Connector_Punctuation', 'Pd', 'Dash_Punctuation', 'Pe', 'Close_Punctuation', 'Pf'],
  ...['Final_Punctuation', 'Pi', 'Initial_Punctuation', 'Po', 'Other_Punctuation', 'Ps', 'Open_Punctuation'],
  ...[
    'S',
    'Symbol',
    'Sc',
    'Currency_Symbol',
    'Sk',
    'Modifier_Symbol',
    'Sm',
    'Math_Symbol',
    'So',
    'Other_Symbol',
  ],
  ...['Z', 'Separator', 'Zl', 'Line_Separator', 'Zp', 'Paragraph_Separator', 'Zs', 'Space_Separator'],
  ...['ASCII', 'ASCII_Hex_Digit', 'AHex', 'Alphabetic', 'Alpha', 'Any', 'Assigned', 'Bidi_Control', 'Bidi_C'],
  ...['Bidi_Mirrored', 'Bidi_M', 'Case_Ignorable', 'CI', 'Cased', 'Changes_When_Casefolded', 'CWCF'],
  ...['Changes_When_Casemapped', 'CWCM', 'Changes_When_Lowercased', 'CWL', 'Changes_When_NFKC_Casefolded'],
  ...['CWKCF', 'Changes_When_Titlecased', 'CWT', 'Changes_When_Uppercased', 'CWU', 'Dash'],
  ...[
    'Default_Ignorable_Code_Point',
    'DI',
    'Deprecated',
    'Dep',
    'Diacritic',
    'Dia',
    'Emoji',
    'Emoji_Component',
  ],
  ...['EComp', 'Emoji_Modifier', 'EMod', 'Emoji_Modifier_Base', 'EBase', 'Emoji_Presentation', 'EPres'],
  ...['Extended_Pictographic', 'ExtPict', 'Extender', 'Ext', 'Grapheme_Base', 'Gr_Base', 'Grapheme_Extend'],
  ...['Gr_Ext', 'Hex_Digit', 'Hex', 'IDS_Binary_Operator', 'IDSB', 'IDS_Trinary_Operator', 'IDST'],
  ...['ID_Continue', 'IDC', 'ID_Start', 'IDS', 'Ideographic', 'Ideo', 'Join_Control', 'Join_C'],
  ...['Logical_Order_Exception', 'LOE', 'Lowercase', 'Lower', 'Math', 'Noncharacter_Code_Point', 'NChar'],
  ...['Pattern_Syntax', 'Pat_Syn', 'Pattern_White_Space', 'Pat_WS', 'Quotation_Mark', 'QMark', 'Radical'],
  ...['Regional_Indicator', 'RI', 'Sentence_Terminal', 'STerm', 'Soft_Dotted', 'SD', 'Terminal_Punctuation'],
  ...['Term', 'Unified_Ideograph', 'UIdeo', 'Uppercase', 'Upper', 'Variation_Selector', 'VS', 'White_Space'],
  ...['space', 'XID_Continue', 'XIDC', 'XID_Start', 'XIDS'],
  // RE2's spellings, and script names, which ECMAScript reads only as Script=…
  ...['Ascii', 'Lc', 'Greek', 'Latin', 'Common', 'Han'],
];

const readsNatively = (pattern: string) => {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
};
const readsOnRe2 = (pattern: string) => {
  const rewritten = toRe2Syntax(pattern);
  if (rewritten === undefined) return undefined;
  try {
    RE2JS.compile(rewritten);
    return rewritten;
  } catch {
    return undefined;
  }
};

/** Sets Node's reported Unicode version for one test. */
function hostUnicode(version: string | undefined): void {
  Object.defineProperty(process.versions, 'unicode', {
    value: version,
    configurable: true,
    enumerable: true,
  });
}
const HOST_UNICODE = process.versions.unicode;
afterEach(() => hostUnicode(HOST_UNICODE));

describe('Unicode property escapes on re2js', () => {
  const shared = LONE_NAMES.filter((name) => readsNatively(`\\p{${name}}`) && readsOnRe2(`\\p{${name}}`));

  it("rewrites a property only where Node's ICU has the Unicode version of re2js's tables", () => {
    hostUnicode(RE2JS_UNICODE);
    expect(toRe2Syntax('^\\p{L}+$')).toBe('^\\p{L}+$');
    for (const other of ['16.0', '17.1', undefined]) {
      hostUnicode(other);
      expect(toRe2Syntax('^\\p{L}+$'), String(other)).toBeUndefined();
      expect(toRe2Syntax('^[\\P{Lu}a]+$'), String(other)).toBeUndefined();
      // Left to the native engine, the answer is still V8's.
      expect(patternEngine('^\\p{L}+$', 'u').test('\u{10940}'), String(other)).toBe(
        /^\p{L}+$/u.test('\u{10940}'),
      );
    }
  });

  it('rewrites only the names ECMAScript reads alone and RE2 reads in the same meaning', () => {
    hostUnicode(RE2JS_UNICODE);
    // General categories by their short names, re2js's binary properties, Any and Assigned.
    expect(shared).toEqual([
      ...['C', 'Cc', 'Cf', 'Cn', 'Co', 'Cs', 'L', 'LC', 'Ll', 'Lm', 'Lo', 'Lt', 'Lu', 'M', 'Mc', 'Me', 'Mn'],
      ...['N', 'Nd', 'Nl', 'No', 'P', 'Pc', 'Pd', 'Pe', 'Pf', 'Pi', 'Po', 'Ps', 'S', 'Sc', 'Sk', 'Sm', 'So'],
      ...['Z', 'Zl', 'Zp', 'Zs', 'ASCII_Hex_Digit', 'Alphabetic', 'Any', 'Assigned', 'Dash', 'Emoji'],
      ...['Emoji_Component', 'Emoji_Modifier', 'Emoji_Modifier_Base', 'Emoji_Presentation'],
      ...[
        'Extended_Pictographic',
        'Hex_Digit',
        'Lowercase',
        'Math',
        'Quotation_Mark',
        'Terminal_Punctuation',
      ],
      ...['Uppercase', 'White_Space'],
    ]);
    // Spellings of one engine only, and Script=…, stay with the native engine.
    for (const name of ['Ascii', 'Lc', 'Greek', 'Letter', 'ASCII', 'Script=Greek', 'sc=Latin', 'gc=L', 'L&'])
      expect(toRe2Syntax(`\\p{${name}}`), name).toBeUndefined();
  });

  it.runIf(HOST_UNICODE === RE2JS_UNICODE)(
    "has V8's set for every shared property, over every code point, \\p and \\P, in a class or not",
    () => {
      const cases = shared.flatMap(
        (name) =>
          [
            [`\\p{${name}}`, `\\p{${name}}`, true],
            [`\\P{${name}}`, `\\P{${name}}`, false],
            [`\\p{${name}}`, `[\\p{${name}}]`, false],
            [`[^\\p{${name}}]`, `[^\\p{${name}}]`, false],
          ] as const,
      );
      expect(differences(cases)).toEqual([]);
    },
  );
});

describe('the comparison of sets', () => {
  it('finds a difference where there is one, at its first code point', () => {
    expect(
      differences([
        ['\\p{L}', '\\p{Lu}', true],
        ['\\s', '\\s', true],
        ['[^\\s]', '\\s', false],
        ['\\u{DE00}', '\\uD83D\\uDE00', false],
      ]),
    ).toEqual(['\\p{Lu} at U+61', '\\s at U+0', '\\uD83D\\uDE00 at U+1f600']);
  });
});

describe('the classes the rewriting spells out', () => {
  it("has V8's set for each, over every code point", () => {
    // [V8's class-set operand, the pattern rewritten]
    const cases: [string, string][] = [
      ['\\s', '\\s'],
      ['\\S', '\\S'],
      ['\\s', '[\\s]'],
      ['\\S', '[\\S]'],
      ['[^\\s]', '[^\\s]'],
      ['[^\\S]', '[^\\S]'],
      ['[\\s\\d]', '[\\s\\d]'],
      ['[^\\S_]', '[^\\S_]'],
      ['\\w', '\\w'],
      ['\\W', '\\W'],
      ['\\d', '\\d'],
      ['\\D', '\\D'],
      ['[^\\n\\r\\u2028\\u2029]', '.'],
      ['[\\u{0}-\\u{10ffff}]', '[^]'],
      ['[]', '[]'],
      ['\\u{8}', '[\\b]'],
      ['\\n', '\\cJ'],
      ['\\u{0}', '\\0'],
      ['\\u{1F600}', '\\uD83D\\uDE00'],
      ['[\\u{1F600}-\\u{1F64F}]', '[\\uD83D\\uDE00-\\uD83D\\uDE4F]'],
      ['[^\\u{1F600}]', '[^\\uD83D\\uDE00]'],
      ['[\\u{D83D}\\u{DE00}]', '[\\u{D83D}\\u{DE00}]'],
    ];
    expect(differences(cases.map(([v8, pattern]) => [v8, pattern, true] as const))).toEqual([]);
  });

  it('reads each V8 operand above as the pattern under u reads it', () => {
    // The reference operands of the previous test are written for flag v: each against its pattern
    // under u, on code points drawn over the whole range.
    const pairs: [string, string][] = [
      ['[^\\n\\r\\u2028\\u2029]', '.'],
      ['[\\u{1F600}-\\u{1F64F}]', '[\\uD83D\\uDE00-\\uD83D\\uDE4F]'],
      ['[^\\u{1F600}]', '[^\\uD83D\\uDE00]'],
      ['\\u{1F600}', '\\uD83D\\uDE00'],
    ];
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0x10ffff }), (cp) => {
        const c = String.fromCodePoint(cp);
        for (const [v8, pattern] of pairs)
          expect(new RegExp(`^${v8}$`, 'v').test(c), pattern).toBe(new RegExp(`^${pattern}$`, 'u').test(c));
      }),
      { numRuns: runs(2000) },
    );
  });
});
