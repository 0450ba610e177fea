/**
 * Errors a handler throws; `errorHandler` turns each into the exact body of
 * decisions.md §1. Nothing else writes an error body.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_MESSAGES, type FieldErrors } from '../../api/schemas/index.js';
import { isBusyError, isFullError } from '../db.js';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: Record<string, unknown>,
    /** Sent with the answer, e.g. Retry-After. */
    readonly headers: Record<string, string> = {},
  ) {
    super(String(body.message));
  }
}

export const unauthenticated = () => new HttpError(401, { message: ERROR_MESSAGES[401] });
/** 403; a message other than the generic one names what stands in the way (decisions.md §8). */
export const forbidden = (message: string = ERROR_MESSAGES[403]) => new HttpError(403, { message, status: 403 });
export const notFound = () => new HttpError(404, { message: ERROR_MESSAGES[404], status: 404 });
export const templateNotFound = () => new HttpError(404, { success: false, message: ERROR_MESSAGES.template404, status: 404 });
/** 429 with Retry-After in whole seconds. */
export const tooManyAttempts = (retryAfterSeconds: number) =>
  new HttpError(
    429,
    { message: `Too many sign-in attempts: try again in ${retryAfterSeconds} seconds.`, status: 429 },
    { 'retry-after': String(retryAfterSeconds) },
  );
/** The database stayed locked by another connection past the busy timeout (db.ts). */
const databaseBusy = () =>
  new HttpError(503, { message: 'The database is busy: try again in a moment.', status: 503 }, { 'retry-after': '1' });
const diskFull = () =>
  new HttpError(503, { message: 'The server is out of disk space: nothing was saved.', status: 503 }, { 'retry-after': '60' });
/** A damaged file, met while serving (at start-up `wsm serve` refuses it: unusable-database.ts). */
const isDamagedError = (error: unknown) => /^SQLITE_(CORRUPT|NOTADB)/.test(String((error as { code?: unknown })?.code ?? ''));
const databaseDamaged = () =>
  new HttpError(500, {
    message: "The database file is damaged: what this request needs cannot be read. The server's operator must restore it from a backup.",
    status: 500,
  });
export const payloadTooLarge = () => new HttpError(413, { message: ERROR_MESSAGES[413], status: 413 });
/** Fields listed in one 422: a body of 40,000 bad items must not answer megabytes of errors. */
const MAX_FIELD_ERRORS = 100;
/** Messages listed for one field. */
const MAX_MESSAGES_PER_FIELD = 10;

/**
 * The 422 of decisions.md §1, bounded: the first MAX_FIELD_ERRORS fields, and then one more
 * entry, `_truncated`, saying how many were left out (no field of the contract starts with `_`).
 */
export function validationFailed(errors: FieldErrors): HttpError {
  const entries = Object.entries(errors);
  const listed: FieldErrors = Object.fromEntries(
    entries.slice(0, MAX_FIELD_ERRORS).map(([field, messages]) => [field, messages.slice(0, MAX_MESSAGES_PER_FIELD)]),
  );
  const left = entries.length - MAX_FIELD_ERRORS;
  if (left > 0)
    listed._truncated = [`${left.toLocaleString('en-US')} more fields had errors: only the first ${MAX_FIELD_ERRORS} are listed.`];
  return new HttpError(422, { message: ERROR_MESSAGES.validation, errors: listed });
}
/** A single-field 422, e.g. a uniqueness clash found in the database. */
export const invalidField = (field: string, message: string) => validationFailed({ [field]: [message] });

/** The text of every uniqueness clash: "The name has already been taken." */
export const takenMessage = (field: string) => `The ${field} has already been taken.`;

/**
 * Uniqueness within a workspace: `holder` is the id of the record already using the value (if
 * any); it clashes unless it is `self`, the record being updated.
 */
export function assertUnique(field: string, holder: number | undefined, self?: number): void {
  if (holder !== undefined && holder !== self) throw invalidField(field, takenMessage(field));
}
/** A body that cannot be read at all: broken JSON, a multipart form without boundary or cut short. */
export const malformedBody = () => invalidField('body', 'The request body is malformed.');

const serverError = { message: ERROR_MESSAGES[500], status: 500 };

function fromFastifyError(error: FastifyError): HttpError | undefined {
  const code = error.code ?? '';
  const status = error.statusCode ?? 500;
  if (
    status === 413 ||
    code === 'FST_REQ_FILE_TOO_LARGE' ||
    code === 'FST_PARTS_LIMIT' ||
    code === 'FST_FILES_LIMIT' ||
    code === 'FST_FIELDS_LIMIT'
  ) {
    return payloadTooLarge();
  }
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || status === 415) {
    return invalidField('body', 'The request body must be JSON or a multipart form.');
  }
  if (status === 404) return notFound();
  // Anything else fastify or a plugin blames on the request (400, a multipart JSON field that is
  // not JSON (406), ...) is a body the server cannot read: a 422, never a 500.
  if (code.startsWith('FST_ERR_CTP') || error instanceof SyntaxError || (status >= 400 && status < 500)) return malformedBody();
  return undefined;
}

/**
 * Errors of the database itself. Busy (another connection's lock) and a full disk pass: 503
 * with Retry-After. A unique-index violation is a write that lost a race: the value was free
 * when the handler checked it and taken by a parallel request before its own write (an await in
 * between, such as hashing a password); the loser gets the 422 a sequential request would get,
 * named after the column ("UNIQUE constraint failed: users.email" -> email).
 */
function fromDatabaseError(error: { code?: unknown; message: string }, app: FastifyInstance): HttpError | undefined {
  if (isBusyError(error)) return databaseBusy();
  if (isDamagedError(error)) {
    app.databaseFile?.damaged();
    return databaseDamaged();
  }
  if (isFullError(error)) return diskFull();
  if (error.code !== 'SQLITE_CONSTRAINT_UNIQUE') return undefined;
  const columns =
    /^UNIQUE constraint failed: (.+)$/
      .exec(error.message)?.[1]
      .split(', ')
      .map((column) => column.split('.').pop()!) ?? [];
  const field = columns.find((column) => column !== 'workspace_id');
  return field ? invalidField(field, takenMessage(field)) : undefined;
}

/**
 * Errors the router raises before any route or hook runs, so setErrorHandler never sees them:
 * a path that is not valid percent-encoding, or a parameter longer than maxParamLength. Either
 * way no route has such an id (decisions.md §1: a bad path id is a 404, never a 500).
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    reply.code(404).send(notFound().body);
    return;
  }
  reply.code(500).send(serverError);
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const known = error instanceof HttpError ? error : (fromDatabaseError(error, app) ?? fromFastifyError(error));
    if (known) return reply.code(known.statusCode).headers(known.headers).send(known.body);
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send(serverError);
  });
}
