/**
 * Exit codes, and the errors a user's mistake raises. Each is printed as exactly one line on stderr,
 * `mcp-shape: …`, with no stack trace; a mistake in the command line also points at `--help`.
 */

import { terminalSafe } from '../report/terminal.js';

export const EXIT = {
  /** No error-severity finding. */
  clean: 0,
  /** At least one error-severity finding. */
  findings: 1,
  /** Bad usage or unreadable input. */
  usage: 2,
  /** The server could not be started or reached (audit, proxy). */
  unreachable: 3,
} as const;

/**
 * Input that cannot be used (an unreadable file, a document that is not JSON), or an unreachable server.
 * `detail`: lines that explain the one line (a failed server's last stderr lines), printed indented
 * under it.
 */
export class UserError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.usage,
    readonly detail: readonly string[] = [],
  ) {
    super(message);
    this.name = 'UserError';
  }
}

/** A mistake in the command line itself: options that do not go together, a malformed value. */
export class UsageError extends UserError {
  constructor(message: string) {
    super(message, EXIT.usage);
    this.name = 'UsageError';
  }
}

/**
 * The one line for an error: `mcp-shape: ` and the message on one line (line breaks folded, control
 * characters from file names or server output shown escaped), then `(see mcp-shape check --help)` when
 * `helpFor` names the command whose usage was wrong.
 */
export function errorLine(message: string, helpFor?: string): string {
  const text = terminalSafe(
    message
      .split(/\r?\n/)
      .map((part) => part.trim())
      .filter((part) => part !== '')
      .join(' '),
  );
  return `mcp-shape: ${text}${helpFor ? ` (see ${helpFor} --help)` : ''}\n`;
}

/**
 * The lines under an error's one line, each indented and terminal-safe (they are usually a server's
 * words), cut at 400 characters.
 */
export function detailLines(detail: readonly string[]): string {
  return detail
    .map((line) => `  ${terminalSafe(line.replace(/[\r\n]+/g, ' ').replace(/\t/g, ' ')).slice(0, 400)}\n`)
    .join('');
}
