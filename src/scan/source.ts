/** Source text helpers shared by the language front ends. */

/**
 * Files that mention none of these cannot register an MCP tool or build an MCP message, so the
 * scanner skips them before parsing (most of a repository, and most of node_modules).
 */
const MCP_MARKERS =
  /@modelcontextprotocol\/|fastmcp|mcpserver|calltoolrequestschema|tools\/call|\bjsonrpc\b|from mcp\b|import mcp\b|call_tool/i;

export function mentionsMcp(source: string): boolean {
  return MCP_MARKERS.test(source);
}

/**
 * Line breaks as each language counts lines: JavaScript (and so ESLint and editors) ends a line at
 * CR LF, LF, a lone CR, U+2028 and U+2029; Python at CR LF, LF and a lone CR.
 */
const JS_BREAKS = /\r\n?|[\n\u2028\u2029]/g;
const PYTHON_BREAKS = /\r\n?|\n/g;

/**
 * PEP 263: a Python file may name its encoding in a comment on its first or second line
 * (`# -*- coding: latin-1 -*-`); the interpreter decodes it so, and it is decoded so here.
 */
const PYTHON_CODING = /^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)/;

/**
 * The text of a source file: UTF-8, or for Python the encoding its coding declaration names (when the
 * WHATWG encodings know it; Latin-1 is read as windows-1252, as a browser reads it, which differs only
 * in the C1 controls). A file that names no encoding, or one not known here, is read as UTF-8.
 */
export function decodeSource(bytes: Buffer, path: string): string {
  if (/\.pyi?$/i.test(path)) {
    const head = bytes
      .subarray(0, 512)
      .toString('latin1')
      .split(/\r\n?|\n/, 2);
    const declared = head.map((line) => PYTHON_CODING.exec(line)?.[1]).find((name) => name !== undefined);
    if (declared !== undefined && !/^utf[-_]?8/i.test(declared)) {
      try {
        return new TextDecoder(whatwgLabel(declared)).decode(bytes);
      } catch {
        // Not an encoding TextDecoder knows: read as UTF-8, which Python's default is.
      }
    }
  }
  return bytes.toString('utf8');
}

/**
 * The WHATWG label of a Python codec name: Python writes `latin-1`, `iso8859_15` or `cp1252` where
 * TextDecoder knows `latin1`, `iso-8859-15` and `windows-1252`.
 */
function whatwgLabel(codec: string): string {
  const name = codec.toLowerCase().replace(/_/g, '-');
  if (/^(latin-?1|l1|iso-?8859-1|8859|cp819)$/.test(name)) return 'latin1';
  const iso = /^iso-?8859-(\d+)$/.exec(name);
  if (iso) return `iso-8859-${iso[1]}`;
  const windows = /^(?:cp|windows-)(125\d)$/.exec(name);
  return windows ? `windows-${windows[1]}` : name;
}

/** Maps UTF-16 offsets to 1-based line and column numbers. */
export class LineMap {
  private readonly starts: number[] = [0];

  constructor(source: string, language: 'js' | 'python' = 'js') {
    // Most files break lines with LF alone (or CR LF): found by indexOf, several times faster than the
    // regular expression that the rest need.
    const onlyLf = source.indexOf('\r') === -1 && (language === 'python' || !/[\u2028\u2029]/.test(source));
    if (onlyLf) {
      for (let i = source.indexOf('\n'); i !== -1; i = source.indexOf('\n', i + 1)) this.starts.push(i + 1);
      return;
    }
    for (const match of source.matchAll(language === 'python' ? PYTHON_BREAKS : JS_BREAKS)) {
      this.starts.push(match.index + match[0].length);
    }
  }

  get lineCount(): number {
    return this.starts.length;
  }

  /** The text of a 1-based line, without its line break. */
  lineText(source: string, line: number): string {
    const start = this.starts[line - 1];
    if (start === undefined) return '';
    const next = this.starts[line];
    // One character of break before the next line, and a CR before an LF.
    return source.slice(start, next === undefined ? source.length : next - 1).replace(/\r$/, '');
  }

  position(offset: number): { line: number; column: number } {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - (this.starts[lo] ?? 0) + 1 };
  }
}

/** Source a front end cannot parse; `offset` is where the first syntax error is. */
export class SyntaxErrorInSource extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}
