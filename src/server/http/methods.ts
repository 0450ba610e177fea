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

/** Segments of a pattern that are no parameter. */
const literals = (pattern: string) => pattern.split('/').filter((part) => part !== '' && !part.startsWith(':') && part !== '*').length;
/** Could one URL match both patterns? (Same length, and where both are literal, the same text.) */
const sameShape = (a: string, b: string) => {
  const x = a.split('/');
  const y = b.split('/');
  return x.length === y.length && x.every((part, i) => part.startsWith(':') || y[i].startsWith(':') || part === y[i]);
};

export interface MethodAnswers {
  /** The methods a path answers (GET brings HEAD, any brings OPTIONS), or [] when no route serves it. */
  allowedAt(path: string): string[];
}

/**
 * Registers the answers above. `routeShown` says whether a route counts (false for an extension
 * under `--api-only`); `routes` is the app's route table, complete once the app is ready.
 */
export function registerMethodAnswers(
  app: FastifyInstance,
  routes: RouteEntry[],
  routeShown: (route: RouteEntry) => boolean,
): MethodAnswers {
  /** The shown routes that own a path: of those it matches, the ones with the most literal segments. */
  const owners = (path: string): RouteEntry[] => {
    const matching = routes.filter((route) => route.method !== 'OPTIONS' && routeShown(route) && matches(route.url, path));
    const most = Math.max(...matching.map((route) => literals(route.url)));
    return matching.filter((route) => literals(route.url) === most);
  };
  const allowedAt = (path: string): string[] => {
    const methods = new Set(owners(path).map((route) => route.method));
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

  /**
   * Route patterns another, more literal pattern can shadow (`…/templates/:template` by
   * `…/templates/sync`), each with the routes that can: the router gives such a URL to the pattern
   * with a parameter when the literal one lacks the method, where the URL belongs to the literal one
   * (a 405, not a 404 of a template named "sync"). Found once, when the first request comes and
   * every route exists; a request of any other route pays one lookup.
   */
  let shadowing: Map<string, RouteEntry[]> | undefined;
  const shadowingRoutes = () => {
    const found = new Map<string, RouteEntry[]>();
    for (const route of routes) {
      if (!route.url.includes(':')) continue;
      const more = routes.filter(
        (other) =>
          other.method !== 'OPTIONS' && routeShown(other) && literals(other.url) > literals(route.url) && sameShape(other.url, route.url),
      );
      if (more.length > 0) found.set(route.url, more);
    }
    return found;
  };

  app.addHook('onRequest', (request, reply, done) => {
    if (!ROUTED.has(request.method)) {
      // Answered here, so that the body of a method nobody routes is never parsed.
      void answer(request, reply);
      return;
    }
    const pattern = request.routeOptions.url;
    const shadows = pattern === undefined ? undefined : (shadowing ??= shadowingRoutes()).get(pattern);
    if (shadows === undefined) return done();
    const path = request.url.split('?')[0];
    if (!shadows.some((route) => matches(route.url, path))) return done();
    void answer(request, reply);
  });

  app.setNotFoundHandler(answer);
  return { allowedAt };
}
