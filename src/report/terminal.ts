/**
 * Untrusted text on its way to a terminal or a plain-text file. Server names, tool names, block types,
 * error messages and file contents are the server's (or the file's) words: an escape sequence among
 * them could set the window title, write the clipboard (OSC 52), clear the screen, or hide a finding
 * behind a carriage return. Every text, Markdown and JUnit reporter and the progress line pass such
 * strings through `terminalSafe` (or `oneLine`), so the bytes that reach the user are only ours.
 */

/**
 * C0 controls except tab and newline, DEL, C1 controls, and the Unicode format characters that
 * reorder or hide text (bidirectional overrides and isolates, line and paragraph separators: the
 * "Trojan Source" set). ESC is among the C0 controls, so no escape sequence survives: its first
 * byte is shown as `\x1b` and the rest is inert text.
 */
const UNSAFE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function escapeCharacter(char: string): string {
  const code = char.charCodeAt(0);
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** `text` with every control character except `\n` and `\t` shown as `\xNN` (or `\uNNNN`). */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, escapeCharacter);
}

/**
 * A name quoted inside a line of ours (a tool's, a file's): terminalSafe, and its line breaks and tabs
 * shown as `\n`, `\r` and `\t`. A newline in a tool name printed as it is would start a line of the
 * server's choosing in the report: a forged "PASS", or raw HTML in Markdown, where a line at column 0
 * ends the list item and its code block.
 */
export function inlineSafe(text: string): string {
  return terminalSafe(text).replace(/[\n\t]/g, (char) => (char === '\n' ? '\\n' : '\\t'));
}

/**
 * The longest run of `char` in `text`: for a Markdown fence longer than any run inside. A loop, not
 * Math.max(...runs): a server's text of 150,000 backtick runs overflowed the call stack as arguments.
 */
export function longestRun(text: string, char: string): number {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === char) {
      run++;
      if (run > longest) longest = run;
    } else run = 0;
  }
  return longest;
}

export interface OneLineOptions {
  /** Longest result in characters, before the `(N more lines)` note; default 160. */
  readonly width?: number;
}

/**
 * A value for one line of a report: terminal-safe, its first line only, cut at `width` characters
 * with `…`, and `(N more lines)` when it had more. Full values stay in the JSON report.
 */
export function oneLine(text: string, options: OneLineOptions = {}): string {
  const width = Math.max(8, options.width ?? 160);
  // Blank lines carry nothing: the first line shown is the first that says something, and only lines
  // that say something are counted after it.
  const lines = text.split(/\r\n?|\n/).filter((line) => line.trim() !== '');
  const first = terminalSafe((lines[0] ?? '').replace(/\t/g, ' ').trimEnd());
  const rest = Math.max(0, lines.length - 1);
  const cut = first.length > width ? `${withoutDanglingSurrogate(first.slice(0, width - 1))}…` : first;
  return rest > 0 ? `${cut} (${rest} more line${rest === 1 ? '' : 's'})` : cut;
}

/** A cut may fall inside a surrogate pair; a lone high surrogate would print as a replacement glyph. */
function withoutDanglingSurrogate(text: string): string {
  const last = text.charCodeAt(text.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? text.slice(0, -1) : text;
}

/**
 * Characters JSON.stringify leaves raw that a terminal still obeys: DEL, C1 controls (U+009B is a
 * CSI introducer in UTF-8 terminals) and the reordering format characters. C0 controls are escaped
 * by JSON.stringify already.
 */
const JSON_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * JSON text with the characters a terminal would act on written as `\uXXXX` escapes: the same JSON
 * value, safe to `cat`. For the JSON and SARIF reports and JSON quoted in Markdown or HTML.
 */
export function jsonTerminalSafe(json: string): string {
  return json.replace(JSON_UNSAFE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
