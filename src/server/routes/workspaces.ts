import type { FastifyPluginAsync } from 'fastify';
import { ALL_PERMISSIONS, workspaceCreateBody } from '../../api/schemas/index.js';
import { createWorkspacesRepository } from '../repositories/workspaces.js';
import { notFound } from '../http/errors.js';
import { parseOr422 } from '../http/validate.js';
import { created } from '../http/envelopes.js';

export const workspaceRoutes: FastifyPluginAsync = async (app) => {
  const workspaces = createWorkspacesRepository(app.db);

  app.get('/workspaces/:workspace', { config: { permission: 'workspace.view' } }, async (request) => {
    const workspace = workspaces.find(request.workspaceId);
    if (!workspace) throw notFound();
    return { data: workspace };
  });

  /**
   * Extension. A partner's new workspace gets the partner's default permissions
   * (PATCH /workspaces/partner/permissions); anyone else's gets them all.
   */
  app.post('/workspaces', async (request, reply) => {
    const body = parseOr422(workspaceCreateBody, request.body);
    const defaults = request.user.partner_permissions;
    const permissions = request.user.partner === 1 && defaults ? (JSON.parse(defaults) as string[]) : ALL_PERMISSIONS;
    const workspace = workspaces.create({ name: body.name, createdBy: request.user.id, permissions });
    return reply.code(201).send(created('Workspace', workspace));
  });
};
