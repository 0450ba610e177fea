import type { FastifyPluginAsync } from 'fastify';
import * as s from '../../api/schemas/index.js';
import { assertUnique, notFound } from '../http/errors.js';
import { offsetOf, pageEnvelope } from '../http/pagination.js';
import { parseId } from '../http/validate.js';
import { bodyOf, queryOf } from '../http/contract.js';
import { created, deletedEnvelope, updated } from '../http/envelopes.js';

const tags: [string] = ['Contact groups'];

/** api.md: list and create; get one, PUT and delete are extensions (decisions.md §6). */
export const groupRoutes: FastifyPluginAsync = async (app) => {
  const { groups } = app.repositories;
  const base = '/workspaces/:workspace/contact-groups';
  const groupId = (params: unknown) => parseId((params as { group?: string }).group, notFound);

  const list = { summary: 'List contact groups', tags, querystring: s.groupListQuery, response: { 200: s.groupListResponse } };
  app.get(base, { config: { permission: 'contact_groups.view' }, schema: list }, async (request) => {
    const query = queryOf(request);
    const rows = groups.list(request.workspaceId, offsetOf(query), query.per_page);
    return pageEnvelope(request, query, groups.count(request.workspaceId), rows);
  });

  const create = { summary: 'Create a contact group', tags, body: s.groupCreateBody, response: { 201: s.groupCreatedResponse } };
  app.post(base, { config: { permission: 'contact_groups.create' }, schema: create }, async (request, reply) => {
    const body = bodyOf(request);
    assertUnique('name', groups.idOfName(request.workspaceId, body.name));
    return reply.code(201).send(created('Contact group', groups.create(request.workspaceId, body.name)));
  });

  const get = { summary: 'Get a contact group', tags, response: { 200: s.groupResponse } };
  app.get(`${base}/:group`, { config: { permission: 'contact_groups.view' }, schema: get }, async (request) => {
    const group = groups.find(request.workspaceId, groupId(request.params));
    if (!group) throw notFound();
    return { data: group };
  });

  const update = { summary: 'Update a contact group', tags, body: s.groupUpdateBody, response: { 200: s.groupUpdatedResponse } };
  app.put(`${base}/:group`, { config: { permission: 'contact_groups.update' }, schema: update }, async (request) => {
    const id = groupId(request.params);
    if (!groups.find(request.workspaceId, id)) throw notFound();
    const body = bodyOf(request);
    assertUnique('name', groups.idOfName(request.workspaceId, body.name), id);
    return updated('Contact group', groups.rename(request.workspaceId, id, body.name));
  });

  const remove = { summary: 'Delete a contact group', tags, response: { 200: s.deleted } };
  app.delete(`${base}/:group`, { config: { permission: 'contact_groups.delete' }, schema: remove }, async (request) => {
    if (!groups.delete(request.workspaceId, groupId(request.params))) throw notFound();
    return deletedEnvelope('Contact group');
  });
};
