/** A bad command line: printed as one line, exit code 2. */
export class CliError extends Error {
  override name = 'CliError';
}
