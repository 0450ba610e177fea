// The shape of a resource description: what the client, the command declarations, the server's
// route table, the OpenAPI document and the MCP tools each read from one place (index.ts lists
// them). Only types and small builders: importing this loads zod's types, never zod itself, and the
// client's types, never the client.
import type { z } from 'zod';
import type { WsmClient } from '../client.js';
import type { PageParams } from '../pagination.js';
import type { CallOptions } from '../resources/base.js';
import type { Permission } from '../schemas/permissions.js';
import type { ResourceIdentity } from './catalog.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call an operation (decisions.md §4): a permission in the workspace of the path, any
 * holder of a valid token (workspace-less operations), partner users only, or anyone.
 */
export type Access = { permission: Permission } | 'authenticated' | 'partner' | 'public';

/** What an operation does to the server's state, as MCP tool annotations say it. */
export interface OperationHints {
  /** Changes nothing. */
  readOnly: boolean;
  /** May overwrite or remove what exists (an update, a delete); false: only adds. */
  destructive: boolean;
  /** The same call again has no further effect. */
  idempotent: boolean;
}

export interface OperationDescription {
  /** The resource this operation belongs to (its key in DESCRIPTIONS). */
  resource: string;
  /** The operation's name in its resource: its client method's too, and the CLI verb unless `verb` says otherwise. */
  name: string;
  method: HttpMethod;
  /** Under /api/v3, as the published API writes it: `/workspaces/{workspace}/labels/{label}`. */
  path: string;
  access: Access;
  /** In the published API (the hosted service has it); false: an extension of ours (decisions.md §6, §7), which a server may lack. */
  published: boolean;
  /** One line: the OpenAPI summary, and the start of a tool description. */
  summary: string;
  /** More, when a caller needs it to choose or call the operation right. */
  description?: string;
  query?: z.ZodType;
  /** The body the client checks before sending and the server validates: the same schema. */
  body?: z.ZodType;
  /** The body may (true) or must ('only') be a multipart form. */
  multipart?: boolean | 'only';
  /** File parts of the multipart form, by their bracket names (`header[media][file]`). */
  files?: string[];
  /** File parts a form may carry at most, counted whatever their names (empty ones too): 413 beyond. */
  fileParts?: number;
  /** The success answer; `binary` for a file download. */
  response?: z.ZodType | 'binary';
  /** The success status. */
  status: number;
  /** Statuses a caller must expect beyond 401/403/404/422 (413 on uploads, 429 on logins...). */
  errors?: number[];
  hints: OperationHints;
  /**
   * The CLI command that runs it (`labels list`, `auth login`), or null when the CLI has none
   * (a stored file's download is a URL, not a command).
   */
  verb: string | null;
  /** How the client calls it (`(c, { query, options }) => c.labels.list(query, options)`), or null where the client has none. */
  client: ClientCall | null;
  /**
   * Body fields a server may require although the caller can leave them out (the published API says a label's
   * PUT needs `name` while a note says the colour alone may be sent): when the body sets something
   * else and leaves these out, the client reads the record first and sends its current values.
   */
  sendsCurrent?: string[];
  /** For an extension: what to do instead on a server without it ("find it in `wsm labels list`"). */
  instead?: string;
  /**
   * For an extension: what "this server does not support …" names (`listing labels`); null where
   * the client lets the caller decide what the absence means (`GET /me`).
   */
  unsupported: string | null;
}

export interface ResourceDescription extends ResourceIdentity {
  /** The key in DESCRIPTIONS (`contacts`, `groups`): also the WsmClient property. */
  key: string;
  /** The record its list and get answer: its keys are the fields `--json` may name. */
  record?: z.ZodObject;
  /** Fixed values of its flags, for shell completion (`--gender`: male, female, other). */
  completion?: Record<string, readonly string[]>;
  /**
   * A plain collection's field unique in the workspace (`name` for labels: a clash is a 422 on
   * it), or null where the records have none; undefined for a resource that is no plain collection.
   */
  unique?: string | null;
  operations: Record<string, OperationDescription>;
}

/** Only in the types: a plain collection's record and bodies, which its client resource is typed by. */
declare const collectionTypes: unique symbol;

/**
 * A plain collection's description: the client serves it with the CRUD resource
 * (resources/crud.ts) typed by `T` (its record), `C` and `U` (its create and update bodies), with
 * no class or property of its own (its catalog entry says `collection: true`).
 */
export interface CollectionDescription<T, C extends z.ZodType, U extends z.ZodType> extends ResourceDescription {
  readonly [collectionTypes]: { record: T; create: C; update: U };
}

/**
 * `description` as a plain collection's, its types inferred from the schemas it was described
 * with: the record's, the create and update bodies'. They must be the ones its operations carry.
 */
export function collection<R extends z.ZodObject, C extends z.ZodType, U extends z.ZodType>(
  description: ResourceDescription,
  schemas: { record: R; create: C; update: U },
): CollectionDescription<z.output<R>, C, U> {
  const { record, operations } = description;
  if (record !== schemas.record || operations.create?.body !== schemas.create || operations.update?.body !== schemas.update) {
    throw new TypeError(`${description.key}: the record and bodies given to collection() are not the ones its description carries`);
  }
  return description as CollectionDescription<z.output<R>, C, U>;
}

/**
 * What one call of an operation hands its client method: the record's id (where the path names
 * one), a list's query, the body, the paths of file parts by their names, the call's options.
 */
export interface OperationCall<B = unknown> {
  id: number | string;
  query: PageParams;
  body: B;
  files: { [part: string]: string | undefined };
  options: CallOptions;
}

/**
 * How the client calls an operation: a function of WsmClient, so that tsc checks the method it
 * names and the arguments it passes (a method renamed or retyped fails to compile). It answers
 * what the method answers: an envelope, a PageList, a list.
 */
export type ClientCall = (client: WsmClient, call: OperationCall) => unknown;

/**
 * An operation's body and the client call that sends it, the call's body typed as that schema reads
 * it: `...sends(s.workspaceCreateBody, (c, { body, options }) => c.workspaces.create(body.name, options))`.
 * What reaches the call has been read by the schema's fields (MCP builds its input from them), and
 * the client method checks it against the whole schema before sending.
 */
export function sends<S extends z.ZodType>(
  body: S,
  client: (client: WsmClient, call: OperationCall<z.output<S>>) => unknown,
): { body: S; client: ClientCall } {
  return { body, client: client as ClientCall };
}

/** What an operation spec leaves out: filled in by `describe` from the resource and the method. */
export type OperationSpec = Omit<
  OperationDescription,
  'resource' | 'name' | 'hints' | 'status' | 'verb' | 'published' | 'access' | 'unsupported'
> & {
  unsupported?: string | null;
  published?: boolean;
  access?: Access;
  status?: number;
  hints?: Partial<OperationHints>;
  verb?: string | null;
};

/** GET reads; PUT, PATCH and DELETE overwrite or remove and may be repeated; POST adds. */
function defaultHints(method: HttpMethod): OperationHints {
  if (method === 'GET') return { readOnly: true, destructive: false, idempotent: true };
  if (method === 'POST') return { readOnly: false, destructive: false, idempotent: false };
  return { readOnly: false, destructive: true, idempotent: true };
}

const GERUNDS: Record<string, string> = { get: 'getting', create: 'creating', update: 'updating', delete: 'deleting' };

/** `listing labels`, `getting a label`; other operations by their summary (`revoke the calling token`). */
function unsupportedName(name: string, noun: string, summary: string): string {
  if (name === 'list') return `listing ${noun}s`;
  const gerund = GERUNDS[name];
  return gerund ? `${gerund} a ${noun}` : summary.charAt(0).toLowerCase() + summary.slice(1);
}

/**
 * One resource's description from its identity and its operations. Defaults: published, access by
 * any valid token, success 200, hints from the method, the CLI verb `<cli> <name>` and the absence's
 * wording from the operation's name (`getting a label`).
 */
export function describe(
  key: string,
  identity: ResourceIdentity,
  extra: Pick<ResourceDescription, 'record' | 'completion' | 'unique'>,
  specs: Record<string, OperationSpec>,
): ResourceDescription {
  const operations: Record<string, OperationDescription> = {};
  for (const [name, spec] of Object.entries(specs)) {
    operations[name] = {
      ...spec,
      resource: key,
      name,
      access: spec.access ?? 'authenticated',
      published: spec.published ?? true,
      status: spec.status ?? 200,
      hints: { ...defaultHints(spec.method), ...spec.hints },
      verb: spec.verb === undefined ? (identity.cli === undefined ? null : `${identity.cli} ${name}`) : spec.verb,
      unsupported: spec.unsupported === undefined ? unsupportedName(name, identity.noun, spec.summary) : spec.unsupported,
    };
  }
  return { ...identity, ...extra, key, operations };
}

/** `{ permission: 'labels.view' }`, shorter to read in a description. */
export const can = (permission: Permission): Access => ({ permission });
