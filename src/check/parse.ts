/**
 * Parses `check` input: one JSON document, or a session of one frame per line (JSONL). Pure: the CLI
 * reads the bytes.
 *
 * A session is read as it really is: the recordings `audit --record` and `proxy --record` write
 * (src/core/recording.ts), or plain NDJSON captured with `tee`, with whatever else the server wrote on
 * stdout (a start-up banner, a blank line, a line cut short). Every line is kept, JSON or not, so the
 * session checker can report the ones that are not messages where they are; only a single document that
 * is not JSON is an input error.
 */

import { tryParseJson } from '../core/json.js';
import { type JsonSyntaxError, readJsonc } from '../core/json-syntax.js';
import { isRecordedFrame } from '../core/recording.js';

/** One line of a session: its text, and its value when the text is JSON. */
export interface SessionLine {
  /** 1-based line number in the input. */
  readonly line: number;
  /** The line without its line break. */
  readonly text: string;
  /** Whether `text` parsed as JSON (then `value` holds it). */
  readonly json: boolean;
  readonly value?: unknown;
}

export type ParsedInput =
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'jsonl'; readonly lines: readonly SessionLine[] };

export class InputError extends Error {
  constructor(
    message: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(message);
    this.name = 'InputError';
  }
}

export interface ParseOptions {
  /** The input is a session whatever its lines hold (a `.jsonl` or `.ndjson` file). */
  readonly session?: boolean;
}

/** File names that say "one message per line". */
export function isSessionFileName(name: string): boolean {
  return /\.(jsonl|ndjson)$/i.test(name);
}

/**
 * JSON.parse on Node 20 does not say where the error is, so on failure the text is read again with
 * jsonc-parser (VS Code's parser) in strict mode only to locate the first error (core/json-syntax.ts).
 */
function locateError(text: string): JsonSyntaxError {
  return (
    readJsonc(text, { allowComments: false, allowTrailingComma: false }).error ?? {
      message: 'invalid JSON',
      line: 1,
      column: 1,
    }
  );
}

/**
 * A browser's HAR capture holds the HTTP exchanges, not the messages: judged as one document it read as
 * a tool result without content, a verdict about nothing the server sent.
 */
function isHar(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const log = (value as { log?: unknown }).log;
  return typeof log === 'object' && log !== null && Array.isArray((log as { entries?: unknown }).entries);
}

const HAR_WORDS =
  'a HAR capture (log.entries), which check does not read: give it the messages themselves, one JSON document or a JSONL session (audit --record and proxy --record write one)';

export function parseInput(text: string, options: ParseOptions = {}): ParsedInput {
  const marked = text.startsWith('\uFEFF');
  const content = marked ? text.slice(1) : text;
  if (content.trim() === '') throw new InputError('input is empty');
  if (!options.session) {
    let value: unknown;
    try {
      value = JSON.parse(content);
    } catch {
      // Not one JSON document: a session, or a mistake to locate.
    }
    if (value !== undefined) {
      if (isHar(value)) throw new InputError(HAR_WORDS);
      return { kind: 'json', value };
    }
  }
  const lines = sessionLines(content);
  // One line that is a JSON-RPC message or a recorded frame makes it a session. A pretty-printed
  // document with a syntax error has none: its lines are fragments.
  if (options.session || lines.some(isSessionEntry)) {
    return { kind: 'jsonl', lines: marked ? withLeadingMark(lines) : lines };
  }
  const where = locateError(content);
  throw new InputError(
    `invalid JSON at line ${where.line}, column ${where.column}: ${where.message}`,
    where.line,
    where.column,
  );
}

function sessionLines(content: string): SessionLine[] {
  const raw = content.split('\n');
  // The line break after the last line ends it; it does not start an empty one.
  if (raw[raw.length - 1] === '') raw.pop();
  return raw.map((line, i) => {
    const text = line.endsWith('\r') ? line.slice(0, -1) : line;
    const parsed = tryParseJson(text);
    return parsed
      ? { line: i + 1, text, json: true, value: parsed.value }
      : { line: i + 1, text, json: false };
  });
}

/**
 * A byte order mark before a session: a capture of a server's stdout (a `tee`) keeps it on its first
 * line, where the server wrote it and where a client's JSON.parse rejects it; a recording's lines are
 * mcp-shape's own, so a mark before one is an editor's and is dropped, as it is before a document.
 */
function withLeadingMark(lines: SessionLine[]): SessionLine[] {
  const [first, ...rest] = lines;
  if (!first || (first.json && isRecordedFrame(first.value))) return lines;
  return [{ line: first.line, text: `\uFEFF${first.text}`, json: false }, ...rest];
}

function isSessionEntry(line: SessionLine): boolean {
  const value = line.value;
  if (!line.json || typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.hasOwn(value, 'jsonrpc') || isRecordedFrame(value);
}
