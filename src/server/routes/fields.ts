import type { FastifyPluginAsync } from 'fastify';
import * as s from '../../api/schemas/index.js';
import { DESCRIPTIONS } from '../../api/descriptions/index.js';
import { namedRecordRoutes } from './workspace-records.js';

/**
 * api.md: list, create, delete; get one and PUT are extensions (decisions.md §6). decisions.md §4
 * gives contact_fields no `update` action: renaming a definition is governed by the right to define one.
 */
export const fieldRoutes: FastifyPluginAsync = async (app) => {
  const schemas = { query: s.fieldListQuery, create: s.fieldCreateBody, update: s.fieldUpdateBody };
  namedRecordRoutes(app, DESCRIPTIONS.fields, schemas, app.repositories.fields);
};
