import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db.js';
import { nowIso } from '../db.js';

/** Avatars and other small uploads, kept in the database so a backup is one file. */
export function createFilesRepository(db: Db) {
  const insert = db.prepare('INSERT INTO files (id, content_type, data, created_at) VALUES (?, ?, ?, ?)');
  const byId = db.prepare<[string], { content_type: string; data: Buffer }>('SELECT content_type, data FROM files WHERE id = ?');
  const remove = db.prepare('DELETE FROM files WHERE id = ?');
  return {
    store(bytes: Buffer, contentType: string): string {
      const id = randomUUID();
      insert.run(id, contentType, bytes, nowIso());
      return id;
    },
    find: (id: string) => byId.get(id),
    delete: (id: string) => void remove.run(id),
  };
}

/** Where this request's server serves stored files: a file's URL is this plus its id. */
export const filesBaseUrl = (request: FastifyRequest): string => `${request.server.originOf(request)}/api/v3/files/`;

/** The public URL of a stored file (its id is random, so the URL is the capability). */
export function fileUrl(request: FastifyRequest, id: string | null): string | null {
  return id ? `${filesBaseUrl(request)}${id}` : null;
}
