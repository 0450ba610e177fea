import type { FastifyPluginAsync } from 'fastify';
import * as s from '../../api/schemas/index.js';
import { DESCRIPTIONS } from '../../api/descriptions/index.js';
import { assertUnique, notFound } from '../http/errors.js';
import { offsetOf, pageEnvelope } from '../http/pagination.js';
import { parseId } from '../http/validate.js';
import { bodyOf, described, queryOf } from '../http/contract.js';
import { created, deletedEnvelope, updated } from '../http/envelopes.js';

const { operations } = DESCRIPTIONS.groups;

/** api.md: list and create; get one, PUT and delete are extensions (decisions.md §6). */
export const groupRoutes: FastifyPluginAsync = async (app) => {
  const { groups } = app.repositories;
  const groupId = (params: unknown) => parseId((params as { group?: string }).group, notFound);

  app.route({
    ...described(operations.list, { querystring: s.groupListQuery }),
    handler: async (request) => {
      const query = queryOf(request);
      const rows = groups.list(request.workspaceId, offsetOf(query), query.per_page);
      return pageEnvelope(request, query, groups.count(request.workspaceId), rows);
    },
  });

  app.route({
    ...described(operations.create, { body: s.groupCreateBody }),
    handler: async (request, reply) => {
      const body = bodyOf(request);
      assertUnique('name', groups.idOfName(request.workspaceId, body.name));
      return reply.code(201).send(created('Contact group', groups.create(request.workspaceId, body.name)));
    },
  });

  app.route({
    ...described(operations.get),
    handler: async (request) => {
      const group = groups.find(request.workspaceId, groupId(request.params));
      if (!group) throw notFound();
      return { data: group };
    },
  });

  app.route({
    ...described(operations.update, { body: s.groupUpdateBody }),
    handler: async (request) => {
      const id = groupId(request.params);
      if (!groups.find(request.workspaceId, id)) throw notFound();
      const body = bodyOf(request);
      assertUnique('name', groups.idOfName(request.workspaceId, body.name), id);
      return updated('Contact group', groups.rename(request.workspaceId, id, body.name));
    },
  });

  app.route({
    ...described(operations.delete),
    handler: async (request) => {
      if (!groups.delete(request.workspaceId, groupId(request.params))) throw notFound();
      return deletedEnvelope('Contact group');
    },
  });
};
