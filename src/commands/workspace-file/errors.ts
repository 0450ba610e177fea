// The exits of diff and apply that are not failures of one request.
import { CliError, ExitCode, exitCodeFor, OutcomeExit, RecodedError } from '../../cli/errors.js';

/** `wsm diff` found changes: exit 2, Terraform's `-detailed-exitcode` (the plan is on stdout). */
export class ChangesPlannedError extends OutcomeExit {
  override name = 'ChangesPlannedError';
  constructor(message: string) {
    super(message, ExitCode.usage);
  }
}

/**
 * `wsm diff` exits 2 for "changes planned", so a failure that exits 2 elsewhere (a bad flag, a
 * missing or invalid file) exits 1 there, as in Terraform: `wsm diff -f f.yaml || [ $? -eq 2 ]`
 * then fails the CI job on a broken file. Every other code (3 auth, 6 server, ...) is kept.
 */
export function asDiffFailure(err: unknown): unknown {
  if (err instanceof OutcomeExit || exitCodeFor(err) !== ExitCode.usage) return err;
  return new RecodedError(err, ExitCode.failure);
}

/** `wsm apply` could not make every change: exits with the code of the first failure. */
export class ApplyIncompleteError extends CliError {
  override name = 'ApplyIncompleteError';
}
