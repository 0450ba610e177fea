import type { FastifyPluginAsync } from 'fastify';
import { fieldCreateBody, fieldListQuery, fieldUpdateBody } from '../../api/schemas/index.js';
import { createFieldsRepository } from '../repositories/fields.js';
import { assertUnique, notFound } from '../http/errors.js';
import { offsetOf, pageEnvelope } from '../http/pagination.js';
import { parseId, parseOr422 } from '../http/validate.js';
import { created, deletedEnvelope, updated } from '../http/envelopes.js';

/** api.md: list, create, delete; get one and PUT are extensions (decisions.md §6). */
export const fieldRoutes: FastifyPluginAsync = async (app) => {
  const fields = createFieldsRepository(app.db);
  const base = '/workspaces/:workspace/contact-fields';
  const fieldId = (params: unknown) => parseId((params as { field?: string }).field, notFound);

  app.get(base, { config: { permission: 'contact_fields.view' } }, async (request) => {
    const query = parseOr422(fieldListQuery, request.query);
    const rows = fields.list(request.workspaceId, offsetOf(query), query.per_page);
    return pageEnvelope(request, query, fields.count(request.workspaceId), rows);
  });

  app.post(base, { config: { permission: 'contact_fields.create' } }, async (request, reply) => {
    const body = parseOr422(fieldCreateBody, request.body);
    assertUnique('name', fields.idOfName(request.workspaceId, body.name));
    return reply.code(201).send(created('Contact field', fields.create(request.workspaceId, body.name)));
  });

  app.get(`${base}/:field`, { config: { permission: 'contact_fields.view' } }, async (request) => {
    const field = fields.find(request.workspaceId, fieldId(request.params));
    if (!field) throw notFound();
    return { data: field };
  });

  // decisions.md §4 gives contact_fields no `update` action: renaming a definition
  // is governed by the right to define one.
  app.put(`${base}/:field`, { config: { permission: 'contact_fields.create' } }, async (request) => {
    const id = fieldId(request.params);
    if (!fields.find(request.workspaceId, id)) throw notFound();
    const body = parseOr422(fieldUpdateBody, request.body);
    assertUnique('name', fields.idOfName(request.workspaceId, body.name), id);
    return updated('Contact field', fields.rename(request.workspaceId, id, body.name));
  });

  app.delete(`${base}/:field`, { config: { permission: 'contact_fields.delete' } }, async (request) => {
    if (!fields.delete(request.workspaceId, fieldId(request.params))) throw notFound();
    return deletedEnvelope('Contact field');
  });
};
