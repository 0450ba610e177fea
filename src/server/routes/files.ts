import type { FastifyPluginAsync } from 'fastify';
import { createFilesRepository } from '../repositories/files.js';
import { notFound } from '../http/errors.js';

/** GET /files/{id}: avatars by their unguessable URL, like a storage bucket link. */
export const fileRoutes: FastifyPluginAsync = async (app) => {
  const files = createFilesRepository(app.db);
  app.get('/files/:file', { config: { public: true } }, async (request, reply) => {
    const id = (request.params as { file: string }).file;
    const file = /^[0-9a-f-]{36}$/.test(id) ? files.find(id) : undefined;
    if (!file) throw notFound();
    // An uploaded file is never a page: nothing in it may run, whatever a browser makes of it.
    return reply
      .header('content-type', file.content_type)
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('cache-control', 'private, max-age=3600')
      .send(file.data);
  });
};
