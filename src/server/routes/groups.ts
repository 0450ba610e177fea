import type { FastifyPluginAsync } from 'fastify';
import { groupCreateBody, groupListQuery, groupUpdateBody } from '../../api/schemas/index.js';
import { createGroupsRepository } from '../repositories/groups.js';
import { assertUnique, notFound } from '../http/errors.js';
import { offsetOf, pageEnvelope } from '../http/pagination.js';
import { parseId, parseOr422 } from '../http/validate.js';
import { created, deletedEnvelope, updated } from '../http/envelopes.js';

/** api.md: list and create; get one, PUT and delete are extensions (decisions.md §6). */
export const groupRoutes: FastifyPluginAsync = async (app) => {
  const groups = createGroupsRepository(app.db);
  const base = '/workspaces/:workspace/contact-groups';
  const groupId = (params: unknown) => parseId((params as { group?: string }).group, notFound);

  app.get(base, { config: { permission: 'contact_groups.view' } }, async (request) => {
    const query = parseOr422(groupListQuery, request.query);
    const rows = groups.list(request.workspaceId, offsetOf(query), query.per_page);
    return pageEnvelope(request, query, groups.count(request.workspaceId), rows);
  });

  app.post(base, { config: { permission: 'contact_groups.create' } }, async (request, reply) => {
    const body = parseOr422(groupCreateBody, request.body);
    assertUnique('name', groups.idOfName(request.workspaceId, body.name));
    return reply.code(201).send(created('Contact group', groups.create(request.workspaceId, body.name)));
  });

  app.get(`${base}/:group`, { config: { permission: 'contact_groups.view' } }, async (request) => {
    const group = groups.find(request.workspaceId, groupId(request.params));
    if (!group) throw notFound();
    return { data: group };
  });

  app.put(`${base}/:group`, { config: { permission: 'contact_groups.update' } }, async (request) => {
    const id = groupId(request.params);
    if (!groups.find(request.workspaceId, id)) throw notFound();
    const body = parseOr422(groupUpdateBody, request.body);
    assertUnique('name', groups.idOfName(request.workspaceId, body.name), id);
    return updated('Contact group', groups.rename(request.workspaceId, id, body.name));
  });

  app.delete(`${base}/:group`, { config: { permission: 'contact_groups.delete' } }, async (request) => {
    if (!groups.delete(request.workspaceId, groupId(request.params))) throw notFound();
    return deletedEnvelope('Contact group');
  });
};
