/** The TS/JS front end: parse with oxc-parser (ESTree, as ESLint sees it) and extract handlers. */

import { parseSync } from 'oxc-parser';
import type { Extracted } from '../analyze.js';
import { SyntaxErrorInSource } from '../source.js';
import { extractJs } from './extract.js';

export { extractJs };

/**
 * Parses TS/JS source; the dialect follows the file extension (`.ts`, `.tsx`, `.mts`, `.js`, …).
 * oxc recovers from some errors and keeps the program; when it cannot, the body is empty and the file
 * is reported as unparsable rather than scanned as if it had no handlers.
 */
export function extractJsSource(file: string, source: string): Extracted<number> {
  const parsed = parseSync(file, source, { preserveParens: false });
  const fatal = parsed.errors.find((e) => e.severity === 'Error');
  if (fatal && parsed.program.body.length === 0) {
    throw new SyntaxErrorInSource(fatal.message, fatal.labels[0]?.start ?? 0);
  }
  return extractJs(parsed.program, source);
}
