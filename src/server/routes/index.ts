/** One fastify plugin per resource; buildApp registers them under /api/v3. */
import type { FastifyPluginAsync } from 'fastify';
import { authRoutes } from './auth.js';
import { workspaceRoutes } from './workspaces.js';
import { permissionRoutes } from './permissions.js';
import { labelRoutes } from './labels.js';
import { roleRoutes } from './roles.js';
import { userRoutes } from './users.js';
import { contactRoutes } from './contacts.js';
import { groupRoutes } from './groups.js';
import { fieldRoutes } from './fields.js';
import { importRoutes } from './imports.js';
import { templateRoutes } from './templates.js';
import { fileRoutes } from './files.js';
import { openapiRoutes } from './openapi.js';

export const routePlugins: FastifyPluginAsync[] = [
  authRoutes,
  workspaceRoutes,
  permissionRoutes,
  labelRoutes,
  roleRoutes,
  userRoutes,
  contactRoutes,
  groupRoutes,
  fieldRoutes,
  importRoutes,
  templateRoutes,
  fileRoutes,
  openapiRoutes,
];
