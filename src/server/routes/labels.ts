import type { FastifyPluginAsync } from 'fastify';
import * as s from '../../api/schemas/index.js';
import { DESCRIPTIONS } from '../../api/descriptions/index.js';
import { assertUnique, notFound } from '../http/errors.js';
import { bodyOf, described } from '../http/contract.js';
import { created, updated } from '../http/envelopes.js';
import { deleteRoute, getRoute, listRoute, recordId } from './workspace-records.js';

const { operations } = DESCRIPTIONS.labels;

export const labelRoutes: FastifyPluginAsync = async (app) => {
  const { labels } = app.repositories;
  const labelId = recordId(operations.update);

  listRoute(app, operations.list, s.labelListQuery, labels);

  app.route({
    ...described(operations.create, { body: s.labelCreateBody }),
    handler: async (request, reply) => {
      const body = bodyOf(request);
      assertUnique('name', labels.idOfName(request.workspaceId, body.name));
      const label = labels.create(request.workspaceId, { name: body.name, color: body.color ?? null });
      return reply.code(201).send(created('Label', label));
    },
  });

  getRoute(app, operations.get, labels);

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

  deleteRoute(app, operations.delete, labels);
};
