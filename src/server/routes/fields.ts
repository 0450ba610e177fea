import type { FastifyPluginAsync } from 'fastify';
import * as s from '../../api/schemas/index.js';
import { DESCRIPTIONS } from '../../api/descriptions/index.js';
import { assertUnique, notFound } from '../http/errors.js';
import { offsetOf, pageEnvelope } from '../http/pagination.js';
import { parseId } from '../http/validate.js';
import { bodyOf, described, queryOf } from '../http/contract.js';
import { created, deletedEnvelope, updated } from '../http/envelopes.js';

const { operations } = DESCRIPTIONS.fields;

/**
 * api.md: list, create, delete; get one and PUT are extensions (decisions.md §6). decisions.md §4
 * gives contact_fields no `update` action: renaming a definition is governed by the right to define one.
 */
export const fieldRoutes: FastifyPluginAsync = async (app) => {
  const { fields } = app.repositories;
  const fieldId = (params: unknown) => parseId((params as { field?: string }).field, notFound);

  app.route({
    ...described(operations.list, { querystring: s.fieldListQuery }),
    handler: async (request) => {
      const query = queryOf(request);
      const rows = fields.list(request.workspaceId, offsetOf(query), query.per_page);
      return pageEnvelope(request, query, fields.count(request.workspaceId), rows);
    },
  });

  app.route({
    ...described(operations.create, { body: s.fieldCreateBody }),
    handler: async (request, reply) => {
      const body = bodyOf(request);
      assertUnique('name', fields.idOfName(request.workspaceId, body.name));
      return reply.code(201).send(created('Contact field', fields.create(request.workspaceId, body.name)));
    },
  });

  app.route({
    ...described(operations.get),
    handler: async (request) => {
      const field = fields.find(request.workspaceId, fieldId(request.params));
      if (!field) throw notFound();
      return { data: field };
    },
  });

  app.route({
    ...described(operations.update, { body: s.fieldUpdateBody }),
    handler: async (request) => {
      const id = fieldId(request.params);
      if (!fields.find(request.workspaceId, id)) throw notFound();
      const body = bodyOf(request);
      assertUnique('name', fields.idOfName(request.workspaceId, body.name), id);
      return updated('Contact field', fields.rename(request.workspaceId, id, body.name));
    },
  });

  app.route({
    ...described(operations.delete),
    handler: async (request) => {
      if (!fields.delete(request.workspaceId, fieldId(request.params))) throw notFound();
      return deletedEnvelope('Contact field');
    },
  });
};
