import type { FastifyPluginAsync } from 'fastify';
import * as s from '../../api/schemas/index.js';
import type { FieldErrors, Role, RoleUpdateBody } from '../../api/schemas/index.js';
import { assertUnique, invalidField, notFound, validationFailed } from '../http/errors.js';
import { described, validBody } from '../http/contract.js';
import { foundRecord } from '../http/path-record.js';
import { getRoute, listRoute, recordId } from './workspace-records.js';
import { DESCRIPTIONS } from '../../api/descriptions/index.js';
import { created, deletedEnvelope, updated } from '../http/envelopes.js';

/**
 * The built-in role (decisions.md §8) is the workspace's own: renaming it or changing its
 * permissions is a 422 naming why; sending what it already is changes nothing and passes, so that
 * a client writing a whole record back is not refused.
 */
function assertBuiltinUnchanged(role: Role, body: RoleUpdateBody): void {
  const errors: FieldErrors = {};
  if (body.name !== undefined && body.name !== role.name) errors.name = [`The ${role.name} role is built in: it cannot be renamed.`];
  const same = (a: string[], b: string[]) => new Set(a).size === new Set(b).size && a.every((name) => b.includes(name));
  if (body.permissions !== undefined && !same(body.permissions, role.permissions)) {
    errors.permissions = [`The ${role.name} role is built in: its permissions are those the workspace enables, and cannot be changed.`];
  }
  if (Object.keys(errors).length > 0) throw validationFailed(errors);
}

const { operations } = DESCRIPTIONS.roles;

export const roleRoutes: FastifyPluginAsync = async (app) => {
  const { roles } = app.repositories;
  const { access } = app;
  const roleId = recordId(operations.update);

  listRoute(app, operations.list, s.roleListQuery, roles);

  app.route({
    ...described(operations.create, { body: s.roleCreateBody }),
    handler: async (request, reply) => {
      const body = validBody(request);
      access.assertGrantable(request, body.permissions ?? []);
      assertUnique('name', roles.idOfName(request.workspaceId, body.name));
      const role = roles.create(request.workspaceId, { name: body.name, permissions: [...new Set(body.permissions ?? [])] });
      return reply.code(201).send(created('Role', role));
    },
  });

  getRoute(app, operations.get, roles);

  app.route({
    ...described(operations.update, { body: s.roleUpdateBody }),
    handler: async (request) => {
      const id = roleId(request.params);
      const current = foundRecord<Role>(request);
      // The built-in role answers what the body asks of it (422 naming why) before who may edit it.
      if (!current.builtin) access.assertEditableRole(request, current.permissions);
      const body = validBody(request);
      if (current.builtin) {
        assertBuiltinUnchanged(current, body);
        access.assertEditableRole(request, current.permissions);
        return updated('Role', current);
      }
      if (body.permissions) access.assertGrantable(request, body.permissions);
      const name = body.name ?? current.name;
      assertUnique('name', roles.idOfName(request.workspaceId, name), id);
      const permissions = body.permissions ? [...new Set(body.permissions)] : current.permissions;
      return updated('Role', roles.update(request.workspaceId, id, { name, permissions }));
    },
  });

  app.route({
    ...described(operations.delete),
    handler: async (request) => {
      const id = roleId(request.params);
      const role = roles.find(request.workspaceId, id);
      if (!role) throw notFound();
      if (role.builtin) throw invalidField('role', `The ${role.name} role is built in: it cannot be deleted.`);
      // Deleting a role in use would strip its members of every permission, the owner included.
      const members = roles.memberCount(request.workspaceId, id);
      if (members > 0)
        throw invalidField('role', `The role is assigned to ${members} user${members === 1 ? '' : 's'} and cannot be deleted.`);
      roles.delete(request.workspaceId, id);
      return deletedEnvelope('Role');
    },
  });
};
