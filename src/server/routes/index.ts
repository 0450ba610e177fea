/**
 * One fastify plugin per described resource, in the descriptions' order; buildApp registers them
 * under /api/v3. A resource with rules of its own has its plugin below; every other one is a plain
 * collection (groups, fields, labels) served from its description alone (collectionRoutes), so
 * adding such a resource needs no line here.
 */
import type { FastifyPluginAsync } from 'fastify';
import { DESCRIPTIONS, type ResourceDescription } from '../../api/descriptions/index.js';
import { authRoutes } from './auth.js';
import { contactRoutes } from './contacts.js';
import { fileRoutes } from './files.js';
import { importRoutes } from './imports.js';
import { openapiRoutes } from './openapi.js';
import { permissionRoutes } from './permissions.js';
import { roleRoutes } from './roles.js';
import { templateRoutes } from './templates.js';
import { userRoutes } from './users.js';
import { workspaceRoutes } from './workspaces.js';
import { collectionRoutes } from './workspace-records.js';

const OWN: Partial<Record<keyof typeof DESCRIPTIONS, FastifyPluginAsync>> = {
  auth: authRoutes,
  workspaces: workspaceRoutes,
  permissions: permissionRoutes,
  contacts: contactRoutes,
  imports: importRoutes,
  roles: roleRoutes,
  users: userRoutes,
  templates: templateRoutes,
  files: fileRoutes,
};

const collectionPlugin = (description: ResourceDescription): FastifyPluginAsync => async (app) => collectionRoutes(app, description);

export const routePlugins: FastifyPluginAsync[] = [
  ...Object.values(DESCRIPTIONS).map((description: ResourceDescription) => OWN[description.key as keyof typeof DESCRIPTIONS] ?? collectionPlugin(description)),
  openapiRoutes,
];
