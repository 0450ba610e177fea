// CLI errors and the one place that turns any thrown error into stderr text and an exit code
// (spec/cli.md "Exit codes"). Commands throw; only handleError prints.
import { CommanderError } from 'commander';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIStatusError,
  MissingWorkspaceError,
  PageFailedError,
  RequestValidationError,
  UnsupportedEndpointError,
  ValidationFailedError,
} from '../api/errors.js';
import type { IOStreams } from './io.js';

export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  rejected: 5,
  unavailable: 6,
  templatesRejected: 7,
} as const;

/** Base of the errors the CLI itself raises; carries its exit code. */
export class CliError extends Error {
  override name = 'CliError';
  constructor(
    message: string,
    readonly exitCode: number = ExitCode.failure,
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

/** No base URL or token to call the API with (exit 2: nothing was sent). */
export class NotLoggedInError extends UsageError {
  override name = 'NotLoggedInError';
  constructor() {
    super('not logged in: run `wsm auth login` or `wsm serve`');
  }
}

/** The user answered "no" (or Ctrl-C) to a confirmation: nothing sent, so exit 2 like gh. */
export class CancelledError extends CliError {
  override name = 'CancelledError';
  constructor(message = 'cancelled') {
    super(message, ExitCode.usage);
  }
}

/** A body or file failed the local (zod) checks before sending (exit 2). */
export class LocalValidationError extends CliError {
  override name = 'LocalValidationError';
  constructor(
    message: string,
    readonly errors: Record<string, string[]> = {},
  ) {
    super(message, ExitCode.usage);
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
  if (err instanceof UnsupportedEndpointError) return ExitCode.failure;
  return undefined;
}

/** Field errors carried by a 422, a local validation failure or the client's RequestValidationError. */
function fieldErrorsOf(err: unknown): Record<string, string[]> {
  if (err instanceof ValidationFailedError || err instanceof LocalValidationError || err instanceof RequestValidationError) {
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
  if (err instanceof PageFailedError) return exitCodeFor(err.cause); // a walk stopped at a page: the page's own code
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

/** What handleError needs; a full Context satisfies it, and so does the bare start-up state. */
export interface ErrorSink {
  io: IOStreams;
  env: Record<string, string | undefined>;
  /** The -o format when known: with json/ndjson the error body also goes to stdout. */
  outputFormat?: string;
  /** Strings that must never reach the terminal (tokens). */
  secrets: () => string[];
}

/** Prints one `error: ...` line (plus field errors) on stderr and returns the exit code. */
export function handleError(err: unknown, sink: ErrorSink): number {
  const code = exitCodeFor(err);
  // Commander has already printed its own `error: ...` line through our output routing.
  if (err instanceof CommanderError) return code;

  const redact = redactor(sink.secrets());
  const lines = [`error: ${sentenceFor(err)}`];
  for (const [field, messages] of Object.entries(fieldErrorsOf(err))) {
    for (const message of messages) lines.push(`  ${field}: ${message}`);
  }
  if (sink.env.WSM_DEBUG === '1' && err instanceof Error && err.stack) lines.push(err.stack);
  sink.io.err(redact(lines.join('\n')) + '\n');

  if (sink.outputFormat === 'json' || sink.outputFormat === 'ndjson') {
    const body = machineBody(err);
    if (body !== undefined) sink.io.out(redact(JSON.stringify(body, null, sink.outputFormat === 'json' ? 2 : 0)) + '\n');
  }
  return code;
}

function sentenceFor(err: unknown): string {
  if (err instanceof MissingWorkspaceError) {
    return 'no workspace: pass -w <uuid>, set WSM_WORKSPACE, or run `wsm profile set workspace <uuid>`';
  }
  if (err instanceof APIConnectionTimeoutError) return 'the server did not answer in time (request timed out)';
  if (err instanceof APIConnectionError) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const detail = cause?.code ?? cause?.message ?? err.message;
    return `cannot reach the server (${detail})`;
  }
  if (err instanceof APIStatusError) {
    const where = `${err.method} ${pathOf(err.url)}`;
    if (err.status === 401) return `the server rejected the token (401 on ${where}): run \`wsm auth login\``;
    if (err.status === 403) return `permission denied (403 on ${where}): ${err.message}`;
    if (err instanceof ValidationFailedError) return `the server rejected the request (${err.status} on ${where}): ${err.message}`;
    return `${err.message} (${err.status} on ${where})`;
  }
  if (err instanceof Error) return err.message;
  return String(err);
}

function pathOf(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.pathname + parsed.search;
  } catch {
    return url;
  }
}

/** The server's own body when there is one, so scripts read exactly what the server said. */
function machineBody(err: unknown): unknown {
  if (err instanceof APIStatusError) return err.body;
  if (err instanceof LocalValidationError || err instanceof RequestValidationError) {
    return { message: err.message, errors: fieldErrorsOf(err) };
  }
  return undefined;
}

function redactor(secrets: string[]): (text: string) => string {
  const present = secrets.filter((s) => s.length >= 4);
  return (text) => present.reduce((acc, secret) => acc.split(secret).join('***'), text);
}
