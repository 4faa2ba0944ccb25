/**
 * Parsing a frame with one copy of its data at most. `JSON.parse` copies every string out of the text,
 * so a 50 MB result (a 50 MB text or base64 image) would be held twice, as the frame and as the parsed
 * value, on top of whatever the repair and the write need. For large frames the long strings that need
 * no unescaping are instead taken as slices of the frame text, which V8 stores as views into it: the
 * parsed value then costs little more than the message's structure.
 */

import { JSON_START } from '../core/json.js';
import { BACKSLASH } from '../core/json-units.js';

/** Frames shorter than this are parsed as they are: their strings are too small to matter. */
const LARGE_FRAME = 1 << 20;
/** String literals at least this long (in characters) are taken as slices. */
const LONG_STRING = 1 << 15;

/** A marker that a parsed string cannot be by accident: a NUL, then a per-process nonce. */
const PLACEHOLDER = `\u0000mcp-shape-slice-${Math.random().toString(36).slice(2)}:`;

/**
 * A string free of control characters, which make a JSON string literal invalid. Anchored and negated,
 * the regex runs as one tight loop over the string; the unanchored `/[\u0000-\u001f]/` restarts its
 * search at every character and took about twice as long on a 5 MB text.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters make a JSON string invalid
const NO_CONTROL = /^[^\u0000-\u001f]*$/;

export const NOT_JSON: unique symbol = Symbol('not JSON');

/**
 * The frame parsed as JSON, or NOT_JSON. Never throws. `controlFree` says the caller knows the text
 * holds no control character (frames.ts scans the bytes faster than a regular expression scans text).
 */
export function parseFrame(text: string, controlFree = false): unknown {
  // Most log lines fail here, before any parse.
  if (!JSON_START.test(text)) return NOT_JSON;
  // A server's log lines are not JSON, and each failed parse builds a SyntaxError: capturing its stack
  // trace, which nobody reads, costs more than the parse.
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return text.length < LARGE_FRAME ? JSON.parse(text) : parseLarge(text, controlFree);
  } catch {
    return NOT_JSON;
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** Whether the string literal ending at `quote` (its closing quote) is escaped by a backslash run. */
function escaped(text: string, quote: number): boolean {
  let backslashes = 0;
  for (let i = quote - 1; i >= 0 && text.charCodeAt(i) === BACKSLASH; i--) backslashes++;
  return backslashes % 2 === 1;
}

/** Whether the literal ending at `close` is an object key (followed by `:`). */
function isKey(text: string, close: number): boolean {
  for (let i = close + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) continue;
    return c === 0x3a;
  }
  return false;
}

/**
 * JSON.parse(text), with long escape-free string values taken as slices of `text`. The text is walked
 * from quote to quote with indexOf (outside strings JSON has no quotes, so each quote opens a literal);
 * each long literal is swapped for a short placeholder, the much shorter text is parsed, and the
 * placeholders are swapped back. Swapping one valid literal for another keeps an invalid text invalid,
 * so errors are the same as JSON.parse's.
 */
function parseLarge(text: string, controlFree: boolean): unknown {
  const slices: string[] = [];
  let skeleton = '';
  let copied = 0;
  let nextBackslash = text.indexOf('\\');
  for (let open = text.indexOf('"'); open !== -1; ) {
    let close = text.indexOf('"', open + 1);
    while (close !== -1 && text.charCodeAt(close - 1) === BACKSLASH && escaped(text, close)) {
      close = text.indexOf('"', close + 1);
    }
    if (close === -1) break; // unterminated: JSON.parse will say so
    if (close - open - 1 >= LONG_STRING) {
      if (nextBackslash !== -1 && nextBackslash < open) nextBackslash = text.indexOf('\\', open);
      const value = text.slice(open + 1, close);
      const plain =
        (nextBackslash === -1 || nextBackslash > close) && (controlFree || NO_CONTROL.test(value));
      if (plain && !isKey(text, close)) {
        skeleton += `${text.slice(copied, open)}"\\u0000${PLACEHOLDER.slice(1)}${slices.length}"`;
        slices.push(value);
        copied = close + 1;
      }
    }
    open = text.indexOf('"', close + 1);
  }
  if (slices.length === 0) return JSON.parse(text);
  skeleton += text.slice(copied);
  return JSON.parse(skeleton, (_key, value: unknown) =>
    typeof value === 'string' && value.startsWith(PLACEHOLDER)
      ? slices[Number(value.slice(PLACEHOLDER.length))]
      : value,
  );
}
