// The operations of a collection under the workspace (list, get, create, update, delete), shared
// by contacts, groups, fields, imports, labels, roles, users and templates: each names its schemas,
// its permissions and which operations are extensions, and overrides what differs. A plain
// collection's client calls are its CRUD resource's methods (crudCalls); the others write their own.
import type { z } from 'zod';
import type { CollectionKey, WsmClient } from '../client.js';
import type { CrudResource } from '../resources/crud.js';
import { created, deleted, paginated, single, updated } from '../schemas/common.js';
import { isPermission, type Permission, type PermissionGroup } from './permission-groups.js';
import { CATALOG, type ResourceIdentity } from './catalog.js';
import { can, collection, describe, type ClientCall, type CollectionDescription, type OperationSpec } from './types.js';

export const WORKSPACE = '/workspaces/{workspace}';

/** The bodies and the query; the answers are the record in the published API's envelopes unless given. */
export interface CollectionSchemas {
  query: z.ZodType;
  create: z.ZodType;
  update?: z.ZodType;
  list?: z.ZodType;
  one?: z.ZodType;
  created?: z.ZodType;
  updated?: z.ZodType;
  deleted?: z.ZodType;
}

export type CrudName = 'list' | 'get' | 'create' | 'update' | 'delete';

/** An operation of a collection before its client call is given. */
export type CrudOperationSpec = Omit<OperationSpec, 'client'>;

export interface CollectionSpec {
  /**
   * The permission each operation needs where it is not `<group>.<view|create|update|delete>`
   * (`update: 'contact_fields.create'`, or `manage` for a group with view and manage alone).
   */
  permissions?: Partial<Record<CrudName, Permission>>;
  /** The operations it has: all five unless given. An operation is never left out otherwise. */
  has?: CrudName[];
  /** Operations that are ours, not the published API's. */
  extensions: CrudName[];
  /** What to do instead where an extension is missing. */
  instead?: Partial<Record<CrudName, string>>;
}

const ACTIONS: Record<CrudName, string> = { list: 'view', get: 'view', create: 'create', update: 'update', delete: 'delete' };

function groupOf(identity: ResourceIdentity): PermissionGroup {
  if (identity.permissionGroup === undefined)
    throw new TypeError(`${identity.segment} has no permission group in the catalog (step 3 of adding a resource)`);
  return identity.permissionGroup;
}

/**
 * The permission `name` needs: the spec's, else `<group>.<action>`. A group without that action
 * (notes with view and manage alone) stops start-up naming the operation and the two ways out,
 * rather than leaving the operation out unsaid.
 */
function permissionFor(identity: ResourceIdentity, spec: CollectionSpec, name: CrudName): Permission {
  const given = spec.permissions?.[name];
  if (given !== undefined) return given;
  const group = groupOf(identity);
  const wanted = `${group}.${ACTIONS[name]}`;
  if (isPermission(wanted)) return wanted;
  throw new TypeError(
    `${identity.segment}: its ${name} operation needs a permission, and ${group} has no "${ACTIONS[name]}" (decisions.md §4): ` +
      `name it in the description (\`permissions: { ${name}: '${group}.<action>' }\`) or leave ${name} out (\`has\`)`,
  );
}

/** The five operations (or those in `has`), with the usual summaries and each one's permission; a resource overrides by name. */
export function collectionOperations(
  identity: ResourceIdentity,
  record: z.ZodType,
  given: CollectionSchemas,
  spec: CollectionSpec,
): Record<string, CrudOperationSpec> {
  const schemas = { list: paginated(record), one: single(record), created: created(record), updated: updated(record), deleted, ...given };
  const base = `${WORKSPACE}/${identity.segment}`;
  const one = `${base}/{${identity.idParam}}`;
  const { noun } = identity;
  const all: Record<CrudName, CrudOperationSpec> = {
    list: { method: 'GET', path: base, summary: `List ${noun}s`, query: schemas.query, response: schemas.list },
    get: { method: 'GET', path: one, summary: `Get a ${noun}`, response: schemas.one },
    create: { method: 'POST', path: base, summary: `Create a ${noun}`, body: schemas.create, response: schemas.created, status: 201 },
    update: { method: 'PUT', path: one, summary: `Update a ${noun}`, body: schemas.update, response: schemas.updated },
    delete: { method: 'DELETE', path: one, summary: `Delete a ${noun}`, response: schemas.deleted },
  };
  const out: Record<string, CrudOperationSpec> = {};
  for (const name of spec.has ?? (Object.keys(all) as CrudName[])) {
    const permission = permissionFor(identity, spec, name);
    const extension = spec.extensions.includes(name);
    out[name] = {
      ...all[name],
      access: can(permission),
      published: !extension,
      ...(extension && spec.instead?.[name] ? { instead: spec.instead[name] } : {}),
    };
  }
  return out;
}

/** The client calls of a plain collection's operations: the methods of its CRUD resource, WsmClient's property `key`. */
function crudCalls(key: CollectionKey): Record<CrudName, ClientCall> {
  const resource = (client: WsmClient): CrudResource<unknown, z.ZodType, z.ZodType> => client[key];
  return {
    list: (client, { query, options }) => resource(client).list(query, options),
    get: (client, { id, options }) => resource(client).get(id, options),
    create: (client, { body, options }) => resource(client).create(body, options),
    update: (client, { id, body, options }) => resource(client).update(id, body, options),
    delete: (client, { id, options }) => resource(client).delete(id, options),
  };
}

/** A plain collection's operations, each with the call of its CRUD resource's method of the same name. */
function withCrudCalls(key: CollectionKey, operations: Record<string, CrudOperationSpec>): Record<string, OperationSpec> {
  const calls = crudCalls(key);
  return Object.fromEntries(
    Object.entries(operations).map(([name, operation]) => {
      if (!(name in calls)) throw new TypeError(`${key}.${name}: a plain collection has no client call of that name`);
      return [name, { ...operation, client: calls[name as CrudName] }];
    }),
  );
}

/** What a plain collection states beyond a collection's spec: which field no two records of a workspace share. */
export interface PlainCollectionSpec extends CollectionSpec {
  /** The record's field unique in the workspace (`name`), or null where none is: the server refuses a clash on it with a 422. */
  unique: string | null;
}

/**
 * A plain collection's description (the catalog's `collection: true`): its five operations as
 * collectionOperations gives them, each called through its CRUD resource, with `overrides` laid
 * over the operation of the same name.
 */
export function plainCollection<R extends z.ZodObject, C extends z.ZodType, U extends z.ZodType>(
  key: CollectionKey,
  schemas: { record: R; query: z.ZodType; create: C; update: U },
  spec: PlainCollectionSpec,
  overrides: Partial<Record<CrudName, Partial<OperationSpec>>> = {},
): CollectionDescription<z.output<R>, C, U> {
  const { record, query, create, update } = schemas;
  const identity = CATALOG[key];
  const crud = withCrudCalls(key, collectionOperations(identity, record, { query, create, update }, spec));
  for (const [name, override] of Object.entries(overrides)) crud[name] = { ...crud[name], ...override } as OperationSpec;
  return collection(describe(key, identity, { record, unique: spec.unique }, crud), { record, create, update });
}
