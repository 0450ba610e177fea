import type { FastifyPluginAsync } from 'fastify';
import { tokenCreateBody } from '../../api/schemas/index.js';
import { createUsersRepository, newToken, verifyPassword } from '../repositories/users.js';
import { createWorkspacesRepository } from '../repositories/workspaces.js';
import { invalidField } from '../http/errors.js';
import { parseOr422 } from '../http/validate.js';
import { created, deletedEnvelope } from '../http/envelopes.js';

/** Extensions (decisions.md §6, §7): issue a token from a password, revoke it, and say who the caller is. */
export const authRoutes: FastifyPluginAsync = async (app) => {
  const users = createUsersRepository(app.db);
  const workspaces = createWorkspacesRepository(app.db);

  app.post('/auth/tokens', { config: { public: true } }, async (request, reply) => {
    const body = parseOr422(tokenCreateBody, request.body);
    const user = users.findByEmail(body.email);
    // Same answer for an unknown email and a wrong password: no account probing.
    if (!user || user.status !== 1 || !(await verifyPassword(body.password, user.password_hash))) {
      throw invalidField('email', 'These credentials do not match our records.');
    }
    const token = newToken();
    const expiresAt = new Date(Date.now() + app.tokenLifetimeMs).toISOString();
    users.addToken(user.id, token, expiresAt);
    return reply.code(201).send(created('Token', { token, user_id: user.id, expires_at: expiresAt }));
  });

  /** Extension: the caller's token stops working (`wsm auth logout`). */
  app.delete('/auth/tokens/current', async (request) => {
    users.revokeToken(request.tokenHash);
    return deletedEnvelope('Token');
  });

  app.get('/me', async (request) => {
    const user = request.user;
    return {
      data: {
        id: user.id,
        name: user.name,
        email: user.email,
        partner: user.partner === 1,
        workspaces: workspaces.workspacesOf(user.id),
        created_at: user.created_at,
        updated_at: user.updated_at,
      },
    };
  });
};
