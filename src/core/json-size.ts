/**
 * Sizes of JSON text without building it: the UTF-8 bytes `JSON.stringify` would produce for a string,
 * counted with an ASCII fast path. A size check runs on every result, and encoding a megabyte result
 * just to measure it would cost more than validating it.
 */

/** Printable ASCII other than `"` and `\`: copied by JSON.stringify as is, one byte each. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: every ASCII character, control ones included
const NON_ASCII = /[^\x00-\x7f]/;

/** Short strings are counted directly; a regex call costs more than looking at a few characters. */
const SHORT = 32;

/** UTF-8 bytes of `JSON.stringify(value)` for a string, quotes included. */
export function jsonStringBytes(value: string): number {
  if (value.length >= SHORT && PLAIN.test(value)) return value.length + 2;
  let bytes = 2;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x80) {
      if (c >= 0x20) bytes += c === 0x22 || c === 0x5c ? 2 : 1;
      // \b \t \n \f \r have two-character escapes; other control characters become \u00XX.
      else bytes += c === 0x08 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d ? 2 : 6;
    } else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && isLowSurrogate(value.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff)
      bytes += 6; // a lone surrogate is escaped as \uDXXX
    else bytes += 3;
  }
  return bytes;
}

/**
 * UTF-16 units of `JSON.stringify(value)` for a string, quotes included: its length, plus what each
 * escape adds. Asked only of results long enough that their escapes could take the JSON text past the
 * longest string there is (a text of 2^28 quotes is written as 2^29 characters). Its loop is written
 * out apart from jsonStringBytes's, which runs on every large result: a shared one taking the weights as
 * arguments would slow that one down for this rare count.
 */
export function jsonStringUnits(value: string): number {
  if (value.length >= SHORT && PLAIN.test(value)) return value.length + 2;
  let units = 2;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20) units += c === 0x08 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d ? 2 : 6;
    else if (c === 0x22 || c === 0x5c) units += 2;
    else if (c >= 0xd800 && c <= 0xdbff && isLowSurrogate(value.charCodeAt(i + 1))) {
      units += 2;
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff)
      units += 6; // a lone surrogate is escaped as \uDXXX
    else units += 1;
  }
  return units;
}

/** UTF-16 units of `JSON.stringify(json)`, where `json` is JSON.stringify output (see jsonOfJsonTextBytes). */
export function jsonOfJsonTextUnits(json: string, jsonUnits: number): number {
  return jsonUnits + 2 + escapesInJsonText(json);
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/** Whether the text is ASCII only: then its UTF-8 bytes are its length. */
export function isAscii(text: string): boolean {
  return !NON_ASCII.test(text);
}

/**
 * UTF-8 bytes of text that is itself JSON.stringify output (so well formed, with no raw control
 * characters): its length when it is ASCII.
 */
export function jsonTextBytes(json: string): number {
  if (isAscii(json)) return json.length;
  return jsonStringBytes(json) - 2 - escapesInJsonText(json);
}

/**
 * UTF-8 bytes of `JSON.stringify(json)`, where `json` is JSON.stringify output: every `"` and `\` in it
 * gains a backslash, nothing else changes. Found with native searches, which beat a character loop
 * several times over on megabytes of JSON.
 */
export function jsonOfJsonTextBytes(json: string, jsonBytes: number): number {
  return jsonBytes + 2 + escapesInJsonText(json);
}

function escapesInJsonText(json: string): number {
  return occurrences(json, '"') + occurrences(json, '\\');
}

function occurrences(text: string, char: string): number {
  let count = 0;
  for (let i = text.indexOf(char); i >= 0; i = text.indexOf(char, i + 1)) count++;
  return count;
}
