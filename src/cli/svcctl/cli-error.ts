/** A failure svcctl reports on stderr, with the process exit code that tells its kind. */

export const EXIT_FAILURE = 1;
/** bad arguments or settings */
export const EXIT_USAGE = 2;
/** the service could not be reached */
export const EXIT_UNREACHABLE = 3;
/** the service refused the credential (401) or the permission (403) */
export const EXIT_DENIED = 4;
/** the record exists already or is in use (409) */
export const EXIT_CONFLICT = 5;

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT_FAILURE,
  ) {
    super(message);
  }
}
