/**
 * Route contracts. Each API route is the operation its resource description declares
 * (src/api/descriptions): `described()` turns one into the route's method, URL, access (config)
 * and `schema:`, the zod schemas of its query, body and answer (the ones the client checks with)
 * and what the OpenAPI document says of it. That one declaration has three readers: the handler's
 * types (queryOf and bodyOf infer them from the route), its validation (they check with the
 * declared schema and throw the 422 of decisions.md §1), and the document (openapi/document.ts
 * reads the route table's contracts).
 *
 * Validation runs where the handler asks for it, not in fastify's validation stage: that stage
 * comes before the tenancy and permission hook (a stranger gets 404 and a member without the
 * permission 403, never a 422 that confirms the route's shape), before the 404 of a missing record,
 * before the sign-in limiter counts an attempt; and a multipart form is read by the handler itself.
 * So the API's compilers leave requests as they are and answers to JSON.stringify, as without a schema.
 */
import type { FastifyContextConfig, FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';
import type { z } from 'zod';
import { check, type FieldErrors } from '../../api/schemas/index.js';
import { CATALOG, type HttpMethod, type OperationDescription, type ResourceKey } from '../../api/descriptions/index.js';
import { parseOr422 } from './validate.js';
import { fillPath } from '../../api/descriptions/paths.js';

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
  /** The success answer by its status (one entry); no entry: an answer without a declared body. */
  response?: Record<number, z.ZodType | BinaryAnswer>;
  /** Statuses beyond those the route table implies (401, 403, 404, 413, 422, 503). */
  errors?: number[];
  /** In api.md; otherwise an extension of ours (decisions.md §6, §7), which `--api-only` answers 404. */
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
  const contract: RouteContract = { summary: operation.summary, tags: [CATALOG[operation.resource as ResourceKey].tag], published: operation.published };
  // Only what the operation has: fastify warns of a `body` or `querystring` key left undefined.
  if (operation.description !== undefined) contract.description = operation.description;
  if (operation.query) contract.querystring = operation.query;
  if (operation.body) contract.body = operation.body;
  if (operation.multipart !== undefined) contract.multipart = operation.multipart;
  if (operation.files) contract.files = operation.files;
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
    if (contract[key as keyof Typed] !== schema) throw new Error(`${operation.method} ${operation.path}: the route reads a ${key} schema other than its description's.`);
  }
  return {
    method: operation.method,
    url: fillPath(operation.path, (name) => `:${name}`),
    config: configOf(operation.access),
    schema: contract as RouteContract & S,
  };
}

/** Makes zod contracts the schemas of every route `api` registers (see the header for why nothing runs at fastify's stage). */
export function useContracts(api: FastifyInstance): void {
  api.setValidatorCompiler(() => () => true);
  api.setSerializerCompiler(() => (data) => JSON.stringify(data));
}

/** The success status a contract declares, and its answer (200 and none when it declares none). */
export function successOf(contract: RouteContract | undefined): { status: number; answer?: z.ZodType | BinaryAnswer } {
  const [status, answer] = Object.entries(contract?.response ?? {})[0] ?? ['200', undefined];
  return { status: Number(status), answer };
}

/** A request of a route that declared the contract S (for a function the handler passes its request to). */
// biome-ignore lint/suspicious/noExplicitAny: only the route's schema is read; the request's other type parameters may be anything
export type Declaring<S extends FastifySchema> = FastifyRequest<any, any, any, S, any, any, any>;

/** The query (or `query`, the request's as the handler reshaped it), checked with the schema the route declared (422 otherwise). */
export function queryOf<S extends FastifySchema & { querystring: z.ZodType }>(request: Declaring<S>, query: unknown = request.query): z.output<S['querystring']> {
  return parseOr422((request.routeOptions.schema as S).querystring, query) as z.output<S['querystring']>;
}

/** The body (or `data`, the fields of a multipart form), checked with the schema the route declared (422 otherwise). */
export function bodyOf<S extends FastifySchema & { body: z.ZodType }>(request: Declaring<S>, data: unknown = request.body): z.output<S['body']> {
  return parseOr422((request.routeOptions.schema as S).body, data) as z.output<S['body']>;
}

/** The body checked with the route's schema, its errors returned rather than thrown: for a 422 that names them with others (a form's files). */
export function checkBody<S extends FastifySchema & { body: z.ZodType }>(
  request: Declaring<S>,
  data: unknown,
): { ok: true; value: z.output<S['body']> } | { ok: false; errors: FieldErrors } {
  return check((request.routeOptions.schema as S).body, data === undefined ? {} : data) as { ok: true; value: z.output<S['body']> } | { ok: false; errors: FieldErrors };
}
