/**
 * One fastify plugin per described resource, in the descriptions' order; buildApp registers them
 * under /api/v3. A resource the catalog calls a plain collection is served from its description
 * alone (collectionRoutes), so adding one needs no line here, unless COLLECTION_RULES gives it rules
 * of its own (roles: the built-in role, what a member may grant); any other resource has its plugin
 * in OWN.
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

type ResourceKey = keyof typeof DESCRIPTIONS;

/** The routes of the resources that are not plain collections. */
export const OWN: Partial<Record<ResourceKey, FastifyPluginAsync>> = {
  auth: authRoutes,
  workspaces: workspaceRoutes,
  permissions: permissionRoutes,
  contacts: contactRoutes,
  imports: importRoutes,
  users: userRoutes,
  templates: templateRoutes,
  files: fileRoutes,
};

/** Plain collections whose server keeps rules beyond storing the fields. */
export const COLLECTION_RULES: Partial<Record<ResourceKey, FastifyPluginAsync>> = {
  roles: roleRoutes,
};

const collectionPlugin =
  (description: ResourceDescription): FastifyPluginAsync =>
  async (app) =>
    collectionRoutes(app, description);

function pluginOf(description: ResourceDescription): FastifyPluginAsync {
  const key = description.key as ResourceKey;
  const plugin = description.collection ? (COLLECTION_RULES[key] ?? collectionPlugin(description)) : OWN[key];
  if (!plugin) throw new TypeError(`${key} is not a plain collection in the catalog and has no route plugin (server/routes/index.ts OWN)`);
  return plugin;
}

export const routePlugins: FastifyPluginAsync[] = [...Object.values(DESCRIPTIONS).map(pluginOf), openapiRoutes];
