import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import * as s from '../../api/schemas/index.js';
import { AVATAR_MAX_BYTES } from '../../api/schemas/index.js';
import { hashPassword } from '../repositories/users.js';
import { fileUrl } from '../repositories/files.js';
import { assertUnique, invalidField, notFound } from '../http/errors.js';
import { offsetOf, pageEnvelope } from '../http/pagination.js';
import { pathId } from '../http/validate.js';
import { described, sentBody, validBody, validQuery } from '../http/contract.js';
import { DESCRIPTIONS } from '../../api/descriptions/index.js';
import { readForm } from '../http/multipart.js';
import { foundRecord } from '../http/path-record.js';
import type { Membership } from '../repositories/workspaces.js';
import { AVATAR_KINDS, MIME, sniff } from '../http/sniff.js';
import { created, updated } from '../http/envelopes.js';

const AVATAR_TYPES = new Set<string>(AVATAR_KINDS);
/** The published API lists `avatar` plus file parts `avatar.0` and `avatar.1`: the first image given wins. */
const AVATAR_FIELDS = ['avatar', 'avatar.0', 'avatar.1'];
const { operations } = DESCRIPTIONS.users;

async function readBody(request: FastifyRequest): Promise<{ fields: Record<string, unknown>; avatar?: Buffer }> {
  if (!request.isMultipart()) return { fields: (request.body ?? {}) as Record<string, unknown> };
  const { fields, files } = await readForm(request, {
    maxFileBytes: AVATAR_MAX_BYTES,
    maxFiles: operations.update.fileParts,
    maxFields: 50,
  });
  const file = AVATAR_FIELDS.map((name) => files.find((f) => f.field === name)).find(Boolean);
  return { fields, avatar: file?.buffer };
}

export const userRoutes: FastifyPluginAsync = async (app) => {
  const { members, users, workspaces, files, roles } = app.repositories;
  const { access } = app;
  /** The role of this workspace, checked against what the caller may hand out. */
  const assignableRole = (request: FastifyRequest, roleId: number) => {
    const role = roles.find(request.workspaceId, roleId);
    if (!role) throw invalidField('role_id', 'The selected role id is invalid.');
    access.assertAssignableRole(request, role);
  };
  const userId = (params: unknown) => pathId((params as { user?: string }).user, notFound);

  app.route({
    ...described(operations.list, { querystring: s.userListQuery }),
    handler: async (request) => {
      const query = validQuery(request);
      const rows = members.list(request.workspaceId, offsetOf(query), query.per_page, (f) => fileUrl(request, f));
      return pageEnvelope(request, query, members.count(request.workspaceId), rows);
    },
  });

  app.route({
    ...described(operations.get),
    handler: async (request) => {
      const user = members.find(request.workspaceId, userId(request.params), (f) => fileUrl(request, f));
      if (!user) throw notFound();
      return { data: user };
    },
  });

  /** Extension: add a user with a password and a role of this workspace. */
  app.route({
    ...described(operations.create, { body: s.userCreateBody }),
    handler: async (request, reply) => {
      const body = validBody(request);
      assertUnique('email', members.emailHolder(body.email));
      assignableRole(request, body.role_id);
      const passwordHash = await hashPassword(body.password);
      const id = app.db.transaction(() => {
        const newId = users.insert({ name: body.name, email: body.email, password_hash: passwordHash, timezone: body.timezone });
        workspaces.addMember(request.workspaceId, newId, body.role_id);
        return newId;
      })();
      return reply.code(201).send(
        created(
          'User',
          members.find(request.workspaceId, id, (f) => fileUrl(request, f)),
        ),
      );
    },
  });

  app.route({
    ...described(operations.update, { body: s.userUpdateBody }),
    handler: async (request) => {
      const id = userId(request.params);
      const target = foundRecord<Membership>(request);
      const { fields, avatar } = await readBody(request);
      const body = sentBody(request, fields);
      access.assertMayUpdateUser(request, target, { ...body, avatar });
      if (body.email !== undefined) {
        assertUnique('email', members.emailHolder(body.email), id);
      }
      if (body.role_id !== undefined && body.role_id !== target.role_id) assignableRole(request, body.role_id);
      const kind = avatar ? sniff(avatar) : null;
      if (avatar && (!kind || !AVATAR_TYPES.has(kind))) throw invalidField('avatar', 'The avatar must be a PNG, JPEG, GIF or WebP image.');
      const passwordHash = body.password === undefined ? undefined : await hashPassword(body.password);

      app.db.transaction(() => {
        const changes: Record<string, string | number | null> = {};
        if (body.name !== undefined) changes.name = body.name;
        if (body.email !== undefined) changes.email = body.email;
        if (body.timezone !== undefined) changes.timezone = body.timezone;
        if (body.client !== undefined) changes.client = body.client ? 1 : 0;
        if (avatar && kind) {
          changes.avatar_file = files.store(avatar, MIME[kind]);
          // The replaced avatar goes with the change: its URL must stop serving it.
          const previous = users.findById(id)?.avatar_file;
          if (previous) files.delete(previous);
        }
        if (passwordHash !== undefined) {
          changes.password_hash = passwordHash;
          // A new password shuts out whoever held the old one: every other token of the user goes
          // (decisions.md §7); the token making the change stays when it is the user's own.
          users.revokeTokensOf(id, id === request.user.id ? request.tokenHash : null);
        }
        members.updateUser(id, changes);
        // Role and status are the membership's in this workspace (decisions.md §8).
        if (body.role_id !== undefined) members.setRole(request.workspaceId, id, body.role_id);
        if (body.status !== undefined) members.setStatus(request.workspaceId, id, body.status);
      })();
      return updated(
        'User',
        members.find(request.workspaceId, id, (f) => fileUrl(request, f)),
      );
    },
  });
};
