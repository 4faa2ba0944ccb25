/**
 * Parses `check` input: one JSON document, or JSONL (one JSON-RPC message per line). Pure: the CLI
 * reads the bytes.
 */

import { type ParseError, parse as parseJsonc, printParseErrorCode } from 'jsonc-parser';

export type ParsedInput =
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'jsonl'; readonly lines: readonly { readonly line: number; readonly value: unknown }[] };

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

/**
 * JSON.parse on Node 20 does not say where the error is, so on failure we re-parse with jsonc-parser
 * (VS Code's parser) in strict mode only to locate the first error as a line and column.
 */
function locateError(text: string): { message: string; line: number; column: number } {
  const errors: ParseError[] = [];
  parseJsonc(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  const offset = first?.offset ?? 0;
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  const reason = first
    ? printParseErrorCode(first.error)
        .replace(/([a-z])([A-Z])/g, '$1 $2')
        .toLowerCase()
    : 'invalid JSON';
  return { message: reason, line, column };
}

export function parseInput(text: string): ParsedInput {
  const trimmed = text.replace(/^\uFEFF/, '');
  if (trimmed.trim() === '') throw new InputError('input is empty');
  try {
    return { kind: 'json', value: JSON.parse(trimmed) };
  } catch {
    // Not one JSON document: JSONL, or a mistake to locate.
  }
  const rawLines = trimmed.split(/\r?\n/);
  const nonEmpty = rawLines.filter((l) => l.trim() !== '');
  if (nonEmpty.length > 1 && isJson(nonEmpty[0] ?? '')) {
    const lines: { line: number; value: unknown }[] = [];
    rawLines.forEach((raw, i) => {
      if (raw.trim() === '') return;
      try {
        lines.push({ line: i + 1, value: JSON.parse(raw) });
      } catch {
        const where = locateError(raw);
        throw new InputError(
          `invalid JSON at line ${i + 1}, column ${where.column}: ${where.message}`,
          i + 1,
          where.column,
        );
      }
    });
    return { kind: 'jsonl', lines };
  }
  const where = locateError(trimmed);
  throw new InputError(
    `invalid JSON at line ${where.line}, column ${where.column}: ${where.message}`,
    where.line,
    where.column,
  );
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
