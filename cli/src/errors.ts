/** Exit codes of cli/README.md: 0 success, 1 failure, 2 usage error, 4 sign-in needed. */
export const EXIT = { ok: 0, failure: 1, usage: 2, signIn: 4 } as const;

/** A failure to tell the person in one or two lines, with the exit code it ends the run with. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failure,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export const usageError = (message: string) => new CliError(message, EXIT.usage);

export const signInNeeded = (message: string) => new CliError(message, EXIT.signIn);
