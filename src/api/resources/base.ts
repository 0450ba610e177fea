// What every resource module shares: the transport, the workspace in use, the local body check,
// the call of one described operation, and the rule that turns a "no such route" answer on an
// extension endpoint into a clear error.
import type { z } from 'zod';
import { requireRecord } from '../answers.js';
import { descriptionOf, type ResourceKey } from '../descriptions/catalog.js';
import type { OperationDescription } from '../descriptions/types.js';
import { type APIStatusError, MethodNotAllowedError, NotFoundError, RequestValidationError, UnsupportedEndpointError } from '../errors.js';
import { PER_PAGE_MAX } from '../schemas/common.js';
import { check } from '../schemas/validation.js';
import type { EngineOptions, EngineRequest } from '../page-engine.js';
import { readPage, type ListPage } from '../pagination.js';
import { encodePath, toMultipartParts, type MultipartPart } from '../request-parts.js';
import type { QueryParams, RetryPolicy, Transport } from '../transport.js';
import { fillPath } from '../descriptions/paths.js';

/**
 * What every resource method takes last: `signal` cancels its requests, `timeout` (ms) limits each
 * one, `retry` retries them as a wait does (until its deadline) rather than by the method's rule.
 */
export interface CallOptions {
  signal?: AbortSignal;
  timeout?: number;
  retry?: RetryPolicy;
}

/** A call the page engine makes: it carries the engine's window, which the transport holds it to. */
export type PagedCallOptions = CallOptions & Partial<Pick<EngineRequest, 'limiter'>>;

/** What one call of an operation sends besides its path: the record's id, a query, a JSON or multipart body. */
export interface OperationRequest {
  id?: number | string;
  query?: QueryParams;
  json?: unknown;
  multipart?: MultipartPart[];
  /** Overrides the transport's rule by method (a POST that sets fields is safe to retry). */
  idempotent?: boolean;
}

export interface ResourceContext {
  transport: Transport;
  /** The client's one reporter of what it does on its own (`-v`): WsmClient.notice. */
  notice(line: string): void;
  /** The workspace id; throws MissingWorkspaceError when the client has none. */
  workspace(): string;
}

/** A file to upload, streamed from disk by the transport. */
export interface FileRef {
  filePath: string;
  filename?: string;
  contentType?: string;
}

export function checkBody<S extends z.ZodType>(schema: S, body: unknown, what: string): z.output<S> {
  const result = check(schema, body);
  if (!result.ok) throw new RequestValidationError(`the ${what} is invalid: nothing was sent`, result.errors);
  return result.value;
}

/**
 * The API's own 404 bodies carry `status: 404` (decisions.md §1, the published API). A 404 without it comes
 * from a router that has no such route, which on an extension means "not supported here".
 */
export function isRouteMissing(error: unknown): error is APIStatusError {
  if (error instanceof MethodNotAllowedError) return true;
  if (!(error instanceof NotFoundError)) return false;
  const body = error.body as { status?: unknown } | undefined;
  return !(typeof body === 'object' && body !== null && body.status === 404);
}

/**
 * Runs an extension call, naming the operation (and what to do instead, when there is another
 * way) if the backend lacks the endpoint.
 */
export async function extension<T>(operation: string, call: () => Promise<T>, instead?: string): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isRouteMissing(error)) throw new UnsupportedEndpointError(operation, error, instead);
    throw error;
  }
}

/** The operation `name` of a resource's description, which is loaded (its zod schemas built) on first use. */
export async function describedOperation(key: ResourceKey, name: string): Promise<OperationDescription> {
  const operation = (await descriptionOf(key)).operations[name];
  if (!operation) throw new TypeError(`${key} has no ${name} operation`);
  return operation;
}

/** The operation's path with the workspace in use and the record's id in it, encoded. */
function operationPath(ctx: ResourceContext, operation: OperationDescription, id?: number | string): string {
  return fillPath(operation.path, (name) => {
    const value = name === 'workspace' ? ctx.workspace() : id;
    if (value === undefined) throw new TypeError(`${operation.resource}.${operation.name} needs {${name}}`);
    return encodePath`${value}`;
  });
}

/**
 * Calls one described operation: its method and path, the request's parts, the caller's signal
 * and time limit. An extension the server lacks is an UnsupportedEndpointError naming it (and
 * what to do instead), unless the description leaves that to the caller.
 */
export function callOperation<T = unknown>(
  ctx: ResourceContext,
  operation: OperationDescription,
  request: OperationRequest = {},
  options: PagedCallOptions = {},
): Promise<T> {
  const send = () =>
    ctx.transport.request<T>({
      method: operation.method,
      path: operationPath(ctx, operation, request.id),
      query: request.query,
      json: request.json,
      multipart: request.multipart,
      idempotent: request.idempotent,
      limiter: options.limiter,
      retry: options.retry,
      signal: options.signal,
      timeoutMs: options.timeout,
    });
  if (operation.published || operation.unsupported === null) return send();
  return extension(operation.unsupported, send, operation.instead);
}

/** The record of a get answer (`noun` like "contact" names it when the answer holds none). */
export function requireOne<T>(body: unknown, noun: string, id: number | string): { data: T } {
  return { data: requireRecord<T>(body, `getting ${noun} ${id}`) };
}

/**
 * One page of a list operation, read leniently (`what` names it in an unusable-answer error).
 * `options` come from the page engine when it walks the list, pacing throttled answers itself.
 */
export async function getPage<T>(
  ctx: ResourceContext,
  operation: OperationDescription,
  query: object,
  what: string,
  options?: PagedCallOptions,
): Promise<ListPage<T>> {
  return readPage<T>(await callOperation(ctx, operation, { query: { ...query } as QueryParams }, options), what);
}

/** What a caller may set on a full walk: how many requests in flight, a progress callback, a cancel signal. */
export type WalkSettings = Pick<EngineOptions, 'concurrency' | 'progress' | 'signal' | 'retry'>;

/** The engine options of every full walk of a list: the largest page unless asked, notices to `-v`. */
export function walkOptions(ctx: ResourceContext, perPage: number | undefined, settings: WalkSettings = {}): EngineOptions {
  return { ...settings, perPage: perPage ?? PER_PAGE_MAX, notice: ctx.notice };
}

const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  mp4: 'video/mp4',
  pdf: 'application/pdf',
  csv: 'text/csv',
};

/** A file part with a content type guessed from its extension (servers sniff the bytes anyway). */
export function fileRef(filePath: string): FileRef {
  const extension = /\.([a-z0-9]+)$/i.exec(filePath)?.[1]?.toLowerCase() ?? '';
  const contentType = CONTENT_TYPES[extension];
  return contentType ? { filePath, contentType } : { filePath };
}

export function multipart(body: Record<string, unknown>): MultipartPart[] {
  return toMultipartParts(body);
}

/** Query values the list endpoints take; undefined values are left out by the transport. */
export interface PageQuery {
  page?: number;
  per_page?: number;
}

/** The query of a full walk: the walk sets `page` (and may change `per_page`) itself. */
export type WalkQuery<Q extends PageQuery = PageQuery> = Omit<Q, 'page'>;
