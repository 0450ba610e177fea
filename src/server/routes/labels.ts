import type { FastifyPluginAsync } from 'fastify';
import * as s from '../../api/schemas/index.js';
import { assertUnique, notFound } from '../http/errors.js';
import { offsetOf, pageEnvelope } from '../http/pagination.js';
import { parseId } from '../http/validate.js';
import { bodyOf, queryOf } from '../http/contract.js';
import { created, deletedEnvelope, updated } from '../http/envelopes.js';

const tags: [string] = ['Labels'];

export const labelRoutes: FastifyPluginAsync = async (app) => {
  const { labels } = app.repositories;
  const base = '/workspaces/:workspace/labels';
  const labelId = (params: unknown) => parseId((params as { label?: string }).label, notFound);

  const list = { summary: 'List labels', tags, querystring: s.labelListQuery, response: { 200: s.labelListResponse } };
  app.get(base, { config: { permission: 'labels.view' }, schema: list }, async (request) => {
    const query = queryOf(request);
    const rows = labels.list(request.workspaceId, offsetOf(query), query.per_page);
    return pageEnvelope(request, query, labels.count(request.workspaceId), rows);
  });

  const create = { summary: 'Create a label', tags, body: s.labelCreateBody, response: { 201: s.labelCreatedResponse } };
  app.post(base, { config: { permission: 'labels.create' }, schema: create }, async (request, reply) => {
    const body = bodyOf(request);
    assertUnique('name', labels.idOfName(request.workspaceId, body.name));
    const label = labels.create(request.workspaceId, { name: body.name, color: body.color ?? null });
    return reply.code(201).send(created('Label', label));
  });

  const get = { summary: 'Get a label', tags, response: { 200: s.labelResponse } };
  app.get(`${base}/:label`, { config: { permission: 'labels.view' }, schema: get }, async (request) => {
    const label = labels.find(request.workspaceId, labelId(request.params));
    if (!label) throw notFound();
    return { data: label };
  });

  const update = { summary: 'Update a label', tags, body: s.labelUpdateBody, response: { 200: s.labelUpdatedResponse } };
  app.put(`${base}/:label`, { config: { permission: 'labels.update' }, schema: update }, async (request) => {
    const id = labelId(request.params);
    const current = labels.find(request.workspaceId, id);
    if (!current) throw notFound();
    const body = bodyOf(request);
    const name = body.name ?? current.name;
    assertUnique('name', labels.idOfName(request.workspaceId, name), id);
    const color = body.color === undefined ? current.color : body.color;
    return updated('Label', labels.update(request.workspaceId, id, { name, color }));
  });

  const remove = { summary: 'Delete a label', tags, response: { 200: s.deleted } };
  app.delete(`${base}/:label`, { config: { permission: 'labels.delete' }, schema: remove }, async (request) => {
    if (!labels.delete(request.workspaceId, labelId(request.params))) throw notFound();
    return deletedEnvelope('Label');
  });
};
