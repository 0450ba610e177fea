import type { FastifyPluginAsync } from 'fastify';
import * as s from '../../api/schemas/index.js';
import { assertUnique, notFound } from '../http/errors.js';
import { offsetOf, pageEnvelope } from '../http/pagination.js';
import { parseId } from '../http/validate.js';
import { bodyOf, queryOf } from '../http/contract.js';
import { created, deletedEnvelope, updated } from '../http/envelopes.js';

const tags: [string] = ['Contact fields'];

/** api.md: list, create, delete; get one and PUT are extensions (decisions.md §6). */
export const fieldRoutes: FastifyPluginAsync = async (app) => {
  const { fields } = app.repositories;
  const base = '/workspaces/:workspace/contact-fields';
  const fieldId = (params: unknown) => parseId((params as { field?: string }).field, notFound);

  const list = { summary: 'List contact fields', tags, querystring: s.fieldListQuery, response: { 200: s.fieldListResponse } };
  app.get(base, { config: { permission: 'contact_fields.view' }, schema: list }, async (request) => {
    const query = queryOf(request);
    const rows = fields.list(request.workspaceId, offsetOf(query), query.per_page);
    return pageEnvelope(request, query, fields.count(request.workspaceId), rows);
  });

  const create = { summary: 'Create a contact field', tags, body: s.fieldCreateBody, response: { 201: s.fieldCreatedResponse } };
  app.post(base, { config: { permission: 'contact_fields.create' }, schema: create }, async (request, reply) => {
    const body = bodyOf(request);
    assertUnique('name', fields.idOfName(request.workspaceId, body.name));
    return reply.code(201).send(created('Contact field', fields.create(request.workspaceId, body.name)));
  });

  const get = { summary: 'Get a contact field', tags, response: { 200: s.fieldResponse } };
  app.get(`${base}/:field`, { config: { permission: 'contact_fields.view' }, schema: get }, async (request) => {
    const field = fields.find(request.workspaceId, fieldId(request.params));
    if (!field) throw notFound();
    return { data: field };
  });

  // decisions.md §4 gives contact_fields no `update` action: renaming a definition
  // is governed by the right to define one.
  const update = { summary: 'Update a contact field', tags, body: s.fieldUpdateBody, response: { 200: s.fieldUpdatedResponse } };
  app.put(`${base}/:field`, { config: { permission: 'contact_fields.create' }, schema: update }, async (request) => {
    const id = fieldId(request.params);
    if (!fields.find(request.workspaceId, id)) throw notFound();
    const body = bodyOf(request);
    assertUnique('name', fields.idOfName(request.workspaceId, body.name), id);
    return updated('Contact field', fields.rename(request.workspaceId, id, body.name));
  });

  const remove = { summary: 'Delete a contact field', tags, response: { 200: s.deleted } };
  app.delete(`${base}/:field`, { config: { permission: 'contact_fields.delete' }, schema: remove }, async (request) => {
    if (!fields.delete(request.workspaceId, fieldId(request.params))) throw notFound();
    return deletedEnvelope('Contact field');
  });
};
