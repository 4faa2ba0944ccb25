/**
 * Request ids as they were written. JSON.parse reads `1e400` as Infinity, which JSON.stringify writes
 * `null`, and `12345678901234567890` as a double that is written with other digits: an answer the proxy
 * writes itself (an error for a request the server left unanswered) or a log line built from the parsed
 * id would name another request than the client's. For such numbers the id's own text is read from the
 * frame; every other id is written as it parsed, which gives its text back.
 */

import { isObject } from '../core/json.js';
import { BACKSLASH } from '../core/json-units.js';

/** Whether JSON.stringify would not give a number id back as it was written. */
export function needsOwnText(id: unknown): boolean {
  return typeof id === 'number' && !Number.isSafeInteger(id);
}

/** The index just past the string literal that opens at `open`. */
export function stringEnd(text: string, open: number): number {
  let close = text.indexOf('"', open + 1);
  for (;;) {
    if (close === -1) return text.length;
    let backslashes = 0;
    for (let i = close - 1; text.charCodeAt(i) === BACKSLASH; i--) backslashes++;
    if (backslashes % 2 === 0) return close + 1;
    close = text.indexOf('"', close + 1);
  }
}

/** JSON's whitespace. */
const SPACE = /[ \t\n\r]/;

function skipSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && SPACE.test(text.charAt(i))) i++;
  return i;
}

/** A number token's characters. */
const NUMBER_UNIT = /[-+.0-9eE]/;

/**
 * The text of each message's `id` when it is a number, by the message's place: [0] for a message object,
 * the element's index for a batch. Reads JSON that parsed: the depth and strings only, one pass, no
 * stack, so a frame nested a million deep costs no more than a flat one.
 */
export function numberIdTexts(text: string): Map<number, string> {
  const found = new Map<number, string>();
  let depth = 0;
  let messageDepth = 1;
  let element = 0;
  for (let i = 0; i < text.length; ) {
    const char = text.charAt(i);
    if (char === '"') {
      const end = stringEnd(text, i);
      const after = skipSpace(text, end);
      if (depth === messageDepth && text.charAt(after) === ':' && isIdKey(text.slice(i, end))) {
        const start = skipSpace(text, after + 1);
        let stop = start;
        while (stop < text.length && NUMBER_UNIT.test(text.charAt(stop))) stop++;
        // The last member of a name wins, as in JSON.parse.
        if (stop > start) found.set(element, text.slice(start, stop));
        else found.delete(element);
        i = stop;
      } else i = end;
      continue;
    }
    if (char === '{' || char === '[') {
      if (depth === 0 && char === '[') messageDepth = 2;
      depth++;
    } else if (char === '}' || char === ']') depth--;
    else if (char === ',' && depth === 1 && messageDepth === 2) element++;
    i++;
  }
  return found;
}

function isIdKey(literal: string): boolean {
  if (literal === '"id"') return true;
  // Escaped spellings (`"\u0069d"`) are still the key `id`.
  if (!literal.includes('\\') || literal.length > 20) return false;
  try {
    return JSON.parse(literal) === 'id';
  } catch {
    return false;
  }
}

/**
 * The JSON text of the id of each message in a frame (`parsed` is the frame parsed), by the message's
 * place as numberIdTexts counts them; undefined for a message without an id.
 */
export function idTexts(text: string, parsed: unknown): (string | undefined)[] {
  const items = Array.isArray(parsed) ? parsed : [parsed];
  let own: Map<number, string> | undefined;
  return items.map((item, place) => {
    if (!isObject(item) || !Object.hasOwn(item, 'id')) return undefined;
    if (needsOwnText(item.id)) {
      own ??= numberIdTexts(text);
      const written = own.get(place);
      if (written !== undefined) return written;
    }
    return JSON.stringify(item.id) ?? 'null';
  });
}
