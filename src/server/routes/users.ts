import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { AVATAR_MAX_BYTES, userCreateBody, userListQuery, userUpdateBody } from '../../api/schemas/index.js';
import { createMembersRepository } from '../repositories/members.js';
import { createUsersRepository, hashPassword } from '../repositories/users.js';
import { createWorkspacesRepository } from '../repositories/workspaces.js';
import { createRolesRepository } from '../repositories/roles.js';
import { createAccessRules } from '../http/access.js';
import { createFilesRepository, fileUrl } from '../repositories/files.js';
import { assertUnique, invalidField, notFound } from '../http/errors.js';
import { offsetOf, pageEnvelope } from '../http/pagination.js';
import { parseId, parseOr422 } from '../http/validate.js';
import { readForm } from '../http/multipart.js';
import { AVATAR_KINDS, MIME, sniff } from '../http/sniff.js';
import { created, updated } from '../http/envelopes.js';

const AVATAR_TYPES = new Set<string>(AVATAR_KINDS);
/** api.md lists `avatar` plus file parts `avatar.0` and `avatar.1`: the first image given wins. */
const AVATAR_FIELDS = ['avatar', 'avatar.0', 'avatar.1'];

async function readBody(request: FastifyRequest): Promise<{ fields: Record<string, unknown>; avatar?: Buffer }> {
  if (!request.isMultipart()) return { fields: (request.body ?? {}) as Record<string, unknown> };
  const { fields, files } = await readForm(request, { maxFileBytes: AVATAR_MAX_BYTES, maxFiles: 3, maxFields: 50 });
  const file = AVATAR_FIELDS.map((name) => files.find((f) => f.field === name)).find(Boolean);
  return { fields, avatar: file?.buffer };
}

export const userRoutes: FastifyPluginAsync = async (app) => {
  const members = createMembersRepository(app.db);
  const users = createUsersRepository(app.db);
  const workspaces = createWorkspacesRepository(app.db);
  const files = createFilesRepository(app.db);
  const roles = createRolesRepository(app.db);
  const access = createAccessRules(app.db);
  const base = '/workspaces/:workspace/users';
  /** The role of this workspace, checked against what the caller may hand out. */
  const assignableRole = (request: FastifyRequest, roleId: number) => {
    const role = roles.find(request.workspaceId, roleId);
    if (!role) throw invalidField('role_id', 'The selected role id is invalid.');
    access.assertAssignableRole(request, role);
  };
  const userId = (params: unknown) => parseId((params as { user?: string }).user, notFound);

  app.get(base, { config: { permission: 'users.view' } }, async (request) => {
    const query = parseOr422(userListQuery, request.query);
    const rows = members.list(request.workspaceId, offsetOf(query), query.per_page, (f) => fileUrl(request, f));
    return pageEnvelope(request, query, members.count(request.workspaceId), rows);
  });

  app.get(`${base}/:user`, { config: { permission: 'users.view' } }, async (request) => {
    const user = members.find(request.workspaceId, userId(request.params), (f) => fileUrl(request, f));
    if (!user) throw notFound();
    return { data: user };
  });

  /** Extension: add a user with a password and a role of this workspace. */
  app.post(base, { config: { permission: 'users.create' } }, async (request, reply) => {
    const body = parseOr422(userCreateBody, request.body);
    assertUnique('email', members.emailHolder(body.email));
    assignableRole(request, body.role_id);
    const passwordHash = await hashPassword(body.password);
    const id = app.db.transaction(() => {
      const newId = users.insert({ name: body.name, email: body.email, password_hash: passwordHash, timezone: body.timezone });
      workspaces.addMember(request.workspaceId, newId, body.role_id);
      return newId;
    })();
    return reply.code(201).send(created('User', members.find(request.workspaceId, id, (f) => fileUrl(request, f))));
  });

  app.post(`${base}/:user`, { config: { permission: 'users.update' } }, async (request) => {
    const id = userId(request.params);
    const target = workspaces.membership(request.workspaceId, id);
    if (!target) throw notFound();
    const { fields, avatar } = await readBody(request);
    const body = parseOr422(userUpdateBody, fields);
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
    return updated('User', members.find(request.workspaceId, id, (f) => fileUrl(request, f)));
  });
};
