import type { FastifyPluginAsync } from 'fastify';
import * as s from '../../api/schemas/index.js';
import { notFound } from '../http/errors.js';
import { described, validBody } from '../http/contract.js';
import { DESCRIPTIONS } from '../../api/descriptions/index.js';
import { created } from '../http/envelopes.js';

const { operations } = DESCRIPTIONS.workspaces;

export const workspaceRoutes: FastifyPluginAsync = async (app) => {
  const { workspaces } = app.repositories;

  app.route({
    ...described(operations.get),
    handler: async (request) => {
      const workspace = workspaces.find(request.workspaceId);
      if (!workspace) throw notFound();
      return { data: workspace };
    },
  });

  /**
   * Extension. A partner's new workspace gets the partner's default permissions
   * (PATCH /workspaces/partner/permissions); anyone else's gets them all.
   */
  app.route({
    ...described(operations.create, { body: s.workspaceCreateBody }),
    handler: async (request, reply) => {
      const body = validBody(request);
      const defaults = request.user.partner_permissions;
      const permissions = request.user.partner === 1 && defaults ? (JSON.parse(defaults) as string[]) : s.ALL_PERMISSIONS;
      const workspace = workspaces.create({ name: body.name, createdBy: request.user.id, permissions });
      return reply.code(201).send(created('Workspace', workspace));
    },
  });
};
