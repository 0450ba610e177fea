/**
 * Route contracts. Each API route is the operation its resource description declares
 * (src/api/descriptions): `described()` turns one into the route's method, URL, access (config)
 * and `schema:`, the zod schemas of its query, body and answer (the ones the client checks with)
 * and what the OpenAPI document says of it. That one declaration has three readers: the handler's
 * types (validQuery, validBody and sentBody infer them from the route), its validation (one
 * preHandler hook, validateRequest, checks every route's query, and the body of a route that takes
 * JSON alone, with the declared schema and throws the 422 of decisions.md §1), and the document
 * (openapi/document.ts reads the route table's contracts).
 *
 * The hook runs after the tenancy and permission hook (http/auth.ts: a stranger gets 404 and a
 * member without the permission 403, never a 422 that confirms the route's shape), then finds the
 * record the path names (404 before any 422, path-record.ts), not at
 * fastify's validation stage, which comes before it: so the API's compilers leave requests as they
 * are and answers to JSON.stringify, as without a schema. A route that also takes a multipart form
 * reads it in its handler (its files stream to disk), and there its body, a form's fields or JSON,
 * is checked with the same schema in one call (checkBody, sentBody) and nowhere else.
 */
import type { FastifyContextConfig, FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';
import type { z } from 'zod';
import { check, type FieldErrors } from '../../api/schemas/index.js';
import { CATALOG, type HttpMethod, type OperationDescription, type ResourceKey } from '../../api/descriptions/index.js';
import { parseOr422 } from './validate.js';
import { validationFailed } from './errors.js';
import { fillPath } from '../../api/descriptions/paths.js';
import { pathRecordOf, recordCheck } from './path-record.js';
import type { Repositories } from '../repositories/index.js';

/** A file download's answer: the types its bytes come in. */
export interface BinaryAnswer {
  binary: string[];
}

export interface RouteContract {
  summary: string;
  /** The OpenAPI tag: the resource's name as a reader looks it up. */
  tags: [string];
  description?: string;
  querystring?: z.ZodType;
  body?: z.ZodType;
  /** The body may (true) or must ('only') be a multipart form. */
  multipart?: boolean | 'only';
  /** File parts of the multipart form, by their bracket names. */
  files?: string[];
  /** File parts a form may carry at most (413 beyond). */
  fileParts?: number;
  /** The success answer by its status (one entry); no entry: an answer without a declared body. */
  response?: Record<number, z.ZodType | BinaryAnswer>;
  /** Statuses beyond those the route table implies (401, 403, 404, 413, 422, 503). */
  errors?: number[];
  /** In the published API; otherwise an extension of ours (decisions.md §6, §7), which `--api-only` answers 404. */
  published?: boolean;
}

/** The schemas a route's handler reads, named for their types: they must be the description's own. */
type Typed = Partial<Pick<RouteContract, 'querystring' | 'body'>>;

/** What a route's access becomes in its config, which http/auth.ts enforces. */
function configOf(access: OperationDescription['access']): FastifyContextConfig {
  if (access === 'public') return { public: true };
  if (access === 'partner') return { partnerOnly: true };
  return access === 'authenticated' ? {} : { permission: access.permission };
}

/** The contract of a described operation; `binary`: the types a file download's bytes come in. */
function contractOf(operation: OperationDescription, binary?: string[]): RouteContract {
  const answer = operation.response === 'binary' ? { binary: binary ?? ['application/octet-stream'] } : operation.response;
  const contract: RouteContract = {
    summary: operation.summary,
    tags: [CATALOG[operation.resource as ResourceKey].tag],
    published: operation.published,
  };
  // Only what the operation has: fastify warns of a `body` or `querystring` key left undefined.
  if (operation.description !== undefined) contract.description = operation.description;
  if (operation.query) contract.querystring = operation.query;
  if (operation.body) contract.body = operation.body;
  if (operation.multipart !== undefined) contract.multipart = operation.multipart;
  if (operation.files) contract.files = operation.files;
  if (operation.fileParts !== undefined) contract.fileParts = operation.fileParts;
  if (answer) contract.response = { [operation.status]: answer };
  if (operation.errors) contract.errors = operation.errors;
  return contract;
}

/**
 * The route options of a described operation: spread them into `app.route` with its handler.
 * `typed` names the schemas the handler reads, so that TypeScript knows their types; a route
 * naming another schema than its description's fails as the app is built, never in a request.
 */
export function described<S extends Typed = Record<never, never>>(
  operation: OperationDescription,
  typed: S = {} as S,
  options: { binary?: string[] } = {},
): { method: HttpMethod; url: string; config: FastifyContextConfig; schema: RouteContract & S } {
  const contract = contractOf(operation, options.binary);
  for (const [key, schema] of Object.entries(typed)) {
    if (contract[key as keyof Typed] !== schema)
      throw new Error(`${operation.method} ${operation.path}: the route reads a ${key} schema other than its description's.`);
  }
  const record = pathRecordOf(operation);
  return {
    method: operation.method,
    url: fillPath(operation.path, (name) => `:${name}`),
    config: { ...configOf(operation.access), ...(record ? { record } : {}) },
    schema: contract as RouteContract & S,
  };
}

/**
 * Makes zod contracts the schemas of every route `api` registers (see the header for why nothing
 * runs at fastify's stage), and validates every request of those routes in one hook: the record
 * its path names first (a missing one is a 404 whatever was sent, path-record.ts), then its query
 * and, where the route takes no form, its body. `repositories`: where those records are found
 * (app.ts gives the app's).
 */
export function useContracts(api: FastifyInstance, repositories?: Repositories): void {
  api.setValidatorCompiler(() => () => true);
  api.setSerializerCompiler(() => (data) => JSON.stringify(data));
  const requireRecord = recordCheck(api, repositories);
  api.addHook('preHandler', (request, _reply, done) => {
    try {
      requireRecord(request);
      validateRequest(request);
    } catch (error) {
      return done(error as Error);
    }
    done();
  });
}

/** Does the route's handler read this request's body as a form rather than as JSON? */
const readAsForm = (request: FastifyRequest, contract: RouteContract) =>
  contract.multipart === 'only' || (contract.multipart === true && request.isMultipart());

/**
 * The query, and the body of a route that takes JSON alone, replaced by what the declared schemas
 * make of them (422 otherwise). A route that also takes a form checks its body where it reads it (checkBody).
 */
function validateRequest(request: FastifyRequest): void {
  const contract = request.routeOptions.schema as RouteContract | undefined;
  if (!contract) return;
  if (contract.querystring) request.query = parseOr422(contract.querystring, request.query);
  if (contract.body && !contract.multipart) request.body = parseOr422(contract.body, request.body);
}

/** The success status a contract declares, and its answer (200 and none when it declares none). */
export function successOf(contract: RouteContract | undefined): { status: number; answer?: z.ZodType | BinaryAnswer } {
  const [status, answer] = Object.entries(contract?.response ?? {})[0] ?? ['200', undefined];
  return { status: Number(status), answer };
}

/** A request of a route that declared the contract S (for a function the handler passes its request to). */
// `any` in the request's other type parameters: only the route's schema is read.
export type Declaring<S extends FastifySchema> = FastifyRequest<any, any, any, S, any, any, any>;

/** The query, as the hook validated it with the schema the route declared. */
export function validQuery<S extends FastifySchema & { querystring: z.ZodType }>(request: Declaring<S>): z.output<S['querystring']> {
  return request.query as z.output<S['querystring']>;
}

/** The JSON body of a route that takes no form, as the hook validated it with the schema the route declared. */
export function validBody<S extends FastifySchema & { body: z.ZodType }>(request: Declaring<S>): z.output<S['body']> {
  return request.body as z.output<S['body']>;
}

/**
 * The body of a route that also takes a form, checked with the route's body schema here and
 * nowhere else: a form's `fields` (read by the handler), or the JSON body the request came with
 * (none reads as an empty one). Errors are returned rather than thrown, for a 422 that names them
 * with the files' own.
 */
export function checkBody<S extends FastifySchema & { body: z.ZodType }>(
  request: Declaring<S>,
  fields: unknown,
): { ok: true; value: z.output<S['body']> } | { ok: false; errors: FieldErrors } {
  const contract = request.routeOptions.schema as RouteContract & S;
  const sent = readAsForm(request, contract) ? emptyListsOf(contract.body, fields) : request.body;
  return check(contract.body, sent === undefined ? {} : sent) as
    | { ok: true; value: z.output<S['body']> }
    | { ok: false; errors: FieldErrors };
}

/** The schema under optional, nullable and default: what a field holds when it is given. */
function given(schema: z.ZodType | undefined): z.ZodType | undefined {
  let inner = schema;
  while (inner !== undefined && ['optional', 'nullable', 'default'].includes(inner.def.type))
    inner = (inner.def as unknown as { innerType: z.ZodType }).innerType;
  return inner;
}

/**
 * A form writes the empty list as an empty field (`contact_groups=`), having no other way to: a
 * list field given '' is []. Anything else that is not an array stays as sent, for the schema to refuse.
 */
function emptyListsOf(body: z.ZodType, fields: unknown): unknown {
  if (fields === undefined) return undefined;
  const shape = (body as { shape?: Record<string, z.ZodType> }).shape;
  if (shape === undefined || fields === null || typeof fields !== 'object') return fields;
  const read: Record<string, unknown> = { ...(fields as Record<string, unknown>) };
  for (const [key, value] of Object.entries(read)) if (value === '' && given(shape[key])?.def.type === 'array') read[key] = [];
  return read;
}

/**
 * checkBody, throwing its 422; `files`: what the handler found wrong with the form's files (an
 * avatar that is no image), named in the same 422 after the body's fields.
 */
export function sentBody<S extends FastifySchema & { body: z.ZodType }>(
  request: Declaring<S>,
  fields: unknown,
  files: FieldErrors = {},
): z.output<S['body']> {
  const checked = checkBody(request, fields);
  if (!checked.ok || Object.keys(files).length > 0) throw validationFailed({ ...(checked.ok ? {} : checked.errors), ...files });
  return checked.value;
}
