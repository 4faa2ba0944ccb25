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

/** Maps UTF-16 offsets to 1-based line and column numbers. */
export class LineMap {
  private readonly starts: number[] = [0];

  constructor(source: string) {
    for (let i = source.indexOf('\n'); i !== -1; i = source.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  get lineCount(): number {
    return this.starts.length;
  }

  /** The text of a 1-based line, without its line break. */
  lineText(source: string, line: number): string {
    const start = this.starts[line - 1];
    if (start === undefined) return '';
    const next = this.starts[line];
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
