// CLI errors and every exit code (docs/output.md "Exit codes"): commands throw, exitCodeFor says
// which code any thrown error exits with, and error-report.ts (handleError) prints it.
import { CommanderError } from 'commander';
import {
  APIConnectionError,
  APIStatusError,
  MissingWorkspaceError,
  PageFailedError,
  RequestValidationError,
  UnsupportedEndpointError,
  UpdatedInPartError,
  ValidationFailedError,
} from '../api/errors.js';
import { WorkbookError } from '../formats/workbook-error.js';
import { durationText } from './duration.js';

export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  rejected: 5,
  unavailable: 6,
  templatesRejected: 7,
  /** Done, but some items failed: rows of an import, ids or lines of a bulk verb (beyond --max-failures). */
  itemsFailed: 8,
  /** Ctrl-C during a wait (128 + SIGINT), as shells report it. */
  interrupted: 130,
} as const;

/**
 * Base of the errors the CLI itself raises; carries its exit code, and where the failure is about
 * something read from the server (a wait that timed out, an import that failed), its last `state`:
 * the error document carries it, so with -o json a script reads it from the one document it gets.
 */
export class CliError extends Error {
  override name = 'CliError';
  constructor(
    message: string,
    readonly exitCode: number = ExitCode.failure,
    readonly state?: unknown,
  ) {
    super(message);
  }
}

/** Bad flags, missing values, nothing sent (exit 2). */
export class UsageError extends CliError {
  override name = 'UsageError';
  constructor(message: string) {
    super(message, ExitCode.usage);
  }
}

/** `cannot read <path> (<code>)`, one line (a field line under it would only say the same again); `after` ends it. */
export function cannotRead(path: string, error: unknown, after = ''): UsageError {
  if (error instanceof UsageError) return error;
  const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  return new UsageError(`cannot read ${path} (${reason})${after}`);
}

/** No base URL or token to call the API with (exit 2: nothing was sent); the message says which is missing. */
export class NotLoggedInError extends UsageError {
  override name = 'NotLoggedInError';
  constructor(message = 'not logged in: run `wsm auth login` or `wsm serve`') {
    super(message);
  }
}

/** The user answered "no" to a confirmation: nothing sent, so exit 2 like gh (Ctrl-C there is 130, InterruptedError). */
export class CancelledError extends CliError {
  override name = 'CancelledError';
  constructor(message = 'cancelled') {
    super(message, ExitCode.usage);
  }
}

/**
 * A body or file that failed the checks before sending (exit 2), whoever checked it: the command
 * (a file, a flag) or the client (a body against the contract's schema). One class, the client's.
 */
export { RequestValidationError };

/** The config file cannot be used as it is; the message names the file and the fix (exit 2). */
/** The server said beforehand that the caller lacks the permission a change needs: refused as its 403 would be (exit 3), nothing asked or sent. */
export class PermissionLackingError extends CliError {
  override name = 'PermissionLackingError';
  constructor(message: string) {
    super(message, ExitCode.auth);
  }
}

export class ConfigError extends CliError {
  override name = 'ConfigError';
  constructor(message: string) {
    super(message, ExitCode.usage);
  }
}

/**
 * The change `wsm undo` names is still being written by another wsm (its records still coming):
 * nothing read or sent. Exit 1, as a database another `wsm serve` holds, and Terraform's state lock.
 */
export class ChangeBeingWrittenError extends CliError {
  override name = 'ChangeBeingWrittenError';
  constructor(message: string) {
    super(message, ExitCode.failure);
  }
}

/** Ctrl-C while waiting on the server: what keeps running there is in the message (exit 130). */
export class InterruptedError extends CliError {
  override name = 'InterruptedError';
  constructor(message: string) {
    super(message, ExitCode.interrupted);
  }
}

/**
 * Not a failure: a result that scripts read from the exit code, such as `wsm diff` exiting 2 when
 * changes are planned (Terraform's -detailed-exitcode). The message goes to stderr as it is, with
 * no `error:` prefix, and `-o json` adds no error object (the command printed its data).
 */
export class OutcomeExit extends CliError {
  override name = 'OutcomeExit';
}

/**
 * A failure reported with another exit code, printed as the original would be: `wsm diff` keeps 2
 * for "changes planned", so its usage errors (2 everywhere else) exit 1.
 */
export class RecodedError extends CliError {
  override name = 'RecodedError';
  constructor(
    readonly original: unknown,
    exitCode: number,
  ) {
    super(original instanceof Error ? original.message : String(original), exitCode);
  }
}

/**
 * A failure whose field errors the user knows by other names: the flags that set those body
 * fields (`role_id` -> `--role`, `permissions.0` -> `--permission contacts.veiw`). Printed as the
 * original, each field named so; made by namedFields, only for a failure with field errors.
 */
export class FieldsNamedError extends CliError {
  override name = 'FieldsNamedError';
  constructor(
    readonly original: unknown,
    readonly labels: Readonly<Record<string, string>>,
  ) {
    super(original instanceof Error ? original.message : String(original), exitCodeFor(original));
  }
}

/** `error` with its field errors named by `labels`; any other failure as it is. */
export function namedFields(error: unknown, labels: Readonly<Record<string, string>>): unknown {
  if (error instanceof FieldsNamedError || Object.keys(fieldErrorsOf(error)).length === 0) return error;
  return new FieldsNamedError(error, labels);
}

/**
 * A failure after part of the command's output was written (a page of an export failed): printed
 * as the original failure, with its exit code, followed by what was written (`; 1,200 contacts
 * were written: the output is incomplete`), so a partial file is never taken for a whole one.
 */
export class PartialOutputError extends CliError {
  override name = 'PartialOutputError';
  constructor(
    readonly original: unknown,
    readonly written: string,
  ) {
    super(`${original instanceof Error ? original.message : String(original)}; ${written}`, exitCodeFor(original));
  }
}

/**
 * A wait (`--wait` with its `--timeout`) ran out of time with the work unfinished on the server,
 * exit 6; every wait says it the same way: `timed out after 30m: <what is unfinished>`. `state` is
 * the last state read (the import's record, the tracked templates' rows).
 */
export class WaitTimedOutError extends CliError {
  override name = 'WaitTimedOutError';
  constructor(timeoutMs: number, unfinished: string, state?: unknown) {
    super(`timed out after ${durationText(timeoutMs)}: ${unfinished}`, ExitCode.unavailable, state);
  }
}

/**
 * A wait's requests kept failing (no connection, 5xx, 429) until its `--timeout` passed: exit 6,
 * said with both, `gave up after 10s: cannot reach …`, so a CI log shows that the time went to
 * retries and what they met.
 */
export class WaitGaveUpError extends CliError {
  override name = 'WaitGaveUpError';
  constructor(
    readonly timeoutMs: number,
    readonly original: unknown,
  ) {
    super(
      `gave up after ${durationText(timeoutMs)}: ${original instanceof Error ? original.message : String(original)}`,
      ExitCode.unavailable,
    );
  }
}

/** `templates sync --fail-on-rejected` saw a REJECTED template (exit 7). */
export class RejectedTemplatesError extends CliError {
  override name = 'RejectedTemplatesError';
  constructor(
    message: string,
    readonly names: string[] = [],
  ) {
    super(message, ExitCode.templatesRejected);
  }
}

/**
 * Errors the client raises itself (src/api/errors.ts), nothing sent. An extension the backend
 * lacks exits 1 rather than 4: the resource is not missing, the server is another kind of backend.
 */
function clientErrorCode(err: unknown): number | undefined {
  if (err instanceof RequestValidationError || err instanceof MissingWorkspaceError) return ExitCode.usage;
  if (err instanceof WorkbookError) return ExitCode.usage; // a file that is no usable workbook: bad input
  if (err instanceof UnsupportedEndpointError) return ExitCode.failure;
  return undefined;
}

/** Field errors carried by a 422 or by a check before sending (RequestValidationError). */
export function fieldErrorsOf(err: unknown): Record<string, string[]> {
  if (err instanceof FieldsNamedError) return fieldErrorsOf(err.original);
  if (err instanceof ValidationFailedError || err instanceof RequestValidationError) {
    return err.errors;
  }
  return {};
}

export function exitCodeFor(err: unknown): number {
  if (err instanceof CliError) return err.exitCode;
  const clientCode = clientErrorCode(err);
  if (clientCode !== undefined) return clientCode;
  // --help and --version arrive here as CommanderErrors with exit code 0.
  if (err instanceof CommanderError) return err.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
  if (err instanceof APIConnectionError) return ExitCode.unavailable; // includes timeouts
  // A walk stopped at a page, an update whose clears failed after its form: the failed request's own code.
  if (err instanceof PageFailedError || err instanceof UpdatedInPartError) return exitCodeFor(err.cause);
  if (err instanceof ValidationFailedError) return ExitCode.rejected; // a 422, or a 400 with field errors
  if (err instanceof APIStatusError) {
    const { status } = err;
    if (status === 401 || status === 403) return ExitCode.auth;
    if (status === 404) return ExitCode.notFound;
    if (status === 422) return ExitCode.rejected;
    if (status === 429 || status >= 500) return ExitCode.unavailable;
  }
  return ExitCode.failure;
}

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

/**
 * `wsm diff` exits 2 for "changes planned" (ChangesPlannedError, an OutcomeExit), so a failure that
 * exits 2 elsewhere (a bad flag, a missing or invalid file) exits 1 there, as in Terraform:
 * `wsm diff -f f.yaml || [ $? -eq 2 ]` then fails the CI job on a broken file. Every other code
 * (3 auth, 6 server, ...) is kept.
 */
export function asDiffFailure(err: unknown): unknown {
  if (err instanceof OutcomeExit || exitCodeFor(err) !== ExitCode.usage) return err;
  return new RecodedError(err, ExitCode.failure);
}
