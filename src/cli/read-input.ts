/** Reads a file argument or standard input, turning I/O failures into one-line user errors. */

import {
  InputError,
  isSessionFileName,
  type ParsedInput,
  parseInput,
  toolsFromDocument,
} from '../check/index.js';
import type { JsonObject } from '../core/json.js';
import { systemErrorWords } from '../core/system-error.js';
import { readBytesFile, readBytesStream } from '../io/read-text.js';
import { invalidUtf8Lines } from '../io/utf8.js';
import type { InvalidUtf8 } from '../rules/types.js';
import { UsageError, UserError } from './errors.js';

export interface TextInput {
  readonly text: string;
  readonly label: string;
  /** The first bad byte of each line whose bytes are not UTF-8, by line (the text holds U+FFFD there). */
  readonly invalidUtf8: ReadonlyMap<number, InvalidUtf8>;
}

export async function readTextInput(file: string | undefined): Promise<TextInput> {
  const read = (bytes: Buffer, label: string): TextInput => ({
    text: bytes.toString('utf8'),
    label,
    invalidUtf8: new Map(invalidUtf8Lines(bytes).map(({ line, ...at }) => [line, at])),
  });
  if (file === undefined || file === '-') {
    if (process.stdin.isTTY) throw new UsageError('no input: give a FILE, or pipe JSON to standard input');
    try {
      return read(await readBytesStream(process.stdin), '<stdin>');
    } catch (error) {
      throw new UserError(`${systemErrorWords(error)}: <stdin>`);
    }
  }
  try {
    return read(readBytesFile(file), file);
  } catch (error) {
    throw new UserError(`${systemErrorWords(error)}: ${file}`);
  }
}

/**
 * Parses JSON or JSONL input (a `.jsonl` or `.ndjson` file is always a session), turning a syntax error
 * in a single document into a one-line user error with its position.
 */
export function parseOrFail(text: string, label: string): ParsedInput {
  try {
    return parseInput(text, { session: isSessionFileName(label) });
  } catch (error) {
    if (error instanceof InputError) throw new UserError(`${label}: ${error.message}`);
    throw error;
  }
}

/** Tool definitions by name from a `--tools` file (a tools/list result or response). */
export async function loadTools(file: string): Promise<Map<string, JsonObject>> {
  const { text, label } = await readTextInput(file);
  const parsed = parseOrFail(text, label);
  const tools = parsed.kind === 'json' ? toolsFromDocument(parsed.value) : undefined;
  if (!tools)
    throw new UserError(
      `${label}: expected a tools/list result or response (an object with a "tools" array)`,
    );
  return tools;
}

/**
 * Why no tool can be assumed for a single saved result, if none was named: a result does not say which
 * tool returned it, and with several listed, one of them with an outputSchema, checking it with no tool
 * would skip that schema (a pass nobody proved) and picking one could apply the wrong schema.
 */
export function ambiguousTool(tools: ReadonlyMap<string, JsonObject>, file: string): string | undefined {
  if (tools.size < 2) return undefined;
  const withSchema = [...tools.values()].filter((t) => t.outputSchema !== undefined);
  if (withSchema.length === 0) return undefined;
  const names = [...tools.keys()];
  const shown = names.length > 10 ? `${names.slice(0, 10).join(', ')}, …` : names.join(', ');
  return `${file} lists ${tools.size} tools, ${withSchema.length} with an outputSchema: name the one this result is from with --tool NAME (${shown})`;
}
