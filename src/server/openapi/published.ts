/**
 * The 26 operations of the published API (api.md), the only ones the hosted service has.
 * Every other route of `wsm serve` is an extension (decisions.md §6 and §7): the OpenAPI
 * document marks it so, and `wsm serve --api-only` answers it as a router without it would.
 * Keys as operationKey gives them: `METHOD /path` with every path parameter as `{}`.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { operationKey } from './operations.js';

const API_PREFIX = '/api/v3';

const ws = '/workspaces/{workspace}';

export const PUBLISHED_OPERATIONS: ReadonlyArray<readonly [method: string, path: string]> = [
  ['GET', ws],
  ['GET', `${ws}/permissions`],
  ['PATCH', '/workspaces/partner/permissions'],
  ['GET', `${ws}/contacts`],
  ['POST', `${ws}/contacts`],
  ['POST', `${ws}/contacts/{contact}`],
  ['DELETE', `${ws}/contacts/{contact}`],
  ['GET', `${ws}/contact-groups`],
  ['POST', `${ws}/contact-groups`],
  ['GET', `${ws}/contact-fields`],
  ['POST', `${ws}/contact-fields`],
  ['DELETE', `${ws}/contact-fields/{field}`],
  ['GET', `${ws}/contact-imports`],
  ['POST', `${ws}/contact-imports`],
  ['DELETE', `${ws}/contact-imports/{import}`],
  ['POST', `${ws}/labels`],
  ['GET', `${ws}/labels/{label}`],
  ['PUT', `${ws}/labels/{label}`],
  ['GET', `${ws}/roles`],
  ['POST', `${ws}/roles`],
  ['GET', `${ws}/users`],
  ['POST', `${ws}/users/{user}`],
  ['POST', `${ws}/templates`],
  ['GET', `${ws}/templates/{template}`],
  ['DELETE', `${ws}/templates/{template}`],
  ['POST', `${ws}/templates/sync`],
];

const published = new Set(PUBLISHED_OPERATIONS.map(([method, path]) => operationKey(method, path)));

/** Is `METHOD path` (path under /api/v3, parameters as `{name}` or `:name`) in api.md? */
export function isPublished(method: string, path: string): boolean {
  return published.has(operationKey(method, path));
}

/**
 * `wsm serve --api-only`: an onRequest hook that answers every extension the way a router without
 * it would, a 404 whose body has no `status` (decisions.md §7), so that users can check that their
 * scripts need nothing beyond the published API. Routes outside /api/v3 (/docs) are left alone.
 */
export async function answerExtensionsAsMissing(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const pattern = request.routeOptions.url;
  if (pattern === undefined || !pattern.startsWith(`${API_PREFIX}/`)) return;
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  if (isPublished(method, pattern.slice(API_PREFIX.length))) return;
  await reply.code(404).send({ message: `The route ${request.url.split('?')[0].slice(1)} could not be found.` });
}
