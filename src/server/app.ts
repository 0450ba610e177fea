/**
 * buildApp() assembles the server and never listens: tests call app.inject(),
 * `wsm serve` (serve.ts) listens. Everything lives under /api/v3.
 */
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import type { Db } from './db.js';
import { auth } from './http/auth.js';
import { databaseFileGuard } from './http/database-file.js';
import { createOriginOf } from './http/origin.js';
import { registerAnswerHeaders, SERVER_TIMEOUTS, timeoutOptions, type ServerTimeouts } from './http/connections.js';
import { frameworkErrors, registerErrorHandling } from './http/errors.js';
import { clientErrorHandler, registerServerAnswers } from './http/server-answers.js';
import { registerRequestText } from './http/request-text.js';
import { routePlugins } from './routes/index.js';
import { LOGIN_LIMITS, type LoginLimits } from './routes/auth.js';
import { docsRoutes } from './routes/openapi.js';
import { answerExtensionsAsMissing, isShownWithApiOnly } from './openapi/published.js';
import { registerMethodAnswers } from './http/methods.js';
import { registerCors } from './http/cors.js';
import { registerSearchIndexWorker } from './workers/search-index.js';
import type { TemplateProvider } from './provider/provider.js';
import { createSimulatedProvider } from './provider/simulated.js';
import { createRepositories, type Repositories } from './repositories/index.js';
import { createAccessRules, type AccessRules } from './http/access.js';
import { useContracts, type RouteContract } from './http/contract.js';

export const API_PREFIX = '/api/v3';
const TOKEN_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

export interface AppOptions {
  db: Db;
  /** Where uploaded import files are kept (a folder that survives restarts for a file db). */
  uploadsDir: string;
  provider?: TemplateProvider;
  /** Background workers (imports, provider outbox); tests may turn them off to step them by hand. */
  workers?: boolean;
  /** Request log (`wsm serve --log`): JSON lines on stderr, so that stdout keeps only the "Listening on" line. */
  logger?: boolean;
  /** JSON body limit in bytes (decisions: 1 MB). */
  bodyLimit?: number;
  /**
   * How long a request waits for the template provider (submit, sync) before answering 500
   * "timed out": below the CLI's 30 s request timeout, so the cause reaches the user.
   */
  providerTimeoutMs?: number;
  /** How long a token from POST /auth/tokens lasts (decisions.md §7: 30 days). */
  tokenLifetimeMs?: number;
  /** Sign-in attempts allowed per e-mail and per client address (routes/auth.ts). */
  loginLimits?: LoginLimits;
  /** Time limits of requests and connections (http/connections.ts); tests shorten them. */
  timeouts?: Partial<ServerTimeouts>;
  /** The address `wsm serve` listens on: URLs in answers are built from it (http/origin.ts). */
  listenHost?: string;
  /** Things the operator must know while serving (a lost database file); default: the request log. */
  onWarning?: (message: string) => void;
  /** `wsm serve --api-only`: extensions answer 404 as a router without them would (decisions.md §7). */
  apiOnly?: boolean;
  /** `wsm serve --cors`: the origins whose pages may call the API (http/cors.ts); none: no CORS at all. */
  corsOrigins?: readonly string[];
}

export interface RouteEntry {
  method: string;
  url: string;
  permission?: string;
  public?: boolean;
  partnerOnly?: boolean;
  /** What the route declares in `schema:` (http/contract.ts): what the OpenAPI document says of it. */
  schema?: RouteContract;
}

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    /** Every repository of `db`, made once (repositories/index.ts). */
    repositories: Repositories;
    /** The access rules beyond a route's permission (http/access.ts). */
    access: AccessRules;
    provider: TemplateProvider;
    providerTimeoutMs: number;
    tokenLifetimeMs: number;
    loginLimits: LoginLimits;
    uploadsDir: string;
    workersEnabled: boolean;
    /** Where URLs in answers point, for this request (http/origin.ts). */
    originOf: (request: FastifyRequest) => string;
    /** Every route registered, for the 405 answer and the auth-matrix tests. */
    routeTable: RouteEntry[];
    /** `wsm serve --api-only`: a published route leaves out what an extension adds to it. */
    apiOnly: boolean;
  }
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const timeouts = { ...SERVER_TIMEOUTS, ...options.timeouts };
  const limits = timeoutOptions(timeouts);
  const app = Fastify({
    logger: options.logger ? { stream: process.stderr } : false,
    ...limits,
    // Node's own refusal of a Host-less request has an empty body: http/server-answers.ts answers it.
    http: { ...limits.http, requireHostHeader: false },
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    // The API's ids are in the path; keep routing exact and case-sensitive.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // Answered in decisions.md's shape by http/server-answers.ts, not in fastify's.
    return503OnClosing: false,
    clientErrorHandler,
    frameworkErrors,
  });
  app.decorate('db', options.db);
  app.decorate('repositories', createRepositories(options.db));
  app.decorate('access', createAccessRules(app.repositories));
  app.decorate('provider', options.provider ?? createSimulatedProvider(options.db));
  app.decorate('providerTimeoutMs', options.providerTimeoutMs ?? 20_000);
  app.decorate('tokenLifetimeMs', options.tokenLifetimeMs ?? TOKEN_LIFETIME_MS);
  app.decorate('loginLimits', options.loginLimits ?? LOGIN_LIMITS);
  app.decorate('uploadsDir', options.uploadsDir);
  app.decorate('workersEnabled', options.workers ?? true);
  app.decorate('routeTable', [] as RouteEntry[]);
  app.decorate('apiOnly', options.apiOnly === true);
  app.decorate('originOf', createOriginOf(app, options.listenHost));

  registerRequestText(app);
  // First of the hooks, so that every answer to an allowed origin carries CORS headers, errors included.
  await registerCors(app, options.corsOrigins ?? []);

  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      const config = route.config as RouteEntry | undefined;
      app.routeTable.push({
        method,
        url: route.url,
        permission: config?.permission,
        public: config?.public,
        partnerOnly: config?.partnerOnly,
        schema: route.schema as RouteContract | undefined,
      });
    }
  });

  registerErrorHandling(app);
  registerServerAnswers(app);
  registerAnswerHeaders(app, timeouts);
  registerMethodAnswers(app, app.routeTable, options.apiOnly ? isShownWithApiOnly : () => true);
  if (options.apiOnly) app.addHook('onRequest', answerExtensionsAsMissing);
  await app.register(multipart, { throwFileSizeLimit: true });
  await app.register(auth);
  await app.register(databaseFileGuard, { onWarning: options.onWarning ?? ((message) => app.log.warn(message)) });
  registerSearchIndexWorker(app);
  await app.register(
    async (api) => {
      useContracts(api, app.repositories);
      for (const plugin of routePlugins) await api.register(plugin);
    },
    { prefix: API_PREFIX },
  );
  await app.register(docsRoutes); // GET /docs: the interactive API reference, outside /api/v3

  return app;
}
