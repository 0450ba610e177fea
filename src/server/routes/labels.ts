import type { FastifyPluginAsync } from 'fastify';
import { labelCreateBody, labelListQuery, labelUpdateBody } from '../../api/schemas/index.js';
import { createLabelsRepository } from '../repositories/labels.js';
import { assertUnique, notFound } from '../http/errors.js';
import { offsetOf, pageEnvelope } from '../http/pagination.js';
import { parseId, parseOr422 } from '../http/validate.js';
import { created, deletedEnvelope, updated } from '../http/envelopes.js';

export const labelRoutes: FastifyPluginAsync = async (app) => {
  const labels = createLabelsRepository(app.db);
  const base = '/workspaces/:workspace/labels';
  const labelId = (params: unknown) => parseId((params as { label?: string }).label, notFound);

  app.get(base, { config: { permission: 'labels.view' } }, async (request) => {
    const query = parseOr422(labelListQuery, request.query);
    const rows = labels.list(request.workspaceId, offsetOf(query), query.per_page);
    return pageEnvelope(request, query, labels.count(request.workspaceId), rows);
  });

  app.post(base, { config: { permission: 'labels.create' } }, async (request, reply) => {
    const body = parseOr422(labelCreateBody, request.body);
    assertUnique('name', labels.idOfName(request.workspaceId, body.name));
    const label = labels.create(request.workspaceId, { name: body.name, color: body.color ?? null });
    return reply.code(201).send(created('Label', label));
  });

  app.get(`${base}/:label`, { config: { permission: 'labels.view' } }, async (request) => {
    const label = labels.find(request.workspaceId, labelId(request.params));
    if (!label) throw notFound();
    return { data: label };
  });

  app.put(`${base}/:label`, { config: { permission: 'labels.update' } }, async (request) => {
    const id = labelId(request.params);
    const current = labels.find(request.workspaceId, id);
    if (!current) throw notFound();
    const body = parseOr422(labelUpdateBody, request.body);
    const name = body.name ?? current.name;
    assertUnique('name', labels.idOfName(request.workspaceId, name), id);
    const color = body.color === undefined ? current.color : body.color;
    return updated('Label', labels.update(request.workspaceId, id, { name, color }));
  });

  app.delete(`${base}/:label`, { config: { permission: 'labels.delete' } }, async (request) => {
    if (!labels.delete(request.workspaceId, labelId(request.params))) throw notFound();
    return deletedEnvelope('Label');
  });
};
