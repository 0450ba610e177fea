// Errors raised by the API client. The CLI error handler imports this module at start-up to pick
// exit codes, so it must stay free of undici and zod (keeps `wsm --help` light).

/** Base class of every error the API client throws. */
export class WsmApiError extends Error {
  override name = 'WsmApiError';
}

/** The request never got an HTTP answer: refused, DNS failure, reset, TLS, proxy. */
export class APIConnectionError extends WsmApiError {
  override name = 'APIConnectionError';
  constructor(message = 'Connection error.', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** No complete answer (headers and body) arrived within the time allowed. */
export class APIConnectionTimeoutError extends APIConnectionError {
  override name = 'APIConnectionTimeoutError';
  constructor(message = 'Request timed out.', options?: { cause?: unknown }) {
    super(message, options);
  }
}

export interface StatusErrorInit {
  status: number;
  body: unknown;
  headers: Record<string, string>;
  method: string;
  url: string;
}

/** The server answered with a non-2xx status. `body` is the parsed JSON (or raw text). */
export class APIStatusError extends WsmApiError {
  override name = 'APIStatusError';
  readonly status: number;
  readonly body: unknown;
  readonly headers: Record<string, string>;
  readonly method: string;
  readonly url: string;

  constructor(init: StatusErrorInit) {
    super(messageFromBody(init.status, init.body));
    this.status = init.status;
    this.body = init.body;
    this.headers = init.headers;
    this.method = init.method;
    this.url = init.url;
  }
}

export class BadRequestError extends APIStatusError {
  override name = 'BadRequestError';
}
export class AuthenticationError extends APIStatusError {
  override name = 'AuthenticationError';
}
export class PermissionDeniedError extends APIStatusError {
  override name = 'PermissionDeniedError';
}
export class NotFoundError extends APIStatusError {
  override name = 'NotFoundError';
}
export class MethodNotAllowedError extends APIStatusError {
  override name = 'MethodNotAllowedError';
}
export class ConflictError extends APIStatusError {
  override name = 'ConflictError';
}
export class PayloadTooLargeError extends APIStatusError {
  override name = 'PayloadTooLargeError';
}

/**
 * The server refused the input: a 422, or a 400 whose body carries `errors` (the published API does not give
 * the status of a validation failure). `errors` maps a (dotted) field name to its messages.
 */
export class ValidationFailedError extends APIStatusError {
  override name = 'ValidationFailedError';
  readonly errors: Record<string, string[]>;
  constructor(init: StatusErrorInit) {
    super(init);
    this.errors = fieldErrorsFromBody(init.body);
  }
}

/** 422 (always a validation failure). */
export class UnprocessableEntityError extends ValidationFailedError {
  override name = 'UnprocessableEntityError';
}

/** 429: `retryAfterMs` is the server's Retry-After, when it sent a readable one. */
export class RateLimitError extends APIStatusError {
  override name = 'RateLimitError';
  readonly retryAfterMs?: number;
  constructor(init: StatusErrorInit) {
    super(init);
    const retryAfterMs = parseRetryAfter(init.headers['retry-after']);
    if (retryAfterMs !== undefined) this.retryAfterMs = retryAfterMs;
  }
}

/** Any 5xx. */
export class InternalServerError extends APIStatusError {
  override name = 'InternalServerError';
}

const classByStatus: Record<number, typeof APIStatusError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  405: MethodNotAllowedError,
  409: ConflictError,
  413: PayloadTooLargeError,
  422: UnprocessableEntityError,
  429: RateLimitError,
};

/** What a refused request says on one line: the server's field errors where it gave some (its message alone may be "Validation error"). */
export function failureOf(error: unknown): string {
  if (error instanceof ValidationFailedError && Object.keys(error.errors).length > 0)
    return Object.entries(error.errors)
      .map(([field, messages]) => `${field}: ${messages.join(' ')}`)
      .join('; ');
  return error instanceof Error ? error.message : String(error);
}

/** Picks the error class for a non-2xx response; unknown 4xx stay a plain APIStatusError. */
export function errorFromResponse(init: StatusErrorInit): APIStatusError {
  if (init.status === 400 && isRecord(init.body) && isRecord(init.body.errors)) return new ValidationFailedError(init);
  const ErrorClass = classByStatus[init.status] ?? (init.status >= 500 ? InternalServerError : APIStatusError);
  return new ErrorClass(init);
}

/**
 * Reads a Retry-After header (delta seconds or an HTTP date) into milliseconds from `now`.
 * Returns undefined when absent or unreadable so callers fall back to their own backoff.
 */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * The most characters kept of one message a server gives, and the most field errors of one answer:
 * a server's words are a sentence or two; a broken or hostile one's screenfuls would be printed
 * again for every contact of a bulk run.
 */
const MESSAGE_MAX = 1000;
const FIELD_ERRORS_MAX = 100;

/** `text` cut at MESSAGE_MAX characters (never inside a character), saying how much was left out. */
function bounded(text: string): string {
  if (text.length <= MESSAGE_MAX) return text;
  const end = /[\uD800-\uDBFF]/.test(text[MESSAGE_MAX - 1]) ? MESSAGE_MAX - 1 : MESSAGE_MAX;
  return `${text.slice(0, end)}… (${(text.length - end).toLocaleString('en-US')} more characters)`;
}

function messageFromBody(status: number, body: unknown): string {
  if (isRecord(body) && typeof body.message === 'string' && body.message !== '') return bounded(body.message);
  return `HTTP ${status}`;
}

function fieldErrorsFromBody(body: unknown): Record<string, string[]> {
  const result: Record<string, string[]> = {};
  if (!isRecord(body) || !isRecord(body.errors)) return result;
  let kept = 0;
  let more = 0;
  for (const [field, given] of Object.entries(body.errors)) {
    // Servers of this family send arrays of strings; accept a lone string rather than lose it.
    const messages = Array.isArray(given) ? given.map(String) : typeof given === 'string' ? [given] : [];
    if (kept + messages.length > FIELD_ERRORS_MAX) more += messages.length;
    else if (messages.length > 0) {
      result[bounded(field)] = messages.map(bounded);
      kept += messages.length;
    }
  }
  if (more > 0) result['…'] = [`${more} more field errors of this answer are not shown`];
  return result;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// Errors the client raises before or instead of a request. They live here, with no imports,
// so the CLI's error handler (loaded at start-up) can recognise them without loading zod.

/**
 * What would be sent failed a check before sending: a body against the contract's zod schema (the
 * client), or a file or flag the CLI read (exit 2). Nothing was sent; `errors` by field.
 */
export class RequestValidationError extends WsmApiError {
  override name = 'RequestValidationError';
  constructor(
    message: string,
    readonly errors: Record<string, string[]> = {},
  ) {
    super(message);
  }
}

/** A workspace-scoped call was made on a client built without a workspace. */
export class MissingWorkspaceError extends WsmApiError {
  override name = 'MissingWorkspaceError';
  constructor() {
    super('no workspace given to the API client: this call is scoped to a workspace');
  }
}

/**
 * An extension endpoint (decisions.md) is missing on this backend: it answered 405, or a 404 that
 * is not the API's own "resource not found" body. `operation` reads like "getting a contact".
 */
export class UnsupportedEndpointError extends WsmApiError {
  override name = 'UnsupportedEndpointError';
  constructor(
    readonly operation: string,
    readonly response: APIStatusError,
    /** What to do instead, when there is another way. */
    readonly instead?: string,
  ) {
    super(`this server does not support ${operation}${instead ? `: ${instead}` : ''}`);
  }
}

/**
 * A 2xx answer the client cannot use at all (a list without its `data` array, a get without a
 * record). The message is one sentence naming the field; the CLI exits 1 with it.
 */
export class UnusableResponseError extends WsmApiError {
  override name = 'UnusableResponseError';
}

/**
 * A page of a full walk failed after the transport's retries (page 1 failing is reported as its
 * own error: nothing was written then). Every row before this page was handed on whole.
 * The exit code is the cause's.
 */
export class PageFailedError extends WsmApiError {
  override name = 'PageFailedError';
  constructor(
    readonly page: number | undefined,
    readonly lastPage: number | undefined,
    override readonly cause: unknown,
  ) {
    const status = cause instanceof APIStatusError ? ` (${cause.status})` : '';
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      `page ${page ?? 'after the last one read'}${lastPage !== undefined ? ` of ${lastPage}` : ''} failed: ${reason}${status}; the rows before it were written`,
      { cause },
    );
  }
}

/**
 * An update sent as two requests (a form cannot clear a value: the form first, then the clears as
 * JSON) whose form was answered and whose clears were not: the form's values are set, the cleared
 * ones are not. `contact` is the form's answer, the contact as it now is; `cause` the clears' failure.
 */
export class UpdatedInPartError extends WsmApiError {
  override name = 'UpdatedInPartError';
  constructor(
    readonly update: { id: number | string; name: unknown; set: string[]; notCleared: string[]; contact: unknown },
    override readonly cause: unknown,
  ) {
    super(`contact ${update.id}: ${update.set.join(', ')} set, but ${update.notCleared.join(', ')} not cleared: ${failureOf(cause)}`, {
      cause,
    });
  }
}
