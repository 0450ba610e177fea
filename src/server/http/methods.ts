/**
 * What a path answers to a method it has no route for (RFC 9110 §9.1, §15.5.6): a path some route
 * serves answers 405 with `Allow` naming the methods it has, and `OPTIONS` answers 204 with the
 * same `Allow`; a path no route serves is a 404. A method the server knows nothing of (`QUERY`,
 * `PROPFIND`) is answered the same way before its body is read, so that it never reaches a body
 * parser. With `--api-only` the extensions are no routes (openapi/published.ts): a path only they
 * serve is answered as they are.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_MESSAGES } from '../../api/schemas/index.js';
import type { RouteEntry } from '../app.js';
import { notFound } from './errors.js';
import { extensionMissing } from '../openapi/published.js';

/** The methods routes are registered with; any other is unknown to the server. */
const ROUTED = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** Does a concrete path fit a route pattern such as /api/v3/workspaces/:workspace/labels/:label? */
function matches(pattern: string, path: string): boolean {
  const a = pattern.replace(/\/$/, '').split('/');
  const b = path.replace(/\/$/, '').split('/');
  return a.length === b.length && a.every((part, i) => part.startsWith(':') || part === '*' || part === b[i]);
}

export interface MethodAnswers {
  /** The methods a path answers (GET brings HEAD, any brings OPTIONS), or [] when no route serves it. */
  allowedAt(path: string): string[];
}

/**
 * Registers the answers above. `routeShown` says whether a route counts (false for an extension
 * under `--api-only`); `routes` is the app's route table, complete once the app is ready.
 */
export function registerMethodAnswers(app: FastifyInstance, routes: RouteEntry[], routeShown: (route: RouteEntry) => boolean): MethodAnswers {
  const allowedAt = (path: string): string[] => {
    const methods = new Set(routes.filter((route) => route.method !== 'OPTIONS' && routeShown(route) && matches(route.url, path)).map((route) => route.method));
    if (methods.size === 0) return [];
    if (methods.has('GET')) methods.add('HEAD');
    methods.add('OPTIONS');
    return ORDER.filter((method) => methods.has(method));
  };
  /** True when some route (shown or not) serves the path: an extension's path under --api-only. */
  const hiddenAt = (path: string) => routes.some((route) => !routeShown(route) && matches(route.url, path));

  const answer = (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0];
    const allowed = allowedAt(path);
    if (allowed.length === 0) {
      if (hiddenAt(path)) return reply.code(404).send(extensionMissing(request));
      return reply.code(404).send(notFound().body);
    }
    reply.header('allow', allowed.join(', '));
    if (request.method === 'OPTIONS') return reply.code(204).send();
    return reply.code(405).send({ message: ERROR_MESSAGES[405], status: 405 });
  };

  app.addHook('onRequest', (request, reply, done) => {
    if (ROUTED.has(request.method)) return done();
    // Answered here, so that the body of a method nobody routes is never parsed.
    void answer(request, reply);
  });
  app.setNotFoundHandler(answer);
  return { allowedAt };
}
