// What every resource module shares: the transport, the workspace in use, the local body check,
// and the rule that turns a "no such route" answer on an extension endpoint into a clear error.
import { type z } from 'zod';
import { requireRecord } from '../answers.js';
import { APIStatusError, MethodNotAllowedError, NotFoundError, RequestValidationError, UnsupportedEndpointError } from '../errors.js';
import { check } from '../schemas/index.js';
import type { EngineOptions, EngineRequest } from '../page-engine.js';
import { readPage, type ListPage } from '../pagination.js';
import { encodePath, toMultipartParts, type MultipartPart } from '../request-parts.js';
import type { QueryParams, Transport } from '../transport.js';


export interface ResourceContext {
  transport: Transport;
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
 * The API's own 404 bodies carry `status: 404` (decisions.md §1, api.md). A 404 without it comes
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

/** An extension GET of one record (`noun` like "contact"): "not supported" with `instead`, or the record. */
export async function getOneExtension<T>(ctx: ResourceContext, path: string, noun: string, id: number | string, instead: string, request?: Partial<EngineRequest>): Promise<{ data: T }> {
  const body = await extension(`getting one ${noun}`, () => ctx.transport.request({ method: 'GET', path, signal: request?.signal, retryThrottled: request?.retryThrottled }), instead);
  return { data: requireRecord<T>(body, `getting ${noun} ${id}`) };
}

/**
 * GET a paginated list and read it leniently (`what` names it in an unusable-answer error).
 * `request` comes from the page engine, which paces throttled answers itself.
 */
export async function getPage<T>(ctx: ResourceContext, path: string, query: QueryParams, what: string, request?: EngineRequest): Promise<ListPage<T>> {
  const body = await ctx.transport.request({ method: 'GET', path, query, retryThrottled: request?.retryThrottled, signal: request?.signal });
  return readPage<T>(body, what);
}

/** What a caller may set on a full walk: how many requests in flight, a progress callback, a cancel signal. */
export type WalkSettings = Pick<EngineOptions, 'concurrency' | 'progress' | 'signal'>;

/** The engine options of every full walk of a list: 100 a page unless asked, notices to `-v`. */
export function walkOptions(ctx: ResourceContext, perPage: number | undefined, settings: WalkSettings = {}): EngineOptions {
  return { ...settings, perPage: perPage ?? 100, notice: (line) => ctx.transport.notice(line) };
}

/** `/workspaces/{ws}` + an already-encoded tail. */
export function workspacePath(ctx: ResourceContext, tail = ''): string {
  return encodePath`/workspaces/${ctx.workspace()}` + tail;
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
