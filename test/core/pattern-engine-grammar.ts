/**
 * A grammar of the ECMAScript patterns schema authors write in `pattern` and `patternProperties`, for
 * the differential tests of src/core/pattern-engine.ts: literals in every spelling ECMAScript has for
 * them (raw, `\u0041`, `\u{1F600}`, `\uD83D\uDE00` pairs, `\x41`, `\0`, `\cJ`, `\n`…, raw astral and
 * lone surrogates), classes and negated classes with ranges and escapes, `\d \D \w \W \s \S`, `.`,
 * `[^]`, `[]`, `\b \B ^ $`, Unicode property escapes (names V8 reads under flag `u` and some it refuses),
 * groups (capturing, non-capturing, named), alternation, greedy and lazy quantifiers, and now and then
 * look-around, back-references and modifier groups (`(?i:…)`, which V8 reads from Node 24 on).
 *
 * Each generated pattern comes with a sampler that draws strings the pattern should nearly match (a
 * witness built from the pattern, then edited), and the characters it is written with, from which
 * near misses are drawn.
 */

import fc from 'fast-check';
import { RE2JS } from 're2js';
import { toRe2Syntax } from '../../src/core/pattern-engine.js';

/** An integer in [0, n). */
export type Rand = (n: number) => number;

export interface PatternNode {
  readonly src: string;
  /** A string this node plausibly matches. */
  sample(rand: Rand): string;
  /** Characters the node is written with or is about, for near misses. */
  readonly chars: readonly string[];
  /** `^ $ \b \B` and look-around: quantifying one is a SyntaxError under flag `u`. */
  readonly assertion?: boolean;
}

/** A small seeded generator (mulberry32), so that a draw is repeated from its seed. */
export function seeded(seed: number): Rand {
  let a = seed >>> 0;
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

/**
 * Characters that tell engines apart: ASCII, the characters case folding ties to ASCII (U+212A KELVIN
 * SIGN, U+017F LONG S), astral ones (an emoji, a letter new in Unicode 17, a regional indicator, a tag),
 * lone surrogates of both halves, every line terminator, the spaces of `\s` and near ones (U+180E, U+200B,
 * U+0085), NBSP, BOM, unassigned and private-use code points, combining marks, digits of other scripts.
 */
export const POOL: readonly string[] = [
  'a',
  'b',
  'c',
  'k',
  's',
  'z',
  'A',
  'K',
  'S',
  'Z',
  '0',
  '5',
  '9',
  '_',
  ' ',
  '-',
  '.',
  '/',
  ':',
  ']',
  '[',
  '\\',
  '^',
  '$',
  '*',
  '+',
  '?',
  '(',
  ')',
  '{',
  '}',
  '|',
  'é',
  'Ω',
  'σ',
  'ς',
  'Σ',
  'α',
  'Я',
  '中',
  '\u0660',
  '\u00b2',
  '\u0301',
  '\u212a',
  '\u017f',
  'ß',
  '\u1e9e',
  '\u0130',
  '\u{1F600}',
  '\u{1F601}',
  '\u{10940}',
  '\u{1F1FA}',
  '\u{E0041}',
  '\u{10FFFF}',
  '\u{10428}',
  '\u{10400}',
  '\uD83D',
  '\uDE00',
  '\uD800',
  '\uDFFF',
  '\uFFFF',
  '\uE000',
  '\u0378',
  '\u00a0',
  '\u1680',
  '\u180e',
  '\u200b',
  '\u2000',
  '\u202f',
  '\ufeff',
  '\u3000',
  '\u2028',
  '\u2029',
  '\u0085',
  '\n',
  '\r',
  '\t',
  '\v',
  '\f',
  '\0',
  '\b',
  '\u001f',
];

/** Property escapes: names V8 reads under `u` (general categories, binary properties, scripts) and not. */
export const PROPERTIES: readonly string[] = [
  'L',
  'Lu',
  'Ll',
  'Lt',
  'Lm',
  'Lo',
  'LC',
  'M',
  'Mn',
  'Mc',
  'N',
  'Nd',
  'Nl',
  'No',
  'P',
  'Pd',
  'Ps',
  'Po',
  'S',
  'Sm',
  'Sc',
  'So',
  'Z',
  'Zs',
  'Zl',
  'Zp',
  'C',
  'Cc',
  'Cf',
  'Cn',
  'Co',
  'Cs',
  'Any',
  'ASCII',
  'Assigned',
  'Alphabetic',
  'White_Space',
  'Emoji',
  'Emoji_Presentation',
  'Emoji_Modifier',
  'Emoji_Component',
  'Extended_Pictographic',
  'Uppercase',
  'Lowercase',
  'Hex_Digit',
  'ASCII_Hex_Digit',
  'Math',
  'Dash',
  'Regional_Indicator',
  'ID_Start',
  'Letter',
  'Uppercase_Letter',
  'Number',
  'digit',
  'gc=Lu',
  'General_Category=Nd',
  'Script=Greek',
  'sc=Latin',
  'Script=Han',
  'Script=Common',
  'scx=Greek',
  'Script_Extensions=Latin',
  'sc=Sidetic',
  // Refused by V8 under `u` (RE2's spellings, a property of strings that needs `v`):
  'Greek',
  'Ascii',
  'Lc',
  'Basic_Emoji',
];

const SYNTAX = '^$\\.*+?()[]{}|/';
const hex = (n: number, width: number, rand: Rand) => {
  const h = n.toString(16).padStart(width, '0');
  return rand(2) === 0 ? h : h.toUpperCase();
};

/** One of the spellings ECMAScript under `u` has for code point `cp`, in a class or out of one. */
export function spell(cp: number, inClass: boolean, rand: Rand): string {
  const c = String.fromCodePoint(cp);
  const forms: string[] = [];
  if (SYNTAX.includes(c)) forms.push(`\\${c}`);
  else if (c === '-') forms.push(inClass ? '\\-' : '-');
  else forms.push(c);
  if (cp <= 0xffff) forms.push(`\\u${hex(cp, 4, rand)}`);
  else {
    const high = 0xd800 + ((cp - 0x10000) >> 10);
    const low = 0xdc00 + ((cp - 0x10000) & 0x3ff);
    forms.push(`\\u${hex(high, 4, rand)}\\u${hex(low, 4, rand)}`);
  }
  forms.push(`\\u{${hex(cp, rand(3) === 0 ? 6 : 1, rand)}}`);
  if (cp <= 0xff) forms.push(`\\x${hex(cp, 2, rand)}`);
  if (cp >= 1 && cp <= 26) forms.push(`\\c${String.fromCharCode((rand(2) === 0 ? 64 : 96) + cp)}`);
  if (cp === 0) forms.push('\\0');
  const control: Record<number, string> = { 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r' };
  if (control[cp]) forms.push(control[cp]);
  if (inClass && cp === 8) forms.push('\\b');
  return forms[rand(forms.length)] as string;
}

const CLASS_ESCAPES = ['\\d', '\\D', '\\w', '\\W', '\\s', '\\S'];

/** A compiled `^(?:src)$`, or undefined when src is no pattern under `u`. */
const anchored = new Map<string, RegExp | undefined>();
function whole(src: string): RegExp | undefined {
  if (!anchored.has(src)) {
    if (anchored.size > 2000) anchored.clear();
    let re: RegExp | undefined;
    try {
      re = new RegExp(`^(?:${src})$`, 'u');
    } catch {
      re = undefined;
    }
    anchored.set(src, re);
  }
  return anchored.get(src);
}

/** Draws from POOL and `extra` a character the single-character pattern `src` matches, if one does. */
function pick(src: string, extra: readonly string[], rand: Rand): string {
  const re = whole(src);
  const all = [...extra, ...POOL];
  if (re) {
    const hits = all.filter((c) => re.test(c));
    if (hits.length > 0) return hits[rand(hits.length)] as string;
  }
  return all[rand(all.length)] as string;
}

const codePoint = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...POOL).map((c) => c.codePointAt(0) as number) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 0x10ffff }) },
);

interface Spelled {
  cp: number;
  spelling: number;
}
const spelled: fc.Arbitrary<Spelled> = fc.record({ cp: codePoint, spelling: fc.nat() });
const render = (s: Spelled, inClass: boolean) => spell(s.cp, inClass, seeded(s.spelling));

const literal: fc.Arbitrary<PatternNode> = spelled.map((s) => {
  const c = String.fromCodePoint(s.cp);
  return { src: render(s, false), sample: () => c, chars: [c] };
});

const property = fc
  .tuple(fc.constantFrom('p', 'P'), fc.constantFrom(...PROPERTIES))
  .map(([p, name]) => `\\${p}{${name}}`);

type Member =
  | { kind: 'char'; c: Spelled }
  | { kind: 'range'; lo: Spelled; hi: Spelled }
  | { kind: 'escape'; src: string };
const member: fc.Arbitrary<Member> = fc.oneof(
  { weight: 3, arbitrary: spelled.map((c) => ({ kind: 'char' as const, c })) },
  {
    weight: 3,
    arbitrary: fc.tuple(spelled, spelled).map(([a, b]) => {
      const [lo, hi] = a.cp <= b.cp ? [a, b] : [b, a];
      return { kind: 'range' as const, lo, hi };
    }),
  },
  {
    weight: 2,
    arbitrary: fc
      .oneof(fc.constantFrom(...CLASS_ESCAPES), property)
      .map((src) => ({ kind: 'escape' as const, src })),
  },
);

const characterClass: fc.Arbitrary<PatternNode> = fc
  .record({
    negated: fc.boolean(),
    members: fc.array(member, { minLength: 1, maxLength: 4 }),
    dash: fc.constantFrom('', '', '', 'start', 'end'),
  })
  .map(({ negated, members, dash }) => {
    const chars: string[] = [];
    let body = members
      .map((m) => {
        if (m.kind === 'char') {
          chars.push(String.fromCodePoint(m.c.cp));
          return render(m.c, true);
        }
        if (m.kind === 'range') {
          for (const cp of [m.lo.cp, m.hi.cp, m.lo.cp - 1, m.hi.cp + 1])
            if (cp >= 0 && cp <= 0x10ffff) chars.push(String.fromCodePoint(cp));
          return `${render(m.lo, true)}-${render(m.hi, true)}`;
        }
        return m.src;
      })
      .join('');
    // A raw `-` first or last is a member; a raw `^` first would negate, so it is always escaped.
    if (dash === 'start') body = `-${body}`;
    if (dash === 'end') body = `${body}-`;
    if (dash) chars.push('-');
    const src = `[${negated ? '^' : ''}${body}]`;
    return { src, sample: (rand: Rand) => pick(src, chars, rand), chars };
  });

const single: fc.Arbitrary<PatternNode> = fc.oneof(
  { weight: 6, arbitrary: literal },
  { weight: 4, arbitrary: characterClass },
  {
    weight: 3,
    arbitrary: fc.oneof(fc.constantFrom('.', '[^]', '[]', ...CLASS_ESCAPES), property).map((src) => ({
      src,
      sample: (rand: Rand) => pick(src, [], rand),
      chars: [] as string[],
    })),
  },
);

const assertion: fc.Arbitrary<PatternNode> = fc.constantFrom('^', '$', '\\b', '\\B').map((src) => ({
  src,
  sample: () => '',
  chars: [],
  assertion: true,
}));

const quantifier = fc
  .tuple(
    fc.oneof(
      fc.constantFrom('*', '+', '?'),
      fc.nat(3).map((n) => `{${n}}`),
      fc.nat(3).map((n) => `{${n},}`),
      fc.tuple(fc.nat(2), fc.nat(3)).map(([n, extra]) => `{${n},${n + extra}}`),
    ),
    fc.boolean(),
  )
  .map(([q, lazy]) => ({
    q: lazy ? `${q}?` : q,
    min: /\d/.test(q) ? Number(/\d+/.exec(q)?.[0]) : q === '+' ? 1 : 0,
  }));

export interface GrammarOptions {
  /** Look-around, back-references and modifier groups: patterns RE2 cannot read (or reads otherwise). */
  readonly nativeOnly: boolean;
}

/** Whether this V8 reads modifier groups (`(?i:…)`): from Node 24 on. */
export const MODIFIERS = ((source: string) => {
  try {
    new RegExp(source, 'u');
    return true;
  } catch {
    return false;
  }
})('(?i:a)');

const LOOK_AROUND = ['(?=', '(?!', '(?<=', '(?<!'] as const;

/** Whether the engine runs `pattern` on re2js (else natively). */
export function onRe2(pattern: string): boolean {
  const rewritten = toRe2Syntax(pattern);
  if (rewritten === undefined) return false;
  try {
    RE2JS.compile(rewritten);
    return true;
  } catch {
    return false;
  }
}

/** Patterns of the grammar, a few groups deep. */
export function patternNode(options: GrammarOptions): fc.Arbitrary<PatternNode> {
  const lookAround = (inner: fc.Arbitrary<PatternNode>) =>
    fc.tuple(fc.constantFrom(...LOOK_AROUND), inner).map(([open, node]) => ({
      src: `${open}${node.src})`,
      sample: (rand: Rand) => (open.startsWith('(?=') ? node.sample(rand) : ''),
      chars: node.chars,
      assertion: true,
    }));
  const { tree } = fc.letrec<{ tree: PatternNode; term: PatternNode; atom: PatternNode }>((tie) => ({
    atom: fc.oneof(
      { depthSize: 'xsmall', withCrossShrink: true },
      { weight: 10, arbitrary: single },
      { weight: 2, arbitrary: assertion },
      {
        weight: 3,
        arbitrary: fc
          .tuple(fc.constantFrom('(', '(', '(?:', '(?:', '(?<n0>', '(?<\u00e9\u{1D400}>'), tie('tree'))
          .map(([open, inner]) => ({
            src: `${open}${inner.src})`,
            sample: inner.sample,
            chars: inner.chars,
          })),
      },
      ...(options.nativeOnly
        ? [
            { weight: 3, arbitrary: lookAround(tie('tree')) },
            {
              weight: 2,
              arbitrary: fc
                .constantFrom('\\1', '\\2', '\\k<n0>')
                .map((src) => ({ src, sample: () => '', chars: [] })),
            },
            ...(MODIFIERS
              ? [
                  {
                    weight: 2,
                    arbitrary: fc
                      .tuple(
                        fc.constantFrom('(?i:', '(?m:', '(?s:', '(?-i:', '(?i-s:', '(?ims:', '(?-m:'),
                        tie('tree'),
                      )
                      .map(([open, inner]) => ({
                        src: `${open}${inner.src})`,
                        sample: inner.sample,
                        chars: inner.chars,
                      })),
                  },
                ]
              : []),
          ]
        : []),
    ),
    term: fc.oneof(
      { depthSize: 'xsmall', withCrossShrink: true },
      { weight: 3, arbitrary: tie('atom') },
      {
        weight: 2,
        // A quantified assertion is a SyntaxError under `u`: invalid property names test that path.
        arbitrary: fc
          .tuple(tie('atom'), quantifier)
          .filter(([atom]) => !atom.assertion)
          .map(([atom, { q, min }]) => ({
            src: `${atom.src}${q}`,
            sample: (rand: Rand) => {
              let out = '';
              const times = min + rand(3);
              for (let i = 0; i < times; i++) out += atom.sample(rand);
              return out;
            },
            chars: atom.chars,
          })),
      },
    ),
    tree: fc
      .array(fc.array(tie('term'), { minLength: 0, maxLength: 3, depthIdentifier: 'pattern' }), {
        minLength: 1,
        maxLength: 2,
        depthIdentifier: 'pattern',
      })
      .map((alternatives) => ({
        src: alternatives.map((terms) => terms.map((t) => t.src).join('')).join('|'),
        sample: (rand: Rand) => {
          const terms = alternatives[rand(alternatives.length)] as PatternNode[];
          return terms.map((t) => t.sample(rand)).join('');
        },
        chars: alternatives.flat().flatMap((t) => t.chars),
      })),
  }));
  // Patterns for the native engine start with a look-around at least half the time.
  const body = options.nativeOnly
    ? fc.tuple(fc.boolean(), lookAround(tree), tree).map(([lead, first, rest]) =>
        lead
          ? {
              src: `${first.src}${rest.src}`,
              sample: (rand: Rand) => rest.sample(rand),
              chars: [...first.chars, ...rest.chars],
            }
          : rest,
      )
    : tree;
  // Schema authors anchor most patterns.
  return fc.tuple(body, fc.constantFrom('both', 'both', 'start', 'end', 'none')).map(([node, anchors]) => {
    if (anchors === 'none') return node;
    const src = `${anchors === 'end' ? '' : '^'}(?:${node.src})${anchors === 'start' ? '' : '$'}`;
    return { src, sample: node.sample, chars: node.chars };
  });
}

type Edit = { op: 'insert' | 'delete' | 'replace' | 'double'; at: number; c: string };
const edit: fc.Arbitrary<Edit> = fc.record({
  op: fc.constantFrom('insert', 'delete', 'replace', 'double'),
  at: fc.nat(),
  c: fc.constantFrom(...POOL),
});

/** `text` edited by code unit: a deletion can leave half of a surrogate pair behind. */
function applyEdits(text: string, edits: readonly Edit[]): string {
  let out = text;
  for (const { op, at, c } of edits) {
    const i = out.length === 0 ? 0 : at % (out.length + 1);
    if (op === 'insert') out = out.slice(0, i) + c + out.slice(i);
    else if (op === 'delete') out = out.slice(0, i) + out.slice(i + 1);
    else if (op === 'replace') out = out.slice(0, i) + c + out.slice(i + 1);
    else out = out.slice(0, i) + out.slice(i, i + 2) + out.slice(i);
  }
  return out;
}

/** Strings for `node`: witnesses, witnesses edited once or twice, and strings of its own and POOL's characters. */
export function textsFor(node: PatternNode): fc.Arbitrary<string[]> {
  const alphabet = [...new Set([...node.chars, ...POOL])];
  const witness = fc
    .tuple(fc.integer(), fc.array(edit, { maxLength: 2 }))
    .map(([seed, edits]) => applyEdits(node.sample(seeded(seed)), edits).slice(0, 40));
  const loose = fc.array(fc.constantFrom(...alphabet), { maxLength: 6 }).map((cs) => cs.join(''));
  return fc.array(fc.oneof({ weight: 3, arbitrary: witness }, { weight: 1, arbitrary: loose }), {
    minLength: 1,
    maxLength: 8,
  });
}
