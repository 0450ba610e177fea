/**
 * The routes every kind of workspace record answers alike (decisions.md §1, §2): a page of them,
 * one by its id, a deletion; and the whole set for a record that is only a unique name (contact
 * groups and contact fields). Each takes its described operation (src/api/descriptions) and the
 * repository that holds the records.
 */
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { CATALOG, type OperationDescription, type ResourceDescription, type ResourceKey } from '../../api/descriptions/index.js';
import type { PaginationQuery } from '../../api/schemas/index.js';
import { assertUnique, notFound } from '../http/errors.js';
import { offsetOf, pageEnvelope } from '../http/pagination.js';
import { parseId } from '../http/validate.js';
import { bodyOf, described, queryOf } from '../http/contract.js';
import { created, deletedEnvelope, updated } from '../http/envelopes.js';

interface Paged {
  list(workspaceId: string, offset: number, limit: number): unknown[];
  count(workspaceId: string): number;
}

interface ById {
  find(workspaceId: string, id: number): unknown;
  delete(workspaceId: string, id: number): boolean;
}

interface Named extends Paged, ById {
  idOfName(workspaceId: string, name: string): number | undefined;
  create(workspaceId: string, name: string): unknown;
  rename(workspaceId: string, id: number, name: string): unknown;
}

/** `Contact group`: the resource's noun as the envelopes' messages start with it. */
const nounOf = (operation: OperationDescription) => {
  const { noun } = CATALOG[operation.resource as ResourceKey];
  return noun.charAt(0).toUpperCase() + noun.slice(1);
};

/** The record id in the path (the description names its parameter); anything but a positive integer is a 404. */
export const recordId = (operation: OperationDescription) => {
  const name = /\{([^}]+)\}$/.exec(operation.path)?.[1] ?? 'id';
  return (params: unknown) => parseId((params as Record<string, string | undefined>)[name], notFound);
};

export function listRoute(app: FastifyInstance, operation: OperationDescription, query: z.ZodType<PaginationQuery>, records: Paged): void {
  app.route({
    ...described(operation, { querystring: query }),
    handler: async (request) => {
      const page = queryOf(request);
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

/** List, create, get, rename (PUT) and delete of a record that is a name unique in its workspace. */
export function namedRecordRoutes(
  app: FastifyInstance,
  { operations }: ResourceDescription,
  schemas: { query: z.ZodType<PaginationQuery>; create: z.ZodType<{ name: string }>; update: z.ZodType<{ name: string }> },
  records: Named,
): void {
  const noun = nounOf(operations.create);
  const id = recordId(operations.update);
  listRoute(app, operations.list, schemas.query, records);

  app.route({
    ...described(operations.create, { body: schemas.create }),
    handler: async (request, reply) => {
      const body = bodyOf(request);
      assertUnique('name', records.idOfName(request.workspaceId, body.name));
      return reply.code(201).send(created(noun, records.create(request.workspaceId, body.name)));
    },
  });

  getRoute(app, operations.get, records);

  app.route({
    ...described(operations.update, { body: schemas.update }),
    handler: async (request) => {
      const recordId = id(request.params);
      if (!records.find(request.workspaceId, recordId)) throw notFound();
      const body = bodyOf(request);
      assertUnique('name', records.idOfName(request.workspaceId, body.name), recordId);
      return updated(noun, records.rename(request.workspaceId, recordId, body.name));
    },
  });

  deleteRoute(app, operations.delete, records);
}
