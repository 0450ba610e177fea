import type { FastifyPluginAsync } from 'fastify';
import * as s from '../../api/schemas/index.js';
import { DESCRIPTIONS } from '../../api/descriptions/index.js';
import { namedRecordRoutes } from './workspace-records.js';

/** api.md: list and create; get one, PUT and delete are extensions (decisions.md §6). */
export const groupRoutes: FastifyPluginAsync = async (app) => {
  const schemas = { query: s.groupListQuery, create: s.groupCreateBody, update: s.groupUpdateBody };
  namedRecordRoutes(app, DESCRIPTIONS.groups, schemas, app.repositories.groups);
};
