/** The text Python reads from the parts of a string literal. */

import type { PyNode } from './parser.js';
import { unicodeNamed } from './unicode-names.js';

/**
 * A `string_content` node's text as Python reads it (undefined: a `\N{…}` the scan cannot read). The grammar nests the escape sequences inside the
 * content node, so reading its source as it stands kept `"te\x78t"` as `te\x78t`, a block type no
 * client knows, where Python reads `text`. A raw string's escapes are its text.
 */
export function stringContent(source: string, node: PyNode, raw: boolean): string | undefined {
  if (raw) return source.slice(node.start, node.end);
  let out = '';
  let at = node.start;
  for (const child of node.children) {
    if (child.type !== 'escape_sequence') continue;
    const decoded = decodeEscape(source.slice(child.start, child.end));
    if (decoded === undefined) return undefined;
    out += source.slice(at, child.start) + decoded;
    at = child.end;
  }
  return out + source.slice(at, node.end);
}

/** Python's one-letter escapes. */
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '\n': '',
};

/**
 * One escape sequence as Python reads it in a str literal: one-letter escapes, a line continuation,
 * octal (`\101`), `\x`, `\u` and `\U`, and `\N{name}` by Unicode's name table (undefined where the
 * table is not loaded or has no such name: the text is then unknown). Any sequence Python itself keeps
 * (`\d`) is kept as written.
 */
export function decodeEscape(sequence: string): string | undefined {
  const c = sequence.slice(1);
  if (c.startsWith('N{')) return unicodeNamed(c.slice(2, -1));
  if (Object.hasOwn(SIMPLE_ESCAPES, c)) return SIMPLE_ESCAPES[c] as string;
  if (/^[0-7]{1,3}$/.test(c)) return String.fromCharCode(Number.parseInt(c, 8));
  if (/^(x|u|U)[0-9a-fA-F]+$/.test(c)) {
    const code = Number.parseInt(c.slice(1), 16);
    return code <= 0x10ffff ? String.fromCodePoint(code) : sequence;
  }
  return sequence;
}
