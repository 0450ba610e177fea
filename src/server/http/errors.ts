/**
 * Errors a handler throws; `errorHandler` turns each into the exact body of
 * decisions.md §1. Nothing else writes an error body.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_MESSAGES, type FieldErrors } from '../../api/schemas/index.js';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.message));
  }
}

export const unauthenticated = () => new HttpError(401, { message: ERROR_MESSAGES[401] });
export const forbidden = () => new HttpError(403, { message: ERROR_MESSAGES[403], status: 403 });
export const notFound = () => new HttpError(404, { message: ERROR_MESSAGES[404], status: 404 });
export const templateNotFound = () =>
  new HttpError(404, { success: false, message: ERROR_MESSAGES.template404, status: 404 });
export const payloadTooLarge = () => new HttpError(413, { message: ERROR_MESSAGES[413], status: 413 });
export const validationFailed = (errors: FieldErrors) =>
  new HttpError(422, { message: ERROR_MESSAGES.validation, errors });
/** A single-field 422, e.g. a uniqueness clash found in the database. */
export const invalidField = (field: string, message: string) => validationFailed({ [field]: [message] });

const serverError = { message: ERROR_MESSAGES[500], status: 500 };

function fromFastifyError(error: FastifyError): HttpError | undefined {
  const code = error.code ?? '';
  const status = error.statusCode ?? 500;
  if (status === 413 || code === 'FST_REQ_FILE_TOO_LARGE' || code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT') {
    return payloadTooLarge();
  }
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || status === 415) {
    return invalidField('body', 'The request body must be JSON or a multipart form.');
  }
  if (code.startsWith('FST_ERR_CTP') || code === 'FST_INVALID_MULTIPART_CONTENT_TYPE' || error instanceof SyntaxError || status === 400) {
    return invalidField('body', 'The request body is malformed.');
  }
  if (status === 404) return notFound();
  return undefined;
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const known = error instanceof HttpError ? error : fromFastifyError(error);
    if (known) return reply.code(known.statusCode).send(known.body);
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send(serverError);
  });
}
