/**
 * The routes every kind of workspace record answers alike (decisions.md §1, §2): a page of them,
 * one by its id, a deletion; and the whole set for a plain collection (contact groups, contact
 * fields, labels), whose description names the field unique in the workspace, or none. Each takes its described operation
 * (src/api/descriptions) and the repository that holds the records.
 */
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { CATALOG, type OperationDescription, type ResourceDescription, type ResourceKey } from '../../api/descriptions/index.js';
import type { PaginationQuery } from '../../api/schemas/index.js';
import { assertUnique, notFound } from '../http/errors.js';
import { offsetOf, pageEnvelope } from '../http/pagination.js';
import { pathId } from '../http/validate.js';
import { described, validBody, validQuery } from '../http/contract.js';
import { foundRecord } from '../http/path-record.js';
import { created, deletedEnvelope, updated } from '../http/envelopes.js';
import { pathParameters } from '../../api/descriptions/paths.js';

interface Paged {
  list(workspaceId: string, offset: number, limit: number): unknown[];
  count(workspaceId: string): number;
}

interface ById {
  find(workspaceId: string, id: number): unknown;
  delete(workspaceId: string, id: number): boolean;
}

/** `Contact group`: the resource's noun as the envelopes' messages start with it. */
const nounOf = (operation: OperationDescription) => {
  const { noun } = CATALOG[operation.resource as ResourceKey];
  return noun.charAt(0).toUpperCase() + noun.slice(1);
};

/** The record id in the path (the description names its parameter); anything but a positive integer is a 404. */
export const recordId = (operation: OperationDescription) => {
  const name = (operation.path.endsWith('}') ? pathParameters(operation.path).at(-1) : undefined) ?? 'id';
  return (params: unknown) => pathId((params as Record<string, string | undefined>)[name], notFound);
};

export function listRoute(app: FastifyInstance, operation: OperationDescription, query: z.ZodType<PaginationQuery>, records: Paged): void {
  app.route({
    ...described(operation, { querystring: query }),
    handler: async (request) => {
      const page = validQuery(request);
      const rows = records.list(request.workspaceId, offsetOf(page), page.per_page);
      return pageEnvelope(request, page, records.count(request.workspaceId), rows);
    },
  });
}

export function getRoute(app: FastifyInstance, operation: OperationDescription, records: Pick<ById, 'find'>): void {
  const id = recordId(operation);
  app.route({
    ...described(operation),
    handler: async (request) => {
      const record = records.find(request.workspaceId, id(request.params));
      if (!record) throw notFound();
      return { data: record };
    },
  });
}

export function deleteRoute(app: FastifyInstance, operation: OperationDescription, records: Pick<ById, 'delete'>): void {
  const id = recordId(operation);
  const noun = nounOf(operation);
  app.route({
    ...described(operation),
    handler: async (request) => {
      if (!records.delete(request.workspaceId, id(request.params))) throw notFound();
      return deletedEnvelope(noun);
    },
  });
}

/** A body's fields that were sent: an absent field keeps its value, a null one clears it. */
const sent = (body: Record<string, unknown>) => Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));

/**
 * List, create, get, update (PUT) and delete of a plain collection, from its description (the
 * operations, their schemas) and its records (`app.repositories.collections`): the field its
 * description names `unique` (`name`) is unique in the workspace (a clash is a 422 on it), and an
 * update changes only the fields its body sends.
 */
export function collectionRoutes(app: FastifyInstance, { key, operations, unique }: ResourceDescription): void {
  const records = app.repositories.collections[key];
  if (!records) throw new TypeError(`${key} has no routes of its own and is not a plain collection (repositories/collection.ts)`);
  const noun = nounOf(operations.create);
  const id = recordId(operations.update);
  listRoute(app, operations.list, operations.list.query as z.ZodType<PaginationQuery>, records);

  app.route({
    ...described(operations.create, { body: operations.create.body as z.ZodType<Record<string, unknown>> }),
    handler: async (request, reply) => {
      const body = validBody(request);
      if (unique) assertUnique(unique, records.idHolding(request.workspaceId, body[unique]));
      return reply.code(201).send(created(noun, records.insert(request.workspaceId, body)));
    },
  });

  getRoute(app, operations.get, records);

  app.route({
    ...described(operations.update, { body: operations.update.body as z.ZodType<Record<string, unknown>> }),
    handler: async (request) => {
      const recordId = id(request.params);
      const values = { ...foundRecord<Record<string, unknown>>(request), ...sent(validBody(request)) };
      if (unique) assertUnique(unique, records.idHolding(request.workspaceId, values[unique]), recordId);
      return updated(noun, records.replace(request.workspaceId, recordId, values));
    },
  });

  deleteRoute(app, operations.delete, records);
}
