/**
 * Unicode's character names, for Python's `\N{name}` escapes, from the npm package `unicode-name`
 * (its data module src/name.js: each character's name, compressed by common words, its aliases, the
 * ranges named by code point, and the Hangul syllables' jamo). The table is large (0.75 MB), so it is
 * loaded only for a scan whose Python sources hold `\N{`, and only when the package is installed;
 * without it, such a string is unknown to the scan (never read as written).
 *
 * Python (CPython's unicodedata `_getcode`, used by the `\N{…}` escape) matches a name or an alias of
 * NameAliases.txt without regard to case, "HANGUL SYLLABLE " followed by the syllable's jamo, and
 * "CJK UNIFIED IDEOGRAPH-" followed by four or five upper-case hex digits in a unified-ideograph range.
 */

import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

interface NameData {
  readonly NAMES: Readonly<Record<string, string>>;
  readonly ALIASES: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;
  readonly CP_RANGES: Readonly<Record<string, readonly (readonly [number, number])[]>>;
  readonly JAMO: {
    readonly INITIAL: readonly string[];
    readonly MEDIAL: readonly string[];
    readonly FINAL: readonly string[];
  };
  readonly COMMON_WORDS: readonly string[];
  readonly REPLACE_BASE: number;
}

/** A name's character, by the name in upper case; undefined: the table is not loaded (or not there). */
let names: Map<string, string> | undefined;
let ideographs: readonly (readonly [number, number])[] = [];
let loading: Promise<void> | undefined;

const CJK = 'CJK UNIFIED IDEOGRAPH-';
const HANGUL = 'HANGUL SYLLABLE ';

/** Loads the name table once, if a source holds `\N{` and the package is installed. */
export function loadUnicodeNames(texts: Iterable<string>): Promise<void> | undefined {
  if (names || loading) return loading;
  for (const text of texts) {
    if (!text.includes('\\N{')) continue;
    loading = load();
    return loading;
  }
  return undefined;
}

async function load(): Promise<void> {
  let data: NameData;
  try {
    const index = createRequire(import.meta.url).resolve('unicode-name');
    data = ((await import(pathToFileURL(join(dirname(index), 'name.js')).href)) as { default: NameData })
      .default;
  } catch {
    return;
  }
  const table = new Map<string, string>();
  const words = data.COMMON_WORDS;
  for (const [char, compressed] of Object.entries(data.NAMES)) {
    let name = '';
    for (const c of compressed) {
      const code = c.codePointAt(0) as number;
      name += code < data.REPLACE_BASE ? c : `${words[code - data.REPLACE_BASE]} `;
    }
    table.set(name.trim(), char);
  }
  for (const [char, kinds] of Object.entries(data.ALIASES))
    for (const list of Object.values(kinds)) for (const alias of list) table.set(alias.toUpperCase(), char);
  const { INITIAL, MEDIAL, FINAL } = data.JAMO;
  for (let i = 0; i < INITIAL.length; i++)
    for (let m = 0; m < MEDIAL.length; m++)
      for (let f = 0; f < FINAL.length; f++)
        table.set(
          `${HANGUL}${INITIAL[i]}${MEDIAL[m]}${FINAL[f]}`,
          String.fromCodePoint(0xac00 + (i * MEDIAL.length + m) * FINAL.length + f),
        );
  ideographs = data.CP_RANGES[CJK] ?? [];
  names = table;
}

/** The character Python's `\N{name}` stands for; undefined when the scan cannot tell. */
export function unicodeNamed(name: string): string | undefined {
  if (!names) return undefined;
  if (name.startsWith(CJK)) {
    const hex = name.slice(CJK.length);
    if (!/^[0-9A-F]{4,5}$/.test(hex)) return undefined;
    const code = Number.parseInt(hex, 16);
    return ideographs.some(([from, to]) => code >= from && code <= to)
      ? String.fromCodePoint(code)
      : undefined;
  }
  return names.get(name.toUpperCase());
}
