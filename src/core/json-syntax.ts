/**
 * Reading JSON that JSON.parse refused (or JSON with comments) with jsonc-parser, which locates the first
 * syntax error as JSON.parse on Node 20 does not. Its parser recurses once per level of nesting, so a few
 * thousand unclosed brackets overflowed the stack and the CLI printed a stack trace; its scanner does not
 * recurse, so it is run first, and text nested deeper than MAX_NESTING never reaches the parser.
 */

import { createScanner, type ParseError, parse, printParseErrorCode, SyntaxKind } from 'jsonc-parser';

/** Far deeper than any document a person writes, far shallower than what overflows the parser's stack. */
export const MAX_NESTING = 1000;

export interface JsonSyntaxError {
  readonly message: string;
  /** 1-based. */
  readonly line: number;
  /** 1-based, in UTF-16 units. */
  readonly column: number;
}

export interface JsoncReading {
  readonly value: unknown;
  /** The first syntax error, if any; then `value` is what could be read around it. */
  readonly error: JsonSyntaxError | undefined;
}

/** Parses `text` with jsonc-parser, safely at any depth. */
export function readJsonc(
  text: string,
  options: { readonly allowComments: boolean; readonly allowTrailingComma: boolean },
): JsoncReading {
  const deep = offsetPastNesting(text, MAX_NESTING);
  if (deep !== undefined) {
    return {
      value: undefined,
      error: at(text, deep, `nested more than ${MAX_NESTING} levels deep, where mcp-shape stops reading`),
    };
  }
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, {
    disallowComments: !options.allowComments,
    allowTrailingComma: options.allowTrailingComma,
    allowEmptyContent: false,
  });
  const first = errors[0];
  if (first === undefined) return { value, error: undefined };
  const reason = printParseErrorCode(first.error)
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return { value, error: at(text, first.offset, reason) };
}

/** The offset of the bracket that first opens a level deeper than `limit`; `undefined` if none does. */
function offsetPastNesting(text: string, limit: number): number | undefined {
  const scanner = createScanner(text, true);
  let depth = 0;
  for (let kind = scanner.scan(); kind !== SyntaxKind.EOF; kind = scanner.scan()) {
    if (kind === SyntaxKind.OpenBraceToken || kind === SyntaxKind.OpenBracketToken) {
      depth++;
      if (depth > limit) return scanner.getTokenOffset();
    } else if ((kind === SyntaxKind.CloseBraceToken || kind === SyntaxKind.CloseBracketToken) && depth > 0) {
      depth--;
    }
  }
  return undefined;
}

function at(text: string, offset: number, message: string): JsonSyntaxError {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { message, line, column: offset - before.lastIndexOf('\n') };
}
