/**
 * The record a request's path names (`PUT …/labels/{label}`), looked up by the validation hook
 * (contract.ts) after authorisation and before the query and the body are checked: a record that
 * does not exist is a 404 whatever was sent, as GitHub's API answers, never a 422 about a body
 * that could change nothing (decisions.md, "The contract and browser apps"). The record found is
 * the request's (`pathRecord`), so the handler reads it instead of looking it up again. Routes that
 * check nothing (a GET or DELETE of one record) name no record here and find it themselves.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CATALOG, type OperationDescription, type ResourceIdentity } from '../../api/descriptions/index.js';
import { pathParameters } from '../../api/descriptions/paths.js';
import type { Repositories } from '../repositories/index.js';
import { type HttpError, notFound, templateNotFound } from './errors.js';
import { pathId } from './validate.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The record the path names: its resource, and the path parameter holding its id. */
    record?: PathRecord;
  }
  interface FastifyRequest {
    /** The record the path names, as the validation hook found it (undefined on a route that names none). */
    pathRecord: unknown;
  }
}

/** The record the validation hook found for this request's path, typed as the route's repository returns it. */
export function foundRecord<T>(request: FastifyRequest): T {
  if (request.pathRecord === undefined) throw new TypeError(`${request.method} ${request.url}: its route names no record in its path`);
  return request.pathRecord as T;
}

export interface PathRecord {
  resource: string;
  param: string;
}

/**
 * The record an operation's path names, when the path holds its resource's id parameter and the
 * operation checks a query or a body (its own form included), which a missing record must not reach.
 */
export function pathRecordOf(operation: OperationDescription): PathRecord | undefined {
  if (operation.query === undefined && operation.body === undefined) return undefined;
  const param = (CATALOG as Readonly<Record<string, ResourceIdentity>>)[operation.resource]?.idParam;
  return param !== undefined && pathParameters(operation.path).includes(param) ? { resource: operation.resource, param } : undefined;
}

type Finder = (workspaceId: string, id: number) => unknown;

/** How each resource's record is found in a workspace: the finders its own routes use. */
function findersOf(repositories: Repositories): Readonly<Record<string, Finder>> {
  const { collections, contacts, imports, roles, templates, workspaces } = repositories;
  return {
    ...Object.fromEntries(Object.entries(collections).map(([key, records]) => [key, (ws: string, id: number) => records.find(ws, id)])),
    contacts: (ws, id) => contacts.find(ws, id),
    imports: (ws, id) => imports.find(ws, id),
    roles: (ws, id) => roles.find(ws, id),
    templates: (ws, id) => templates.find(ws, id),
    // A user is found by their membership of the workspace: what an update of theirs is checked against.
    users: (ws, id) => workspaces.membership(ws, id),
  };
}

/** A missing template answers in the template endpoints' 404 shape (decisions.md §1). */
const NOT_FOUND: Readonly<Record<string, () => HttpError>> = { templates: templateNotFound };

/**
 * The check the validation hook runs first: throws the 404 of a record the path names that does
 * not exist. Every route naming a record must have a finder: a route that has
 * none (or an app without `repositories`, whose routes name no record) fails as the app is built,
 * never in a request.
 */
export function recordCheck(api: FastifyInstance, repositories: Repositories | undefined): (request: FastifyRequest) => void {
  const finders = repositories === undefined ? {} : findersOf(repositories);
  api.decorateRequest('pathRecord', undefined);
  api.addHook('onRoute', (route) => {
    const record = route.config?.record;
    if (record && !finders[record.resource])
      throw new Error(`${String(route.method)} ${route.url}: no way to find the ${record.resource} record its path names`);
  });
  return (request) => {
    const record = request.routeOptions.config.record;
    if (!record) return;
    const missing = NOT_FOUND[record.resource] ?? notFound;
    const id = pathId((request.params as Record<string, string | undefined>)[record.param], missing);
    const found = finders[record.resource]!(request.workspaceId, id);
    if (found === undefined) throw missing();
    request.pathRecord = found;
  };
}
