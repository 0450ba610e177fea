import type { FastifyPluginAsync } from 'fastify';
import * as s from '../../api/schemas/index.js';
import { DESCRIPTIONS } from '../../api/descriptions/index.js';
import { described, validBody } from '../http/contract.js';
import { updated } from '../http/envelopes.js';
import { nowIso } from '../db.js';

const { operations } = DESCRIPTIONS.permissions;

export const permissionRoutes: FastifyPluginAsync = async (app) => {
  const { workspaces } = app.repositories;
  const setDefaults = app.db.prepare('UPDATE users SET partner_permissions = ?, updated_at = ? WHERE id = ?');

  app.route({
    ...described(operations.list),
    handler: async (request) => ({ data: s.groupPermissions(workspaces.enabledPermissions(request.workspaceId)) }),
  });

  app.route({
    ...described(operations.getPartnerDefaults),
    handler: async (request) => {
      const defaults = request.user.partner_permissions;
      // Until set, a partner's new workspace gets every permission (routes/workspaces.ts).
      return { data: { permissions: defaults ? (JSON.parse(defaults) as string[]) : s.ALL_PERMISSIONS } };
    },
  });

  app.route({
    ...described(operations.setPartnerDefaults, { body: s.partnerPermissionsBody }),
    handler: async (request) => {
      const body = validBody(request);
      setDefaults.run(JSON.stringify(body.permissions), nowIso(), request.user.id);
      return updated('Permissions', { permissions: body.permissions });
    },
  });
};
