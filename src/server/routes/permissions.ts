import type { FastifyPluginAsync } from 'fastify';
import { groupPermissions, partnerPermissionsBody } from '../../api/schemas/index.js';
import { createWorkspacesRepository } from '../repositories/workspaces.js';
import { parseOr422 } from '../http/validate.js';
import { updated } from '../http/envelopes.js';
import { nowIso } from '../db.js';

export const permissionRoutes: FastifyPluginAsync = async (app) => {
  const workspaces = createWorkspacesRepository(app.db);
  const setDefaults = app.db.prepare('UPDATE users SET partner_permissions = ?, updated_at = ? WHERE id = ?');

  app.get('/workspaces/:workspace/permissions', { config: { permission: 'permissions.view' } }, async (request) => ({
    data: groupPermissions(workspaces.enabledPermissions(request.workspaceId)),
  }));

  app.patch('/workspaces/partner/permissions', { config: { partnerOnly: true } }, async (request) => {
    const body = parseOr422(partnerPermissionsBody, request.body);
    setDefaults.run(JSON.stringify(body.permissions), nowIso(), request.user.id);
    return updated('Permissions', { permissions: body.permissions });
  });
};
