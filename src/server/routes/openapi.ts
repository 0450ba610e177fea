/**
 * The API's own description: `GET /api/v3/openapi.json` (in the API plugins)
 * and the interactive reference at `/docs` (outside /api/v3, so buildApp
 * registers `docsRoutes` at the root). Both are public and serve the same
 * generated document; the Swagger UI assets come from @fastify/swagger-ui's
 * package, so the page works offline. `/` and `/api/v3` themselves answer a
 * small public index pointing at both, so a person (or a base URL) that lands
 * there learns where things are instead of meeting a bare 404.
 */
import type { FastifyPluginAsync } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { API_VERSION, openApiDocumentFor, PREFIX as API_PREFIX } from '../openapi/document.js';
import { DOCUMENT_CONTRACT } from '../openapi/operations.js';
import { isShownWithApiOnly } from '../openapi/published.js';
import type { FastifyInstance } from 'fastify';

/** The document this app serves: with `--api-only`, of the published API alone (and of itself). */
const documentOf = (app: FastifyInstance) => openApiDocumentFor(app.routeTable, app.apiOnly ? isShownWithApiOnly : undefined);

const API_TITLE = 'Workspace Messaging Management API';

export const openapiRoutes: FastifyPluginAsync = async (app) => {
  app.get('/openapi.json', { config: { public: true }, schema: DOCUMENT_CONTRACT }, async () => documentOf(app));
};

const DOCS_PREFIX = '/docs';

/** The index of `/` and `/api/v3`, in the API's `{data}` envelope; absolute URLs like every link the server sends. */
function apiIndex(origin: string) {
  return {
    data: {
      name: API_TITLE,
      version: API_VERSION,
      base_url: `${origin}${API_PREFIX}`,
      docs: `${origin}${DOCS_PREFIX}`,
      openapi: `${origin}${API_PREFIX}/openapi.json`,
    },
  };
}

export const docsRoutes: FastifyPluginAsync = async (app) => {
  // The UI plugin's routes take no route options of ours, so make each public
  // here. buildApp's onRoute hook has already recorded the route by then: mark
  // that entry too, or the route table would claim /docs needs a token.
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, public: true };
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      const entry = app.routeTable.findLast((candidate) => candidate.method === method && candidate.url === route.url);
      if (entry) entry.public = true;
    }
  });

  // Outside the API's routes: not in the OpenAPI document, and answered with --api-only too (like /docs).
  for (const url of ['/', API_PREFIX]) app.get(url, async (request) => apiIndex(app.originOf(request)));

  // Static mode with a stub: the real document is built from the route table
  // at the first request (transformSpecification), once every route exists.
  await app.register(swagger, {
    mode: 'static',
    specification: { document: { openapi: '3.1.0', info: { title: API_TITLE, version: API_VERSION }, paths: {} } },
  });
  await app.register(swaggerUi, {
    routePrefix: DOCS_PREFIX,
    transformSpecification: () => documentOf(app),
    transformSpecificationClone: false,
    uiConfig: { docExpansion: 'list', deepLinking: true, tryItOutEnabled: false },
    // No call to validator.swagger.io: the page must work without a network.
    validatorUrl: false,
  });
};
