import type { FastifyPluginAsync } from 'fastify';
import { DESCRIPTIONS } from '../../api/descriptions/index.js';
import { notFound } from '../http/errors.js';
import { described } from '../http/contract.js';
import { AVATAR_KINDS, MIME } from '../http/sniff.js';

/** GET /files/{id}: avatars by their unguessable URL, like a storage bucket link. */
export const fileRoutes: FastifyPluginAsync = async (app) => {
  const { files } = app.repositories;
  app.route({
    // Stored files are avatars: served as the image type their bytes show.
    ...described(DESCRIPTIONS.files.operations.download, {}, { binary: AVATAR_KINDS.map((kind) => MIME[kind]) }),
    handler: async (request, reply) => {
      const id = (request.params as { file: string }).file;
      const file = /^[0-9a-f-]{36}$/.test(id) ? files.find(id) : undefined;
      if (!file) throw notFound();
      // An uploaded file is never a page: nothing in it may run, whatever a browser makes of it.
      return reply
        .header('content-type', file.content_type)
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'private, max-age=3600')
        .send(file.data);
    },
  });
};
