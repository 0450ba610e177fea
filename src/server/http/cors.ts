/**
 * CORS for browser apps (`wsm serve --cors <origin>`, decisions.md §9): the origins named, and
 * only those, may call the API from a page. @fastify/cors answers their preflights on every path
 * (the methods the API uses, `Authorization`, `Content-Type` and `Accept`, a max age) and adds
 * `Access-Control-Allow-Origin` to every answer to them, errors included, since its hook runs
 * first. Without origins nothing is registered: answers are as they were. An `OPTIONS` that is no
 * preflight (no `Origin` or no `Access-Control-Request-Method`) is left to http/methods.ts
 * (204 with `Allow`).
 */
import cors from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** How long a browser may keep a preflight's answer, in seconds. */
const PREFLIGHT_MAX_AGE = 600;
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
const ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Accept'];
/** Headers a page's script may read beyond the safelisted ones: waits, timings, the methods of a 405. */
const EXPOSED_HEADERS = ['Retry-After', 'Server-Timing', 'Allow'];

const isPreflight = (request: FastifyRequest) =>
  request.method === 'OPTIONS' && request.headers.origin !== undefined && request.headers['access-control-request-method'] !== undefined;

export async function registerCors(app: FastifyInstance, origins: readonly string[]): Promise<void> {
  if (origins.length === 0) return;
  const allowed = origins.includes('*') ? '*' : [...origins];
  const listed = (origin: string | undefined) => origin !== undefined && (allowed === '*' || allowed.includes(origin));
  // The preflight route @fastify/cors adds answers without a token (a browser's preflight has none).
  app.addHook('onRoute', (route) => {
    if (route.method === 'OPTIONS' && route.url === '*') route.config = { ...route.config, public: true };
  });
  await app.register(cors, {
    hideOptionsRoute: true,
    delegator: (request, callback) =>
      callback(null, {
        // Only a listed origin gets any CORS header: no Origin, another origin, or a plain OPTIONS
        // (answered 204 with Allow by http/methods.ts, not as a preflight) get none.
        origin: request.method === 'OPTIONS' && !isPreflight(request) ? false : listed(request.headers.origin) ? allowed : false,
        methods: METHODS,
        allowedHeaders: ALLOWED_HEADERS,
        exposedHeaders: EXPOSED_HEADERS,
        maxAge: PREFLIGHT_MAX_AGE,
        strictPreflight: false,
      }),
  });
}
