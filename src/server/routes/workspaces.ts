import type { FastifyPluginAsync } from 'fastify';
import * as s from '../../api/schemas/index.js';
import { notFound } from '../http/errors.js';
import { bodyOf } from '../http/contract.js';
import { created } from '../http/envelopes.js';

const tags: [string] = ['Workspaces'];

export const workspaceRoutes: FastifyPluginAsync = async (app) => {
  const { workspaces } = app.repositories;

  const get = { summary: 'Get a workspace', tags, response: { 200: s.workspaceResponse } };
  app.get('/workspaces/:workspace', { config: { permission: 'workspace.view' }, schema: get }, async (request) => {
    const workspace = workspaces.find(request.workspaceId);
    if (!workspace) throw notFound();
    return { data: workspace };
  });

  /**
   * Extension. A partner's new workspace gets the partner's default permissions
   * (PATCH /workspaces/partner/permissions); anyone else's gets them all.
   */
  const create = { summary: 'Create a workspace', tags, body: s.workspaceCreateBody, response: { 201: s.workspaceCreatedResponse } };
  app.post('/workspaces', { schema: create }, async (request, reply) => {
    const body = bodyOf(request);
    const defaults = request.user.partner_permissions;
    const permissions = request.user.partner === 1 && defaults ? (JSON.parse(defaults) as string[]) : s.ALL_PERMISSIONS;
    const workspace = workspaces.create({ name: body.name, createdBy: request.user.id, permissions });
    return reply.code(201).send(created('Workspace', workspace));
  });
};
