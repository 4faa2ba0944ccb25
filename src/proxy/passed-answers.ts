/**
 * Which requests a message answers, read from its text as it passes through, for a message too long to
 * hold and judge (frames.ts, sse-split.ts). The proxy forwards such a message unjudged, but it must
 * still know that the request is answered: otherwise, when the server exits or its stream breaks off,
 * the proxy would send that request an error after the answer the client already has.
 *
 * The reader follows the text's structure in one pass and keeps only what it needs: the depth, whether
 * it is inside a string, and, for each message object (the top-level object, or each object of a
 * top-level batch array), its `id` and whether it has a `result` or `error` object and no `method`.
 * Long strings are crossed with one native search for their closing quote, so a message of base64
 * costs little more than its copy.
 *
 * What it does not do is validate the JSON: brackets must match down to the message objects (deeper
 * ones are only counted, so that a message nested millions deep costs no memory per level) and nothing
 * may come before or after the value, but a stray comma or a malformed number inside goes unnoticed. Such a message fails
 * the client's parse, and its request, counted here as answered, then waits for the client's own
 * timeout instead of getting the proxy's error.
 */

import {
  BACKSLASH,
  CLOSE_ARRAY,
  CLOSE_OBJECT,
  COLON,
  COMMA,
  OPEN_ARRAY,
  OPEN_OBJECT,
  QUOTE,
} from '../core/json-units.js';

const BYTE_ORDER_MARK = 0xfeff;
/** A UTF-8 byte order mark's bytes, which a Buffer piece shows one at a time. */
const MARK_BYTES = new Set([0xef, 0xbb, 0xbf]);

/**
 * The longest spelling of `id`, `result`, `error` or `method` in JSON: `method` as six `\uXXXX` escapes.
 * A longer key is none of them.
 */
export const KEY_LIMIT = 36;
/** An id written longer than this, quotes included, is not read: its request stays pending. */
export const ID_LIMIT = 1024;

function isSpace(unit: number): boolean {
  return unit === 0x20 || unit === 0x0a || unit === 0x0d || unit === 0x09;
}

/**
 * Collects a short stretch of text (a key, an id) from the pieces of one message, which are all strings
 * or all UTF-8 bytes. Past its limit it holds nothing more and has no text.
 */
class Capture {
  private readonly parts: (string | Buffer)[] = [];
  private length = 0;

  constructor(private readonly limit: number) {}

  add(piece: string | Buffer, from: number, to: number): void {
    this.length += to - from;
    // Copied: a slice of a long piece would hold all of it.
    if (this.length <= this.limit)
      this.parts.push(
        typeof piece === 'string' ? piece.slice(from, to) : Buffer.from(piece.subarray(from, to)),
      );
  }

  /** The text, its bytes decoded whole (a character's bytes may be split between two pieces). */
  text(): string | undefined {
    if (this.length > this.limit) return undefined;
    const [first] = this.parts;
    return typeof first === 'string' || first === undefined
      ? this.parts.join('')
      : Buffer.concat(this.parts as Buffer[]).toString('utf8');
  }
}

type MemberKey = 'id' | 'result' | 'error' | 'method' | 'other';

function memberKey(raw: string | undefined): MemberKey {
  if (raw === undefined) return 'other';
  let key = raw;
  if (raw.includes('\\')) {
    try {
      key = JSON.parse(`"${raw}"`) as string;
    } catch {
      return 'other';
    }
  }
  return key === 'id' || key === 'result' || key === 'error' || key === 'method' ? key : 'other';
}

/** What one message object has shown of itself so far. */
interface MessageSoFar {
  /** Where a member's key, its colon, its value, or the comma or brace after it is due. */
  expect: 'key' | 'colon' | 'value' | 'after';
  key: MemberKey;
  keyCapture: Capture | undefined;
  idCapture: Capture | undefined;
  /** The id's text, or false when the id is no number or string this reader takes. */
  id: string | false | undefined;
  /** Whether the last `result`, and the last `error`, is an object (duplicate keys: the last counts). */
  result: boolean;
  error: boolean;
  method: boolean;
}

function newMessage(): MessageSoFar {
  return {
    expect: 'key',
    key: 'other',
    keyCapture: undefined,
    idCapture: undefined,
    id: undefined,
    result: false,
    error: false,
    method: false,
  };
}

/** A piece's code unit at `i`: a character's, or a byte. */
function unitAt(piece: string | Buffer, i: number): number {
  return typeof piece === 'string' ? piece.charCodeAt(i) : (piece[i] as number);
}

/** `{` and `[` (0x7b, 0x5b) with the 0x20 bit set are 0x7b; `}` and `]` are 0x7d; nothing else is. */
const OPENING = OPEN_OBJECT;
const CLOSING = CLOSE_OBJECT;
const BRACKET_BIT = 0x20;

/**
 * Strings this short are searched for their closing quote by looking at each unit: a native search's
 * call costs more than that.
 */
const NEAR_QUOTE = 16;

export class AnswerReader {
  /** How many brackets are open. */
  private depth = 0;
  /**
   * Whether each open bracket down to the message objects is an object's, outermost first. Deeper ones
   * are only counted: a bracket closed with the other kind down there goes unnoticed (see the top).
   */
  private readonly kinds: boolean[] = [];
  /** The depth of message objects: 1, or 2 inside a top-level batch. */
  private messageDepth = 1;
  private started = false;
  private ended = false;
  private broken = false;
  private inString = false;
  /** The string's next character is escaped (a backslash ended the previous piece). */
  private escapePending = false;
  private message: MessageSoFar | undefined;
  private readonly found: unknown[] = [];

  /** The ids of the requests answered by the message, once it has ended well; none for a broken one. */
  answers(): unknown[] {
    return this.ended && !this.broken ? [...this.found] : [];
  }

  /** The next piece of the message: text, or UTF-8 bytes (structural characters are all ASCII). */
  feed(piece: string | Buffer): void {
    const length = piece.length;
    let i = 0;
    while (i < length && !this.broken) {
      if (this.inString) i = this.crossString(piece, i);
      else if (this.depth > this.messageDepth) i = this.skipDeep(piece, i);
      else {
        this.structural(piece, i, unitAt(piece, i));
        i++;
      }
    }
  }

  /**
   * Moves through what lies deeper than the message objects up to a string, or back up to them; only
   * brackets and quotes count there. Returns where reading goes on.
   */
  private skipDeep(piece: string | Buffer, from: number): number {
    const length = piece.length;
    let depth = this.depth;
    let i = from;
    for (; i < length; i++) {
      const unit = unitAt(piece, i);
      if ((unit | BRACKET_BIT) === OPENING) depth++;
      else if ((unit | BRACKET_BIT) === CLOSING) {
        if (--depth === this.messageDepth) break;
      } else if (unit === QUOTE) {
        this.inString = true;
        break;
      }
    }
    this.depth = depth;
    // Past the quote or bracket it stopped at, or at the end of the piece.
    return i < length ? i + 1 : length;
  }

  /** Where the next quote is in `piece` from `i`, or -1. */
  private quoteFrom(piece: string | Buffer, i: number): number {
    const near = Math.min(piece.length, i + NEAR_QUOTE);
    for (let j = i; j < near; j++) if (unitAt(piece, j) === QUOTE) return j;
    if (near === piece.length) return -1;
    return typeof piece === 'string' ? piece.indexOf('"', near) : piece.indexOf(QUOTE, near);
  }

  /** Moves through a string from `i`; returns where reading goes on. */
  private crossString(piece: string | Buffer, i: number): number {
    const capture = this.message?.keyCapture ?? this.message?.idCapture;
    const quote = this.quoteFrom(piece, i);
    const stop = quote === -1 ? piece.length : quote;
    // The backslashes right before `stop`: an odd run escapes it. The run may reach back into the
    // previous piece, whose last backslash left `escapePending`.
    let run = 0;
    let j = stop - 1;
    while (j >= i && unitAt(piece, j) === BACKSLASH) {
      run++;
      j--;
    }
    const escaped = (run + (j < i && this.escapePending ? 1 : 0)) % 2 === 1;
    if (quote === -1) {
      capture?.add(piece, i, stop);
      this.escapePending = escaped;
      return stop;
    }
    this.escapePending = false;
    if (escaped) {
      capture?.add(piece, i, quote + 1);
      return quote + 1;
    }
    this.inString = false;
    const message = this.message;
    if (message?.keyCapture) {
      message.keyCapture.add(piece, i, quote);
      message.key = memberKey(message.keyCapture.text());
      message.keyCapture = undefined;
      message.expect = 'colon';
    } else if (message?.idCapture) {
      // The id's string, quotes and all, for JSON.parse.
      message.idCapture.add(piece, i, quote + 1);
      message.id = message.idCapture.text() ?? false;
      message.idCapture = undefined;
    }
    return quote + 1;
  }

  /** One unit at the depth of the message objects or above. */
  private structural(piece: string | Buffer, i: number, unit: number): void {
    if (this.ended) {
      if (!isSpace(unit)) this.broken = true;
      return;
    }
    if (!this.started) {
      if (unit === OPEN_OBJECT || unit === OPEN_ARRAY) {
        this.started = true;
        this.depth = 1;
        this.kinds.push(unit === OPEN_OBJECT);
        if (unit === OPEN_OBJECT) this.message = newMessage();
        else this.messageDepth = 2;
      } else if (
        !isSpace(unit) &&
        unit !== BYTE_ORDER_MARK &&
        !(typeof piece !== 'string' && MARK_BYTES.has(unit))
      )
        this.broken = true;
      return;
    }
    const depth = this.depth;
    const message = depth === this.messageDepth ? this.message : undefined;
    if (message?.idCapture && (unit === COMMA || unit === CLOSE_OBJECT || isSpace(unit))) {
      // The end of a number (or of a literal, which no id is).
      message.id = message.idCapture.text() ?? false;
      message.idCapture = undefined;
    }
    switch (unit) {
      case QUOTE:
        this.inString = true;
        if (message?.expect === 'key') message.keyCapture = new Capture(KEY_LIMIT);
        else if (message?.expect === 'value') this.beginValue(message, unit, piece, i);
        return;
      case OPEN_OBJECT:
      case OPEN_ARRAY:
        if (message?.expect === 'value') this.beginValue(message, unit, piece, i);
        this.depth++;
        if (depth < this.messageDepth) {
          this.kinds.push(unit === OPEN_OBJECT);
          if (unit === OPEN_OBJECT) this.message = newMessage();
        }
        return;
      case CLOSE_OBJECT:
      case CLOSE_ARRAY: {
        if (this.kinds.pop() !== (unit === CLOSE_OBJECT)) {
          this.broken = true;
          return;
        }
        this.depth--;
        if (message) this.endMessage(message);
        if (this.depth === 0) this.ended = true;
        return;
      }
      case COLON:
        if (message?.expect === 'colon') message.expect = 'value';
        return;
      case COMMA:
        if (message) message.expect = 'key';
        return;
      default:
        if (message?.expect === 'value' && !isSpace(unit)) this.beginValue(message, unit, piece, i);
        else if (message?.idCapture) message.idCapture.add(piece, i, i + 1);
    }
  }

  private beginValue(message: MessageSoFar, unit: number, piece: string | Buffer, i: number): void {
    message.expect = 'after';
    switch (message.key) {
      case 'id':
        message.id = undefined;
        if (unit === OPEN_OBJECT || unit === OPEN_ARRAY) message.id = false;
        else {
          message.idCapture = new Capture(ID_LIMIT);
          message.idCapture.add(piece, i, i + 1);
        }
        return;
      case 'result':
      case 'error':
        // Only an object is an answer the SDK client takes.
        message[message.key] = unit === OPEN_OBJECT;
        return;
      case 'method':
        message.method = true;
        return;
      default:
        return;
    }
  }

  private endMessage(message: MessageSoFar): void {
    this.message = undefined;
    if (!(message.result || message.error) || message.method || typeof message.id !== 'string') return;
    let id: unknown;
    try {
      id = JSON.parse(message.id);
    } catch {
      return;
    }
    if (typeof id === 'string' || typeof id === 'number') this.found.push(id);
  }
}

/**
 * Reads the data of an SSE event passed on unjudged (its lines' `data:` values) into an AnswerReader.
 * The event may come in any number of pieces.
 *
 * It takes three liberties, none of which changes what a message that parses says: a CRLF is taken as
 * two line ends (the empty line between them has no field, and the splitter leaves no blank line inside
 * an event); the space after `data:` is kept; and the data lines are not joined by the line feeds
 * eventsource-parser puts between them. In JSON that parses, a data line can only start or end between
 * two tokens, where one of them is punctuation, so that whitespace changes nothing.
 */
export class EventAnswerReader {
  private readonly reader = new AnswerReader();
  /** Where the current line is: its field name so far, in a data value, or in a line to skip. */
  private line: 'name' | 'data' | 'skip' = 'name';
  /** The field name's first characters: five tell `data` from any other name. */
  private name = '';

  feed(piece: string): void {
    let i = 0;
    let lineFeed = piece.indexOf('\n');
    let carriageReturn = piece.indexOf('\r');
    while (i < piece.length) {
      // Each terminator's next position is kept: searching for both at every line would be quadratic.
      if (lineFeed !== -1 && lineFeed < i) lineFeed = piece.indexOf('\n', i);
      if (carriageReturn !== -1 && carriageReturn < i) carriageReturn = piece.indexOf('\r', i);
      const end =
        lineFeed === -1
          ? carriageReturn
          : carriageReturn === -1
            ? lineFeed
            : Math.min(lineFeed, carriageReturn);
      this.lineText(piece.slice(i, end === -1 ? piece.length : end));
      if (end === -1) return;
      this.line = 'name';
      this.name = '';
      i = end + 1;
    }
  }

  private lineText(text: string): void {
    let rest = text;
    if (this.line === 'name') {
      const colon = rest.indexOf(':');
      this.name = (this.name + rest.slice(0, colon === -1 ? 5 : Math.min(colon, 5))).slice(0, 5);
      if (colon === -1) return;
      if (this.name !== 'data') {
        this.line = 'skip';
        return;
      }
      this.line = 'data';
      rest = rest.slice(colon + 1);
    }
    if (this.line === 'data' && rest !== '') this.reader.feed(rest);
  }

  /** Call at the end of the event. */
  answers(): unknown[] {
    return this.reader.answers();
  }
}
