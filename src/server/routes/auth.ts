import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import * as s from '../../api/schemas/index.js';
import { newToken, verifyPassword } from '../repositories/users.js';
import { invalidField, tooManyAttempts } from '../http/errors.js';
import { described, validBody } from '../http/contract.js';
import { DESCRIPTIONS } from '../../api/descriptions/index.js';
import { created, deletedEnvelope } from '../http/envelopes.js';

export interface LoginLimits {
  /** Attempts allowed per e-mail, and per client address, in each window. */
  perEmail: number;
  perAddress: number;
  windowMs: number;
}
/** decisions.md §7: POST /auth/tokens is rate-limited per e-mail and per client address. */
export const LOGIN_LIMITS: LoginLimits = { perEmail: 10, perAddress: 50, windowMs: 15 * 60 * 1000 };

const { operations } = DESCRIPTIONS.auth;

/** Extensions (decisions.md §6, §7): issue a token from a password, revoke it, and say who the caller is. */
export const authRoutes: FastifyPluginAsync = async (app) => {
  const { users, workspaces } = app.repositories;

  // Every attempt counts, right or wrong: a guesser gets `perEmail` tries per account and
  // `perAddress` per client in a window, whatever it spreads them over.
  await app.register(rateLimit, { global: false });
  const limits = app.loginLimits;
  const limiter = (max: number, key: (request: FastifyRequest) => string) =>
    app.createRateLimit({ max, timeWindow: limits.windowMs, keyGenerator: key });
  const perAddress = limiter(limits.perAddress, (request) => `address:${request.ip}`);
  const perEmail = limiter(limits.perEmail, (request) => `email:${(request.body as { email: string }).email.toLowerCase()}`);
  const assertWithinLimit = async (check: typeof perAddress, request: FastifyRequest) => {
    const limit = await check(request);
    if (!limit.isAllowed && limit.isExceeded) throw tooManyAttempts(limit.ttlInSeconds);
  };

  app.route({
    ...described(operations.createToken, { body: s.tokenCreateBody }),
    // Before the body is validated (http/contract.ts): a body that is not valid counts against the address too.
    preValidation: async (request) => assertWithinLimit(perAddress, request),
    handler: async (request, reply) => {
      const body = validBody(request);
      await assertWithinLimit(perEmail, request);
      const user = users.findByEmail(body.email);
      // Same answer, and the same scrypt work, for an unknown email and a wrong password: no account probing.
      const matches = await verifyPassword(body.password, user?.password_hash ?? null);
      if (!user || !matches || !workspaces.hasActiveMembership(user.id)) {
        throw invalidField('email', 'These credentials do not match our records.');
      }
      const token = newToken();
      const expiresAt = new Date(Date.now() + app.tokenLifetimeMs).toISOString();
      users.addToken(user.id, token, expiresAt);
      return reply.code(201).send(created('Token', { token, user_id: user.id, expires_at: expiresAt }));
    },
  });

  app.route({
    ...described(operations.revokeCurrentToken),
    handler: async (request) => {
      users.revokeToken(request.tokenHash);
      return deletedEnvelope('Token');
    },
  });

  app.route({
    ...described(operations.me),
    handler: async (request) => {
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
    },
  });
};
