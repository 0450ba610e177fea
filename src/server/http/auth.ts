/**
 * Authentication, tenancy and permission as hooks, so no handler repeats them.
 * Order matters and follows decisions.md: 401 (who are you; nobody without an active
 * membership anywhere) before 404 (a workspace you are not a member of does not exist for you)
 * before 403 (a deactivated membership, then the route's permission).
 */
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Permission } from '../../api/schemas/index.js';
import { hashToken, type UserRow } from '../repositories/users.js';
import { nowIso } from '../db.js';
import type { Membership } from '../repositories/workspaces.js';
import { forbidden, notFound, unauthenticated } from './errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** No bearer token needed (the OpenAPI document, the docs page, POST /auth/tokens). */
    public?: boolean;
    /** The permission a workspace route needs. */
    permission?: Permission;
    /** Only partner users may call it (PATCH /workspaces/partner/permissions). */
    partnerOnly?: boolean;
  }
  interface FastifyRequest {
    user: UserRow;
    /** SHA-256 of the bearer token of this request (DELETE /auth/tokens/current revokes it). */
    tokenHash: string;
    membership: Membership;
    /** The `{workspace}` of the path once tenancy has been checked. */
    workspaceId: string;
    /** The database's generation when the request arrived: what may answer it from a cache (repositories/generations.ts). */
    generation: number;
  }
}

const MEMBERSHIP_DEACTIVATED = 'Your membership of this workspace is deactivated.';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** Who a token is, and for a read their membership of the path's workspace; frozen, as requests of one generation share it. */
interface Caller {
  user: UserRow;
  membership: Membership | undefined;
  /** When the token stops being one (null: never): time moves on within a generation. */
  expiresAt: string | null;
}

/** Callers kept per generation: tokens in use at once, times the workspaces each reads. */
const CALLERS_KEPT = 1024;

async function authPlugin(app: FastifyInstance) {
  const { users, workspaces, generations } = app.repositories;
  const callers = generations.cache<Caller>(CALLERS_KEPT);

  app.decorateRequest('user', null as unknown as UserRow);
  app.decorateRequest('tokenHash', '');
  app.decorateRequest('membership', null as unknown as Membership);
  app.decorateRequest('workspaceId', '');
  app.decorateRequest('generation', 0);

  /**
   * Who is asking, and for a read (no body to wait for) their membership of the path's
   * workspace too: one read transaction instead of one per statement, which is most of what
   * SQLite costs a small request (each autocommit statement takes and drops the file's locks).
   */
  const identify = app.db.transaction((tokenHash: string, workspaceId: string | undefined): Caller | undefined => {
    const session = users.session(tokenHash);
    if (!session) return undefined;
    const { user, expiresAt } = session;
    const membership = workspaceId === undefined ? undefined : workspaces.membership(workspaceId, user.id);
    // Deactivated in every workspace it belongs to: shut out altogether (decisions.md §8). An
    // active membership of the path's workspace already shows one.
    if (!membership?.active && !workspaces.hasActiveMembership(user.id)) return undefined;
    if (membership) Object.freeze(membership.permissions);
    return Object.freeze({ user: Object.freeze(user), membership: membership && Object.freeze(membership), expiresAt });
  });
  const prefetched = new WeakMap<FastifyRequest, Membership | undefined>();
  const workspaceOf = (request: FastifyRequest) => (request.params as { workspace?: string } | undefined)?.workspace;

  /** Who is asking: a 401 unless a live token of a user with an active membership somewhere. */
  function authenticate(request: FastifyRequest, route: FastifyRequest['routeOptions']): void {
    if (route.config?.public || !route.url) return;
    const token = bearer(request);
    if (!token) throw unauthenticated();
    const tokenHash = hashToken(token);
    const workspaceId = workspaceOf(request);
    const read = (request.method === 'GET' || request.method === 'HEAD') && workspaceId !== undefined && UUID.test(workspaceId);
    request.generation = generations.look();
    const pathWorkspace = read ? workspaceId!.toLowerCase() : undefined;
    const found = callers.through(request.generation, `${tokenHash}/${pathWorkspace ?? ''}`, () => identify(tokenHash, pathWorkspace));
    if (!found || (found.expiresAt !== null && found.expiresAt <= nowIso())) throw unauthenticated();
    request.user = found.user;
    request.tokenHash = tokenHash;
    if (read) prefetched.set(request, found.membership);
  }

  /** Tenancy, then the route's permission: 404 for a workspace the caller is no member of, 403 after that. */
  function authorize(request: FastifyRequest, route: FastifyRequest['routeOptions']): void {
    const config = route.config;
    if (config?.public || !route.url) return;
    if (config?.partnerOnly && request.user.partner !== 1) throw forbidden();
    const workspaceId = workspaceOf(request);
    if (workspaceId === undefined) return;
    if (!UUID.test(workspaceId)) throw notFound();
    const membership = prefetched.has(request)
      ? prefetched.get(request)
      : workspaces.membership(workspaceId.toLowerCase(), request.user.id);
    if (!membership) throw notFound();
    // Deactivation in W shuts the member out of W only; its other workspaces keep working.
    if (!membership.active) throw forbidden(MEMBERSHIP_DEACTIVATED);
    request.membership = membership;
    request.workspaceId = membership.workspace_id;
    if (config?.permission && !membership.permissions.includes(config.permission)) throw forbidden();
  }

  // Callback hooks, not async ones: no promise and no extra turn per request (docs/benchmarks.md).
  const hook = (check: typeof authenticate) => (request: FastifyRequest, _reply: unknown, done: (error?: Error) => void) => {
    let refused: Error | undefined;
    try {
      check(request, request.routeOptions);
    } catch (error) {
      refused = error as Error;
    }
    done(refused);
  };
  app.addHook('onRequest', hook(authenticate));
  // After the body is read, before any handler work (and before the handler validates anything: http/contract.ts).
  app.addHook('preHandler', hook(authorize));
}

export const auth = fp(authPlugin, { name: 'wsm-auth' });
