import type { FastifyPluginAsync } from 'fastify';
import * as s from '../../api/schemas/index.js';
import { DESCRIPTIONS } from '../../api/descriptions/index.js';
import { assertUnique, notFound } from '../http/errors.js';
import { offsetOf, pageEnvelope } from '../http/pagination.js';
import { parseId } from '../http/validate.js';
import { bodyOf, described, queryOf } from '../http/contract.js';
import { created, deletedEnvelope, updated } from '../http/envelopes.js';

const { operations } = DESCRIPTIONS.labels;

export const labelRoutes: FastifyPluginAsync = async (app) => {
  const { labels } = app.repositories;
  const labelId = (params: unknown) => parseId((params as { label?: string }).label, notFound);

  app.route({
    ...described(operations.list, { querystring: s.labelListQuery }),
    handler: async (request) => {
      const query = queryOf(request);
      const rows = labels.list(request.workspaceId, offsetOf(query), query.per_page);
      return pageEnvelope(request, query, labels.count(request.workspaceId), rows);
    },
  });

  app.route({
    ...described(operations.create, { body: s.labelCreateBody }),
    handler: async (request, reply) => {
      const body = bodyOf(request);
      assertUnique('name', labels.idOfName(request.workspaceId, body.name));
      const label = labels.create(request.workspaceId, { name: body.name, color: body.color ?? null });
      return reply.code(201).send(created('Label', label));
    },
  });

  app.route({
    ...described(operations.get),
    handler: async (request) => {
      const label = labels.find(request.workspaceId, labelId(request.params));
      if (!label) throw notFound();
      return { data: label };
    },
  });

  app.route({
    ...described(operations.update, { body: s.labelUpdateBody }),
    handler: async (request) => {
      const id = labelId(request.params);
      const current = labels.find(request.workspaceId, id);
      if (!current) throw notFound();
      const body = bodyOf(request);
      const name = body.name ?? current.name;
      assertUnique('name', labels.idOfName(request.workspaceId, name), id);
      const color = body.color === undefined ? current.color : body.color;
      return updated('Label', labels.update(request.workspaceId, id, { name, color }));
    },
  });

  app.route({
    ...described(operations.delete),
    handler: async (request) => {
      if (!labels.delete(request.workspaceId, labelId(request.params))) throw notFound();
      return deletedEnvelope('Label');
    },
  });
};
