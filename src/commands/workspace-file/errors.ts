// The exits of diff and apply that are not failures of one request.
import { CliError, ExitCode, OutcomeExit } from '../../cli/errors.js';

/** `wsm diff` found changes: exit 2, Terraform's `-detailed-exitcode` (the plan is on stdout). */
export class ChangesPlannedError extends OutcomeExit {
  override name = 'ChangesPlannedError';
  constructor(message: string) {
    super(message, ExitCode.usage);
  }
}

/** `wsm apply` could not make every change: exits with the code of the first failure. */
export class ApplyIncompleteError extends CliError {
  override name = 'ApplyIncompleteError';
}
