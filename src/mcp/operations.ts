// The tools of the API's operations, derived from the resource descriptions (src/api/descriptions):
// name `<resource>.<operation>`, the description's summary and hints, the input from the same
// zod schemas the client checks bodies with (path id, query filters, body fields), the output from
// the resource's record. Each call goes through the operation's typed client call (its description's
// `client`), never a second client nor a method looked up by name; a write is journaled on the way
// (journal/resource-change.ts), under the tool's name, so `history.undo` can take it back.
// Lists page with an opaque cursor, at most 100 rows a call: nothing returns an unbounded list.
import * as z from 'zod';
import type { ClientCall, OperationCall, OperationDescription, ResourceDescription } from '../api/descriptions/types.js';
import { numberOf, pageAfter, type ListPage, type PageParams } from '../api/pagination.js';
import { PER_PAGE_MAX } from '../api/schemas/common.js';
import { UsageError } from '../cli/errors.js';
import { TEMPLATE_STATUS_FILTERS, contactUpdateBody, templateListQuery } from '../api/schemas/index.js';
import { textHeader } from '../api/schemas/templates.js';
import { TOOL_DESCRIPTIONS } from './texts.js';
import type { ToolCall, ToolSpec } from './tool.js';
import { pathParameters } from '../api/descriptions/paths.js';
import { AGENT_RESOURCES, type ResourceKey } from '../api/descriptions/catalog.js';
import { journaledWrite } from '../journal/resource-change.js';
import { deleteUndoNote } from '../journal/undo-reach.js';

/** What a tool needs of an operation's description. */
type DescribedOperation = Pick<
  OperationDescription,
  | 'resource'
  | 'name'
  | 'method'
  | 'path'
  | 'published'
  | 'summary'
  | 'description'
  | 'query'
  | 'body'
  | 'response'
  | 'multipart'
  | 'files'
  | 'hints'
  | 'client'
  | 'instead'
>;

export type DescribedResource = Pick<ResourceDescription, 'key' | 'noun' | 'record'> & { operations: Record<string, DescribedOperation> };

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
    if (name === 'fields') continue; // the rows' fields to keep, not a query parameter
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

function inputOf(op: DescribedOperation, resource: DescribedResource, row: z.ZodType | undefined): z.ZodObject {
  const fields: Record<string, z.ZodType> = {};
  const list = `${resource.key}.list`;
  if (idParameter(op.path) !== undefined) fields.id = recordId.describe(`The ${resource.noun}'s id (from ${list}).`);
  if (isPagedList(op)) {
    for (const [key, value] of Object.entries(shapeOf(op.query) ?? {}))
      if (!PAGE_FIELDS.has(key)) fields[QUERY_RENAMES[key] ?? key] = value;
    fields.cursor = z.string().optional().describe('next_cursor of the page before.');
    fields.per_page = z.number().int().min(1).max(PER_PAGE_MAX).default(DEFAULT_PER_PAGE).describe(`Rows a page, 1 to ${PER_PAGE_MAX}.`);
    Object.assign(fields, TOOL_ARGUMENTS[`${resource.key}.${op.name}`]);
    const keys = recordKeys(row);
    if (keys.length > 0)
      fields.fields = z
        .array(z.enum(keys as [string, ...string[]]))
        .min(1)
        .optional()
        .describe('Only these fields of each row (and id).');
  }
  const body = spreadBody(op);
  if (body !== undefined) Object.assign(fields, body, TOOL_ARGUMENTS[`${resource.key}.${op.name}`]);
  else if (op.body !== undefined) fields.body = op.body;
  if (needsConfirm(op)) fields.confirm = z.boolean().optional().describe('true to do it; otherwise nothing is done.');
  return z.strictObject(fields);
}

/** The record's fields a list row may be cut down to (`workspace_id` is left out of every row). */
function recordKeys(row: z.ZodType | undefined): string[] {
  return Object.keys(shapeOf(row) ?? {}).filter((key) => key !== 'workspace_id');
}

/** What a call returns, in words: the output is the records as the server gives them, which a schema would restate at length. */
function returns(op: DescribedOperation, noun: string): string {
  if (isPagedList(op)) return ` Returns items (${noun} records), total, next_cursor.`;
  if (op.method === 'DELETE') return ' Returns {deleted: true, message}.';
  return op.method === 'GET' ? ` Returns {data: the ${noun}}.` : ' Returns {data: the record saved, message}.';
}

/** Tool arguments that differ from the API's body: what a tool call can send, or what the tool fills in. */
const TOOL_ARGUMENTS: Record<string, Record<string, z.ZodType>> = {
  'templates.list': {
    status: z
      .enum(TEMPLATE_STATUS_FILTERS)
      .optional()
      .describe(templateListQuery.shape.status.description ?? ''),
  },
  // The current name is read when none is given (the API requires one on every update).
  'contacts.update': {
    name: contactUpdateBody.shape.name.optional().describe('New display name, at most 50 characters; kept when not given.'),
  },
  // A media header's file is a multipart upload, which a tool call cannot carry: the text header alone is listed.
  'templates.create': {
    header: z
      .preprocess((header, ctx) => {
        if ((header as { type?: unknown } | null | undefined)?.type === 'media')
          ctx.addIssue({
            code: 'custom',
            message: 'a media header needs a file upload, which a tool call cannot carry: give a text header or none',
            params: { custom: true },
          });
        return header;
      }, textHeader.nullable())
      .optional()
      .describe('Optional text header; a media header cannot be sent by a tool call.'),
  },
};

/** A list's rows without `workspace_id` (the same on every row), cut to `fields` when given (id kept). */
function trimmedRows(items: unknown[], fields: string[] | undefined): unknown[] {
  const keep = fields === undefined ? undefined : new Set(['id', ...fields]);
  return items.map((item) => {
    if (typeof item !== 'object' || item === null) return item;
    return Object.fromEntries(Object.entries(item).filter(([key]) => key !== 'workspace_id' && (keep === undefined || keep.has(key))));
  });
}

/**
 * The call of the operation a tool call stands for: the id (the input requires one where the path
 * names a record), a list's query, the body (no files: the JSON form), and the signal the client's
 * cancellation aborts.
 */
function operationCall(op: DescribedOperation, args: Record<string, unknown>, query: PageParams, signal: AbortSignal): OperationCall {
  const body = op.body === undefined ? undefined : spreadBody(op) === undefined ? args.body : passedOn(args);
  return { id: args.id as number | string, query, body, files: {}, options: { signal } };
}

/** A page of a list as the tool gives it: its items, the total when the server says, and the cursor of the next page. */
function pageShaped(page: ListPage<unknown>, asked: PageParams, fields: string[] | undefined): Record<string, unknown> {
  const reached = numberOf(asked.page) ?? page.meta.current_page ?? 1;
  const after = pageAfter(page, reached, numberOf(asked.per_page));
  return {
    items: trimmedRows(page.data, fields),
    ...(typeof page.meta.total === 'number' ? { total: page.meta.total } : {}),
    ...(after === undefined ? {} : { next_cursor: cursorOf(after, asked) }),
    ...(page.meta.filtered_here === true
      ? {
          note: 'This server does not filter by field_values (an extension of wsm serve): every contact was read and filtered here, which takes a walk of the whole list each call.',
        }
      : {}),
  };
}

function shaped(op: DescribedOperation, answer: unknown): Record<string, unknown> {
  const body = answer as { message?: unknown; data?: unknown } | undefined;
  const message = typeof body?.message === 'string' ? { message: body.message } : {};
  if (op.method === 'DELETE') return { deleted: true, ...message };
  if (Array.isArray(answer)) return { items: answer };
  return { ...(body?.data !== undefined ? { data: body.data } : {}), ...message };
}

/** What a call needing confirm: true would do: `deleting label 5 (wsm undo can make it again, with a new id)`. */
function confirmation(op: DescribedOperation, { key, noun }: DescribedResource, args: Record<string, unknown>, call: ToolCall): string {
  if (op.method !== 'DELETE') return `${op.summary.charAt(0).toLowerCase()}${op.summary.slice(1)} replaces what is there as a whole`;
  return `deleting ${noun} ${String(args.id)} (${deleteUndoNote(key as ResourceKey, call.ctx).replace(/^This/, 'this')})`;
}

/** The rows of a list whose rows are not the resource's records (an import's errors), from its answer's schema. */
function rowsOf(op: DescribedOperation): z.ZodObject | undefined {
  const data = op.response instanceof z.ZodObject ? (op.response.shape as Record<string, z.ZodType>).data : undefined;
  const row = data instanceof z.ZodArray ? data.element : undefined;
  return row instanceof z.ZodObject ? row : undefined;
}

/** The tool of `op`, which calls the client through `invoke` (its description's client call). */
function toolOf(resource: DescribedResource, op: DescribedOperation, invoke: ClientCall): ToolSpec {
  const own = idParameter(op.path) !== undefined && isPagedList(op) ? rowsOf(op) : undefined;
  const name = `${resource.key}.${op.name}`;
  const extension = op.published ? '' : ' (Extension)';
  return {
    name,
    toolset: resource.key,
    title: op.summary,
    description: `${TOOL_DESCRIPTIONS[name] ?? `${op.summary}.${op.description ? ` ${op.description}` : ''}${extension}`}${returns(op, resource.noun)}`,
    input: inputOf(op, resource, own ?? resource.record),
    hints: op.hints,
    published: op.published,
    ...(needsConfirm(op) ? { confirm: (args: Record<string, unknown>, call: ToolCall) => confirmation(op, resource, args, call) } : {}),
    async run(args, call) {
      const client = await call.ctx.client();
      if (idParameter(op.path) !== undefined || op.path.includes('{workspace}')) await call.ctx.workspace();
      if (name === 'contacts.update' && args.name === undefined)
        args = { ...args, name: (await client.contacts.get(args.id as number, { signal: call.signal })).data.name };
      if (!isPagedList(op)) {
        const sent = operationCall(op, args, {}, call.signal);
        if (op.hints.readOnly) return shaped(op, await invoke(client, sent));
        call.ctx.journalCommand = `wsm mcp: ${name}${args.id === undefined ? '' : ` ${String(args.id)}`}`;
        const write = { resource: op.resource as ResourceKey, operation: op.name, id: args.id as number | undefined, body: sent.body };
        return shaped(op, await journaledWrite(call.ctx, client, write, async () => invoke(client, sent)));
      }
      const asked = listQuery(args);
      // A list under one record (an import's errors) takes that record's id too.
      const page = (await invoke(client, operationCall(op, args, asked, call.signal))) as ListPage<unknown>;
      return pageShaped(page, asked, args.fields as string[] | undefined);
    },
  };
}

/** One tool per operation the client can call, but the uploads workflows.ts offers whole. */
export function operationTools(resources: readonly DescribedResource[]): ToolSpec[] {
  return resources
    .filter((resource) => (AGENT_RESOURCES as readonly string[]).includes(resource.key))
    .flatMap((resource) =>
      Object.values(resource.operations).flatMap((op) =>
        op.client === null || op.multipart === 'only' ? [] : [toolOf(resource, op, op.client)],
      ),
    );
}
