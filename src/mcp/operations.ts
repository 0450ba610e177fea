// The tools of the API's operations, derived from the resource descriptions (src/api/descriptions):
// name `<resource>.<operation>`, the description's summary and hints, the input from the same
// zod schemas the client checks bodies with (path id, query filters, body fields), the output from
// the resource's record. Each call goes through the typed client (WsmClient), never a second one.
// Lists page with an opaque cursor, at most 100 rows a call: nothing returns an unbounded list.
import * as z from 'zod';
import type { WsmClient } from '../api/client.js';
import type { OperationDescription, ResourceDescription } from '../api/descriptions/types.js';
import { numberOf, pageAfter, type ListPage, type PageParams } from '../api/pagination.js';
import { PER_PAGE_MAX } from '../api/schemas/common.js';
import { UsageError } from '../cli/errors.js';
import { lenient } from './lenient.js';
import type { ToolSpec } from './tool.js';
import { pathParameters } from '../api/descriptions/paths.js';

/** What a tool needs of an operation's description. */
export type DescribedOperation = Pick<
  OperationDescription,
  'resource' | 'name' | 'method' | 'path' | 'published' | 'summary' | 'description' | 'query' | 'body' | 'response' | 'multipart' | 'files' | 'hints' | 'client' | 'instead'
>;

export type DescribedResource = Pick<ResourceDescription, 'key' | 'noun' | 'record'> & { operations: Record<string, DescribedOperation> };

/** Resources no agent should drive: its own token (auth) and raw file downloads (files). */
const LEFT_OUT = new Set(['auth', 'files']);
/** Client methods that take the body's one field itself rather than the body. */
const SINGLE_VALUE: Record<string, string> = { 'workspaces.create': 'name', 'permissions.setPartnerDefaults': 'permissions' };

const DEFAULT_PER_PAGE = 25;
const PAGE_FIELDS = new Set(['page', 'per_page']);

const recordId = z.union([z.number().int().positive(), z.string().regex(/^[^/?#]+$/)]);

/** The path parameter naming one record (`{contact}`), if the path has one besides the workspace. */
function idParameter(path: string): string | undefined {
  return pathParameters(path).find((name) => name !== 'workspace');
}

function shapeOf(schema: z.ZodType | undefined): Record<string, z.ZodType> | undefined {
  return schema instanceof z.ZodObject ? (schema.shape as Record<string, z.ZodType>) : undefined;
}

/** A delete, or a change to a whole set rather than one record (the partner defaults): confirm: true first. */
function needsConfirm(op: DescribedOperation): boolean {
  return op.method === 'DELETE' || (op.hints.destructive && idParameter(op.path) === undefined);
}

function isPagedList(op: DescribedOperation): boolean {
  return op.method === 'GET' && op.query !== undefined && shapeOf(op.query)?.page !== undefined;
}

/**
 * A list's cursor: `p3` for page 3 when the server's next link asks nothing else of its own, else
 * `q` and that link's query as base64url JSON (a server paging with its own cursor). Its next page
 * is read as every walk of a list reads it (pageAfter).
 */
function cursorOf(after: PageParams, asked: PageParams): string {
  const own = Object.entries(after).some(([key, value]) => key !== 'page' && value !== undefined && String(value) !== String(asked[key]));
  if (!own && after.page !== undefined) return `p${after.page}`;
  return `q${Buffer.from(JSON.stringify(after)).toString('base64url')}`;
}

/** The query a cursor stands for (page 1 without one); a cursor no list returned is a usage error. */
function queryOfCursor(cursor: string | undefined): PageParams {
  if (cursor === undefined) return { page: 1 };
  const page = /^p([1-9]\d{0,8})$/.exec(cursor)?.[1];
  if (page !== undefined) return { page: Number(page) };
  const query = cursor.startsWith('q') ? parsedQuery(Buffer.from(cursor.slice(1), 'base64url').toString('utf8')) : undefined;
  if (query === undefined) throw new UsageError(`cursor "${cursor}" is not one a list returned: pass next_cursor as it was given`);
  return query;
}

function parsedQuery(text: string): PageParams | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const entries = Object.entries(value);
  return entries.every(([, v]) => typeof v === 'string' || typeof v === 'number') ? (Object.fromEntries(entries) as PageParams) : undefined;
}

const OWN_ARGUMENTS = ['id', 'cursor', 'per_page', 'confirm'];

/** The call's arguments that go to the API as they are: all but the tool's own. */
const passedOn = (args: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(args).filter(([name]) => !OWN_ARGUMENTS.includes(name)));

/**
 * Query parameters a list tool takes under another name: the contact list's custom-field filter
 * (`fields[city]=Lisbon`) is `field_values`, since `fields` selects the rows' fields.
 */
const QUERY_RENAMES: Record<string, string> = { fields: 'field_values' };

/** What a paged list call asks: its filters (a record as bracketed keys) and page size, then what the cursor carries. */
function listQuery(args: Record<string, unknown>): PageParams {
  const query: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(passedOn(args))) {
    const sent = Object.entries(QUERY_RENAMES).find(([, argument]) => argument === name)?.[0] ?? name;
    if (typeof value === 'object' && value !== null) for (const [key, item] of Object.entries(value)) query[`${sent}[${key}]`] = item;
    else query[sent] = value;
  }
  return { ...query, per_page: args.per_page, ...queryOfCursor(args.cursor as string | undefined) } as PageParams;
}

/**
 * The body's fields are the tool's arguments when the body is an object whose fields do not
 * collide with the tool's own; otherwise the body is one argument, `body`.
 */
function spreadBody(op: DescribedOperation): Record<string, z.ZodType> | undefined {
  const body = shapeOf(op.body);
  return body !== undefined && !OWN_ARGUMENTS.some((name) => name in body) ? body : undefined;
}

function inputOf(op: DescribedOperation, noun: string): z.ZodObject {
  const fields: Record<string, z.ZodType> = {};
  if (idParameter(op.path) !== undefined) fields.id = recordId.describe(`The ${noun}'s id.`);
  if (isPagedList(op)) {
    for (const [key, value] of Object.entries(shapeOf(op.query) ?? {})) if (!PAGE_FIELDS.has(key)) fields[QUERY_RENAMES[key] ?? key] = value;
    fields.cursor = z.string().optional().describe('next_cursor of the previous call, for the next page.');
    fields.per_page = z.number().int().min(1).max(PER_PAGE_MAX).default(DEFAULT_PER_PAGE).describe(`Rows a page, 1 to ${PER_PAGE_MAX}.`);
  }
  const body = spreadBody(op);
  if (body !== undefined) Object.assign(fields, body);
  else if (op.body !== undefined) fields.body = op.body;
  if (needsConfirm(op)) fields.confirm = z.boolean().optional().describe('Must be true: without it nothing is sent and the tool says what it would do.');
  return z.strictObject(fields);
}

function outputOf(op: DescribedOperation, record: z.ZodType): z.ZodObject {
  if (isPagedList(op)) {
    return z.object({
      items: z.array(record),
      total: z.number().optional().describe('Rows in the whole list, when the server says.'),
      next_cursor: z.string().optional().describe('Pass as cursor for the next page; absent on the last page.'),
      note: z.string().optional().describe('How the page was made, when it is not as asked of the server.'),
    });
  }
  if (op.method === 'DELETE') return z.object({ deleted: z.literal(true), message: z.string().optional() });
  return z.object({
    data: record.optional().describe('The record, as the server answered.'),
    items: z.array(z.unknown()).optional().describe('The entries, for an operation answering a list.'),
    message: z.string().optional(),
  });
}

/** The client method of `op`, bound to its resource. */
function clientMethod(client: WsmClient, op: DescribedOperation): (...args: unknown[]) => Promise<unknown> {
  const [property, method] = op.client!.split('.');
  const resource = (client as unknown as Record<string, Record<string, unknown>>)[property];
  const fn = resource?.[method];
  if (typeof fn !== 'function') throw new Error(`the client has no ${op.client}`);
  return (fn as (...args: unknown[]) => Promise<unknown>).bind(resource);
}

/**
 * The client method's arguments: the id, then the query or the body (no files: the JSON form), then
 * the call's options, whose signal the client's cancellation aborts.
 */
function callArguments(op: DescribedOperation, args: Record<string, unknown>, signal: AbortSignal): unknown[] {
  const rest = passedOn(args);
  const leading = args.id === undefined ? [] : [args.id];
  if (op.body === undefined) return [...leading, { signal }];
  const body = (spreadBody(op) === undefined ? rest.body : rest) as Record<string, unknown>;
  const single = SINGLE_VALUE[op.client!];
  return [...leading, single === undefined ? body : body[single], ...(op.files?.length ? [{}] : []), { signal }];
}

/** A page of a list as the tool gives it: its items, the total when the server says, and the cursor of the next page. */
function pageShaped(page: ListPage<unknown>, asked: PageParams): Record<string, unknown> {
  const reached = numberOf(asked.page) ?? page.meta.current_page ?? 1;
  const after = pageAfter(page, reached, numberOf(asked.per_page));
  return {
    items: page.data,
    ...(typeof page.meta.total === 'number' ? { total: page.meta.total } : {}),
    ...(after === undefined ? {} : { next_cursor: cursorOf(after, asked) }),
    ...(page.meta.filtered_here === true ? { note: 'This server does not filter by field_values (an extension of wsm serve): every contact was read and filtered here, which takes a walk of the whole list each call.' } : {}),
  };
}

function shaped(op: DescribedOperation, answer: unknown): Record<string, unknown> {
  const body = answer as { message?: unknown; data?: unknown } | undefined;
  const message = typeof body?.message === 'string' ? { message: body.message } : {};
  if (op.method === 'DELETE') return { deleted: true, ...message };
  if (Array.isArray(answer)) return { items: answer };
  return { ...(body?.data !== undefined ? { data: body.data } : {}), ...message };
}

/** What a call needing confirm: true would do: `deleting label 5 cannot be undone`. */
function confirmation(op: DescribedOperation, noun: string, args: Record<string, unknown>): string {
  if (op.method === 'DELETE') return `deleting ${noun} ${String(args.id)} cannot be undone`;
  return `${op.summary.charAt(0).toLowerCase()}${op.summary.slice(1)} replaces what is there as a whole`;
}

/** The rows of a list whose rows are not the resource's records (an import's errors), from its answer's schema. */
function rowsOf(op: DescribedOperation): z.ZodObject | undefined {
  const data = op.response instanceof z.ZodObject ? (op.response.shape as Record<string, z.ZodType>).data : undefined;
  const row = data instanceof z.ZodArray ? data.element : undefined;
  return row instanceof z.ZodObject ? row : undefined;
}

function toolOf(resource: DescribedResource, op: DescribedOperation): ToolSpec {
  const own = idParameter(op.path) !== undefined && isPagedList(op) ? rowsOf(op) : undefined;
  const resourceRecord = own ?? resource.record;
  const record = resourceRecord === undefined ? z.looseObject({}) : lenient(resourceRecord);
  const extension = op.published ? '' : ` An extension of wsm serve: a server without it (the hosted service) says "this server does not support …"${op.instead ? `; there, ${op.instead}` : ''}.`;
  return {
    name: `${resource.key}.${op.name}`,
    toolset: resource.key,
    title: op.summary,
    description: `${op.summary}.${op.description ? ` ${op.description}` : ''}${extension}`,
    input: inputOf(op, resource.noun),
    output: outputOf(op, record),
    hints: op.hints,
    published: op.published,
    ...(needsConfirm(op) ? { confirm: (args: Record<string, unknown>) => confirmation(op, resource.noun, args) } : {}),
    async run(args, call) {
      const client = await call.ctx.client();
      if (idParameter(op.path) !== undefined || op.path.includes('{workspace}')) await call.ctx.workspace();
      const method = clientMethod(client, op);
      if (!isPagedList(op)) return shaped(op, await method(...callArguments(op, args, call.signal)));
      const asked = listQuery(args);
      // A list under one record (an import's errors) takes that record's id first.
      const leading = args.id === undefined ? [] : [args.id];
      return pageShaped((await method(...leading, asked, { signal: call.signal })) as ListPage<unknown>, asked);
    },
  };
}

/** One tool per operation the client can call, but the uploads workflows.ts offers whole. */
export function operationTools(resources: readonly DescribedResource[]): ToolSpec[] {
  return resources
    .filter((resource) => !LEFT_OUT.has(resource.key))
    .flatMap((resource) => Object.values(resource.operations).filter((op) => op.client !== null && op.multipart !== 'only').map((op) => toolOf(resource, op)));
}
