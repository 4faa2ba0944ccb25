/** The TS/JS front end: parse with oxc-parser (ESTree, as ESLint sees it) and extract handlers. */

import { parseSync } from 'oxc-parser';
import type { Extracted } from '../analyze.js';
import { extractJs } from './extract.js';

export { extractJs };

export class JsParseError extends Error {}

/** Parses TS/JS source; `lang` follows the file extension (`.ts`, `.tsx`, `.mts`, `.js`, …). */
export function extractJsSource(file: string, source: string): Extracted<number> {
  const parsed = parseSync(file, source, { preserveParens: false });
  const fatal = parsed.errors.find((e) => e.severity === 'Error');
  if (fatal && parsed.program.body.length === 0) throw new JsParseError(fatal.message);
  return extractJs(parsed.program, source);
}
