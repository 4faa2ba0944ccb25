/** Exit codes and the error type for a user's mistake (printed as one line, no stack trace). */

export const EXIT = {
  /** No error-severity finding. */
  clean: 0,
  /** At least one error-severity finding. */
  findings: 1,
  /** Bad usage or unreadable input. */
  usage: 2,
  /** The server could not be started or reached (audit). */
  unreachable: 3,
} as const;

export class UserError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.usage,
  ) {
    super(message);
    this.name = 'UserError';
  }
}
