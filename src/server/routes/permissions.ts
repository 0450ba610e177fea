import type { FastifyPluginAsync } from 'fastify';
import * as s from '../../api/schemas/index.js';
import { bodyOf } from '../http/contract.js';
import { updated } from '../http/envelopes.js';
import { nowIso } from '../db.js';

const tags: [string] = ['Workspaces'];

export const permissionRoutes: FastifyPluginAsync = async (app) => {
  const { workspaces } = app.repositories;
  const setDefaults = app.db.prepare('UPDATE users SET partner_permissions = ?, updated_at = ? WHERE id = ?');

  const list = { summary: 'List the permissions enabled in a workspace', tags, response: { 200: s.permissionsListResponse } };
  app.get('/workspaces/:workspace/permissions', { config: { permission: 'permissions.view' }, schema: list }, async (request) => ({
    data: s.groupPermissions(workspaces.enabledPermissions(request.workspaceId)),
  }));

  const setPartnerDefaults = {
    summary: 'Set the default permissions of new partner workspaces',
    tags,
    description: 'Partner users only.',
    body: s.partnerPermissionsBody,
    response: { 200: s.partnerPermissionsResponse },
  };
  app.patch('/workspaces/partner/permissions', { config: { partnerOnly: true }, schema: setPartnerDefaults }, async (request) => {
    const body = bodyOf(request);
    setDefaults.run(JSON.stringify(body.permissions), nowIso(), request.user.id);
    return updated('Permissions', { permissions: body.permissions });
  });
};
