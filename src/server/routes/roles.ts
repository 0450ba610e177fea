import type { FastifyPluginAsync } from 'fastify';
import { roleCreateBody, roleListQuery, roleUpdateBody } from '../../api/schemas/index.js';
import { createRolesRepository } from '../repositories/roles.js';
import { createAccessRules } from '../http/access.js';
import { assertUnique, invalidField, notFound } from '../http/errors.js';
import { offsetOf, pageEnvelope } from '../http/pagination.js';
import { parseId, parseOr422 } from '../http/validate.js';
import { created, deletedEnvelope, updated } from '../http/envelopes.js';

export const roleRoutes: FastifyPluginAsync = async (app) => {
  const roles = createRolesRepository(app.db);
  const access = createAccessRules(app.db);
  const base = '/workspaces/:workspace/roles';
  const roleId = (params: unknown) => parseId((params as { role?: string }).role, notFound);

  app.get(base, { config: { permission: 'roles.view' } }, async (request) => {
    const query = parseOr422(roleListQuery, request.query);
    const rows = roles.list(request.workspaceId, offsetOf(query), query.per_page);
    return pageEnvelope(request, query, roles.count(request.workspaceId), rows);
  });

  app.post(base, { config: { permission: 'roles.create' } }, async (request, reply) => {
    const body = parseOr422(roleCreateBody, request.body);
    access.assertGrantable(request, body.permissions ?? []);
    assertUnique('name', roles.idOfName(request.workspaceId, body.name));
    const role = roles.create(request.workspaceId, { name: body.name, permissions: [...new Set(body.permissions ?? [])] });
    return reply.code(201).send(created('Role', role));
  });

  app.get(`${base}/:role`, { config: { permission: 'roles.view' } }, async (request) => {
    const role = roles.find(request.workspaceId, roleId(request.params));
    if (!role) throw notFound();
    return { data: role };
  });

  app.put(`${base}/:role`, { config: { permission: 'roles.update' } }, async (request) => {
    const id = roleId(request.params);
    const current = roles.find(request.workspaceId, id);
    if (!current) throw notFound();
    access.assertEditableRole(request, current.permissions);
    const body = parseOr422(roleUpdateBody, request.body);
    if (body.permissions) access.assertGrantable(request, body.permissions);
    const name = body.name ?? current.name;
    assertUnique('name', roles.idOfName(request.workspaceId, name), id);
    const permissions = body.permissions ? [...new Set(body.permissions)] : current.permissions;
    return updated('Role', roles.update(request.workspaceId, id, { name, permissions }));
  });

  app.delete(`${base}/:role`, { config: { permission: 'roles.delete' } }, async (request) => {
    const id = roleId(request.params);
    if (!roles.find(request.workspaceId, id)) throw notFound();
    // Deleting a role in use would strip its members of every permission, the owner included.
    const members = roles.memberCount(request.workspaceId, id);
    if (members > 0) throw invalidField('role', `The role is assigned to ${members} user${members === 1 ? '' : 's'} and cannot be deleted.`);
    roles.delete(request.workspaceId, id);
    return deletedEnvelope('Role');
  });
};
