/**
 * The published API (the operations docs/api-reference.md marks Published) is what the hosted
 * service has; every other route of `wsm serve` is an extension (decisions.md §6 and §7). Each
 * route's contract says which, from its resource description: the OpenAPI document marks
 * extensions so, and `wsm serve --api-only` answers them as a router without them would.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { findOperation, OPERATIONS } from '../../api/descriptions/index.js';
import type { RouteContract } from '../http/contract.js';

const API_PREFIX = '/api/v3';

/** The operations of the published API, as `[METHOD, path]` under /api/v3. */
export const PUBLISHED_OPERATIONS: ReadonlyArray<readonly [method: string, path: string]> = OPERATIONS.filter((o) => o.published).map(
  (o) => [o.method, o.path] as const,
);

/** Is `METHOD path` (path under /api/v3, parameters as `{name}` or `:name`) in the published API? */
export function isPublished(method: string, path: string): boolean {
  return findOperation(method, path)?.published ?? false;
}

/**
 * `wsm serve --api-only`: an onRequest hook that answers every extension the way a router without
 * it would, a 404 whose body has no `status` (decisions.md §7), so that users can check that their
 * scripts need nothing beyond the published API. Routes outside /api/v3 (/docs) are left alone.
 */
export async function answerExtensionsAsMissing(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const pattern = request.routeOptions.url;
  if (pattern === undefined || isShownWithApiOnly({ url: pattern, schema: request.routeOptions.schema as RouteContract | undefined }))
    return;
  await reply.code(404).send(extensionMissing(request));
}

/** The body of that 404: a router's, without `status`. */
export const extensionMissing = (request: FastifyRequest) => ({
  message: `The route ${request.url.split('?')[0].slice(1)} could not be found.`,
});

/**
 * Does `--api-only` keep this route? Everything outside /api/v3 (the index, /docs), the operations
 * of the published API, and the document that describes them (the index points at it: it must answer).
 */
export const isShownWithApiOnly = (route: { url: string; schema?: RouteContract }) =>
  !route.url.startsWith(`${API_PREFIX}/`) || route.url === `${API_PREFIX}/openapi.json` || route.schema?.published === true;
